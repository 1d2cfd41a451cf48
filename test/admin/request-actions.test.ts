import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Dialog, Page } from "playwright-core";
import type { TeamRole } from "../../src/team/schema";
import type { TestApp } from "../support/app";
import { makePost, makeTag, makeUser } from "../support/board";
import { browserMissing, serveInBrowser, stopServed } from "../support/browser";
import {
  acceptDialog,
  csrfOf,
  memberInBrowser,
  openSettingsScreen,
  postForm,
  sessionCookieOf,
} from "../support/dashboard";
import { inviteMember } from "../../src/team/service";

// What the REST API can do and a product manager expects from the dashboard too: tags managed, a reply's
// typo fixed, a vote taken back, a customer's revenue set, a request filed for a customer or deleted.
// Each path is used in Chromium and its result read back through the REST API.
describe.skipIf(browserMissing())("the API's actions from the dashboard, in Chromium", () => {
  let t: TestApp;
  let server: { url: string; stop: () => Promise<void> };
  let browser: Browser;
  beforeAll(async () => {
    ({ t, server, browser } = await serveInBrowser());
  }, 30_000);
  afterAll(() => stopServed({ t, server, browser }));

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
    await openSettingsScreen(page, "Tags");
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

  /** Mail waiting in the outbox (no SMTP here): what subscribers would be sent. */
  const outboxSize = () =>
    t.ctx.db.query<{ n: number }, []>("SELECT count(*) AS n FROM mail_outbox").get()!.n;

  test("a typo in an emailed official reply is corrected without a second email; a note is corrected; a spam comment is deleted after asking", async () => {
    const post = await makePost(t, { title: "Calendar sync", status: "APPROVED" });
    const voter = await makeUser(t, { email: "subscriber@example.com", name: "Sam" });
    await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { boardUserId: voter.id } });
    await t.call("POST", `/api/public/boards/acme/posts/${post.id}/comments`, {
      key: null,
      body: { body: "Cheap pills here", authorName: "Spammer" },
    });
    const page = await signedIn("fixer@example.com", "Fay Fixer", "member");
    await page.goto(`${server.url}/admin/posts/${post.id}?project=acme`);
    await page.getByLabel("Write").fill("We are bilding this now.");
    await page.getByRole("button", { name: "Post official reply" }).click();
    await page.getByText("Official reply posted.").waitFor();
    const mailAfterReply = outboxSize();
    expect(mailAfterReply).toBeGreaterThan(0);

    await page
      .locator("li.card", { hasText: "We are bilding" })
      .getByRole("link", { name: "Edit this official reply" })
      .click();
    await page.getByRole("heading", { name: "Edit the official reply" }).waitFor();
    await page.getByText("Nobody is emailed again").waitFor();
    expect(await page.getByLabel("Text").inputValue()).toBe("We are bilding this now.");
    await page.getByLabel("Text").fill("We are building this now.");
    await page.getByRole("button", { name: "Save the correction" }).click();
    await page.getByText("Correction saved. Nobody was emailed again.").waitFor();
    await page.locator("li.card", { hasText: "We are building this now." }).waitFor();
    expect(outboxSize()).toBe(mailAfterReply);

    await page.getByLabel("Write").fill("Big customr asks");
    await page.getByRole("button", { name: "Add internal note" }).click();
    await page.getByText("Internal note added.").waitFor();
    await page
      .locator("li.card", { hasText: "Big customr asks" })
      .getByRole("link", { name: "Edit this note" })
      .click();
    await page.getByLabel("Text").fill("Big customer asks");
    await page.getByRole("button", { name: "Save the correction" }).click();
    await page.getByText("Correction saved.").waitFor();

    // A board user's comment is theirs: deleted (asked first), never rewritten.
    const spam = page.locator("li.card", { hasText: "Cheap pills here" });
    expect(await spam.getByRole("link", { name: /^Edit/ }).count()).toBe(0);
    const question = declineNextConfirm(page);
    await spam.getByRole("button", { name: "Delete this comment" }).click();
    expect(await question).toBe("Delete this comment? It leaves the board at once; it cannot be undone.");
    expect(await spam.count()).toBe(1);
    await spam.getByRole("button", { name: "Delete this comment" }).click();
    await page.getByText("Comment deleted.").waitFor();
    expect(await spam.count()).toBe(0);

    const comments = (await t.call("GET", `/api/v1/posts/${post.id}/comments?internal=all`)).body.data as {
      body: string;
    }[];
    expect(comments.map((comment) => comment.body)).toEqual([
      "We are building this now.",
      "Big customer asks",
    ]);
    const publicPage = await (await fetch(`${server.url}/b/acme/posts/${post.id}`)).text();
    expect(publicPage).toContain("We are building this now.");
    expect(publicPage).not.toContain("bilding");
    expect(publicPage).not.toContain("Cheap pills");
    const activity = (await t.call("GET", "/api/v1/activity?entityType=comment")).body.data as {
      action: string;
      metadata: { teamMember?: { name: string } };
    }[];
    expect(
      activity
        .filter((entry) => entry.action !== "created")
        .map((entry) => [entry.action, entry.metadata.teamMember?.name]),
    ).toEqual([
      ["deleted", "Fay Fixer"],
      ["updated", "Fay Fixer"],
      ["updated", "Fay Fixer"],
    ]);
    await page.context().close();
  }, 60_000);

  test("a vote added by mistake is removed after asking; the count and the API follow", async () => {
    const post = await makePost(t, { title: "Two-factor sign-in", status: "APPROVED" });
    for (const [email, name] of [
      ["ada@example.com", "Ada"],
      ["bob@example.com", "Bob"],
    ]) {
      const user = await makeUser(t, { email, name });
      await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { boardUserId: user.id } });
    }
    const page = await signedIn("unvoter@example.com", "Uma Unvote", "member");
    await page.goto(`${server.url}/admin/posts/${post.id}?project=acme`);
    const question = declineNextConfirm(page);
    await page.getByRole("button", { name: "Remove Ada's vote" }).click();
    expect(await question).toBe("Remove Ada's vote? The request then counts 1 vote.");
    expect((await t.call("GET", `/api/v1/posts/${post.id}`)).body.data.voteCount).toBe(2);
    await page.getByRole("button", { name: "Remove Ada's vote" }).click();
    await page.getByText("Vote removed.").waitFor();
    expect(await page.locator("tbody tr").allTextContents()).toEqual([expect.stringContaining("Bob")]);
    const votes = (await t.call("GET", `/api/v1/posts/${post.id}/votes`)).body.data as {
      boardUserName: string;
    }[];
    expect(votes.map((vote) => vote.boardUserName)).toEqual(["Bob"]);
    expect((await t.call("GET", `/api/v1/posts/${post.id}`)).body.data.voteCount).toBe(1);
    await page.context().close();
  }, 60_000);

  test("a customer added by email gets their monthly spend from the voters list; the request sums its voters' revenue", async () => {
    const post = await makePost(t, { title: "Audit log export", status: "APPROVED" });
    const payer = await makeUser(t, { email: "payer@example.com", userSpend: 100 });
    await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { boardUserId: payer.id } });
    const page = await signedIn("revenue@example.com", "Ren Revenue", "member");
    await page.goto(`${server.url}/admin/posts/${post.id}?project=acme`);
    await page.getByLabel("Add a vote for a customer (their email)").fill("cfo@bigco.example");
    await page.getByRole("button", { name: "Add vote" }).click();
    await page.getByText("Vote added.").waitFor();
    const revenue = page.locator("[data-voters-revenue]");
    expect(((await revenue.textContent()) ?? "").replace(/\s+/g, " ").trim()).toBe(
      "Revenue of the voters: $100 a month",
    );

    await page.getByRole("link", { name: "Edit cfo@bigco.example's name and monthly spend" }).click();
    await page.getByRole("heading", { name: "cfo@bigco.example" }).waitFor();
    await page.getByLabel("Name").fill("Carla CFO");
    await page.getByLabel(/^Monthly spend/).fill("1234.5");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Customer saved").waitFor();
    // Back on the request, the voter's row and the sum show the new spend.
    await page.getByRole("heading", { name: "Audit log export" }).waitFor();
    const row = page.locator("tbody tr", { hasText: "Carla CFO" });
    expect(await row.locator("td.number").textContent()).toBe("$1,234.50");
    expect(((await revenue.textContent()) ?? "").replace(/\s+/g, " ").trim()).toBe(
      "Revenue of the voters: $1,334.50 a month",
    );
    const users = (await t.call("GET", "/api/v1/users?limit=100")).body.data as {
      email: string;
      name: string | null;
      userSpend: string;
    }[];
    expect(users.find((user) => user.email === "cfo@bigco.example")).toMatchObject({
      name: "Carla CFO",
      userSpend: "1234.50",
    });
    // The requests table's revenue agrees with the request page.
    await page.goto(`${server.url}/admin/requests?project=acme&q=audit`);
    expect(
      await page
        .locator("tbody tr", { hasText: "Audit log export" })
        .locator("td.number")
        .last()
        .textContent(),
    ).toBe("$1,334.50");
    // A spend the API refuses is refused in words, with the way back to the form.
    await page.goto(`${server.url}/admin/users/${payer.id}?project=acme&post=${post.id}`);
    await page.getByLabel(/^Monthly spend/).evaluate((input) => input.removeAttribute("min"));
    await page.getByLabel(/^Monthly spend/).fill("-5");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("link", { name: "Back to the form" }).waitFor();
    expect((await t.call("GET", `/api/v1/users/${payer.id}`)).body.data.userSpend).toBe("100.00");
    await page.context().close();
  }, 60_000);

  test("a request is filed for a customer from a call: they are its author and vote; spam is deleted after a warning it cannot be undone", async () => {
    const tag = await makeTag(t, "Sales calls");
    const page = await signedIn("sales@example.com", "Sal Sales", "member");
    await page.getByRole("link", { name: "Requests" }).click();
    await page.getByRole("link", { name: "New request" }).click();
    await page.getByLabel("Title").fill("Bulk export of invoices");
    await page.getByLabel("Description").fill("Asked on the renewal call:\nthey export every month.");
    await page.getByLabel("Status").selectOption("APPROVED");
    await page.getByRole("checkbox", { name: "Sales calls" }).check();
    await page.getByLabel(/^Their email/).fill("buyer@customer.example");
    await page.getByLabel("Add their vote").check();
    await page.getByRole("button", { name: "Create the request" }).click();
    await page.getByText("Request created.").waitFor();
    await page.getByRole("heading", { name: "Bulk export of invoices" }).waitFor();
    expect(await page.locator("tbody tr").allTextContents()).toEqual([
      expect.stringContaining("buyer@customer.example"),
    ]);
    const postId = /\/admin\/posts\/([^/?]+)/.exec(page.url())![1]!;
    const post = (await t.call("GET", `/api/v1/posts/${postId}`)).body.data;
    const users = (await t.call("GET", "/api/v1/users?limit=100")).body.data as {
      id: string;
      email: string;
    }[];
    const buyer = users.find((user) => user.email === "buyer@customer.example")!;
    expect(post).toMatchObject({
      title: "Bulk export of invoices",
      description: "Asked on the renewal call:\nthey export every month.",
      status: "APPROVED",
      voteCount: 1,
      createdByBoardUserId: buyer.id,
      tags: [expect.objectContaining({ id: tag.id })],
    });
    const votes = (await t.call("GET", `/api/v1/posts/${postId}/votes`)).body.data;
    expect(votes).toEqual([expect.objectContaining({ boardUserId: buyer.id })]);

    // A blank title is refused after the customer's email was read: no board user is left behind.
    await page.goto(`${server.url}/admin/requests/new?project=acme`);
    await page.getByLabel("Title").fill("   ");
    await page.getByLabel(/^Their email/).fill("left-behind@customer.example");
    await page.getByRole("button", { name: "Create the request" }).click();
    await page.getByRole("link", { name: "Back to the form" }).waitFor();
    const emails = ((await t.call("GET", "/api/v1/users?limit=100")).body.data as { email: string }[]).map(
      (user) => user.email,
    );
    expect(emails).not.toContain("left-behind@customer.example");
    // A vote without the customer's email is refused, and nothing is made.
    await page.goto(`${server.url}/admin/requests/new?project=acme`);
    await page.getByLabel("Title").fill("A request with a vote and no voter");
    await page.getByLabel("Add their vote").check();
    await page.getByRole("button", { name: "Create the request" }).click();
    expect(await page.getByRole("alert").textContent()).toContain(
      "give the customer's email to add their vote",
    );
    const titles = ((await t.call("GET", "/api/v1/posts?limit=100")).body.data as { title: string }[]).map(
      (one) => one.title,
    );
    expect(titles).not.toContain("A request with a vote and no voter");
    // Members turn requests down; they do not delete them.
    await page.goto(`${server.url}/admin/posts/${postId}?project=acme`);
    expect(await page.getByRole("button", { name: "Delete the request" }).count()).toBe(0);
    await page.context().close();

    const spam = await makePost(t, { title: "Buy followers now", status: "PENDING" });
    const admin = await signedIn("deleter@example.com", "Dee Deleter", "admin");
    await admin.goto(`${server.url}/admin/posts/${spam.id}?project=acme`);
    const question = declineNextConfirm(admin);
    await admin.getByRole("button", { name: "Delete the request" }).click();
    expect(await question).toBe(
      "Delete “Buy followers now” for good? Its 0 votes, comments and subscribers go with it. This cannot be undone.",
    );
    expect((await t.call("GET", `/api/v1/posts/${spam.id}`)).status).toBe(200);
    await admin.getByRole("button", { name: "Delete the request" }).click();
    await admin.getByText("Request deleted.").waitFor();
    await admin.getByRole("heading", { name: "Requests" }).waitFor();
    expect((await t.call("GET", `/api/v1/posts/${spam.id}`)).status).toBe(404);
    const deleted = (await t.call("GET", "/api/v1/posts/deleted")).body.data as { id: string }[];
    expect(deleted.map((one) => one.id)).toContain(spam.id);
    await admin.context().close();
  }, 60_000);

  test("a member's form to delete a request is refused; another project's comments, votes and customers are not found", async () => {
    const post = await makePost(t, { title: "Kept request", status: "APPROVED" });
    const theirs = await makePost(t, { title: "Their request", status: "APPROVED" }, t.other.secretKey);
    const theirUser = await makeUser(t, { email: "theirs@example.com" }, t.other.secretKey);
    const vote = await t.call("POST", `/api/v1/posts/${theirs.id}/votes`, {
      key: t.other.secretKey,
      body: { boardUserId: theirUser.id },
    });
    const comment = await t.call("POST", `/api/v1/posts/${theirs.id}/comments`, {
      key: t.other.secretKey,
      body: { body: "Their words" },
    });
    const { token } = inviteMember(t.ctx.db, {
      email: "member-delete@example.com",
      role: "member",
      projectSlug: "acme",
    });
    const cookie = sessionCookieOf(
      await postForm(`${server.url}/admin/invite/${token}`, { password: "correct horse battery" }),
    );
    const csrf = await csrfOf(server.url, cookie);
    const refused = await postForm(
      `${server.url}/admin/posts/${post.id}/delete`,
      { csrf, project: "acme" },
      cookie,
    );
    expect(refused.status).toBe(403);
    expect((await t.call("GET", `/api/v1/posts/${post.id}`)).status).toBe(200);
    for (const [path, fields] of [
      [`/admin/posts/${theirs.id}/comments/${comment.body.data.id}`, { body: "Rewritten" }],
      [`/admin/posts/${theirs.id}/comments/${comment.body.data.id}/delete`, {}],
      [`/admin/posts/${theirs.id}/votes/${vote.body.data.id}/delete`, {}],
      [`/admin/users/${theirUser.id}`, { userSpend: "999" }],
    ] as const) {
      const response = await postForm(`${server.url}${path}`, { csrf, project: "acme", ...fields }, cookie);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
    }
    const after = (await t.call("GET", `/api/v1/posts/${theirs.id}`, { key: t.other.secretKey })).body.data;
    expect(after.voteCount).toBe(1);
    const comments = await t.call("GET", `/api/v1/posts/${theirs.id}/comments`, { key: t.other.secretKey });
    expect(comments.body.data.map((one: { body: string }) => one.body)).toEqual(["Their words"]);
    const user = await t.call("GET", `/api/v1/users/${theirUser.id}`, { key: t.other.secretKey });
    expect(user.body.data.userSpend).toBe("0.00");
  }, 60_000);
});
