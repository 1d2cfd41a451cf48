import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { commitNow } from "../../src/db/connection";
import { createProject } from "../../src/projects/service";
import { inviteMember, listMembers, listOpenInvites, signIn } from "../../src/team/service";
import { createTestApp, type TestApp } from "../support/app";
import { listen } from "../support/board";
import { browserMissing, describeInBrowser, launchBrowser } from "../support/browser";
import { memberInBrowser, postForm, sessionCookieOf } from "../support/dashboard";
import { runCommand, SOURCE_COMMAND } from "../support/process";

/**
 * An invite link is shown to whoever invites (the Members screen, the CLI): it proves nothing about an
 * account that already exists. Accepting one used to set that account's password and role, so an owner's
 * own email invited as "member" demoted the last owner, and an owner of one project could take over the
 * account of a member of another.
 */
describe("invites and accounts that already exist", () => {
  let t: TestApp;
  let server: { url: string; stop: () => Promise<void> };
  beforeAll(() => {
    t = createTestApp();
    server = listen(t);
    createProject(t.ctx.db, { slug: "invites-b", plan: "growth" });
  });
  afterAll(async () => {
    await server.stop();
    t.close();
  });

  async function join(email: string, project: string, role: "owner" | "admin" | "member", password: string) {
    const { token } = inviteMember(t.ctx.db, { email, role, projectSlug: project });
    const accepted = await postForm(`${server.url}/admin/invite/${token}`, { password, name: email });
    expect(accepted.status).toBe(303);
    return sessionCookieOf(accepted);
  }

  test("inviting a member of the project again is refused: their role changes on the Members screen", async () => {
    await join("only-owner@example.com", "acme", "owner", "the owner's password");
    expect(() =>
      inviteMember(t.ctx.db, { email: "Only-Owner@example.com ", role: "member", projectSlug: "acme" }),
    ).toThrow("is already a member of");
    expect(listMembers(t.ctx.db, "acme").find((m) => m.email === "only-owner@example.com")?.role).toBe(
      "owner",
    );
  });

  test("an invite for an email with an account neither sets its password nor joins, unless signed in as it", async () => {
    await join("victim@example.com", "acme", "admin", "the victim's password");
    // An owner of another project invites the same email and opens the link shown to them.
    const { token } = inviteMember(t.ctx.db, {
      email: "victim@example.com",
      role: "owner",
      projectSlug: "invites-b",
    });
    const takeover = await postForm(`${server.url}/admin/invite/${token}`, {
      password: "attacker's password",
    });
    expect(takeover.status).toBe(401);
    expect(takeover.headers.get("set-cookie") ?? "").not.toContain("fb_session=");
    expect(await takeover.text()).toContain("already has an account");
    expect(
      signIn(t.ctx.db, { email: "victim@example.com", password: "attacker's password" }),
    ).rejects.toThrow();
    await signIn(t.ctx.db, { email: "victim@example.com", password: "the victim's password" });
    expect(listMembers(t.ctx.db, "invites-b").map((m) => m.email)).not.toContain("victim@example.com");

    // Signed in as that account, the same link joins the project; the password stays the account's.
    const session = await postForm(`${server.url}/admin/login`, {
      email: "victim@example.com",
      password: "the victim's password",
    });
    const cookie = sessionCookieOf(session);
    const joined = await postForm(`${server.url}/admin/invite/${token}`, { password: "" }, cookie);
    expect(joined.status).toBe(303);
    expect(listMembers(t.ctx.db, "invites-b").find((m) => m.email === "victim@example.com")?.role).toBe(
      "owner",
    );
    expect(listMembers(t.ctx.db, "acme").find((m) => m.email === "victim@example.com")?.role).toBe("admin");
    await signIn(t.ctx.db, { email: "victim@example.com", password: "the victim's password" });
  });

  test.skipIf(browserMissing())(
    "in Chromium: the invite page of an email with an account asks to sign in, comes back, and joins with one button",
    async () => {
      let browser: Browser | null = null;
      try {
        browser = await launchBrowser();
        const page = await memberInBrowser(browser, t, server.url, {
          email: "two-boards@example.com",
          role: "member",
        });
        await page.waitForURL(/\/admin/);
        const { token } = inviteMember(t.ctx.db, {
          email: "two-boards@example.com",
          role: "admin",
          projectSlug: "invites-b",
        });
        // Signed out, the page names the account and offers no password field to set.
        const stranger = await (await browser.newContext()).newPage();
        await stranger.goto(`${server.url}/admin/invite/${token}`);
        await stranger.getByText("which already has an account").waitFor();
        expect(await stranger.getByLabel("Password").count()).toBe(0);
        await stranger.getByRole("link", { name: "Sign in" }).click();
        await stranger.getByLabel("Email").fill("two-boards@example.com");
        await stranger.getByLabel("Password").fill("a long enough password");
        await stranger.getByRole("button", { name: "Sign in", exact: true }).click();
        // Back on the invite, signed in as the account: one button joins.
        await stranger.getByRole("button", { name: "Join Invites-b" }).click();
        await stranger.waitForURL(/\/admin(\?|$)/);
        expect(
          listMembers(t.ctx.db, "invites-b").find((m) => m.email === "two-boards@example.com")?.role,
        ).toBe("admin");
        expect(listMembers(t.ctx.db, "acme").find((m) => m.email === "two-boards@example.com")?.role).toBe(
          "member",
        );
      } finally {
        await browser?.close();
      }
    },
  );

  test("a lost password: `team reset-password` prints a new one, once, and ends the member's sessions", async () => {
    const cookie = await join("lost@example.com", "acme", "member", "a forgotten password");
    const env = { FEATUREBOARD_DB: t.ctx.db.filename };
    const reset = runCommand(
      [...SOURCE_COMMAND, "team", "reset-password", "--email", "lost@example.com"],
      env,
    );
    expect(reset.exitCode).toBe(0);
    const password = /^ {2}(\S+)$/m.exec(reset.stdout)?.[1] ?? "";
    expect(password.length).toBeGreaterThanOrEqual(20);
    const signedOut = await fetch(`${server.url}/admin`, { headers: { cookie }, redirect: "manual" });
    expect(signedOut.headers.get("location") ?? "").toContain("/admin/login");
    expect(
      signIn(t.ctx.db, { email: "lost@example.com", password: "a forgotten password" }),
    ).rejects.toThrow();
    await signIn(t.ctx.db, { email: "lost@example.com", password });
    // The sign-in's session is committed on the next turn; the command below blocks this process's loop.
    commitNow(t.ctx.db);

    const unknown = runCommand(
      [...SOURCE_COMMAND, "team", "reset-password", "--email", "nobody@example.com"],
      env,
    );
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain("nobody@example.com is not a team member");
  });
});

