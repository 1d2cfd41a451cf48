import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type JsonBody, type TestApp } from "../support/app";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { listen, makePost, makeUser } from "../support/board";
import { connectHttp, toolValue } from "../support/mcp";
import { describeInBrowser } from "../support/browser";
import { activitySentence } from "../../src/admin/activity-lines";
import type { Chrome } from "../../src/admin/pages";
import type { ActivityEntry } from "../../src/activity/schema";
import { type ReceivedMail, type SmtpReceiver, startSmtpReceiver } from "./smtp-receiver";

// Double opt-in for emails typed on the public board (docs/payments-and-email.md, "Confirming an email").

const PUBLIC_URL = "https://board.example";

let smtp: SmtpReceiver;
/**
 * The browser suite's settings: its app is built in its own beforeAll, after this file's, so the SMTP
 * receiver's address is known by then and written into this very object.
 */
const browserEnv: Record<string, string> = { FEATUREBOARD_PUBLIC_URL: PUBLIC_URL };
beforeAll(async () => {
  smtp = await startSmtpReceiver();
  browserEnv.FEATUREBOARD_SMTP_URL = smtp.url;
});
afterAll(() => smtp.close());

/** The dashboard's frame around an activity line, as an owner of the test's project sees it. */
function chromeOf(t: TestApp): Chrome {
  const { slug, name } = t.project.project;
  return {
    memberName: "Priya",
    projectName: name,
    projectSlug: slug,
    role: "owner",
    csrfToken: "token",
    pendingCount: 0,
    newCommentCount: 0,
    projects: [{ slug, name }],
    section: "activity",
    notice: null,
  };
}

function mailTo(address: string, from = 0): ReceivedMail[] {
  return smtp.mail.slice(from).filter((mail) => mail.to.includes(address));
}

/** The confirmation link of a mail, as its reader sees it, and its path on the board's server. */
function confirmLink(mail: ReceivedMail): { url: string; path: string } {
  const match = new RegExp(`${PUBLIC_URL}(/email/confirm/[A-Za-z0-9_-]+)`).exec(mail.text);
  if (!match?.[1]) throw new Error(`no confirmation link in: ${mail.text}`);
  return { url: match[0], path: match[1] };
}

async function publicVote(t: TestApp, post: JsonBody, anonymousId: string, email: string) {
  const response = await t.call("POST", `/api/public/boards/acme/posts/${post.id}/vote`, {
    key: null,
    body: { anonymousId, email },
  });
  expect(response.status).toBe(201);
  await t.ctx.mail.flush();
  return response.body;
}

async function publicSubmit(t: TestApp, title: string, email: string) {
  const response = await t.call("POST", "/api/public/posts", {
    key: null,
    body: { projectSlug: "acme", title, email },
  });
  expect(response.status).toBe(201);
  await t.ctx.mail.flush();
  return response.body.data;
}

async function changeStatus(t: TestApp, post: JsonBody, status: string) {
  const response = await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { status, notify: true } });
  expect(response.status).toBe(200);
  await t.ctx.mail.flush();
}

