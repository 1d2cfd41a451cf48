import { expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { SESSION_TOUCH_MS, SIGN_INS_KEPT } from "../../src/team/schema";
import {
  acceptInvite,
  accountActivity,
  createSignInLink,
  inviteMember,
  sessionFor,
  signIn,
  useSignInLink,
} from "../../src/team/service";
import { describeInBrowser } from "../support/browser";
import { csrfOf, memberInBrowser, postForm, sessionCookieOf } from "../support/dashboard";

// "Your account" shows where the member is signed in and lets them sign the other sessions out, with their
// recent sign-ins and the wrong passwords given for their email (docs/dashboard.md, "Your account").

const CHROME_ON_LINUX =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const FIREFOX_ON_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0";
const SAFARI_ON_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
/** An agent team/device.ts cannot read: shown as sent, cut to 60 characters. */
const UNREADABLE_AGENT =
  "python-requests/2.31.0 SomeVeryLongCustomAgentStringThatKeepsGoingAndGoing/1.0 (compatible; bot)";
const PASSWORD = "a long enough password";

/**
 * A browser of its own (User-Agent, and the address a trusted proxy reports for it: the service reads the
 * client IP from X-Forwarded-For behind one, src/http/request-info.ts).
 */
async function device(browser: Browser, userAgent: string, ip: string): Promise<Page> {
  const context = await browser.newContext({ userAgent, extraHTTPHeaders: { "x-forwarded-for": ip } });
  const page = await context.newPage();
  page.on("pageerror", (error) => {
    throw error;
  });
  return page;
}

async function signInAt(page: Page, base: string, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${base}/admin/login`);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** The rows of one of the account page's tables, by its section's heading, as a person reads them. */
async function rowsUnder(page: Page, heading: string): Promise<string[]> {
  const rows = page.getByRole("region", { name: heading }).locator("tbody tr");
  return (await rows.allInnerTexts()).map((row) => row.replace(/\s+/g, " ").trim());
}

async function openAccount(page: Page, name: string): Promise<void> {
  await page.getByRole("link", { name, exact: true }).click();
  await page.getByRole("heading", { name: "Your account" }).waitFor();
}

/** Whether the page's next dashboard request lands on the sign-in page (its session ended). */
async function isSignedOut(page: Page, base: string): Promise<boolean> {
  await page.goto(`${base}/admin/requests`);
  return new URL(page.url()).pathname === "/admin/login";
}

describeInBrowser(
  "Your account: where you are signed in",
  (served) => {
    test("two browsers: the first sees both with their devices and signs the other out", async () => {
      const { t, server, browser } = served();
      const laptop = await memberInBrowser(browser, t, server.url, {
        email: "ines@example.com",
        name: "Ines",
        role: "member",
        context: { userAgent: CHROME_ON_LINUX, extraHTTPHeaders: { "x-forwarded-for": "198.51.100.7" } },
      });
      await laptop.getByRole("heading", { name: "Inbox" }).waitFor();
      const phone = await device(browser, FIREFOX_ON_WINDOWS, "203.0.113.9");
      await signInAt(phone, server.url, "ines@example.com");
      await phone.getByRole("heading", { name: "Inbox" }).waitFor();

      await openAccount(laptop, "Ines");
      const sessions = await rowsUnder(laptop, "Where you are signed in");
      expect(sessions).toHaveLength(2);
      // This session first, marked; the other with the device and the address it signed in from.
      expect(sessions[0]).toContain("Chrome on Linux This session");
      expect(sessions[0]).toContain("198.51.100.7");
      expect(sessions[1]).toContain("Firefox on Windows");
      expect(sessions[1]).toContain("203.0.113.9");
      // Times as the activity log writes them: to the minute, UTC said once, in the column's heading.
      expect(sessions[1]).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d/);
      expect(sessions[1]).not.toContain("UTC");
      const headings = laptop
        .getByRole("region", { name: "Where you are signed in" })
        .getByRole("columnheader");
      expect(await headings.allInnerTexts()).toEqual([
        "Device",
        "IP address",
        "Signed in (UTC)",
        "Last used (UTC)",
        "Actions",
      ]);
      // The session in use is not offered here: that is Sign out, at the top.
      await expect(laptop.getByRole("button", { name: /^Sign out Chrome on Linux/ }).count()).resolves.toBe(
        0,
      );

      const signIns = await rowsUnder(laptop, "Recent sign-ins");
      expect(signIns[0]).toContain("Password Firefox on Windows 203.0.113.9");
      expect(signIns[1]).toContain("Invite accepted Chrome on Linux 198.51.100.7");

      await laptop.getByRole("button", { name: "Sign out Firefox on Windows (203.0.113.9)" }).click();
      await laptop.getByText("Session signed out").waitFor();
      expect(await rowsUnder(laptop, "Where you are signed in")).toHaveLength(1);
      await laptop.getByText("You are signed in nowhere else.").waitFor();

      expect(await isSignedOut(phone, server.url)).toBe(true);
      await phone.getByRole("heading", { name: "Sign in to the team dashboard" }).waitFor();
      expect(await isSignedOut(laptop, server.url)).toBe(false);
    });

    test("Sign out all other sessions ends every session but this one", async () => {
      const { t, server, browser } = served();
      const first = await memberInBrowser(browser, t, server.url, {
        email: "omar@example.com",
        name: "Omar",
        role: "admin",
        context: { userAgent: CHROME_ON_LINUX },
      });
      await first.getByRole("heading", { name: "Inbox" }).waitFor();
      const others = [
        await device(browser, FIREFOX_ON_WINDOWS, "203.0.113.20"),
        await device(browser, SAFARI_ON_IPHONE, "203.0.113.21"),
      ];
      for (const other of others) {
        await signInAt(other, server.url, "omar@example.com");
        await other.getByRole("heading", { name: "Inbox" }).waitFor();
      }
      await openAccount(first, "Omar");
      const before = await rowsUnder(first, "Where you are signed in");
      expect(before).toHaveLength(3);
      expect(before.join("\n")).toContain("Safari on iPhone");

      await first.getByRole("button", { name: "Sign out all other sessions" }).click();
      await first.getByText("Your other sessions were signed out").waitFor();
      const after = await rowsUnder(first, "Where you are signed in");
      expect(after).toHaveLength(1);
      expect(after[0]).toContain("This session");
      for (const other of others) expect(await isSignedOut(other, server.url)).toBe(true);
      expect(await isSignedOut(first, server.url)).toBe(false);
    });

    test("a wrong password for the member's email shows under failed attempts, to them only", async () => {
      const { t, server, browser } = served();
      const member = await memberInBrowser(browser, t, server.url, {
        email: "rosa@example.com",
        name: "Rosa",
        role: "member",
      });
      await member.getByRole("heading", { name: "Inbox" }).waitFor();
      const guesser = await device(browser, SAFARI_ON_IPHONE, "192.0.2.66");
      await signInAt(guesser, server.url, "rosa@example.com", "password123!");
      await guesser.getByText("The email or the password is wrong").waitFor();

      await openAccount(member, "Rosa");
      const failed = await rowsUnder(member, "Failed sign-in attempts");
      expect(failed).toHaveLength(1);
      expect(failed[0]).toContain("Safari on iPhone");
      expect(failed[0]).toContain("192.0.2.66");
      // Not a sign-in, and no session: the guess opened nothing.
      expect((await rowsUnder(member, "Recent sign-ins")).join("\n")).not.toContain("192.0.2.66");
      expect((await rowsUnder(member, "Where you are signed in")).join("\n")).not.toContain("192.0.2.66");

      // Another member's page shows none of it.
      const colleague = await memberInBrowser(browser, t, server.url, {
        email: "sven@example.com",
        name: "Sven",
        role: "member",
      });
      await openAccount(colleague, "Sven");
      await colleague
        .getByRole("region", { name: "Failed sign-in attempts" })
        .getByText("No failed sign-in attempts: nobody gave a wrong password for sven@example.com.")
        .waitFor();
      expect(await colleague.content()).not.toContain("192.0.2.66");
    });

    test("each session's Sign out keeps one line on a laptop; on a phone each session is an entry, its Sign out on the screen", async () => {
      const { t, server, browser } = served();
      const laptop = await memberInBrowser(browser, t, server.url, {
        email: "kai@example.com",
        name: "Kai",
        role: "member",
        context: { userAgent: CHROME_ON_LINUX, viewport: { width: 1366, height: 900 } },
      });
      await laptop.getByRole("heading", { name: "Inbox" }).waitFor();
      // What widens the table: an address of IPv6 and an agent the page shows as sent (team/device.ts).
      const others: [string, string][] = [
        [FIREFOX_ON_WINDOWS, "2001:db8:85a3::8a2e:370:7334"],
        [UNREADABLE_AGENT, "203.0.113.30"],
        [SAFARI_ON_IPHONE, "203.0.113.31"],
      ];
      for (const [agent, ip] of others) {
        const other = await device(browser, agent, ip);
        await signInAt(other, server.url, "kai@example.com");
        await other.getByRole("heading", { name: "Inbox" }).waitFor();
      }
      await openAccount(laptop, "Kai");
      const signOuts = laptop.getByRole("button", { name: /^Sign out .+ \(/ });
      expect(await signOuts.count()).toBe(3);
      const oneLine = (await laptop
        .getByRole("button", { name: "Sign out all other sessions" })
        .boundingBox())!.height;
      for (const button of await signOuts.all()) {
        expect((await button.boundingBox())!.height).toBeLessThan(oneLine * 1.3);
      }

      await laptop.setViewportSize({ width: 390, height: 844 });
      const width = await laptop.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        screen: window.innerWidth,
      }));
      expect(width.page).toBeLessThanOrEqual(width.screen);
      const sessions = laptop.getByRole("region", { name: "Where you are signed in" });
      const onScreen = [
        ...(await signOuts.all()),
        sessions.getByText("2001:db8:85a3::8a2e:370:7334"),
        sessions.getByText(/^python-requests/),
        ...(await sessions.locator("time").all()),
      ];
      // Where they are drawn, without scrolling anything sideways (a table scrolled in its own box hid them).
      for (const element of onScreen) {
        const box = (await element.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width.screen);
      }
      // Each entry reads down the screen: its device, then what the headings named, then its Sign out.
      const entry = sessions.locator("tr", { hasText: "Safari on iPhone" });
      const name = (await entry.getByText("Safari on iPhone").boundingBox())!;
      const button = (await entry.getByRole("button").boundingBox())!;
      expect(button.y).toBeGreaterThan(name.y + name.height);
      expect(Math.abs(button.x - name.x)).toBeLessThan(2);
    });

    test("a wrong current password: the page opens at the form, the error naming the field by its label", async () => {
      const { t, server, browser } = served();
      const page = await memberInBrowser(browser, t, server.url, {
        email: "lena@example.com",
        name: "Lena",
        role: "member",
        context: { userAgent: CHROME_ON_LINUX, viewport: { width: 1366, height: 900 } },
      });
      await page.getByRole("heading", { name: "Inbox" }).waitFor();
      // Sessions and sign-ins enough to put the password form below the fold, as a member's page is.
      const others: [string, string][] = [
        [FIREFOX_ON_WINDOWS, "203.0.113.40"],
        [SAFARI_ON_IPHONE, "203.0.113.41"],
        [UNREADABLE_AGENT, "203.0.113.42"],
      ];
      for (const [agent, ip] of others) {
        const other = await device(browser, agent, ip);
        await signInAt(other, server.url, "lena@example.com");
        await other.getByRole("heading", { name: "Inbox" }).waitFor();
      }
      await openAccount(page, "Lena");
      await page.getByLabel("Current password").fill("not the password at all");
      await page.getByLabel("New password (at least 10 characters)").fill("a brand new password");
      await page.getByRole("button", { name: "Change password" }).click();
      const error = page.getByRole("alert");
      await error.waitFor();
      expect(await error.innerText()).toBe("Invalid “Current password”: is not your current password");
      // In view as the page opens, and the keyboard is at the field to type again.
      const box = (await error.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(900);
      expect(
        await page.getByLabel("Current password").evaluate((field) => field === document.activeElement),
      ).toBe(true);
      // Nothing changed: the password still signs in.
      expect(await isSignedOut(page, server.url)).toBe(false);
    });

    test("signing in again in the same browser replaces its session: no session is left that nobody holds", async () => {
      const { t, server, browser } = served();
      const page = await memberInBrowser(browser, t, server.url, {
        email: "noor@example.com",
        name: "Noor",
        role: "member",
        context: { userAgent: CHROME_ON_LINUX },
      });
      await page.getByRole("heading", { name: "Inbox" }).waitFor();
      const first = (await page.context().cookies()).find((cookie) => cookie.name === "fb_session")!.value;
      await signInAt(page, server.url, "noor@example.com");
      await page.getByRole("heading", { name: "Inbox" }).waitFor();
      await openAccount(page, "Noor");
      const sessions = await rowsUnder(page, "Where you are signed in");
      expect(sessions).toHaveLength(1);
      expect(sessions[0]).toContain("This session");
      // Both sign-ins are in the history; the replaced cookie opens nothing any more.
      expect(await rowsUnder(page, "Recent sign-ins")).toHaveLength(2);
      const replaced = await fetch(`${server.url}/admin`, {
        headers: { cookie: `fb_session=${first}` },
        redirect: "manual",
      });
      expect(replaced.status).toBe(303);
    });

    test("a session of another member, or the one in use, is refused by the form: nothing is signed out", async () => {
      const { t, server } = served();
      const base = server.url;
      /** A password sign-in over HTTP from a browser that says it is `userAgent`; its cookie. */
      const signInOverHttp = async (email: string, userAgent: string) =>
        sessionCookieOf(
          await fetch(`${base}/admin/login`, {
            method: "POST",
            redirect: "manual",
            headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": userAgent },
            body: new URLSearchParams({ email, password: PASSWORD }).toString(),
          }),
        );
      /** A new member, signed in by accepting their invite (Bun's own User-Agent); their cookie. */
      const join = async (email: string) => {
        const { token } = inviteMember(t.ctx.db, { email, role: "member", projectSlug: "acme" });
        return sessionCookieOf(
          await postForm(`${base}/admin/invite/${token}`, { password: PASSWORD, name: email }),
        );
      };
      const ada = await join("ada@example.com");
      const boLaptop = await join("bo@example.com");
      const boPhone = await signInOverHttp("bo@example.com", SAFARI_ON_IPHONE);
      const accountOf = async (cookie: string) =>
        (await fetch(`${base}/admin/account`, { headers: { cookie } })).text();
      const sessionIdsOn = (page: string) =>
        [...page.matchAll(/name="session" value="([^"]+)"/g)].map((match) => match[1]!);
      const boIds = sessionIdsOn(await accountOf(boLaptop));
      expect(boIds).toHaveLength(1);
      const adaPage = await accountOf(ada);
      // Ada's page lists only hers.
      for (const id of boIds) expect(adaPage).not.toContain(id);
      expect(adaPage).not.toContain("Safari on iPhone");

      const csrf = await csrfOf(base, ada);
      const stillSignedIn = async (cookie: string) =>
        (await fetch(`${base}/admin`, { headers: { cookie }, redirect: "manual" })).status === 200;
      for (const id of boIds) {
        const refused = await postForm(
          `${base}/admin/account/sessions/sign-out`,
          { csrf, project: "acme", session: id },
          ada,
        );
        expect(refused.status).toBe(400);
        expect(await refused.text()).toContain(
          "That is none of your signed-in sessions: nothing was signed out",
        );
      }
      expect(await stillSignedIn(boLaptop)).toBe(true);
      expect(await stillSignedIn(boPhone)).toBe(true);

      // Her own session in use is no session to sign out here (Sign out is for that).
      const current = sessionFor(t.ctx.db, ada.split("=")[1]!)!.sessionId;
      const own = await postForm(
        `${base}/admin/account/sessions/sign-out`,
        { csrf, project: "acme", session: current },
        ada,
      );
      expect(own.status).toBe(400);
      expect(await own.text()).toContain("That is the session you are using");
      expect(await stillSignedIn(ada)).toBe(true);

      // Without the session's CSRF token, nothing happens either.
      const boCsrf = await csrfOf(base, boLaptop);
      const phoneId = sessionIdsOn(await accountOf(boLaptop))[0]!;
      const forged = await postForm(
        `${base}/admin/account/sessions/sign-out`,
        { project: "acme", session: phoneId },
        boLaptop,
      );
      expect(forged.status).toBe(400);
      expect(await stillSignedIn(boPhone)).toBe(true);
      // With it, Bo signs his phone out; "Sign out all other sessions" then has nothing left to end.
      const done = await postForm(
        `${base}/admin/account/sessions/sign-out`,
        { csrf: boCsrf, project: "acme", session: phoneId },
        boLaptop,
      );
      expect(done.status).toBe(303);
      expect(await stillSignedIn(boPhone)).toBe(false);
      expect(await stillSignedIn(boLaptop)).toBe(true);
      const again = await postForm(
        `${base}/admin/account/sessions/sign-out-others`,
        { csrf: boCsrf, project: "acme" },
        boLaptop,
      );
      expect(again.headers.get("location")).toContain("done=unchanged");
      // Ada's "Sign out all other sessions" ends none of Bo's.
      await postForm(`${base}/admin/account/sessions/sign-out-others`, { csrf, project: "acme" }, ada);
      expect(await stillSignedIn(boLaptop)).toBe(true);
      expect(await stillSignedIn(ada)).toBe(true);
    });

    test("last used is written at most once a minute, not on every request", async () => {
      const { t } = served();
      const { token } = inviteMember(t.ctx.db, {
        email: "lu@example.com",
        role: "member",
        projectSlug: "acme",
      });
      const start = Date.now();
      const { sessionToken } = await acceptInvite(t.ctx.db, token, { password: PASSWORD }, start);
      const lastUsed = (now: number) => {
        const session = sessionFor(t.ctx.db, sessionToken, now)!;
        return accountActivity(t.ctx.db, session.member.id, session.sessionId, now).sessions[0]!.lastUsedAt;
      };
      expect(lastUsed(start + 30_000)).toBe(new Date(start).toISOString());
      expect(lastUsed(start + SESSION_TOUCH_MS - 1)).toBe(new Date(start).toISOString());
      expect(lastUsed(start + SESSION_TOUCH_MS)).toBe(new Date(start + SESSION_TOUCH_MS).toISOString());
      expect(lastUsed(start + SESSION_TOUCH_MS + 5_000)).toBe(
        new Date(start + SESSION_TOUCH_MS).toISOString(),
      );
    });

    test("the history keeps the newest 50 sign-ins; many sign-ins push out no failed attempt", async () => {
      const { t } = served();
      const email = "busy@example.com";
      const { token } = inviteMember(t.ctx.db, { email, role: "member", projectSlug: "acme" });
      const { sessionToken } = await acceptInvite(t.ctx.db, token, { password: PASSWORD });
      await expect(signIn(t.ctx.db, { email, password: "not the password" })).rejects.toThrow();
      // Email links: a sign-in without a password's hashing work, so 55 of them stay cheap.
      for (let i = 0; i < SIGN_INS_KEPT + 5; i++) {
        useSignInLink(t.ctx.db, createSignInLink(t.ctx.db, email)!.token, {
          ip: `10.0.0.${i}`,
          userAgent: FIREFOX_ON_WINDOWS,
        });
      }
      const session = sessionFor(t.ctx.db, sessionToken)!;
      const history = accountActivity(t.ctx.db, session.member.id, session.sessionId);
      expect(history.signIns[0]).toMatchObject({ kind: "link", ip: `10.0.0.${SIGN_INS_KEPT + 4}` });
      expect(history.failedSignIns).toHaveLength(1);
      const kept = t.ctx.db
        .query<{ kind: string; n: number }, [string]>(
          "SELECT kind, count(*) AS n FROM team_sign_ins WHERE member_id = ? GROUP BY kind ORDER BY kind",
        )
        .all(session.member.id);
      // The invite's sign-in was the oldest: it went first.
      expect(kept).toEqual([
        { kind: "failed", n: 1 },
        { kind: "link", n: SIGN_INS_KEPT },
      ]);
    });
  },
  {
    FEATUREBOARD_TRUST_PROXY: "true",
    // Every browser here signs in from the one test machine; the limits have their own tests.
    FEATUREBOARD_RATE_LIMIT_SIGN_IN_PER_MINUTE: "1000",
    FEATUREBOARD_RATE_LIMIT_SIGN_IN_BURST: "1000",
  },
);
