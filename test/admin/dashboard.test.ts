import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { inviteMember, sessionFor, signIn } from "../../src/team/service";
import { afterSignIn } from "../../src/admin/dashboard";
import { createTestApp, type TestApp } from "../support/app";
import { listen, makePost } from "../support/board";
import { browserMissing, launchBrowser } from "../support/browser";
import { runCommand, SOURCE_COMMAND } from "../support/process";
import { type SmtpReceiver, startSmtpReceiver } from "../email/smtp-receiver";
import { waitUntil } from "../support/receiver";
import { csrfOf, memberInInbox, postForm, sessionCookieOf } from "../support/dashboard";

describe("team accounts and the dashboard's security", () => {
  let t: TestApp;
  let server: { url: string; stop: () => Promise<void> };
  beforeAll(() => {
    t = createTestApp({
      FEATUREBOARD_RATE_LIMIT_SIGN_IN_PER_MINUTE: "1",
      FEATUREBOARD_RATE_LIMIT_SIGN_IN_BURST: "3",
    });
    server = listen(t);
  });
  afterAll(async () => {
    await server.stop();
    t.close();
  });

  async function member(email: string, project = "acme", role: "owner" | "admin" | "member" = "owner") {
    const { token } = inviteMember(t.ctx.db, { email, role, projectSlug: project });
    const accepted = await postForm(`${server.url}/admin/invite/${token}`, {
      password: "correct horse battery",
      name: email,
    });
    expect(accepted.status).toBe(303);
    return sessionCookieOf(accepted);
  }

  test("the session cookie is HttpOnly and SameSite=Lax; the password is stored only as an argon2id hash", async () => {
    const { token } = inviteMember(t.ctx.db, {
      email: "cookie@example.com",
      role: "owner",
      projectSlug: "acme",
    });
    const accepted = await postForm(`${server.url}/admin/invite/${token}`, {
      password: "correct horse battery",
    });
    const header = accepted.headers.get("set-cookie") ?? "";
    expect(header).toContain("HttpOnly");
    expect(header).toContain("SameSite=Lax");
    const stored = t.ctx.db
      .query<{ password_hash: string }, [string]>("SELECT password_hash FROM team_members WHERE email = ?")
      .get("cookie@example.com")!;
    expect(stored.password_hash.startsWith("$argon2id$")).toBe(true);
    expect(stored.password_hash).not.toContain("correct horse battery");
    // The invite works once.
    expect(
      (await postForm(`${server.url}/admin/invite/${token}`, { password: "another password 1" })).status,
    ).toBe(404);
  });

  test("a member of project A sees and changes nothing of project B", async () => {
    const cookie = await member("a-owner@example.com", "acme");
    const theirs = await makePost(t, { title: "Other company's secret" }, t.other.secretKey);
    const inbox = await fetch(`${server.url}/admin?project=other-co`, { headers: { cookie } });
    expect(inbox.status).toBe(403);
    expect(await inbox.text()).not.toContain("Other company's secret");
    const csrf = await csrfOf(server.url, cookie);
    const change = await postForm(
      `${server.url}/admin/posts/${theirs.id}/status`,
      { csrf, project: "other-co", status: "APPROVED" },
      cookie,
    );
    expect(change.status).toBe(403);
    // Naming its own project does not reach the other project's post either.
    const sneaky = await postForm(
      `${server.url}/admin/posts/${theirs.id}/status`,
      { csrf, project: "acme", status: "APPROVED" },
      cookie,
    );
    expect(sneaky.status).toBe(404);
    expect(
      (await t.call("GET", `/api/v1/posts/${theirs.id}`, { key: t.other.secretKey })).body.data.status,
    ).toBe("PENDING");
  });

  test("every dashboard route refuses another project's pages, forms and posts", async () => {
    const cookie = await member("every-route@example.com", "acme");
    const theirs = await makePost(t, { title: "Their private plans" }, t.other.secretKey);
    const ours = await makePost(t, { title: "Our own request" });
    const pages = [
      "/admin",
      "/admin/requests",
      `/admin/posts/${theirs.id}`,
      "/admin/members",
      "/admin/keys",
      "/admin/account",
    ];
    for (const path of pages) {
      const response = await fetch(`${server.url}${path}?project=other-co`, { headers: { cookie } });
      expect({ path, status: response.status }).toEqual({ path, status: 403 });
      expect(await response.text()).not.toContain("Their private plans");
    }
    const csrf = await csrfOf(server.url, cookie);
    const forms: [string, Record<string, string>][] = [
      [`/admin/posts/${theirs.id}/status`, { status: "APPROVED" }],
      [`/admin/posts/${theirs.id}/edit`, { title: "Renamed by a stranger" }],
      [`/admin/posts/${theirs.id}/comments`, { body: "hello", kind: "reply" }],
      [`/admin/posts/${theirs.id}/votes`, { email: "stranger@example.com" }],
      [`/admin/posts/${theirs.id}/merge`, { into: ours.id }],
      ["/admin/requests/status", { ids: theirs.id, status: "APPROVED" }],
      ["/admin/members/invite", { email: "x@example.com", role: "owner" }],
      ["/admin/keys", { kind: "secret" }],
    ];
    for (const [path, fields] of forms) {
      const foreign = await postForm(
        `${server.url}${path}`,
        { csrf, project: "other-co", ...fields },
        cookie,
      );
      expect({ path, status: foreign.status }).toEqual({ path, status: 403 });
    }
    // Naming its own project, a post of the other project is not found (or not changed, in a bulk change).
    for (const [path, fields] of forms.slice(0, 6)) {
      const response = await postForm(`${server.url}${path}`, { csrf, project: "acme", ...fields }, cookie);
      expect({ path, status: response.status }).toEqual({
        path,
        status: path.includes("requests") ? 400 : 404,
      });
    }
    const after = (await t.call("GET", `/api/v1/posts/${theirs.id}`, { key: t.other.secretKey })).body.data;
    expect(after).toMatchObject({ status: "PENDING", title: "Their private plans", voteCount: 0 });
    const comments = await t.call("GET", `/api/v1/posts/${theirs.id}/comments?internal=all`, {
      key: t.other.secretKey,
    });
    expect(comments.body.data).toEqual([]);
  });

  test("the import progress of an unknown job is an ApiError, as every JSON answer is", async () => {
    const cookie = await member("progress-owner@example.com");
    const response = await fetch(`${server.url}/admin/import/%ff/progress?project=acme`, {
      headers: { cookie },
    });
    expect(response.status).toBe(404);
    const body = await response.json();
    expect(body.error_code).toBe("IMPORT_NOT_FOUND");
    expect(body.error).toBe(body.message);
    expect(body.resolution_hint).toBeString();
  });

  test("only owners manage keys and members; admins and members are refused", async () => {
    for (const role of ["admin", "member"] as const) {
      const cookie = await member(`${role}-role@example.com`, "acme", role);
      const csrf = await csrfOf(server.url, cookie);
      for (const path of ["/admin/members", "/admin/keys"]) {
        expect((await fetch(`${server.url}${path}?project=acme`, { headers: { cookie } })).status).toBe(403);
      }
      const attempts: [string, Record<string, string>][] = [
        ["/admin/keys", { kind: "secret" }],
        ["/admin/keys/revoke", { prefix: t.project.secretKey.slice(0, 12) }],
        ["/admin/members/invite", { email: "friend@example.com", role: "owner" }],
        ["/admin/members/remove", { email: "a-owner@example.com" }],
        ["/admin/members/role", { email: "a-owner@example.com", role: "member" }],
      ];
      for (const [path, fields] of attempts) {
        const response = await postForm(`${server.url}${path}`, { csrf, project: "acme", ...fields }, cookie);
        expect({ role, path, status: response.status }).toEqual({ role, path, status: 403 });
      }
      // Their navigation does not offer them either.
      const inbox = await (await fetch(`${server.url}/admin?project=acme`, { headers: { cookie } })).text();
      expect(inbox).not.toContain('href="/admin/keys');
    }
    // The API key the refused revoke named still works.
    expect((await t.call("GET", "/api/v1/posts")).status).toBe(200);
  });

  test("an owner creates a key the API accepts, then revokes it and the API refuses it", async () => {
    const cookie = await member("keys-owner@example.com");
    const csrf = await csrfOf(server.url, cookie);
    const created = await postForm(
      `${server.url}/admin/keys`,
      { csrf, project: "acme", kind: "secret" },
      cookie,
    );
    expect(created.status).toBe(200);
    const key = /data-key>([^<]+)</.exec(await created.text())?.[1];
    expect(key).toStartWith("sk_");
    expect((await t.call("GET", "/api/v1/posts", { key: key! })).status).toBe(200);
    const listed = await (
      await fetch(`${server.url}/admin/keys?project=acme`, { headers: { cookie } })
    ).text();
    expect(listed).not.toContain(key!);
    const prefix = /name="prefix" value="([^"]+)"/g;
    const prefixes = [...listed.matchAll(prefix)].map((match) => match[1]!);
    const mine = prefixes.find((candidate) => key!.startsWith(candidate))!;
    expect(
      (await postForm(`${server.url}/admin/keys/revoke`, { csrf, project: "acme", prefix: mine }, cookie))
        .status,
    ).toBe(303);
    expect((await t.call("GET", "/api/v1/posts", { key: key! })).status).toBe(401);
  });

  test("changing the password checks the current one and signs out every other session", async () => {
    const laptop = await member("changer@example.com");
    // A second session, as from another device (through the service: the page's per-IP sign-in budget
    // belongs to the limit test).
    const phone = `fb_session=${(await signIn(t.ctx.db, { email: "changer@example.com", password: "correct horse battery" })).sessionToken}`;
    const csrf = await csrfOf(server.url, laptop);
    const wrong = await postForm(
      `${server.url}/admin/account/password`,
      { csrf, project: "acme", currentPassword: "not it at all", newPassword: "a brand new password" },
      laptop,
    );
    expect(wrong.status).toBe(400);
    const changed = await postForm(
      `${server.url}/admin/account/password`,
      {
        csrf,
        project: "acme",
        currentPassword: "correct horse battery",
        newPassword: "a brand new password",
      },
      laptop,
    );
    expect(changed.status).toBe(303);
    const fresh = sessionCookieOf(changed);
    for (const old of [laptop, phone]) {
      expect(
        (await fetch(`${server.url}/admin`, { headers: { cookie: old }, redirect: "manual" })).status,
      ).toBe(303);
    }
    expect((await fetch(`${server.url}/admin`, { headers: { cookie: fresh } })).status).toBe(200);
    // The new password signs in (through the service: the page's per-IP budget belongs to the limit test).
    await signIn(t.ctx.db, { email: "changer@example.com", password: "a brand new password" });
  });

  test("dashboard changes go through the services: activity names the member, a vote on behalf creates the voter", async () => {
    const cookie = await member("ada.triager@example.com", "acme", "member");
    const post = await makePost(t, { title: "Audit me", status: "APPROVED" });
    const csrf = await csrfOf(server.url, cookie);
    expect(
      (
        await postForm(
          `${server.url}/admin/posts/${post.id}/votes`,
          { csrf, project: "acme", email: "buyer@bigco.example" },
          cookie,
        )
      ).status,
    ).toBe(303);
    expect(
      (
        await postForm(
          `${server.url}/admin/posts/${post.id}/status`,
          { csrf, project: "acme", status: "IN_PROGRESS" },
          cookie,
        )
      ).status,
    ).toBe(303);
    const votes = (await t.call("GET", `/api/v1/posts/${post.id}/votes`)).body.data;
    expect(votes).toEqual([expect.objectContaining({ boardUserEmail: "buyer@bigco.example" })]);
    const activity = (await t.call("GET", "/api/v1/activity?limit=10")).body.data as {
      entityType: string;
      action: string;
      metadata: Record<string, unknown> | null;
    }[];
    const byMember = activity.filter(
      (entry) =>
        (entry.metadata?.teamMember as { name?: string } | undefined)?.name === "ada.triager@example.com",
    );
    expect(byMember.map((entry) => `${entry.entityType} ${entry.action}`)).toEqual(
      expect.arrayContaining(["vote created", "post status_changed"]),
    );
    // An API change made after it names nobody.
    await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { title: "Audit me again" } });
    const latest = (await t.call("GET", "/api/v1/activity?limit=1")).body.data[0];
    expect(latest.metadata?.teamMember).toBeUndefined();
  });

  test("a form without the right CSRF token is refused and changes nothing", async () => {
    const cookie = await member("csrf@example.com");
    const post = await makePost(t, { title: "Needs a CSRF token" });
    for (const csrf of ["", "forged"]) {
      const response = await postForm(
        `${server.url}/admin/posts/${post.id}/status`,
        { csrf, status: "APPROVED" },
        cookie,
      );
      expect(response.status).toBe(400);
    }
    expect((await t.call("GET", `/api/v1/posts/${post.id}`)).body.data.status).toBe("PENDING");
  });

  test("the inbox count of new board comments counts those written since the member last opened the inbox", async () => {
    const cookie = await member("reader@example.com");
    const post = await makePost(t, { title: "Commented on", status: "APPROVED" });
    const comment = (body: string) =>
      t.call("POST", `/api/public/boards/acme/posts/${post.id}/comments`, {
        key: null,
        body: { body, anonymousId: "visitor-1" },
      });
    const newCount = async () => {
      const html = await (await fetch(`${server.url}/admin/requests`, { headers: { cookie } })).text();
      return Number(/(\d+) new comments/.exec(html)?.[1]);
    };
    const before = await newCount();
    expect((await comment("First thoughts")).status).toBe(201);
    expect(await newCount()).toBe(before + 1);
    // Opening the inbox shows them (marked new) and counts them as seen.
    const inbox = await (await fetch(`${server.url}/admin`, { headers: { cookie } })).text();
    expect(inbox).toContain(`${before + 1} new</span>`);
    expect(await newCount()).toBe(0);
    expect((await comment("Second thoughts")).status).toBe(201);
    expect(await newCount()).toBe(1);
  });

  test("a stolen session cookie stops working after sign-out", async () => {
    const cookie = await member("leaver@example.com");
    const csrf = await csrfOf(server.url, cookie);
    expect((await postForm(`${server.url}/admin/logout`, { csrf }, cookie)).status).toBe(303);
    const after = await fetch(`${server.url}/admin`, { headers: { cookie }, redirect: "manual" });
    expect(after.status).toBe(303);
    expect(after.headers.get("location")).toBe("/admin/login?next=%2Fadmin");
    expect(sessionFor(t.ctx.db, cookie.split("=")[1]!)).toBeNull();
  });

  test("sign-in attempts are limited per account and per IP; a wrong password never signs in", async () => {
    await member("guessed@example.com");
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await postForm(`${server.url}/admin/login`, {
        email: "guessed@example.com",
        password: "wrong guess 123",
      });
      statuses.push(response.status);
      expect(response.headers.get("set-cookie")).toBeNull();
    }
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses).toContain(429);
  });
});

