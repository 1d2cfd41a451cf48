import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { setProjectPlan } from "../../src/projects/service";
import { describeInBrowser } from "../support/browser";
import { memberInBrowser, openSettingsScreen } from "../support/dashboard";

/**
 * The dashboard's Settings shows the project's plan, read-only, and what it changes: the AI screen, requests
 * from pasted text and the payments sync need growth or higher (docs/dashboard.md, "Settings").
 */
describeInBrowser("the project's plan on Settings, in Chromium", (served) => {
  const app = () => served().t;

  /** The Plan section as the admin reads it, its lines joined by spaces. */
  async function planSection(page: Page): Promise<string> {
    const section = page.getByRole("region", { name: "Plan" });
    return (await section.innerText()).replace(/\s+/g, " ").trim();
  }

  test("a growth project's Settings names its plan and says the gated features work; a free one says they need growth", async () => {
    const page = await memberInBrowser(served().browser, app(), served().server.url, {
      email: "plan-admin@example.com",
      role: "admin",
    });
    await page.getByRole("heading", { level: 1, name: "Inbox" }).waitFor();
    await openSettingsScreen(page, "General");
    expect(await planSection(page)).toBe(
      "Plan This project is on the growth plan (plans, lowest first: free, starter, growth, business). " +
        "Everything works on it, including what needs growth or higher: the AI screen (triage, summary, " +
        "sprint plan), requests created from pasted text (POST /api/v1/posts/from-text and its MCP tool) " +
        "and the payments sync (Sync now and the daily sync). " +
        "The plan is set on the server, not here: featureboard project set-plan acme plan.",
    );
    // Read-only: nothing in the section changes it.
    expect(await page.getByRole("region", { name: "Plan" }).locator("input, select, button").count()).toBe(0);

    setProjectPlan(app().ctx.db, "acme", "free");
    try {
      await page.reload();
      expect(await planSection(page)).toContain("This project is on the free plan");
      expect(await planSection(page)).toContain(
        "On it the AI screen (triage, summary, sprint plan), requests created from pasted text " +
          "(POST /api/v1/posts/from-text and its MCP tool) and the payments sync (Sync now and the daily " +
          "sync) do not work: they need growth or higher. Everything else works on every plan.",
      );
      // What the section says is what the AI screen does on this plan.
      await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "AI" }).click();
      await page.getByText("requires the growth plan or higher").first().waitFor();
    } finally {
      setProjectPlan(app().ctx.db, "acme", "growth");
    }
    await page.context().close();
  }, 60_000);
});
