import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Dialog, Page } from "playwright-core";
import type { TeamRole } from "../../src/team/schema";
import { createTestApp, type TestApp } from "../support/app";
import { listen, makePost, makeTag } from "../support/board";
import { browserMissing, launchBrowser } from "../support/browser";
import { acceptDialog, csrfOf, memberInBrowser, postForm, sessionCookieOf } from "../support/dashboard";
import { inviteMember } from "../../src/team/service";

// What the REST API can do and a product manager expects from the dashboard too: tags managed, a reply's
// typo fixed, a vote taken back, a customer's revenue set, a request filed for a customer or deleted.
// Each path is used in Chromium and its result read back through the REST API.
describe.skipIf(browserMissing())("the API's actions from the dashboard, in Chromium", () => {
  let t: TestApp;
  let server: { url: string; stop: () => Promise<void> };
  let browser: Browser;
  beforeAll(async () => {
    t = createTestApp();
    server = listen(t);
    browser = await launchBrowser();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await server.stop();
    t.close();
  });

  async function signedIn(email: string, name: string, role: TeamRole = "owner"): Promise<Page> {
    const page = await memberInBrowser(browser, t, server.url, {
      email,
      name,
      role,
      context: { viewport: { width: 1280, height: 900 } },
    });
    await page.getByRole("heading", { name: "Inbox" }).waitFor();
    return page;
  }

  /** Answers the next "are you sure?" with no, and returns the question it asked. */
  function declineNextConfirm(page: Page): Promise<string> {
    page.off("dialog", acceptDialog);
    return new Promise((resolve) => {
      page.once("dialog", (dialog: Dialog) => {
        const question = dialog.message();
        void dialog.dismiss().then(() => {
          page.on("dialog", acceptDialog);
          resolve(question);
        });
      });
    });
  }

  /** Accepts the next "are you sure?" and returns the question it asked. */
  function acceptNextConfirm(page: Page): Promise<string> {
    page.off("dialog", acceptDialog);
    return new Promise((resolve) => {
      page.once("dialog", (dialog: Dialog) => {
        const question = dialog.message();
        void dialog.accept().then(() => {
          page.on("dialog", acceptDialog);
          resolve(question);
        });
      });
    });
  }

  test("an admin creates, renames, recolours and deletes tags; the delete says how many requests carry it", async () => {
    const shared = await makeTag(t, "Mobile");
    // A short colour from the API is the same colour in the form: saving a rename leaves it as it is.
    await t.call("PATCH", `/api/v1/tags/${shared.id}`, { body: { theme: "#abc" } });
    const post = await makePost(t, { title: "Offline mode", status: "APPROVED", tagIds: [shared.id] });
    await makePost(t, { title: "Widgets on the home screen", status: "APPROVED", tagIds: [shared.id] });
    const page = await signedIn("tagger@example.com", "Tia Tagger", "admin");
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("link", { name: "Tags", exact: true }).click();
    await page.getByRole("heading", { name: "Tags", exact: true }).waitFor();

    await page.getByLabel("Label", { exact: true }).fill("Billing");
    await page.getByLabel("Colour", { exact: true }).fill("#10b981");
    await page.getByRole("button", { name: "Create tag" }).click();
    await page.getByText("Tag created.").waitFor();
    // A label another tag has, whatever its case, is refused in words, with the way back to the form.
    await page.getByLabel("Label", { exact: true }).fill("mobile");
    await page.getByRole("button", { name: "Create tag" }).click();
    expect(await page.getByRole("alert").textContent()).toBe("Another tag is labelled “mobile” already");
    await page.getByRole("link", { name: "Back to the form" }).click();
    await page.getByRole("heading", { name: "Tags", exact: true }).waitFor();

    await page.getByLabel("Label of “Mobile”").fill("Mobile apps");
    await page.getByRole("button", { name: "Save “Mobile”" }).click();
    await page.getByText("Changes saved.").waitFor();
    await page.getByLabel("Colour of “Billing”").fill("#ef4444");
    await page.getByRole("button", { name: "Save “Billing”" }).click();
    await page.getByText("Changes saved.").waitFor();
    const byLabel = async () =>
      Object.fromEntries(
        ((await t.call("GET", "/api/v1/tags")).body.data as { label: string; theme: string }[]).map((tag) => [
          tag.label,
          tag.theme,
        ]),
      );
    expect(await byLabel()).toEqual({ Billing: "#ef4444", "Mobile apps": "#abc" });
    const tagged = (await t.call("GET", `/api/v1/posts/${post.id}`)).body.data;
    expect(tagged.tags.map((tag: { label: string }) => tag.label)).toEqual(["Mobile apps"]);

    // Deleting asks first, saying how many requests lose the tag; "no" keeps it.
    const question = declineNextConfirm(page);
    await page.getByRole("button", { name: "Delete “Mobile apps”" }).click();
    expect(await question).toBe(
      "Delete the tag “Mobile apps”? It is taken off the 2 requests that carry it; the requests stay.",
    );
    expect(Object.keys(await byLabel())).toEqual(["Billing", "Mobile apps"]);
    const yes = acceptNextConfirm(page);
    await page.getByRole("button", { name: "Delete “Billing”" }).click();
    expect(await yes).toBe("Delete the tag “Billing”? No request carries it.");
    await page.getByText("Tag deleted").waitFor();
    await page.getByRole("button", { name: "Delete “Mobile apps”" }).click();
    await page.getByText("Tag deleted").waitFor();
    expect(await byLabel()).toEqual({});
    expect((await t.call("GET", `/api/v1/posts/${post.id}`)).body.data.tags).toEqual([]);
    // The activity names who did it.
    await page.goto(`${server.url}/admin/activity?project=acme&entityType=tag`);
    expect(((await page.locator("tbody").textContent()) ?? "").match(/Tia Tagger/g)?.length).toBe(5);
    await page.context().close();
  }, 60_000);

  test("members tag requests but do not manage tags: no screen, no link, every form refused", async () => {
    const tag = await makeTag(t, "Kept by the owners");
    const post = await makePost(t, { title: "A request to tag", status: "APPROVED" });
    const page = await signedIn("member-tags@example.com", "Mo Member", "member");
    await page.goto(`${server.url}/admin/posts/${post.id}?project=acme`);
    expect(await page.getByRole("link", { name: "Manage tags" }).count()).toBe(0);
    await page.getByRole("checkbox", { name: "Kept by the owners" }).check();
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Changes saved.").waitFor();
    expect((await t.call("GET", `/api/v1/posts/${post.id}`)).body.data.tags).toHaveLength(1);
    const screen = await page.goto(`${server.url}/admin/tags?project=acme`);
    expect(screen?.status()).toBe(403);
    await page.context().close();

    const { token } = inviteMember(t.ctx.db, {
      email: "member-forms@example.com",
      role: "member",
      projectSlug: "acme",
    });
    const cookie = sessionCookieOf(
      await postForm(`${server.url}/admin/invite/${token}`, { password: "correct horse battery" }),
    );
    const csrf = await csrfOf(server.url, cookie);
    for (const [path, fields] of [
      ["/admin/tags", { label: "Sneaky" }],
      [`/admin/tags/${tag.id}`, { label: "Renamed", theme: "#000000" }],
      [`/admin/tags/${tag.id}/delete`, {}],
    ] as const) {
      const response = await postForm(`${server.url}${path}`, { csrf, project: "acme", ...fields }, cookie);
      expect({ path, status: response.status }).toEqual({ path, status: 403 });
    }
    const tags = (await t.call("GET", "/api/v1/tags")).body.data as { label: string }[];
    expect(tags.map((one) => one.label)).toContain("Kept by the owners");
    expect(tags.map((one) => one.label)).not.toContain("Sneaky");
  }, 60_000);
});