test("signing in opens the page asked for while signed out, never another site's", async () => {
  // An app of its own: sign-in attempts are metered per IP, and the tests above spend that budget.
  const t = createTestApp();
  const server = listen(t);
  try {
    const { token } = inviteMember(t.ctx.db, {
      email: "returning@example.com",
      role: "owner",
      projectSlug: "acme",
    });
    await postForm(`${server.url}/admin/invite/${token}`, { password: "correct horse battery" });
    const asked = await fetch(`${server.url}/admin/requests?sort=revenue`, { redirect: "manual" });
    const login = asked.headers.get("location")!;
    expect(login).toBe("/admin/login?next=%2Fadmin%2Frequests%3Fsort%3Drevenue");
    const form = await (await fetch(`${server.url}${login}`)).text();
    expect(form).toContain('name="next" value="/admin/requests?sort=revenue"');
    const signIn = (next: string) =>
      postForm(`${server.url}/admin/login`, {
        email: "returning@example.com",
        password: "correct horse battery",
        next,
      });
    expect((await signIn("/admin/requests?sort=revenue")).headers.get("location")).toBe(
      "/admin/requests?sort=revenue",
    );
    expect((await signIn("https://evil.example/admin")).headers.get("location")).toBe("/admin");
  } finally {
    await server.stop();
    t.close();
  }
  for (const elsewhere of [
    "//evil.example",
    "/b/acme",
    "/admin\\evil",
    "/administrator",
    "/admin/x\r\nSet-Cookie: a=b",
    null,
  ]) {
    expect(afterSignIn(elsewhere)).toBe("/admin");
  }
  expect(afterSignIn("/admin/posts/1#comments")).toBe("/admin/posts/1#comments");
});

