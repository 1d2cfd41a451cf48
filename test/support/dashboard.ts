import type { Browser, BrowserContextOptions, Dialog, Page } from "playwright-core";
import type { TeamRole } from "../../src/team/schema";
import { inviteMember } from "../../src/team/service";
import { afterAll, beforeAll, describe } from "bun:test";
import { createTestApp, type TestApp } from "./app";
import { listen } from "./board";
// Helpers for tests of the team dashboard: forms posted as a browser posts them, the session cookie and
// the CSRF token a page carries.

/** Posts a form as a browser would: urlencoded, with the session cookie when given. */
export async function postForm(url: string, fields: Record<string, string>, cookie?: string) {
  return fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
  });
}

export function sessionCookieOf(response: Response): string {
  const header = response.headers.get("set-cookie") ?? "";
  const match = /fb_session=([^;]+)/.exec(header);
  if (!match) throw new Error(`no session cookie in: ${header}`);
  return `fb_session=${match[1]}`;
}

export async function csrfOf(base: string, cookie: string): Promise<string> {
  const inbox = await (await fetch(`${base}/admin`, { headers: { cookie } })).text();
  const match = /name="csrf" value="([^"]+)"/.exec(inbox);
  if (!match) throw new Error("no CSRF token on the inbox page");
  return match[1]!;
}

/** Markup's text as the browser shows it: tags dropped, the page's entities read back, spaces collapsed. */
export function textShown(markup: string): string {
  return markup
    .replace(/<[^>]*>/g, "")
    .replaceAll("&#39;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&")
    .replace(/\s+/g, " ")
    .trim();
}

/** A test app served on a loopback port, and a team member signed in to its dashboard over HTTP. */
export interface SignedInOverHttp {
  t: TestApp;
  url: string;
  cookie: string;
  csrf: string;
}

/**
 * `describe(name, …)` around a served app with `member` signed in over HTTP (memberOverHttp): made before
 * the block's tests and stopped after them. `session()` reads it in a test, or in a helper a test calls.
 */
export function describeSignedIn(
  name: string,
  member: { email: string; role: TeamRole; name?: string },
  tests: (session: () => SignedInOverHttp) => void,
): void {
  describe(name, () => {
    let current: SignedInOverHttp | null = null;
    let stop = async () => {};
    beforeAll(async () => {
      const t = createTestApp();
      const server = listen(t);
      stop = async () => {
        await server.stop();
        t.close();
      };
      const { cookie, csrf } = await memberOverHttp(t, server.url, member);
      current = { t, url: server.url, cookie, csrf };
    });
    afterAll(() => stop());
    tests(() => {
      if (current === null) throw new Error("the signed-in session is read before its beforeAll ran");
      return current;
    });
  });
}

/**
 * A team member invited to a project who accepted the invite over HTTP, as a browser posts the form: their
 * session cookie and the CSRF token the dashboard's forms carry.
 */
export async function memberOverHttp(
  t: TestApp,
  baseUrl: string,
  member: { email: string; role: TeamRole; name?: string; project?: string },
): Promise<{ cookie: string; csrf: string }> {
  const { token } = inviteMember(t.ctx.db, {
    email: member.email,
    role: member.role,
    projectSlug: member.project ?? "acme",
  });
  const accepted = await postForm(`${baseUrl}/admin/invite/${token}`, {
    password: "correct horse battery",
    name: member.name ?? member.email,
  });
  if (accepted.status !== 303) throw new Error(`accepting the invite answered ${accepted.status}`);
  const cookie = sessionCookieOf(accepted);
  return { cookie, csrf: await csrfOf(baseUrl, cookie) };
}

/**
 * A team member invited to a project who opened the invite in a fresh Chromium context and set a
 * password, as a person would; a script error on any dashboard page fails the test.
 */
export async function memberInBrowser(
  browser: Browser,
  t: TestApp,
  baseUrl: string,
  member: {
    email: string;
    role: TeamRole;
    name?: string;
    project?: string;
    context?: BrowserContextOptions;
  },
): Promise<Page> {
  const { token } = inviteMember(t.ctx.db, {
    email: member.email,
    role: member.role,
    projectSlug: member.project ?? "acme",
  });
  const page = await (await browser.newContext(member.context ?? {})).newPage();
  page.on("pageerror", (error) => {
    throw error;
  });
  // Actions that cannot be taken back ask first (dashboard.js): this member says yes, unless a test
  // removes this listener to answer otherwise.
  page.on("dialog", acceptDialog);
  await page.goto(`${baseUrl}/admin/invite/${token}`);
  if (member.name) await page.getByLabel("Your name").fill(member.name);
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Set password and sign in" }).click();
  return page;
}

/** Says yes to the dashboard's "are you sure?" (the default answer of a member opened by memberInBrowser). */
export function acceptDialog(dialog: Dialog): void {
  void dialog.accept();
}

/** memberInBrowser at a screenshot-friendly size, waiting until the inbox shows. */
export async function memberInInbox(
  browser: Browser,
  t: TestApp,
  baseUrl: string,
  member: { email: string; name: string; role: TeamRole },
): Promise<Page> {
  const page = await memberInBrowser(browser, t, baseUrl, {
    ...member,
    context: { viewport: { width: 1280, height: 900 } },
  });
  await page.getByRole("heading", { name: "Inbox" }).waitFor();
  return page;
}

/**
 * Opens one of the set-up screens grouped under Settings (General, Tags, Members, API keys, Webhooks,
 * Integrations, Import) as a person does: Settings in the header, then the screen's tab.
 */
export async function openSettingsScreen(page: Page, screen: string): Promise<void> {
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Settings" }).click();
  await page
    .getByRole("navigation", { name: "Settings" })
    .getByRole("link", { name: screen, exact: true })
    .click();
}

/**
 * Uploads CSV text on the open Import screen and watches the job to its end as a person does: the page
 * first sent shows the job running (what follows is the dashboard script's, not a fresh page's).
 */
export async function importCsvAndWatch(page: Page, lines: readonly string[]): Promise<void> {
  await page.getByLabel(/A CSV file/).setInputFiles({
    name: "requests.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(lines.join("\n")),
  });
  const firstSent = page.waitForResponse((response) => /\/admin\/import\/[0-9a-f-]+\?/.test(response.url()));
  await page.getByRole("button", { name: "Import", exact: true }).click();
  const running = await (await firstSent).text();
  if (!running.includes('data-state="running"')) throw new Error("the import's page was not sent running");
  await page.locator('[data-import][data-state="finished"]').waitFor({ timeout: 60_000 });
}
