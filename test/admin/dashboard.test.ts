import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { inviteMember, sessionFor } from "../../src/team/service";
import { createTestApp, type TestApp } from "../support/app";
import { listen, makePost } from "../support/board";
import { browserMissing, launchBrowser } from "../support/browser";
import { runCommand, SOURCE_COMMAND } from "../support/process";
import { type SmtpReceiver, startSmtpReceiver } from "../email/smtp-receiver";

/** Posts a form as a browser would: urlencoded, with the session cookie when given. */
async function postForm(url: string, fields: Record<string, string>, cookie?: string) {
  return fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
  });
}

function sessionCookieOf(response: Response): string {
  const header = response.headers.get("set-cookie") ?? "";
  const match = /fb_session=([^;]+)/.exec(header);
  if (!match) throw new Error(`no session cookie in: ${header}`);
  return `fb_session=${match[1]}`;
}

async function csrfOf(base: string, cookie: string): Promise<string> {
  const inbox = await (await fetch(`${base}/admin`, { headers: { cookie } })).text();
  const match = /name="csrf" value="([^"]+)"/.exec(inbox);
  if (!match) throw new Error("no CSRF token on the inbox page");
  return match[1]!;
}

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

  test("a stolen session cookie stops working after sign-out", async () => {
    const cookie = await member("leaver@example.com");
    const csrf = await csrfOf(server.url, cookie);
    expect((await postForm(`${server.url}/admin/logout`, { csrf }, cookie)).status).toBe(303);
    const after = await fetch(`${server.url}/admin`, { headers: { cookie }, redirect: "manual" });
    expect(after.status).toBe(303);
    expect(after.headers.get("location")).toBe("/admin/login");
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

    const page = await browser.newPage();
    await page.goto(url);
    await page.getByLabel("Your name").fill("Olivia Owner");
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Set password and sign in" }).click();
    await page.waitForURL(`${server.url}/admin`);
    await page.getByRole("heading", { name: "Inbox" }).waitFor();
    const card = page.locator("li.card", { hasText: "Keyboard shortcuts" });
    await card.getByRole("button", { name: "Approve" }).click();
    await page.waitForURL(/\/admin\?project=acme$/);
    expect(await page.locator("li.card", { hasText: "Keyboard shortcuts" }).count()).toBe(0);

    expect((await t.call("GET", `/api/v1/posts/${pending.id}`)).body.data.status).toBe("APPROVED");
    await page.goto(`${server.url}/b/acme`);
    await page.locator(".post-card", { hasText: "Keyboard shortcuts" }).waitFor();
    await page.close();
  }, 60_000);

  test("official replies carry the Team badge on the public page; internal notes stay private; a status change notifies by email", async () => {
    const post = await makePost(t, { title: "Dark mode", status: "APPROVED" });
    const voter = await t.call("POST", "/api/v1/users", {
      body: { email: "voter@example.com", name: "Vera" },
    });
    await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { boardUserId: voter.body.data.id } });
    const { token } = inviteMember(t.ctx.db, {
      email: "replier@example.com",
      role: "member",
      projectSlug: "acme",
    });

    const page = await browser.newPage();
    await page.goto(`${server.url}/admin/invite/${token}`);
    await page.getByLabel("Your name").fill("Rita Replier");
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Set password and sign in" }).click();
    await page.waitForURL(`${server.url}/admin`);

    await page.goto(`${server.url}/admin/posts/${post.id}?project=acme`);
    await page.getByLabel("Write").fill("We are building this now.");
    await page.getByRole("button", { name: "Post official reply" }).click();
    await page.getByLabel("Write").fill("Only for the team: big customer asks.");
    await page.getByRole("button", { name: "Add internal note" }).click();
    await page.locator("li.card", { hasText: "Only for the team" }).waitFor();

    const start = smtp.mail.length;
    await page.getByLabel("Status").selectOption("IN_PROGRESS");
    await page.getByLabel("Notify subscribers by email").check();
    await page.getByRole("button", { name: "Change status" }).click();
    await page.waitForURL(/\/admin\?project=acme$/);
    await t.ctx.mail.flush();
    expect(smtp.mail.slice(start).map((mail) => mail.to[0])).toContain("voter@example.com");

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
    await page.close();
  }, 60_000);
});