test("passwords and session tokens never reach the log, even at debug level", async () => {
  const lines: string[] = [];
  const t = createTestApp({ FEATUREBOARD_LOG_LEVEL: "debug" }, (line) => lines.push(line));
  const server = listen(t);
  try {
    const password = "a very distinctive passphrase";
    const { token } = inviteMember(t.ctx.db, {
      email: "logged@example.com",
      role: "owner",
      projectSlug: "acme",
    });
    const accepted = await postForm(`${server.url}/admin/invite/${token}`, { password, name: "Lo" });
    const cookie = sessionCookieOf(accepted);
    await postForm(`${server.url}/admin/login`, { email: "logged@example.com", password });
    await postForm(`${server.url}/admin/login`, {
      email: "logged@example.com",
      password: `${password} typo`,
    });
    const csrf = await csrfOf(server.url, cookie);
    await postForm(
      `${server.url}/admin/account/password`,
      { csrf, project: "acme", currentPassword: password, newPassword: `${password} two` },
      cookie,
    );
    expect(lines.length).toBeGreaterThan(3);
    const log = lines.join("\n");
    // The access log still shows the routes, with their real statuses (a redirect is a 303).
    expect(log).toContain('"path":"/admin/invite/…","status":303');
    for (const secret of [password, "distinctive", token, cookie.split("=")[1]!, csrf]) {
      expect(log).not.toContain(secret);
    }
  } finally {
    await server.stop();
    t.close();
  }
});