describe("an email typed on the public board is confirmed before it gets mail", () => {
  let t: TestApp;
  let post: JsonBody;
  let link: { url: string; path: string };
  const visitor = "visitor@example.com";
  const customer = "customer@example.com";
  beforeAll(async () => {
    t = createTestApp({ FEATUREBOARD_SMTP_URL: smtp.url, FEATUREBOARD_PUBLIC_URL: PUBLIC_URL });
    post = await makePost(t, { title: "Dark <mode>", status: "APPROVED" });
  });
  afterAll(() => t.close());

  test("a public vote with an email sends that address one confirmation mail, and no status mail", async () => {
    const start = smtp.mail.length;
    await publicVote(t, post, "anon-visitor", visitor);
    const sent = mailTo(visitor, start);
    expect(sent).toHaveLength(1);
    const mail = sent[0]!;
    expect(mail.headers.subject).toBe('[Acme] Confirm your email for "Dark <mode>"');
    expect(mail.text).toContain('given on the Acme feedback board with the request "Dark <mode>"');
    expect(mail.text).toContain("when the request's status changes or the Acme team replies");
    expect(mail.text).toContain("ignore this email");
    expect(mail.text).toContain("gets no mail");
    link = confirmLink(mail);
    // 192 random bits in base64url: 32 characters.
    expect(link.path).toMatch(/^\/email\/confirm\/[A-Za-z0-9_-]{32}$/);
    // The HTML part's button is the link; the mail offers no unsubscribe (there is nothing to leave yet).
    expect(mail.html).toContain(`href="${link.url}"`);
    expect(mail.html).toContain("Confirm your email");
    expect(mail.headers["list-unsubscribe"]).toBeUndefined();
    expect(mail.text).not.toContain("/email/unsubscribe/");

    // An email the team set through the secret-key API needs no confirmation: it is mailed at once.
    const known = await makeUser(t, { email: customer, name: "Customer" });
    await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { boardUserId: known.id } });
    const before = smtp.mail.length;
    await changeStatus(t, post, "IN_PROGRESS");
    expect(mailTo(customer, before).map((m) => m.headers.subject)).toEqual([
      '[Acme] "Dark <mode>" is now in progress',
    ]);
    expect(mailTo(visitor, before)).toHaveLength(0);
  });

  test("opening the link shows a Confirm button and confirms nothing", async () => {
    const page = await t.call("GET", link.path, { key: null });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.text).toContain("<h1>Confirm your email</h1>");
    expect(page.text).toContain('<form method="post"><button type="submit">Confirm</button></form>');
    // The request's title is escaped on the page.
    expect(page.text).toContain("Dark &#60;mode&#62;");
    expect(page.text).not.toContain("<mode>");
    expect((await t.call("GET", link.path, { key: null })).text).toContain("Confirm your email");

    const before = smtp.mail.length;
    await changeStatus(t, post, "COMPLETE");
    expect(mailTo(customer, before)).toHaveLength(1);
    expect(mailTo(visitor, before)).toHaveLength(0);
  });

  test("the button confirms; from then on status changes mail the address, and the link says so again", async () => {
    const done = await t.call("POST", link.path, { key: null, rawBody: "" });
    expect(done.status).toBe(200);
    expect(done.text).toContain("<h1>Email confirmed</h1>");
    expect(done.text).toContain("your email is confirmed");
    for (const method of ["POST", "GET"]) {
      const again = await t.call(method, link.path, { key: null });
      expect(again.status).toBe(200);
      expect(again.text).toContain("already confirmed");
    }

    // The team's activity log says who confirmed what, in words (src/admin/activity-lines.ts).
    const activity = await t.call("GET", "/api/v1/activity?limit=20");
    const entry = activity.body.data.find((item: ActivityEntry) => item.action === "email_confirmed");
    expect(entry).toMatchObject({ entityType: "user", metadata: { source: "public", email: visitor } });
    expect(activitySentence(chromeOf(t), entry, { posts: new Map(), releases: new Map() }).toString()).toBe(
      `A visitor on the board confirmed the email ${visitor} from the link mailed to it`,
    );

    // Nothing left out before is sent now; the next change is.
    expect(mailTo(visitor).filter((mail) => !mail.headers.subject?.includes("Confirm"))).toHaveLength(0);
    const before = smtp.mail.length;
    await changeStatus(t, post, "IN_PROGRESS");
    const sent = mailTo(visitor, before);
    expect(sent.map((mail) => mail.headers.subject)).toEqual(['[Acme] "Dark <mode>" is now in progress']);
    expect(sent[0]!.text).toContain("/email/unsubscribe/");
  });

  test("the same address typed again sends no second confirmation, and the answer does not tell", async () => {
    const waiting = "waiting@example.com";
    const other = await makePost(t, { title: "Offline mode", status: "APPROVED" });
    const start = smtp.mail.length;
    const first = await publicVote(t, post, "anon-waiting", waiting);
    expect(mailTo(waiting, start)).toHaveLength(1);

    // Again, in another case, on another post and with a submission: no mail, the same answers as for an
    // address nobody has.
    const again = await publicVote(t, other, "anon-waiting-2", "Waiting@Example.com");
    const fresh = await publicVote(t, other, "anon-fresh", "fresh@example.com");
    expect(Object.keys(again.data).sort()).toEqual(Object.keys(fresh.data).sort());
    expect(again.data.voted).toBe(true);
    expect(first.data.voted).toBe(true);
    await publicSubmit(t, "Export to CSV", waiting);
    expect(mailTo(waiting, start)).toHaveLength(1);
    // A confirmed address typed with a request it does not follow yet is asked whether to follow it (below).
    await publicVote(t, other, "anon-visitor-2", visitor);
    expect(mailTo(visitor, start).map((mail) => mail.headers.subject)).toEqual([
      '[Acme] Confirm to get updates about "Offline mode"',
    ]);
  });

  test("a public submission with an email asks its author to confirm, and sends nothing else until then", async () => {
    const author = "author@example.com";
    const start = smtp.mail.length;
    const submitted = await publicSubmit(t, "Calendar sync", author);
    const sent = mailTo(author, start);
    expect(sent.map((mail) => mail.headers.subject)).toEqual([
      '[Acme] Confirm your email for "Calendar sync"',
    ]);
    await changeStatus(t, submitted, "APPROVED");
    expect(mailTo(author, start)).toHaveLength(1);
    const confirmed = await t.call("POST", confirmLink(sent[0]!).path, { key: null });
    expect(confirmed.text).toContain("Calendar sync");
    await changeStatus(t, submitted, "IN_PROGRESS");
    expect(mailTo(author, start).map((mail) => mail.headers.subject)).toEqual([
      '[Acme] Confirm your email for "Calendar sync"',
      '[Acme] "Calendar sync" is now in progress',
    ]);
  });

  test("an email the team sets through the API on an unconfirmed user confirms it", async () => {
    const address = "later@example.com";
    const start = smtp.mail.length;
    await publicVote(t, post, "anon-later", address);
    expect(mailTo(address, start)).toHaveLength(1);
    await makeUser(t, { email: address, userSpend: 20 });
    const before = smtp.mail.length;
    await changeStatus(t, post, "COMPLETE");
    expect(mailTo(address, before)).toHaveLength(1);
    // Its link now says so instead of asking.
    const page = await t.call("GET", confirmLink(mailTo(address, start)[0]!).path, { key: null });
    expect(page.text).toContain("already confirmed");
  });

  test("an unknown or expired link is a 404 page in words, and confirms nothing", async () => {
    for (const method of ["GET", "POST"]) {
      const unknown = await t.call(method, "/email/confirm/nope", { key: null });
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get("content-type")).toContain("text/html");
      expect(unknown.text).toContain("This confirmation link is unknown or has expired");
    }

    const address = "slow@example.com";
    const start = smtp.mail.length;
    await publicVote(t, post, "anon-slow", address);
    const { path } = confirmLink(mailTo(address, start)[0]!);
    // Eight days later.
    t.ctx.db
      .query("UPDATE email_confirmations SET expires_at = ? WHERE email = ?")
      .run(Date.now() - 86_400_000, address);
    expect((await t.call("GET", path, { key: null })).status).toBe(404);
    expect((await t.call("POST", path, { key: null })).status).toBe(404);
    const before = smtp.mail.length;
    await changeStatus(t, post, "IN_PROGRESS");
    expect(mailTo(address, before)).toHaveLength(0);
  });
});