/**
 * Inviting an email again (to correct the role) used to leave the first link working, so the person could
 * join with the stale role; Withdraw on one row withdrew every invite of that email; and a second link
 * accepted by someone already on the team changed nothing without a word (docs/dashboard.md).
 */
describeInBrowser("inviting the same email again, withdrawing one invite", (served) => {
  const app = () => served().t;
  const base = () => served().server.url;

  const linkOn = async (page: Page) =>
    String(await page.locator("code.secret").textContent()).split("/admin/invite/")[1]!;
  const inviteOn = async (page: Page, email: string, role: string) => {
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Role", { exact: true }).selectOption(role);
    await page.getByRole("button", { name: "Invite", exact: true }).click();
    await page.locator("code.secret").waitFor();
    return linkOn(page);
  };

  test("a new invite replaces the open one: the page says so, the old link stops working, the new role applies", async () => {
    const owner = await memberInBrowser(served().browser, app(), base(), {
      email: "boss@example.com",
      role: "owner",
    });
    await owner.goto(`${base()}/admin/members?project=acme`);
    const stale = await inviteOn(owner, "sam@example.com", "admin");
    expect(await owner.locator("[data-replaced]").count()).toBe(0);
    const fresh = await inviteOn(owner, "Sam@Example.com", "member");
    expect(await owner.locator("[data-replaced]").textContent()).toContain(
      "It replaces the earlier invite of Sam@Example.com: that link no longer works.",
    );
    // One row is left, with the role given last.
    const rows = owner.getByRole("button", { name: /^Withdraw the invite of / });
    expect(await rows.count()).toBe(1);
    expect(await rows.first().getAttribute("aria-label")).toBe(
      "Withdraw the invite of Sam@Example.com as member",
    );

    const old = await postForm(`${base()}/admin/invite/${stale}`, { password: "a long enough password" });
    expect(old.status).toBe(404);
    const joined = await postForm(`${base()}/admin/invite/${fresh}`, {
      password: "a long enough password",
    });
    expect(joined.status).toBe(303);
    expect(listMembers(app().ctx.db, "acme").find((m) => m.email === "Sam@Example.com")?.role).toBe("member");
  });

  test("Withdraw on a row shown before a new invite withdraws that row only: the newer link keeps working", async () => {
    const owner = await memberInBrowser(served().browser, app(), base(), {
      email: "chief@example.com",
      role: "owner",
    });
    await owner.goto(`${base()}/admin/members?project=acme`);
    await inviteOn(owner, "kim@example.com", "owner");
    await owner.goto(`${base()}/admin/members?project=acme`);
    // Meanwhile another owner (here the CLI's service) invites Kim again, as member.
    const { token } = inviteMember(app().ctx.db, {
      email: "kim@example.com",
      role: "member",
      projectSlug: "acme",
    });
    // The row this page shows is the owner invite, replaced already.
    await owner.getByRole("button", { name: "Withdraw the invite of kim@example.com as owner" }).click();
    await owner.getByText("This invite is no longer open").waitFor();
    expect(listOpenInvites(app().ctx.db, "acme").map((invite) => `${invite.email} ${invite.role}`)).toContain(
      "kim@example.com member",
    );
    // The row of the open invite withdraws it.
    await owner.goto(`${base()}/admin/members?project=acme`);
    await owner.getByRole("button", { name: "Withdraw the invite of kim@example.com as member" }).click();
    await owner.getByText("Invite withdrawn: its link no longer works.").waitFor();
    expect(listOpenInvites(app().ctx.db, "acme").map((invite) => invite.email)).not.toContain(
      "kim@example.com",
    );
    expect(
      (await postForm(`${base()}/admin/invite/${token}`, { password: "a long enough password" })).status,
    ).toBe(404);
  });

  test("an invite accepted by someone already on the team says that it changed nothing", async () => {
    const { token } = inviteMember(app().ctx.db, {
      email: "lee@example.com",
      role: "admin",
      projectSlug: "acme",
    });
    // A second open invite of the same email, as invites made before one replaced the other left them.
    const second = "a-second-invite-token-made-before-replacing";
    app()
      .ctx.db.query(
        `INSERT INTO team_invites (token_hash, email, project_id, role, created_at, expires_at)
         VALUES (?, 'lee@example.com', ?, 'member', ?, ?)`,
      )
      .run(
        new Bun.CryptoHasher("sha256").update(second).digest(),
        app().project.project.id,
        Date.now(),
        Date.now() + 60_000,
      );
    const joined = await postForm(`${base()}/admin/invite/${token}`, {
      password: "a long enough password",
    });
    const cookie = sessionCookieOf(joined);
    const again = await postForm(`${base()}/admin/invite/${second}`, { password: "" }, cookie);
    expect(again.status).toBe(303);
    const landing = again.headers.get("location") ?? "";
    expect(landing).toContain("done=inviteUnchanged");
    const inbox = await (
      await fetch(`${base()}${landing}`, { headers: { cookie: sessionCookieOf(again) } })
    ).text();
    expect(inbox).toContain("the invite changed nothing and your role stays as it was");
    expect(listMembers(app().ctx.db, "acme").find((m) => m.email === "lee@example.com")?.role).toBe("admin");
  });
});

describe("asking for an email sign-in link", () => {
  test("answers at once for a member's email too: waiting for the mail server told who is a member", async () => {
    const silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const t = createTestApp({ FEATUREBOARD_SMTP_URL: `smtp://127.0.0.1:${silent.port}` });
    const server = listen(t);
    try {
      inviteMember(t.ctx.db, { email: "member@example.com", role: "owner", projectSlug: "acme" });
      const { token } = inviteMember(t.ctx.db, {
        email: "joined@example.com",
        role: "owner",
        projectSlug: "acme",
      });
      await postForm(`${server.url}/admin/invite/${token}`, { password: "a long enough password" });
      for (const email of ["joined@example.com", "nobody@example.com"]) {
        const started = performance.now();
        const answer = await postForm(`${server.url}/admin/login/link`, { email });
        expect(answer.status).toBe(200);
        expect(await answer.text()).toContain("If that email belongs to a team member");
        expect(performance.now() - started).toBeLessThan(2_000);
      }
    } finally {
      await server.stop();
      t.close();
      silent.stop(true);
    }
  });
});