/** Pictures for the README when FEATUREBOARD_SCREENSHOTS=1 (as the board's browser test makes them). */
const SCREENSHOTS = process.env.FEATUREBOARD_SCREENSHOTS === "1";

describe.skipIf(browserMissing())("the dashboard in Chromium", () => {
  let t: TestApp;
  let server: { url: string; stop: () => Promise<void> };
  let browser: Browser;
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = createTestApp({ FEATUREBOARD_SMTP_URL: smtp.url });
    server = listen(t);
    browser = await launchBrowser();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await server.stop();
    t.close();
    smtp.close();
  });

  /** A member invited (as an owner would from the Members screen) who set a password in the browser. */
  const signedIn = (email: string, name: string, role: "owner" | "admin" | "member" = "member") =>
    memberInInbox(browser, t, server.url, { email, name, role });

  /** A page whose script errors fail the test, like the board's: the dashboard must run clean. */
  async function openPage(): Promise<Page> {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on("pageerror", (error) => {
      throw error;
    });
    return page;
  }

  async function screenshot(page: Page, name: string) {
    if (!SCREENSHOTS) return;
    await page.screenshot({
      path: join(import.meta.dir, "../../docs/screenshots", `${name}.png`),
      fullPage: true,
    });
  }

  test("invite an owner from the CLI, set a password, land in the inbox, approve a request onto the board", async () => {
    const pending = await makePost(t, { title: "Keyboard shortcuts", status: "PENDING" });
    // The CLI prints the one-time URL (against this test's database file, as an operator would).
    const printed = runCommand(
      [...SOURCE_COMMAND, "team", "invite", "--email", "owner@example.com", "--project", "acme", "--json"],
      {
        FEATUREBOARD_DB: `${t.dir}/test.db`,
        FEATUREBOARD_PUBLIC_URL: server.url,
        FEATUREBOARD_LOG_LEVEL: "silent",
      },
    );
    expect(printed.exitCode).toBe(0);
    const { url } = JSON.parse(printed.stdout);
    expect(url).toStartWith(`${server.url}/admin/invite/`);

    const page = await openPage();
    await page.goto(url);
    await page.getByLabel("Your name").fill("Olivia Owner");
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Set password and sign in" }).click();
    await page.waitForURL(`${server.url}/admin`);
    await page.getByRole("heading", { name: "Inbox" }).waitFor();
    const card = page.locator("li.card", { hasText: "Keyboard shortcuts" });
    await card.getByRole("button", { name: "Approve" }).click();
    await page.getByText("Status changed.").waitFor();
    expect(await page.locator("li.card", { hasText: "Keyboard shortcuts" }).count()).toBe(0);

    expect((await t.call("GET", `/api/v1/posts/${pending.id}`)).body.data.status).toBe("APPROVED");
    await page.goto(`${server.url}/b/acme`);
    await page.locator(".post-card", { hasText: "Keyboard shortcuts" }).waitFor();
    await page.close();
  }, 60_000);

  test("merge a duplicate suggested on the request page: its votes move, its public page links to the target", async () => {
    const kept = await makePost(t, {
      title: "Export the roadmap to CSV",
      description: "Download the roadmap as a CSV file for spreadsheets",
      status: "APPROVED",
    });
    const duplicate = await makePost(t, {
      title: "Export roadmap as CSV",
      description: "Let us download the roadmap as a CSV spreadsheet file",
      status: "APPROVED",
    });
    for (const email of ["one@example.com", "two@example.com"]) {
      const user = await t.call("POST", "/api/v1/users", { body: { email } });
      await t.call("POST", `/api/v1/posts/${duplicate.id}/votes`, {
        body: { boardUserId: user.body.data.id },
      });
    }
    const page = await signedIn("merger@example.com", "Mia Merger");
    await page.goto(`${server.url}/admin/posts/${kept.id}?project=acme`);
    const suggestion = page.locator("li.card", { hasText: "Export roadmap as CSV" });
    await suggestion.getByRole("button", { name: "Merge “Export roadmap as CSV” into this request" }).click();
    await page.getByText("Merged: the votes, comments and subscribers moved.").waitFor();
    expect(await page.getByText("2 votes").count()).toBeGreaterThan(0);
    // The kept request's own history says what it received, and who merged it.
    expect(
      await page.getByText("another request merged into this one (2 votes moved) by Mia Merger").count(),
    ).toBe(1);
    await screenshot(page, "dashboard-request");

    expect((await t.call("GET", `/api/v1/posts/${kept.id}`)).body.data.voteCount).toBe(2);
    const merged = (await t.call("GET", `/api/v1/posts/${duplicate.id}`)).body.data;
    expect(merged).toMatchObject({ status: "CLOSED", mergedIntoId: kept.id, voteCount: 0 });

    // The duplicate's own page sends votes and replies to the request it went into; a note may still go on it.
    await page.goto(`${server.url}/admin/posts/${duplicate.id}`);
    expect(await page.getByRole("button", { name: "Add vote" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Post official reply" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Add internal note" }).count()).toBe(1);
    expect(await page.getByText("Votes for this request go on").textContent()).toContain(
      "Export the roadmap to CSV",
    );
    expect(await page.getByText("0 votes").count()).toBeGreaterThan(0);

    await page.goto(`${server.url}/b/acme/posts/${duplicate.id}`);
    await page.locator(".merged-into").getByRole("link", { name: "Export the roadmap to CSV" }).click();
    await page.waitForURL(`${server.url}/b/acme/posts/${kept.id}`);
    await page.close();
  }, 60_000);

  test("official replies carry the Team badge on the public page; internal notes stay private; a status change notifies by email", async () => {
    const post = await makePost(t, { title: "Dark mode", status: "APPROVED" });
    const voter = await t.call("POST", "/api/v1/users", {
      body: { email: "voter@example.com", name: "Vera" },
    });
    await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { boardUserId: voter.body.data.id } });
    const page = await signedIn("replier@example.com", "Rita Replier");

    await page.goto(`${server.url}/admin/posts/${post.id}?project=acme`);
    const beforeReply = smtp.mail.length;
    await page.getByLabel("Write").fill("We are building this now.");
    await page.getByRole("button", { name: "Post official reply" }).click();
    await page.getByText("Official reply posted.").waitFor();
    await t.ctx.mail.flush();
    // The official reply tells the request's subscribers; the internal note below tells nobody.
    const replyMail = smtp.mail.slice(beforeReply);
    expect(replyMail.map((mail) => mail.to[0])).toEqual(["voter@example.com"]);
    expect(replyMail[0]!.headers.subject).toContain("Rita Replier replied to");
    expect(replyMail[0]!.text).toContain("We are building this now.");
    await page.getByLabel("Write").fill("Only for the team: big customer asks.");
    await page.getByRole("button", { name: "Add internal note" }).click();
    await page.locator("li.card", { hasText: "Only for the team" }).waitFor();
    await t.ctx.mail.flush();
    expect(smtp.mail.length).toBe(beforeReply + 1);
    expect(smtp.mail.map((mail) => mail.text).join("\n")).not.toContain("Only for the team");

    const start = smtp.mail.length;
    await page.getByLabel("Status").selectOption("IN_PROGRESS");
    await page.getByLabel("Notify subscribers by email").check();
    await page.getByRole("button", { name: "Change status" }).click();
    await page.getByText("Status changed.").waitFor();
    await t.ctx.mail.flush();
    const statusMail = smtp.mail.slice(start);
    expect(statusMail.map((mail) => mail.to[0])).toContain("voter@example.com");
    // Text and HTML parts: the HTML carries the board's name, accent colour and a link to the request.
    expect(statusMail[0]!.text).toContain("in progress");
    expect(statusMail[0]!.html).toContain(`/b/acme/posts/${post.id}`);
    expect(statusMail[0]!.html).toContain("#3f3fc4");
    expect(statusMail[0]!.html).toContain("Acme");
    // A mail client renders it: the link to the request is there to click.
    const mailPage = await browser.newPage();
    await mailPage.setContent(statusMail[0]!.html!);
    expect(await mailPage.getByRole("link", { name: "View the request" }).getAttribute("href")).toContain(
      `/b/acme/posts/${post.id}`,
    );
    await mailPage.close();

    await page.goto(`${server.url}/b/acme/posts/${post.id}`);
    const reply = page.locator(".comment", { hasText: "We are building this now." });
    await reply.waitFor();
    expect(await reply.locator(".team-badge").textContent()).toBe("Team");
    expect(await reply.locator("strong").textContent()).toBe("Rita Replier");
    expect(await page.content()).not.toContain("Only for the team");
    const publicPost = await t.call("GET", `/api/public/boards/acme/posts/${post.id}`, { key: null });
    expect(publicPost.text).not.toContain("Only for the team");
    expect(publicPost.body.data.comments).toEqual([
      expect.objectContaining({
        body: "We are building this now.",
        isTeamReply: true,
        authorName: "Rita Replier",
      }),
    ]);
    // The widget reads the board through the public API with the publishable key: the note is not there either.
    const widgetList = await t.call("GET", "/api/public/boards/acme/posts?sort=date", {
      key: t.project.publishableKey,
    });
    expect(widgetList.status).toBe(200);
    expect(widgetList.text).toContain("Dark mode");
    expect(widgetList.text).not.toContain("Only for the team");
    await page.close();
  }, 60_000);

  test("the requests table searches, filters by tag and revenue, sorts by the voters' revenue, changes statuses in bulk", async () => {
    const tag = (await t.call("POST", "/api/v1/tags", { body: { label: "Reports" } })).body.data;
    const cheap = await makePost(t, { title: "Reports by week", status: "APPROVED", tagIds: [tag.id] });
    const rich = await makePost(t, { title: "Reports by quarter", status: "APPROVED", tagIds: [tag.id] });
    await makePost(t, { title: "Unrelated request about login", status: "APPROVED" });
    const payer = await t.call("POST", "/api/v1/users", {
      body: { email: "payer@bigco.example", userSpend: 499 },
    });
    const free = await t.call("POST", "/api/v1/users", { body: { email: "free@example.com" } });
    await t.call("POST", `/api/v1/posts/${rich.id}/votes`, { body: { boardUserId: payer.body.data.id } });
    await t.call("POST", `/api/v1/posts/${cheap.id}/votes`, { body: { boardUserId: free.body.data.id } });
    const other = (await t.call("POST", "/api/v1/users", { body: { email: "free2@example.com" } })).body.data;
    await t.call("POST", `/api/v1/posts/${cheap.id}/votes`, { body: { boardUserId: other.id } });

    // What a Monday inbox holds: new requests (one a likely duplicate) and comments from the board.
    await makePost(t, { title: "Weekly reports by email", description: "Send the reports every Monday" });
    await makePost(t, { title: "Reports by the week", description: "Group reports by week" });
    await t.call("POST", `/api/public/boards/acme/posts/${rich.id}/comments`, {
      key: null,
      body: { body: "We need this for our board meetings.", authorName: "Priya" },
    });
    const page = await signedIn("table@example.com", "Tara Table");
    await page.locator("li.card", { hasText: "Weekly reports by email" }).waitFor();
    await screenshot(page, "dashboard-inbox");
    // The inbox's suggestion merges a new duplicate in one click.
    await page
      .locator("li.card", { hasText: "Reports by the week" })
      .getByRole("button", { name: /^Merge into “Reports by week”/ })
      .click();
    await page.getByText("Merged: the votes, comments and subscribers moved.").waitFor();
    const pending = (await t.call("GET", "/api/v1/posts?status=PENDING")).body.data as { title: string }[];
    expect(pending.map((post) => post.title)).not.toContain("Reports by the week");
    await page.getByRole("link", { name: "Requests" }).click();
    await page.getByLabel("Search").fill("reports");
    await page.getByLabel("Tag").selectOption({ label: "Reports" });
    await page.getByLabel("Sort by").selectOption("revenue");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/sort=revenue/);
    const titles = async () => page.locator("tbody tr td:nth-child(2) a").allTextContents();
    // By the voters' revenue the paid-for request leads, though the other has more votes.
    expect(await titles()).toEqual(["Reports by quarter", "Reports by week"]);
    expect(await page.locator("tbody tr").first().locator("td.number").last().textContent()).toBe("$499");
    await page.getByLabel("Has revenue").check();
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/revenue=1/);
    expect(await titles()).toEqual(["Reports by quarter"]);
    await page.getByLabel("Has revenue").uncheck();
    await page.getByLabel("Sort by").selectOption("votes");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/sort=votes/);
    expect(await titles()).toEqual(["Reports by week", "Reports by quarter"]);

    await page.getByRole("checkbox", { name: "Select Reports by week" }).check();
    await page.getByRole("checkbox", { name: "Select Reports by quarter" }).check();
    await page.getByLabel("Set the selected to").selectOption("IN_PROGRESS");
    await page.getByRole("button", { name: "Change status" }).click();
    await page.getByText("Statuses changed.").waitFor();
    for (const id of [cheap.id, rich.id]) {
      expect((await t.call("GET", `/api/v1/posts/${id}`)).body.data.status).toBe("IN_PROGRESS");
    }
    await page.close();
  }, 60_000);

  test("with SMTP configured, a member signs in by a one-time email link", async () => {
    const first = await signedIn("linker@example.com", "Lin Linker");
    await first.close();
    const page = await openPage();
    await page.goto(`${server.url}/admin/login`);
    const start = smtp.mail.length;
    await page.getByRole("textbox", { name: "Email" }).last().fill("linker@example.com");
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await page.getByText("a sign-in link is on its way").waitFor();
    // The page answers without waiting for the mail server (its time would tell who is a member).
    const linkMail = () => smtp.mail.slice(start).find((received) => received.to[0] === "linker@example.com");
    await waitUntil(() => linkMail() !== undefined);
    const mail = linkMail();
    const link = /https?:\/\/\S+\/admin\/login\/link\/\S+/.exec(mail?.text ?? "")?.[0];
    expect(link).toBeDefined();
    // Only the token's hash is kept, and the mail is not stored in the outbox.
    expect(JSON.stringify(t.ctx.db.query("SELECT * FROM mail_outbox").all())).not.toContain(
      link!.split("/").at(-1)!,
    );
    await page.goto(link!.replace(/^https?:\/\/[^/]+/, server.url));
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Inbox" }).waitFor();
    // The link works once.
    const again = await fetch(link!.replace(/^https?:\/\/[^/]+/, server.url), {
      method: "POST",
      redirect: "manual",
    });
    expect(again.status).toBe(404);
    // An unknown email gets the same answer and no mail.
    const before = smtp.mail.length;
    const unknown = await postForm(`${server.url}/admin/login/link`, { email: "nobody@example.com" });
    expect(await unknown.text()).toContain("a sign-in link is on its way");
    await Bun.sleep(200);
    expect(smtp.mail.length).toBe(before);
    await page.close();
  }, 60_000);
});
