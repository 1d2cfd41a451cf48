import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { keysCommand } from "../../src/cli/project-commands";
import { describeInBrowser } from "../support/browser";
import { memberInBrowser, openSettingsScreen } from "../support/dashboard";

// docs/dashboard.md, "Activity": keys, members, invites and the project's settings read as sentences on
// the Activity screen, for admins and owners; a member-role user sees none of them.

describeInBrowser("keys, team and settings on the Activity screen, in Chromium", (served) => {
  const app = () => served().t;
  const base = () => served().server.url;

  const sentences = (page: Page) => page.locator("td.sentence").allInnerTexts();
  const activityOf = async (page: Page, entity: string) => {
    await page.getByRole("link", { name: "Activity" }).click();
    await page.getByLabel("Entity").selectOption(entity);
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByRole("heading", { name: "Activity" }).waitFor();
    return sentences(page);
  };

  test("an owner renames a key in its row; creating, renaming and revoking it read as sentences", async () => {
    const page = await memberInBrowser(served().browser, app(), base(), {
      email: "rita@example.com",
      role: "owner",
      name: "Rita",
    });
    await openSettingsScreen(page, "API keys");
    await page.getByLabel(/^Name \(optional/).fill("Zapier");
    await page.getByLabel("Kind").selectOption("secret");
    await page.getByRole("button", { name: "Create key" }).click();
    const prefix = (await page.locator("[data-key]").textContent())!.slice(0, 11);

    const row = page.locator(`[data-key-row="${prefix}"]`);
    await row.getByRole("textbox", { name: `The name of ${prefix}…` }).fill("Zapier (sales)");
    await row.getByRole("button", { name: `Save the name of ${prefix}…` }).click();
    await page.getByText("Changes saved.").waitFor();
    expect(await row.getByRole("textbox", { name: `The name of ${prefix}…` }).inputValue()).toBe(
      "Zapier (sales)",
    );
    // The revoke question names the key by its new name.
    await row.getByRole("button", { name: /^Revoke/ }).click();
    await page.getByText("Key revoked.").waitFor();

    // The command line's own change reads as the command line's.
    keysCommand(
      ["create", "--project", "acme", "--kind", "publishable", "--name", "CI"],
      app().ctx.db,
      () => {},
    );

    const lines = await activityOf(page, "api_key");
    expect(lines.slice(0, 4)).toEqual([
      expect.stringMatching(/^The command line created the publishable key “CI” \(pk_[0-9A-Za-z]{8}…\)$/),
      `Rita revoked the secret key “Zapier (sales)” (${prefix}…)`,
      `Rita renamed the secret key ${prefix}… from “Zapier” to “Zapier (sales)”`,
      `Rita created the secret key “Zapier” (${prefix}…)`,
    ]);
    await page.context().close();
  }, 60_000);

  test("settings and members read as sentences, old → new", async () => {
    const page = await memberInBrowser(served().browser, app(), base(), {
      email: "sam@example.com",
      role: "owner",
      name: "Sam",
    });
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByLabel(/^Name/).fill("Acme Inc");
    await page.getByRole("button", { name: "Save" }).first().click();
    await page.getByText("Changes saved.").waitFor();
    expect(await activityOf(page, "project")).toEqual([
      "Sam changed the project's settings: name “Acme” → “Acme Inc”",
    ]);

    await openSettingsScreen(page, "Members");
    await page.getByLabel("Email", { exact: true }).fill("ada@example.com");
    await page.getByLabel("Role", { exact: true }).selectOption("admin");
    await page.getByRole("button", { name: "Invite", exact: true }).click();
    await openSettingsScreen(page, "Members");
    await page.getByRole("button", { name: "Withdraw the invite of ada@example.com as admin" }).click();
    await page.getByText("Invite withdrawn").waitFor();
    expect(await activityOf(page, "invite")).toEqual(
      expect.arrayContaining([
        "Sam withdrew the invite of ada@example.com (admin)",
        "Sam invited ada@example.com as admin",
      ]),
    );
    expect((await activityOf(page, "member")).slice(0, 1)).toEqual([
      "Sam joined the team as owner, accepting an invite",
    ]);
    await page.context().close();
  }, 60_000);

  test("a member-role user sees no key, member, invite or settings entries, and no such filter", async () => {
    expect((await app().call("POST", "/api/v1/posts", { body: { title: "Dark mode" } })).status).toBe(201);
    const page = await memberInBrowser(served().browser, app(), base(), {
      email: "mo@example.com",
      role: "member",
      name: "Mo",
    });
    await page.getByRole("link", { name: "Activity" }).click();
    const offered = await page.getByLabel("Entity").locator("option").allInnerTexts();
    expect(offered).toContain("post");
    for (const hidden of ["api_key", "member", "invite", "project"]) expect(offered).not.toContain(hidden);
    // Not by the address either: an entity type the screen does not offer this role is no filter.
    await page.goto(`${base()}/admin/activity?project=acme&entityType=api_key`);
    const lines = await sentences(page);
    expect(lines).toContain("The API or the board added “Dark mode”");
    expect(lines.join("\n")).not.toMatch(/ key |invite|joined the team|settings/);
    await page.context().close();
  }, 60_000);
});