/** The unsubscribe link of a subscriber mail, as a path on the board's server. */
function unsubscribePath(mail: ReceivedMail): string {
  const match = new RegExp(`${PUBLIC_URL}(/email/unsubscribe/[A-Za-z0-9_-]+)`).exec(mail.text);
  if (!match?.[1]) throw new Error(`no unsubscribe link in: ${mail.text}`);
  return match[1];
}

/** Ages a confirmation link past its 7 days, as if it had been left unused that long. */
function expireLink(t: TestApp, link: { path: string }): void {
  const token = link.path.split("/").pop();
  t.ctx.db
    .query("UPDATE email_confirmations SET expires_at = ? WHERE token = ?")
    .run(Date.now() - 1, token ?? "");
}

/** The status mail subjects an address got since `from`. */
function statusSubjects(address: string, from: number): (string | undefined)[] {
  return mailTo(address, from).map((mail) => mail.headers.subject);
}

describe("a returning visitor who types their email again hears about the new request, once confirmed", () => {
  let t: TestApp;
  let dark: JsonBody;
  let offline: JsonBody;
  let calendar: JsonBody;
  let link: { url: string; path: string };
  const returning = "returning@example.com";
  beforeAll(async () => {
    t = createTestApp({ FEATUREBOARD_SMTP_URL: smtp.url, FEATUREBOARD_PUBLIC_URL: PUBLIC_URL });
    dark = await makePost(t, { title: "Dark mode", status: "APPROVED" });
    offline = await makePost(t, { title: "Offline mode", status: "APPROVED" });
    calendar = await makePost(t, { title: "Calendar sync", status: "APPROVED" });
    // A confirmed subscriber of "Dark mode": they voted with their email and followed the link.
    const start = smtp.mail.length;
    await publicVote(t, dark, "anon-r1", returning);
    const confirmed = await t.call("POST", confirmLink(mailTo(returning, start)[0]!).path, { key: null });
    expect(confirmed.text).toContain("Email confirmed");
  });
  afterAll(() => t.close());

  test("a keyless vote on a second post sends one confirmation mail worded for it; the vote stays anonymous", async () => {
    const start = smtp.mail.length;
    await publicVote(t, offline, "anon-r2", "Returning@Example.com");
    const sent = mailTo(returning, start);
    expect(sent.map((mail) => mail.headers.subject)).toEqual([
      '[Acme] Confirm to get updates about "Offline mode"',
    ]);
    expect(sent[0]!.text).toContain('You asked on the Acme board for updates about "Offline mode"');
    expect(sent[0]!.text).toContain("Confirm to get them: an email when the request's status changes");
    expect(sent[0]!.text).toContain("If it was not you, ignore this email");
    link = confirmLink(sent[0]!);
    expect(sent[0]!.html).toContain(`href="${link.url}"`);

    // The email found no one's vote and cast none in their name: the vote is the anonymous id's alone.
    const votes = await t.call("GET", `/api/v1/posts/${offline.id}/votes`);
    expect(votes.body.data).toHaveLength(1);
    expect(votes.body.data[0]).toMatchObject({
      anonymousId: "anon-r2",
      boardUserId: null,
      boardUserEmail: null,
    });

    // Not subscribed before confirming.
    const before = smtp.mail.length;
    await changeStatus(t, offline, "IN_PROGRESS");
    expect(mailTo(returning, before)).toHaveLength(0);
  });

  test("a third vote while the link is pending sends nothing; the link names both, GET changes nothing, POST subscribes to both", async () => {
    const start = smtp.mail.length;
    await publicVote(t, calendar, "anon-r3", returning);
    expect(mailTo(returning, start)).toHaveLength(0);

    const page = await t.call("GET", link.path, { key: null });
    expect(page.text).toContain("<h1>Confirm your email</h1>");
    expect(page.text).toContain(
      "Get an email when “Offline mode” and 1 other request on the Acme board change status or the team replies?",
    );
    await changeStatus(t, calendar, "IN_PROGRESS");
    expect(mailTo(returning, start)).toHaveLength(0);

    const done = await t.call("POST", link.path, { key: null, rawBody: "" });
    expect(done.status).toBe(200);
    expect(done.text).toContain("<h1>Email confirmed</h1>");
    expect(done.text).toContain(
      "You will get an email when “Offline mode” and 1 other request on the Acme board change status or the team replies.",
    );
    // No second "email confirmed" in the log: the address was confirmed already.
    const activity = await t.call("GET", "/api/v1/activity?limit=50");
    const confirmations = activity.body.data.filter(
      (item: ActivityEntry) => item.action === "email_confirmed",
    );
    expect(confirmations).toHaveLength(1);

    const before = smtp.mail.length;
    await changeStatus(t, offline, "COMPLETE");
    await changeStatus(t, calendar, "COMPLETE");
    expect(statusSubjects(returning, before)).toEqual([
      '[Acme] "Offline mode" is now complete',
      '[Acme] "Calendar sync" is now complete',
    ]);
    // The used link says so, and subscribes nothing more.
    const again = await t.call("POST", link.path, { key: null });
    expect(again.text).toContain(
      "Your email is already confirmed: you get an email when “Offline mode” on the Acme board",
    );
  });

  test("a post they had unsubscribed from is subscribed again when they ask again and confirm", async () => {
    const start = smtp.mail.length;
    await changeStatus(t, dark, "IN_PROGRESS");
    const [statusMail] = mailTo(returning, start);
    expect((await t.call("POST", unsubscribePath(statusMail!), { key: null })).status).toBe(200);
    const quiet = smtp.mail.length;
    await changeStatus(t, dark, "COMPLETE");
    expect(mailTo(returning, quiet)).toHaveLength(0);

    // A vote from another browser, with the same address: they ask again.
    await publicVote(t, dark, "anon-r4", returning);
    const [asked] = mailTo(returning, quiet);
    expect(asked!.headers.subject).toBe('[Acme] Confirm to get updates about "Dark mode"');
    await t.call("POST", confirmLink(asked!).path, { key: null });
    const before = smtp.mail.length;
    await changeStatus(t, dark, "IN_PROGRESS");
    expect(statusSubjects(returning, before)).toEqual(['[Acme] "Dark mode" is now in progress']);
  });

  test("typing the address again on a request they already follow sends nothing", async () => {
    const start = smtp.mail.length;
    await publicVote(t, offline, "anon-r5", returning);
    expect(mailTo(returning, start)).toHaveLength(0);
  });

  test("a link left to expire unused: the next keyless request with that address sends a new one", async () => {
    const first = await makePost(t, { title: "Keyboard shortcuts", status: "APPROVED" });
    const second = await makePost(t, { title: "Two-factor sign-in", status: "APPROVED" });
    const start = smtp.mail.length;
    await publicVote(t, first, "anon-r6", returning);
    const [expired] = mailTo(returning, start);
    expireLink(t, confirmLink(expired!));
    await publicVote(t, second, "anon-r7", returning);
    const sent = mailTo(returning, start);
    expect(sent.map((mail) => mail.headers.subject)).toEqual([
      '[Acme] Confirm to get updates about "Keyboard shortcuts"',
      '[Acme] Confirm to get updates about "Two-factor sign-in"',
    ]);
    // The expired link subscribes nothing; the new one covers both requests, still within their 7 days.
    expect((await t.call("POST", confirmLink(expired!).path, { key: null })).text).not.toContain("Keyboard");
    const done = await t.call("POST", confirmLink(sent[1]!).path, { key: null });
    expect(done.text).toContain("“Two-factor sign-in” and 1 other request on the Acme board change status");
    const before = smtp.mail.length;
    await changeStatus(t, first, "IN_PROGRESS");
    await changeStatus(t, second, "IN_PROGRESS");
    expect(statusSubjects(returning, before)).toEqual([
      '[Acme] "Keyboard shortcuts" is now in progress',
      '[Acme] "Two-factor sign-in" is now in progress',
    ]);
  });

  test("an unconfirmed address whose link expired unused gets a new one, which confirms it for both requests", async () => {
    const address = "late-reader@example.com";
    const first = await makePost(t, { title: "Custom domains", status: "APPROVED" });
    const second = await makePost(t, { title: "SAML", status: "APPROVED" });
    const start = smtp.mail.length;
    await publicVote(t, first, "anon-l1", address);
    const [expired] = mailTo(address, start);
    expireLink(t, confirmLink(expired!));
    expect((await t.call("GET", confirmLink(expired!).path, { key: null })).status).toBe(404);

    await publicVote(t, second, "anon-l2", address);
    const sent = mailTo(address, start);
    // Still unconfirmed: today's wording, for the request it was typed with this time.
    expect(sent.map((mail) => mail.headers.subject)).toEqual([
      '[Acme] Confirm your email for "Custom domains"',
      '[Acme] Confirm your email for "SAML"',
    ]);
    const page = await t.call("GET", confirmLink(sent[1]!).path, { key: null });
    expect(page.text).toContain(
      "Get an email when “SAML” and 1 other request on the Acme board change status",
    );
    await t.call("POST", confirmLink(sent[1]!).path, { key: null });
    const before = smtp.mail.length;
    await changeStatus(t, first, "IN_PROGRESS");
    await changeStatus(t, second, "IN_PROGRESS");
    expect(statusSubjects(address, before)).toEqual([
      '[Acme] "Custom domains" is now in progress',
      '[Acme] "SAML" is now in progress',
    ]);
    // Typing it again on a request it follows sends nothing now: it is confirmed.
    const after = smtp.mail.length;
    await publicVote(t, first, "anon-l3", address);
    expect(mailTo(address, after)).toHaveLength(0);
  });

  test("a request merged into another while the link waits: confirming subscribes to the one it was merged into", async () => {
    const duplicate = await makePost(t, { title: "Night theme", status: "APPROVED" });
    const target = await makePost(t, { title: "Theme support", status: "APPROVED" });
    const start = smtp.mail.length;
    await publicVote(t, duplicate, "anon-m1", returning);
    const [asked] = mailTo(returning, start);
    const merged = await t.call("POST", `/api/v1/posts/${duplicate.id}/merge`, {
      body: { intoPostId: target.id },
    });
    expect(merged.status).toBe(200);
    const page = await t.call("GET", confirmLink(asked!).path, { key: null });
    expect(page.text).toContain("Get an email when “Theme support” on the Acme board changes status");
    await t.call("POST", confirmLink(asked!).path, { key: null });
    const before = smtp.mail.length;
    await changeStatus(t, target, "IN_PROGRESS");
    expect(statusSubjects(returning, before)).toEqual(['[Acme] "Theme support" is now in progress']);
  });

  test("a request asked for more than 7 days ago is not subscribed by a later confirmation", async () => {
    const old = await makePost(t, { title: "Old ask", status: "APPROVED" });
    const fresh = await makePost(t, { title: "Fresh ask", status: "APPROVED" });
    const start = smtp.mail.length;
    await publicVote(t, old, "anon-o1", returning);
    const [oldMail] = mailTo(returning, start);
    expireLink(t, confirmLink(oldMail!));
    // Eight days ago.
    t.ctx.db
      .query("UPDATE pending_subscriptions SET created_at = ? WHERE post_id = ?")
      .run(Date.now() - 8 * 86_400_000, String(old.id));
    await publicVote(t, fresh, "anon-o2", returning);
    const [, freshMail] = mailTo(returning, start);
    // The stale row went when the new one was written.
    const left = t.ctx.db
      .query<{ n: number }, [string]>("SELECT count(*) AS n FROM pending_subscriptions WHERE post_id = ?")
      .get(String(old.id));
    expect(left?.n).toBe(0);
    const done = await t.call("POST", confirmLink(freshMail!).path, { key: null });
    expect(done.text).toContain("when “Fresh ask” on the Acme board changes status");
    const before = smtp.mail.length;
    await changeStatus(t, old, "IN_PROGRESS");
    await changeStatus(t, fresh, "IN_PROGRESS");
    expect(statusSubjects(returning, before)).toEqual(['[Acme] "Fresh ask" is now in progress']);
  });
});

