import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import type { TestApp } from "../support/app";
import { makePost } from "../support/board";
import { browserMissing, serveInBrowser, stopServed } from "../support/browser";
import { memberInBrowser, openSettingsScreen } from "../support/dashboard";

// What a product manager meets using the dashboard: pages that fit a phone, readable activity, filters
// kept, errors in the dashboard's words, money as money.
describe.skipIf(browserMissing())("the dashboard's screens in Chromium", () => {
  let t: TestApp;
  let server: { url: string; stop: () => Promise<void> };
  let browser: Browser;
  beforeAll(async () => {
    ({ t, server, browser } = await serveInBrowser({ FEATUREBOARD_ALLOW_PRIVATE_TARGETS: "true" }));
  }, 30_000);
  afterAll(() => stopServed({ t, server, browser }));

  /** An owner signed in, in a browser of the given size, on the inbox. */
  async function owner(email: string, name: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
    const page = await memberInBrowser(browser, t, server.url, {
      email,
      name,
      role: "owner",
      context: { viewport },
    });
    await page.getByRole("heading", { name: "Inbox" }).waitFor();
    return page;
  }

  test("at 390 x 844 (a phone) no dashboard page is wider than the screen", async () => {
    const tag = (await t.call("POST", "/api/v1/tags", { body: { label: "Integrations" } })).body.data;
    const post = await makePost(t, {
      title: "Synchronise every customer's calendar with our scheduling assistant automatically",
      description: "A long description ".repeat(20),
      status: "APPROVED",
      tagIds: [tag.id],
    });
    const voter = await t.call("POST", "/api/v1/users", {
      body: {
        email: "a.very.long.address.of.a.customer@enterprise-customer.example.com",
        name: "Maximiliane Longname-Doppelname",
        userSpend: 23044,
      },
    });
    await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { boardUserId: voter.body.data.id } });
    const comment = (
      await t.call("POST", `/api/v1/posts/${post.id}/comments`, { body: { body: "Please, soon." } })
    ).body.data;
    const release = (await t.call("POST", "/api/v1/releases", { body: { title: "Spring release" } })).body
      .data;

    const page = await owner("phone@example.com", "Pat Phone", { width: 390, height: 844 });
    const paths = [
      "/admin",
      "/admin/requests",
      `/admin/posts/${post.id}`,
      `/admin/posts/${post.id}/comments/${comment.id}`,
      `/admin/users/${voter.body.data.id}`,
      "/admin/requests/new",
      "/admin/roadmap",
      "/admin/releases",
      `/admin/releases/${release.id}`,
      "/admin/analytics",
      "/admin/activity",
      "/admin/webhooks",
      "/admin/integrations",
      "/admin/import",
      "/admin/settings",
      "/admin/tags",
      "/admin/members",
      "/admin/keys",
      "/admin/account",
    ];
    const widths: Record<string, number> = {};
    for (const path of paths) {
      const response = await page.goto(`${server.url}${path}?project=acme`);
      expect({ path, status: response?.status() }).toEqual({ path, status: 200 });
      widths[path] = await page.evaluate(() => document.documentElement.scrollWidth);
    }
    expect(widths).toEqual(Object.fromEntries(paths.map((path) => [path, 390])));
    await page.context().close();
  }, 90_000);

  test("the Activity screen says what happened in sentences, the request's title linked; no JSON, no ids", async () => {
    const post = await makePost(t, { title: "Dark mode", status: "COMPLETE" });
    const voter = await t.call("POST", "/api/v1/users", { body: { email: "reader@example.com" } });
    await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { boardUserId: voter.body.data.id } });
    await t.call("POST", "/api/v1/tags", { body: { label: "A tag with a rather long label ".repeat(3) } });
    const page = await owner("priya@example.com", "Priya PM", { width: 390, height: 844 });
    await page.goto(`${server.url}/admin/posts/${post.id}?project=acme`);
    await page.getByLabel("Status", { exact: true }).selectOption("ARCHIVED");
    await page.getByRole("button", { name: "Change status" }).click();
    await page.getByText("Status changed.").waitFor();

    await page.getByRole("link", { name: "Activity" }).click();
    const table = page.locator("table");
    await table.getByText("Priya PM moved “Dark mode” from Complete to Archived").waitFor();
    expect(await table.getByText("The API or the board added a vote on “Dark mode”").count()).toBe(1);
    const text = (await table.textContent()) ?? "";
    expect(text).not.toContain("{");
    expect(text).not.toContain(post.id);
    await table.getByRole("link", { name: "Dark mode" }).first().click();
    await page.waitForURL(new RegExp(`/admin/posts/${post.id}`));
    await page.goBack();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    await page.context().close();
  }, 60_000);

  test("a bulk status change returns to the requests table as it was: search, filters, sort", async () => {
    const tag = (await t.call("POST", "/api/v1/tags", { body: { label: "Billing" } })).body.data;
    const first = await makePost(t, { title: "Invoices in euros", status: "APPROVED", tagIds: [tag.id] });
    await makePost(t, { title: "Invoices by email", status: "APPROVED", tagIds: [tag.id] });
    const page = await owner("bulk@example.com", "Bo Bulk");
    await page.getByRole("link", { name: "Requests" }).click();
    await page.getByLabel("Search").fill("invoices");
    await page.getByLabel("Tag").selectOption({ label: "Billing" });
    await page.getByLabel("Sort by").selectOption("newest");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/sort=newest/);
    await page.getByRole("checkbox", { name: "Select Invoices in euros" }).check();
    await page.getByLabel("Set the selected to").selectOption("IN_PROGRESS");
    await page.getByRole("button", { name: "Change status" }).click();
    await page.getByText("Statuses changed.").waitFor();
    const url = new URL(page.url());
    expect({
      q: url.searchParams.get("q"),
      tag: url.searchParams.get("tag"),
      sort: url.searchParams.get("sort"),
    }).toEqual({ q: "invoices", tag: tag.id, sort: "newest" });
    expect(await page.getByLabel("Search").inputValue()).toBe("invoices");
    expect(await page.locator("tbody tr td:nth-child(2) a").allTextContents()).toEqual([
      "Invoices by email",
      "Invoices in euros",
    ]);
    expect((await t.call("GET", `/api/v1/posts/${first.id}`)).body.data.status).toBe("IN_PROGRESS");
    await page.context().close();
  }, 60_000);

  test("refusals speak to the dashboard's user: a stale merge names the requests, an unknown request is no API key's business", async () => {
    const kept = await makePost(t, {
      title: "Export the roadmap to CSV",
      description: "Download the roadmap as a CSV file for spreadsheets",
      status: "APPROVED",
    });
    const stale = await makePost(t, {
      title: "Export roadmap as CSV",
      description: "Let us download the roadmap as a CSV spreadsheet file",
      status: "APPROVED",
    });
    const final = await makePost(t, { title: "Exports of every kind", status: "APPROVED" });
    const page = await owner("merges@example.com", "Mo Merge");
    await page.goto(`${server.url}/admin/posts/${kept.id}?project=acme`);
    const mergeInto = page.getByRole("button", { name: "Merge this request into “Export roadmap as CSV”" });
    await mergeInto.waitFor();
    // Meanwhile, someone else merges the suggested request elsewhere.
    await t.call("POST", `/api/v1/posts/${stale.id}/merge`, { body: { intoPostId: final.id } });
    await mergeInto.click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      "Nothing was merged: “Export roadmap as CSV” was already merged into “Exports of every kind”.",
    );
    const body = (await page.locator("main").textContent()) ?? "";
    expect(body).not.toContain("correct the form");
    expect(body).not.toContain(final.id);
    await page.getByRole("link", { name: "Open the page again" }).click();
    await page.getByRole("heading", { name: "Export the roadmap to CSV" }).waitFor();
    expect((await t.call("GET", `/api/v1/posts/${kept.id}`)).body.data.mergedIntoId).toBeNull();

    const unknown = await page.goto(`${server.url}/admin/posts/${crypto.randomUUID()}?project=acme`);
    expect(unknown?.status()).toBe(404);
    expect(await page.getByRole("alert").textContent()).toBe("There is no such request in Acme");
    expect((await page.locator("main").textContent()) ?? "").not.toContain("API key");
    await page.context().close();
  }, 60_000);

  test("a new webhook endpoint sends every event unless events are ticked; none at all is refused in words", async () => {
    const page = await owner("hooks-default@example.com", "Hu Hooks");
    await openSettingsScreen(page, "Webhooks");
    const url = page.getByLabel("URL (https, reachable from the internet)");
    // The form as it comes is accepted: every event.
    await url.fill("http://127.0.0.1:9/every");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.locator("[data-secret]").waitFor();
    // Ticking an event unticks "Every event": only that one.
    await url.fill("http://127.0.0.1:9/some");
    await page.getByRole("checkbox", { name: "post.created" }).check();
    expect(await page.getByRole("checkbox", { name: "Every event (*)" }).isChecked()).toBe(false);
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.locator("[data-secret]").waitFor();
    const stored = (await t.call("GET", "/api/v1/integrations/webhooks")).body.data as {
      url: string;
      events: string[];
    }[];
    expect(Object.fromEntries(stored.map((hook) => [hook.url, hook.events]))).toEqual({
      "http://127.0.0.1:9/every": ["*"],
      "http://127.0.0.1:9/some": ["post.created"],
    });
    // Nothing ticked at all.
    await url.fill("http://127.0.0.1:9/none");
    await page.getByRole("checkbox", { name: "Every event (*)" }).uncheck();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    expect(await page.getByRole("alert").textContent()).toBe(
      "Choose at least one event to send, or Every event",
    );
    await page.context().close();
  }, 60_000);

  test("the inbox suggests merging only into a request on the board, and says its status", async () => {
    const title = "Dark theme for the mobile app";
    await makePost(t, { title, status: "CLOSED" });
    await makePost(t, { title, status: "ARCHIVED" });
    const otherPending = await makePost(t, { title, status: "PENDING" });
    const open = await makePost(t, { title: "Mobile app dark theme", status: "APPROVED" });
    const fresh = await makePost(t, { title, status: "PENDING" });
    const page = await owner("inbox-dupes@example.com", "Ines Inbox");
    for (const post of [fresh, otherPending]) {
      const card = page.locator(`li.card[data-post-id="${post.id}"]`);
      const merge = card.getByRole("button", { name: /^Merge into/ });
      expect(await merge.count()).toBe(1);
      expect(((await merge.textContent()) ?? "").replace(/\s+/g, " ").trim()).toMatch(
        /^Merge into “Mobile app dark theme” \(Planned, \d+% alike\)$/,
      );
    }
    await page
      .locator(`li.card[data-post-id="${fresh.id}"]`)
      .getByRole("button", { name: /^Merge into/ })
      .click();
    await page.getByText("Merged: the votes, comments and subscribers moved.").waitFor();
    expect((await t.call("GET", `/api/v1/posts/${fresh.id}`)).body.data.mergedIntoId).toBe(open.id);
    await page.context().close();
  }, 60_000);

  test("money reads as money: $23,044 and $49.90 on the requests table, the request page and analytics", async () => {
    const post = await makePost(t, { title: "Single sign-on with SAML", status: "APPROVED" });
    for (const [email, userSpend] of [
      ["big@enterprise.example", 23044],
      ["small@startup.example", 49.9],
    ] as const) {
      const user = await t.call("POST", "/api/v1/users", { body: { email, userSpend } });
      await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { boardUserId: user.body.data.id } });
    }
    const page = await owner("money@example.com", "Mona Money");
    await page.goto(`${server.url}/admin/requests?project=acme&q=saml`);
    const row = page.locator("tbody tr", { hasText: "Single sign-on with SAML" });
    expect(await row.locator("td.number").last().textContent()).toBe("$23,093.90");
    await page.goto(`${server.url}/admin/posts/${post.id}?project=acme`);
    const spends = await page.locator("tbody tr td.number").allTextContents();
    expect(spends.sort()).toEqual(["$23,044", "$49.90"]);
    await page.goto(`${server.url}/admin/analytics?project=acme`);
    await page.getByText("$23,093.90 a month from its voters").waitFor();
    await page.context().close();
  }, 60_000);

  test("multi-line text from a dashboard form is stored with LF line endings (browsers send CRLF)", async () => {
    const post = await makePost(t, { title: "Line endings", status: "APPROVED" });
    const page = await owner("lines@example.com", "Lee Lines");
    await page.getByRole("link", { name: "Changelog" }).click();
    await page.getByLabel("Title").fill("March release");
    await page.getByLabel("Notes (markdown)").fill("## Fixed\n\n- one\n- two");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByText("Release saved as a draft.").waitFor();
    await page.getByRole("link", { name: "Edit March release" }).click();
    const releaseId = /\/admin\/releases\/([^/?]+)/.exec(page.url())![1]!;
    const release = (await t.call("GET", `/api/v1/releases/${releaseId}`)).body.data;
    expect(release.content).toBe("## Fixed\n\n- one\n- two");

    await page.goto(`${server.url}/admin/posts/${post.id}?project=acme`);
    await page.getByLabel("Write").fill("First line\nSecond line");
    await page.getByRole("button", { name: "Post official reply" }).click();
    await page.getByText("Official reply posted.").waitFor();
    const comments = await t.call("GET", `/api/v1/posts/${post.id}/comments`);
    expect(comments.body.data.map((comment: { body: string }) => comment.body)).toEqual([
      "First line\nSecond line",
    ]);
    await page.context().close();
  }, 60_000);

  test("a page past the end of the requests or the activity says so and links back, instead of 'Page 2 of 1'", async () => {
    await makePost(t, { title: "Only request of its kind zebra", status: "APPROVED" });
    const page = await owner("pages@example.com", "Paige Pages");
    await page.goto(`${server.url}/admin/requests?project=acme&q=zebra&page=2`);
    await page.getByText("Page 2 is past the end: the list has one page now.").waitFor();
    expect(await page.getByText("Page 2 of 1").count()).toBe(0);
    expect(await page.locator("table").count()).toBe(0);
    await page.getByRole("link", { name: "Go to the list" }).click();
    await page.getByRole("link", { name: "Only request of its kind zebra" }).waitFor();
    expect(new URL(page.url()).searchParams.get("q")).toBe("zebra");

    await page.goto(`${server.url}/admin/activity?project=acme&page=500`);
    await page.getByText(/^\s*Page 500 is past the end: the list has/).waitFor();
    await page.getByRole("link", { name: /^Go to / }).click();
    await page.locator("tbody tr").first().waitFor();
    await page.context().close();
  }, 60_000);
});
