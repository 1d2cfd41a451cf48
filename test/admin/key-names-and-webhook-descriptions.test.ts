import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { keysCommand } from "../../src/cli/project-commands";
import { browserMissing, type ServedInBrowser, serveInBrowser, stopServed } from "../support/browser";
import { acceptDialog, memberInBrowser, openSettingsScreen } from "../support/dashboard";

// Several API keys could not be told apart, and the webhooks list hid what each endpoint is for
// (docs/dashboard.md, "API keys" and "Webhooks").

describe.skipIf(browserMissing())("key names and webhook descriptions in Chromium", () => {
  let served: Partial<ServedInBrowser> = {};
  const app = () => served.t!;
  const base = () => served.server!.url;
  beforeAll(async () => {
    served = await serveInBrowser({ FEATUREBOARD_ALLOW_PRIVATE_TARGETS: "true" });
  }, 30_000);
  afterAll(() => stopServed(served));

  const owner = (email: string) => memberInBrowser(served.browser!, app(), base(), { email, role: "owner" });

  test("an owner names a key when creating it; the list shows each key's name, and revoking names it", async () => {
    const page = await owner("keys@example.com");
    await openSettingsScreen(page, "API keys");
    await page.getByLabel(/^Name/).fill("  Zapier  ");
    await page.getByLabel("Kind").selectOption("secret");
    await page.getByRole("button", { name: "Create key" }).click();
    const zapier = (await page.locator("[data-key]").textContent())!;
    // A key without a name is still made as before.
    await openSettingsScreen(page, "API keys");
    await page.getByLabel("Kind").selectOption("publishable");
    await page.getByRole("button", { name: "Create key" }).click();
    const unnamed = (await page.locator("[data-key]").textContent())!;

    await openSettingsScreen(page, "API keys");
    const nameOf = (key: string) =>
      page.locator(`[data-key-row="${key.slice(0, 11)}"] [data-key-name]`).inputValue();
    expect(await nameOf(zapier)).toBe("Zapier");
    expect(await nameOf(unnamed)).toBe("");
    expect((await app().call("GET", "/api/v1/posts", { key: zapier })).status).toBe(200);

    page.off("dialog", acceptDialog);
    const asked: string[] = [];
    page.once("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page
      .locator(`[data-key-row="${zapier.slice(0, 11)}"]`)
      .getByRole("button", { name: /^Revoke/ })
      .click();
    await Bun.sleep(300);
    expect(asked).toEqual([
      `Revoke “Zapier” (${zapier.slice(0, 11)}…)? Everything that uses this key stops working at once.`,
    ]);
    await page.context().close();
  }, 60_000);

  test("the command line names a key with --name; keys list shows it last, and --json as `name`", () => {
    const printed: string[] = [];
    const print = (line: string) => void printed.push(line);
    const db = app().ctx.db;
    expect(keysCommand(["create", "--project", "acme", "--kind", "secret", "--name", "CI"], db, print)).toBe(
      0,
    );
    const key = printed.pop()!;
    keysCommand(["list", "--project", "acme"], db, print);
    expect(printed.find((line) => line.startsWith(key.slice(0, 11)))?.split("\t")).toEqual([
      key.slice(0, 11),
      "secret",
      expect.any(String),
      "active",
      "CI",
    ]);
    printed.length = 0;
    keysCommand(["list", "--project", "acme", "--json"], db, print);
    const listed = JSON.parse(printed[0]!) as { prefix: string; name: string | null }[];
    expect(listed.find((entry) => entry.prefix === key.slice(0, 11))?.name).toBe("CI");
    expect(() =>
      keysCommand(["create", "--project", "acme", "--kind", "secret", "--name", "x".repeat(101)], db, print),
    ).toThrow("must be at most 100 characters");
  });

  test("the webhooks list shows each endpoint's description", async () => {
    const described = await app().call("POST", "/api/v1/integrations/webhooks", {
      body: { url: "http://127.0.0.1:9/crm", events: ["*"], description: "Sync new requests to the CRM" },
    });
    const bare = await app().call("POST", "/api/v1/integrations/webhooks", {
      body: { url: "http://127.0.0.1:9/bare", events: ["*"] },
    });
    expect([described.status, bare.status]).toEqual([201, 201]);
    const page = await owner("hooks@example.com");
    await openSettingsScreen(page, "Webhooks");
    const descriptionOf = (id: string) =>
      page.locator(`[data-webhook="${id}"] [data-webhook-description]`).innerText();
    expect(await descriptionOf(described.body.data.id)).toBe("Sync new requests to the CRM");
    expect(await descriptionOf(bare.body.data.id)).toBe("none");
    await page.context().close();
  }, 60_000);

  test("the webhooks list on a phone: each endpoint's description, events and state are on the screen, nothing scrolls sideways", async () => {
    const hooks = [
      {
        url: "http://127.0.0.1:9/webhooks/incoming/featureboard-events-for-the-data-warehouse",
        events: ["post.created", "post.status_changed", "comment.created", "release.published"],
        description: "Every new request and status change, loaded into the warehouse nightly",
      },
      { url: "http://127.0.0.1:9/phone-bare", events: ["*"] },
    ];
    for (const body of hooks) {
      expect((await app().call("POST", "/api/v1/integrations/webhooks", { body })).status).toBe(201);
    }
    const page = await memberInBrowser(served.browser!, app(), base(), {
      email: "phone-hooks@example.com",
      role: "admin",
      context: { viewport: { width: 390, height: 844 } },
    });
    await openSettingsScreen(page, "Webhooks");
    const screen = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      width: window.innerWidth,
    }));
    expect(screen.page).toBeLessThanOrEqual(screen.width);
    for (const hook of hooks) {
      const row = page.locator("tr[data-webhook]", { has: page.getByRole("link", { name: hook.url }) });
      // The cells after the URL: its description, events and state.
      for (const column of [1, 2, 3]) {
        const cell = row.locator("td").nth(column);
        // Not scrolled into view: that would scroll a table's own box sideways and hide the failure.
        expect(await cell.isVisible()).toBe(true);
        const box = (await cell.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(screen.width);
      }
    }
    await page.context().close();
  }, 60_000);
});