describe("the answers do not tell what the board knows of an email", () => {
  /** An answer's text with what differs by nature (ids, times, counts) written as placeholders. */
  function normalized(text: string, ids: string[]): string {
    let out = text;
    for (const id of ids) out = out.replaceAll(id, "<id>");
    return out
      .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g, "<time>")
      .replace(/"voteCount":\d+/g, '"voteCount":<n>');
  }

  test("public API vote and submit, and public MCP submit, answer the same for a new, an unconfirmed and a confirmed address", async () => {
    const t = createTestApp({ FEATUREBOARD_SMTP_URL: smtp.url, FEATUREBOARD_PUBLIC_URL: PUBLIC_URL });
    const server = listen(t);
    const clients: Client[] = [];
    try {
      const post = await makePost(t, { title: "Dark mode", status: "APPROVED" });
      const unconfirmed = "pending-one@example.com";
      const confirmed = "confirmed-one@example.com";
      await publicVote(t, post, "anon-u", unconfirmed);
      const start = smtp.mail.length;
      await publicVote(t, post, "anon-c", confirmed);
      await t.call("POST", confirmLink(mailTo(confirmed, start)[0]!).path, { key: null });
      const addresses = ["brand-new@example.com", unconfirmed, confirmed];

      const other = await makePost(t, { title: "Offline mode", status: "APPROVED" });
      const votes: string[] = [];
      for (const [n, email] of addresses.entries()) {
        const response = await t.call("POST", `/api/public/boards/acme/posts/${other.id}/vote`, {
          key: null,
          body: { anonymousId: `anon-same-${n}`, email },
        });
        expect(response.status).toBe(201);
        votes.push(normalized(response.text, []));
      }
      expect(new Set(votes).size).toBe(1);

      const submits: string[] = [];
      for (const email of addresses) {
        const response = await t.call("POST", "/api/public/posts", {
          key: null,
          body: { projectSlug: "acme", title: "Same title", email },
        });
        expect(response.status).toBe(201);
        submits.push(normalized(response.text, [String(response.body.data.id)]));
      }
      expect(new Set(submits).size).toBe(1);

      const visitor = await connectHttp(server.url, { project: "acme" });
      clients.push(visitor);
      const tools: string[] = [];
      for (const email of ["another-new@example.com", unconfirmed, confirmed]) {
        const value = await toolValue(visitor, "submit_feature_request", { title: "Same tool title", email });
        tools.push(normalized(JSON.stringify(value), [String(value.post.id)]));
      }
      expect(new Set(tools).size).toBe(1);
    } finally {
      for (const client of clients) await client.close();
      await server.stop();
      t.close();
    }
  });
});

