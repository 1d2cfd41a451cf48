import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import type { JsonBody } from "../support/app";
import { makePost, makeUser } from "../support/board";
import { describeInBrowser } from "../support/browser";
import { memberInInbox } from "../support/dashboard";

// What a product manager's audit of the dashboard found missing: who asked, open demand only, line breaks,
// one line per merge, focus kept after an action, a dashboard page for a mistyped address.

describeInBrowser("dashboard details in Chromium", (served) => {
  const app = () => served().t;
  const base = () => served().server.url;

  const signedIn = (email: string, name: string) =>
    memberInInbox(served().browser, app(), base(), { email, name, role: "admin" });

  async function voteAs(post: JsonBody, email: string, userSpend: number): Promise<void> {
    const voter = await makeUser(app(), { email, userSpend });
    await app().call("POST", `/api/v1/posts/${post.id}/votes`, { body: { boardUserId: voter.id } });
  }

  const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? "");

  test("revenue-weighted demand ranks open requests only, says so, and shows each one's status", async () => {
    const planned = await makePost(app(), { title: "Open: SSO", status: "APPROVED" });
    await voteAs(planned, "sso@bigco.example", 900);
    const building = await makePost(app(), { title: "Open: Audit trail", status: "IN_PROGRESS" });
    await voteAs(building, "audit@bigco.example", 400);
    const rejected = await makePost(app(), { title: "Rejected: Fax export", status: "CLOSED" });
    await voteAs(rejected, "fax@bigco.example", 5000);
    const shipped = await makePost(app(), { title: "Shipped: Dark mode", status: "ARCHIVED" });
    await voteAs(shipped, "dark@bigco.example", 3000);

    const page = await signedIn("analyst@example.com", "Ana Lyst");
    await page.goto(`${base()}/admin/analytics?project=acme&period=week`);
    const demand = page.getByRole("list", { name: "Revenue-weighted demand: open requests, all time" });
    await demand.waitFor();
    const rows = (await demand.locator("li").allInnerTexts()).map((row) => row.replace(/\s+/g, " ").trim());
    expect(rows).toEqual([
      "Open: SSO Planned $900 a month from its voters",
      "Open: Audit trail In progress $400 a month from its voters",
    ]);
    await page.getByText("Not limited to the period above").waitFor();
    await page.close();
  }, 60_000);

  test("the inbox card and the request page say who asked, with their email and monthly spend; line breaks stay", async () => {
    const ada = await makeUser(app(), { email: "ada@example.com", name: "Ada Lovelace", userSpend: 49.9 });
    const asked = await makePost(app(), {
      title: "Export to Excel",
      description: "We need it monthly.\nAnd for every team.",
      createdByBoardUserId: ada.id,
    });
    await makePost(app(), { title: "Nobody's idea" });
    await app().call("POST", `/api/v1/posts/${asked.id}/comments`, {
      body: { body: "First line\nSecond line" },
    });

    const page = await signedIn("reader@example.com", "Rea Der");
    const card = page.locator(`#card-${asked.id}`);
    expect((await card.locator("[data-author]").innerText()).trim()).toBe(
      "Submitted by Ada Lovelace (ada@example.com) · $49.90/month",
    );
    const anonymous = page.locator("li.card", { hasText: "Nobody's idea" });
    expect((await anonymous.locator("[data-author]").innerText()).trim()).toBe("Submitted anonymously");
    // The description keeps its line break in the inbox, as on the board.
    expect(await card.getByText("We need it monthly.").innerText()).toBe(
      "We need it monthly.\nAnd for every team.",
    );

    await card.getByRole("link", { name: "Export to Excel" }).click();
    await page.getByRole("heading", { name: "Export to Excel" }).waitFor();
    expect((await page.locator("[data-author]").innerText()).trim()).toBe(
      "Submitted by Ada Lovelace (ada@example.com) · $49.90/month",
    );
    expect(await page.getByText("First line").innerText()).toBe("First line\nSecond line");
    await page.close();
  }, 60_000);

  test("a merge is one line in Activity", async () => {
    const kept = await makePost(app(), { title: "Calendar sync", status: "APPROVED" });
    const merged = await makePost(app(), { title: "Google calendar", status: "APPROVED" });
    const response = await app().call("POST", `/api/v1/posts/${merged.id}/merge`, {
      body: { intoPostId: kept.id },
    });
    expect(response.status).toBe(200);
    const page = await signedIn("auditor@example.com", "Aud Itor");
    await page.goto(`${base()}/admin/activity?project=acme`);
    const rows = (await page.locator("tbody tr").allInnerTexts()).map((row) => row.replace(/\s+/g, " "));
    expect(rows.filter((row) => row.includes("merged “Google calendar” into “Calendar sync”"))).toHaveLength(
      1,
    );
    expect(rows.filter((row) => row.includes("merged"))).toHaveLength(1);
    await page.close();
  }, 60_000);

  test("after Approve or Reject in the inbox, and Move on the roadmap, focus lands on the next card, not the top", async () => {
    // Newest first in the inbox: third, second, first.
    await makePost(app(), { title: "Focus first" });
    const second = await makePost(app(), { title: "Focus second" });
    const third = await makePost(app(), { title: "Focus third" });
    const page = await signedIn("keyboard@example.com", "Kay Board");
    await page
      .locator("li.card", { hasText: "Focus third" })
      .getByRole("button", { name: "Approve" })
      .press("Enter");
    await page.waitForURL(new RegExp(`#card-${second.id}$`));
    expect(await focusedId(page)).toBe(`card-${second.id}`);
    // Tab goes on from the card focus landed on: its own request link.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent ?? "")).toBe("Focus second");

    await page.goto(`${base()}/admin/roadmap?project=acme`);
    await page.getByLabel("Move “Focus third” to").selectOption("IN_PROGRESS");
    await page
      .locator("li.card", { hasText: "Focus third" })
      .getByRole("button", { name: "Move" })
      .press("Enter");
    await page.waitForURL(new RegExp(`#card-${third.id}$`));
    expect(await focusedId(page)).toBe(`card-${third.id}`);
    expect(await page.locator('[data-column="IN_PROGRESS"]').locator(`#card-${third.id}`).count()).toBe(1);
    await page.close();
  }, 60_000);

  test("a mistyped dashboard address is a dashboard page with a way back, not the API's JSON", async () => {
    const page = await signedIn("typo@example.com", "Ty Po");
    for (const path of ["/admin/changelog", "/admin/request"]) {
      const response = await page.goto(`${base()}${path}?project=acme`);
      expect(response?.status()).toBe(404);
      expect(response?.headers()["content-type"]).toContain("text/html");
      await page.getByText(`There is no dashboard page at ${path}`).waitFor();
      expect(await page.getByText("GET /api/v1/").count()).toBe(0);
    }
    await page.getByRole("link", { name: "Back to the dashboard" }).click();
    await page.getByRole("heading", { name: "Inbox" }).waitFor();
    // The real screens still answer.
    expect((await page.goto(`${base()}/admin/releases?project=acme`))?.status()).toBe(200);
    await page.close();
  }, 60_000);
});