describe("over MCP", () => {
  test("public mode asks to confirm an email, as the public API does; with a secret key it is the team's and mailed", async () => {
    const t = createTestApp({ FEATUREBOARD_SMTP_URL: smtp.url, FEATUREBOARD_PUBLIC_URL: PUBLIC_URL });
    const server = listen(t);
    const clients: Client[] = [];
    try {
      const visitor = await connectHttp(server.url, { project: "acme" });
      const team = await connectHttp(server.url, { key: t.project.secretKey });
      clients.push(visitor, team);
      const start = smtp.mail.length;
      const typed = await toolValue(visitor, "submit_feature_request", {
        title: "Webhooks for votes",
        email: "agent-user@example.com",
      });
      const filed = await toolValue(team, "submit_feature_request", {
        title: "Slack digest",
        email: "known@example.com",
      });
      await t.ctx.mail.flush();
      expect(mailTo("agent-user@example.com", start).map((mail) => mail.headers.subject)).toEqual([
        '[Acme] Confirm your email for "Webhooks for votes"',
      ]);
      expect(mailTo("known@example.com", start)).toHaveLength(0);

      const before = smtp.mail.length;
      await changeStatus(t, typed.post, "APPROVED");
      await changeStatus(t, filed.post, "APPROVED");
      expect(mailTo("agent-user@example.com", before)).toHaveLength(0);
      expect(mailTo("known@example.com", before).map((mail) => mail.headers.subject)).toEqual([
        '[Acme] "Slack digest" is now approved',
      ]);
    } finally {
      for (const client of clients) await client.close();
      await server.stop();
      t.close();
    }
  });
});

describe("without an SMTP server", () => {
  test("the confirmation mail is kept in the local outbox, as every mail is", async () => {
    const t = createTestApp({ FEATUREBOARD_PUBLIC_URL: PUBLIC_URL });
    try {
      const post = await makePost(t, { title: "Dark mode", status: "APPROVED" });
      await publicVote(t, post, "anon-1", "nosmtp@example.com");
      const rows = t.ctx.db
        .query<{ subject: string; transport: string | null }, []>(
          "SELECT subject, transport FROM mail_outbox",
        )
        .all();
      expect(rows).toEqual([{ subject: '[Acme] Confirm your email for "Dark mode"', transport: "outbox" }]);
    } finally {
      t.close();
    }
  });
});

describeInBrowser(
  "confirming an email in Chromium",
  (served) => {
    test("the link of the received mail opens a page whose Confirm button confirms", async () => {
      const { t, server, browser } = served();
      const post = await makePost(t, { title: "Keyboard shortcuts", status: "APPROVED" });
      const start = smtp.mail.length;
      await publicVote(t, post, "anon-browser", "reader@example.com");
      const [mail] = mailTo("reader@example.com", start);
      const { url } = confirmLink(mail!);
      const page = await browser.newPage();
      try {
        // The mail's link names the configured public URL; this app listens on a loopback port.
        await page.goto(url.replace(PUBLIC_URL, server.url));
        expect(await page.locator("h1").textContent()).toBe("Confirm your email");
        await page.getByRole("button", { name: "Confirm" }).click();
        await page.waitForSelector("text=your email is confirmed");
        expect(await page.locator("h1").textContent()).toBe("Email confirmed");
        expect(await page.locator("body").innerText()).toContain("“Keyboard shortcuts” on the Acme board");
        // The page leads back to the board the mail came from.
        await page.getByRole("link", { name: "Go to the Acme board" }).click();
        await page.waitForURL(`${server.url}/b/acme`);
        expect(await page.getByText("Keyboard shortcuts").first().isVisible()).toBe(true);
      } finally {
        await page.close();
      }
    });

    test("a confirmed reader asking about two more requests sees both named, and Confirm subscribes to both", async () => {
      const { t, server, browser } = served();
      const reader = "reader@example.com";
      const first = await makePost(t, { title: "Bulk edit", status: "APPROVED" });
      const second = await makePost(t, { title: "Saved filters", status: "APPROVED" });
      const start = smtp.mail.length;
      await publicVote(t, first, "anon-browser-2", reader);
      await publicVote(t, second, "anon-browser-3", reader);
      const sent = mailTo(reader, start);
      expect(sent.map((mail) => mail.headers.subject)).toEqual([
        '[Acme] Confirm to get updates about "Bulk edit"',
      ]);
      const page = await browser.newPage();
      try {
        await page.goto(confirmLink(sent[0]!).url.replace(PUBLIC_URL, server.url));
        expect(await page.locator("body").innerText()).toContain(
          "Get an email when “Bulk edit” and 1 other request on the Acme board change status or the team replies?",
        );
        await page.getByRole("button", { name: "Confirm" }).click();
        await page.waitForSelector("text=your email is confirmed");
        expect(await page.locator("body").innerText()).toContain(
          "You will get an email when “Bulk edit” and 1 other request on the Acme board change status",
        );
      } finally {
        await page.close();
      }
      const before = smtp.mail.length;
      await changeStatus(t, first, "IN_PROGRESS");
      await changeStatus(t, second, "IN_PROGRESS");
      expect(statusSubjects(reader, before)).toEqual([
        '[Acme] "Bulk edit" is now in progress',
        '[Acme] "Saved filters" is now in progress',
      ]);
    });
  },
  browserEnv,
);
