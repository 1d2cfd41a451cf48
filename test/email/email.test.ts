import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createComment } from "../../src/comments/service";
import { loadConfig } from "../../src/config";
import { closeDatabase, commitNow } from "../../src/db/connection";
import { createLogger } from "../../src/log";
import { createPost, updatePost } from "../../src/posts/service";
import { createProject } from "../../src/projects/service";
import { createContext, startService } from "../../src/server";
import { upsertUserByEmail } from "../../src/users/service";
import { castVote } from "../../src/votes/service";
import { createTestApp, type JsonBody, type TestApp, tempDir } from "../support/app";
import { makePost, makeUser } from "../support/board";
import { freePort } from "../support/process";
import { type ReceivedMail, type SmtpReceiver, startSmtpReceiver } from "./smtp-receiver";
import { updateProjectSettings } from "../../src/projects/service";

const PUBLIC_URL = "https://board.example";

let smtp: SmtpReceiver;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
});
afterAll(() => smtp.close());

function newMail(from: number): ReceivedMail[] {
  return smtp.mail.slice(from);
}

function unsubscribeLink(mail: ReceivedMail): string {
  const match = new RegExp(`${PUBLIC_URL}/email/unsubscribe/([A-Za-z0-9_-]+)`).exec(mail.text);
  if (!match) throw new Error(`no unsubscribe link in: ${mail.text}`);
  return `/email/unsubscribe/${match[1]}`;
}

/**
 * A post with every kind of would-be subscriber: its author, a voter with an email, a voter who also
 * commented (one email for both), a commenter who never voted, and people who must get nothing: an
 * anonymous voter, a board user without an email, an internal note's author.
 */
async function postWithSubscribers(t: TestApp) {
  const db = t.ctx.db;
  const projectId = t.project.project.id;
  const author = await makeUser(t, { email: "author@example.com", name: "Author" });
  const voter = await makeUser(t, { email: "voter@example.com", name: "Voter" });
  const both = await makeUser(t, { email: "both@example.com" });
  const commenter = await makeUser(t, { email: "commenter@example.com" });
  const noEmail = await makeUser(t, { email: "temporary@example.com" });
  await t.call("PATCH", `/api/v1/users/${noEmail.id}`, { body: { email: null } });
  const insider = await makeUser(t, { email: "insider@example.com" });

  const post = await makePost(t, { title: "Dark mode", createdByBoardUserId: author.id });
  for (const user of [voter, both, noEmail]) {
    await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { boardUserId: user.id } });
  }
  await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { anonymousId: "anon-1" } });
  // Comments by known board users arrive through the public API; its service is what that API calls.
  createComment(db, projectId, post.id, { body: "Yes please", boardUserId: both.id });
  createComment(db, projectId, post.id, { body: "Same here", boardUserId: commenter.id });
  createComment(db, projectId, post.id, {
    body: "Planned for Q3",
    boardUserId: insider.id,
    isInternalNote: true,
  });
  return {
    post,
    subscribers: ["author@example.com", "both@example.com", "commenter@example.com", "voter@example.com"],
  };
}

async function changeStatus(t: TestApp, post: JsonBody, status: string, notify?: boolean) {
  const body = notify === undefined ? { status } : { status, notify };
  const response = await t.call("PATCH", `/api/v1/posts/${post.id}`, { body });
  expect(response.status).toBe(200);
  await t.ctx.mail.flush();
}

describe("status emails over SMTP", () => {
  let t: TestApp;
  let fixture: Awaited<ReturnType<typeof postWithSubscribers>>;
  beforeAll(async () => {
    t = createTestApp({ FEATUREBOARD_SMTP_URL: smtp.url, FEATUREBOARD_PUBLIC_URL: PUBLIC_URL });
    fixture = await postWithSubscribers(t);
  });
  afterAll(() => t.close());

  test("notify: true sends one email per subscriber through the SMTP server", async () => {
    const start = smtp.mail.length;
    await changeStatus(t, fixture.post, "IN_PROGRESS", true);
    const sent = newMail(start);
    expect(
      sent
        .map((mail) => mail.to)
        .flat()
        .sort(),
    ).toEqual(fixture.subscribers);
    for (const mail of sent) {
      expect(mail.headers.subject).toBe('[Acme] "Dark mode" is now in progress');
      expect(mail.headers.to).toContain(mail.to[0]);
      expect(mail.text).toContain('"Dark mode" on the Acme board moved from pending review to in progress.');
      const link = unsubscribeLink(mail);
      expect(mail.headers["list-unsubscribe"]).toBe(`<${PUBLIC_URL}${link}>`);
      expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    }
    expect(new Set(sent.map(unsubscribeLink)).size).toBe(sent.length);
    expect(sent.find((mail) => mail.to[0] === "voter@example.com")?.text).toContain("Hi Voter,");

    // Once: another pass of the sender sends nothing more.
    await t.ctx.mail.flush();
    expect(smtp.mail.length).toBe(start + sent.length);
    const rows = t.ctx.db
      .query<{ n: number }, []>(
        "SELECT count(*) AS n FROM mail_outbox WHERE sent_at IS NULL OR transport <> 'smtp'",
      )
      .get();
    expect(rows?.n).toBe(0);
    const notification = t.ctx.db
      .query<{ sent_at: number | null }, [string]>(
        "SELECT sent_at FROM status_notifications WHERE post_id = ?",
      )
      .get(fixture.post.id);
    expect(notification?.sent_at).toEqual(expect.any(Number));
  });

  test("notify false, notify left out, and notify without an actual status change send nothing", async () => {
    const start = smtp.mail.length;
    await changeStatus(t, fixture.post, "COMPLETE", false);
    await changeStatus(t, fixture.post, "APPROVED");
    await changeStatus(t, fixture.post, "APPROVED", true);
    expect(smtp.mail.length).toBe(start);
  });

  test("an unsubscribed subscriber gets nothing; the others still do", async () => {
    const start = smtp.mail.length;
    await changeStatus(t, fixture.post, "IN_PROGRESS", true);
    const voterMail = newMail(start).find((mail) => mail.to[0] === "voter@example.com")!;
    const link = unsubscribeLink(voterMail);

    // GET only asks (mail scanners open links); the POST unsubscribes.
    const asked = await t.call("GET", link, { key: null });
    expect(asked.status).toBe(200);
    expect(asked.headers.get("content-type")).toContain("text/html");
    expect(asked.text).toContain("Dark mode");
    expect(asked.text).toContain('<form method="post">');
    const done = await t.call("POST", link, { key: null, rawBody: "List-Unsubscribe=One-Click" });
    expect(done.status).toBe(200);
    expect(done.text).toContain("no more emails");
    // The page leads back to the board; a board that is not public (its pages answer 404) gets no link.
    const backToBoard = '<a href="/b/acme">Go to the Acme board</a>';
    expect(done.text).toContain(backToBoard);
    expect((await t.call("POST", link, { key: null })).status).toBe(200);
    expect((await t.call("GET", link, { key: null })).text).toContain("already");
    const { project } = t.project;
    updateProjectSettings(t.ctx.db, project.id, { name: project.name, isPublic: false, accentColor: null });
    const hidden = await t.call("GET", link, { key: null });
    expect(hidden.text).toContain("already");
    expect(hidden.text).not.toContain("Go to the");
    updateProjectSettings(t.ctx.db, project.id, { name: project.name, isPublic: true, accentColor: null });

    const next = smtp.mail.length;
    await changeStatus(t, fixture.post, "COMPLETE", true);
    expect(
      newMail(next)
        .map((mail) => mail.to[0])
        .sort(),
    ).toEqual(fixture.subscribers.filter((email) => email !== "voter@example.com"));
  });

  test("an unknown unsubscribe link answers 404", async () => {
    const unknown = await t.call("GET", "/email/unsubscribe/nope", { key: null });
    expect(unknown.status).toBe(404);
    expect((await t.call("POST", "/email/unsubscribe/nope", { key: null })).status).toBe(404);
  });

  test("bulk updates notify like PATCH", async () => {
    const start = smtp.mail.length;
    const response = await t.call("PATCH", "/api/v1/posts/bulk", {
      body: { items: [{ id: fixture.post.id, status: "CLOSED", notify: true }] },
    });
    expect(response.status).toBe(200);
    await t.ctx.mail.flush();
    expect(newMail(start)).toHaveLength(fixture.subscribers.length - 1);
  });

  test("a merge does not subscribe back who unsubscribed from the duplicate; who followed the target too keeps its mail", async () => {
    // A post of its own (the tests above changed theirs): the voter and the author unsubscribe from it; the
    // author had also voted on the target.
    const duplicate = (await postWithSubscribers(t)).post;
    const start = smtp.mail.length;
    await changeStatus(t, duplicate, "IN_PROGRESS", true);
    for (const address of ["voter@example.com", "author@example.com"]) {
      const mail = newMail(start).find((sent) => sent.to[0] === address)!;
      expect((await t.call("POST", unsubscribeLink(mail), { key: null })).status).toBe(200);
    }
    const users = await t.call("GET", "/api/v1/users?limit=100");
    const authorId = users.body.data.find((user: JsonBody) => user.email === "author@example.com").id;
    const target = await makePost(t, { title: "Night theme" });
    await t.call("POST", `/api/v1/posts/${target.id}/votes`, { body: { boardUserId: authorId } });

    const merged = await t.call("POST", `/api/v1/posts/${duplicate.id}/merge`, {
      body: { intoPostId: target.id },
    });
    expect(merged.status).toBe(200);
    const next = smtp.mail.length;
    await changeStatus(t, target, "IN_PROGRESS", true);
    expect(
      newMail(next)
        .map((mail) => mail.to[0])
        .sort(),
    ).toEqual(["author@example.com", "both@example.com", "commenter@example.com"]);
  });
});

describe("a mail server that is down or silent", () => {
  test("mail waiting for a retry is not sent to someone who unsubscribed meanwhile", async () => {
    const t = createTestApp({ FEATUREBOARD_SMTP_URL: `smtp://127.0.0.1:${freePort()}` });
    try {
      const { post } = await postWithSubscribers(t);
      await changeStatus(t, post, "APPROVED", true);
      const waiting = () =>
        t.ctx.db
          .query<
            { to_address: string; failed_at: number | null; last_error: string | null; token: string },
            [string]
          >(
            `SELECT to_address, failed_at, last_error, unsubscribe_token AS token FROM mail_outbox
              WHERE post_id = ? AND sent_at IS NULL ORDER BY to_address`,
          )
          .all(post.id);
      const voter = waiting().find((row) => row.to_address === "voter@example.com")!;
      expect(voter.failed_at).toBeNull();
      // The server refused the pass's first mail; the others wait for the next pass, all still queued.
      expect(waiting().some((row) => row.last_error !== null)).toBe(true);
      const done = await t.call("POST", `/email/unsubscribe/${voter.token}`, {
        key: null,
        rawBody: "List-Unsubscribe=One-Click",
      });
      expect(done.status).toBe(200);
      for (const row of waiting()) {
        if (row.to_address === "voter@example.com") {
          expect(row).toMatchObject({ last_error: "unsubscribed", failed_at: expect.any(Number) });
        } else expect(row.failed_at).toBeNull();
      }
    } finally {
      t.close();
    }
  });

  test("a mail server that accepts the connection and never answers fails the attempt within seconds", async () => {
    const silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const t = createTestApp({ FEATUREBOARD_SMTP_URL: `smtp://127.0.0.1:${silent.port}` });
    try {
      const { post } = await postWithSubscribers(t);
      const started = performance.now();
      await changeStatus(t, post, "APPROVED", true);
      // One attempt waits for the greeting (nodemailer's own wait was 30 s, and every other subscriber's
      // mail waited as long in turn); the rest of the pass waits for the next one, untried.
      expect(performance.now() - started).toBeLessThan(15_000);
      const errors = t.ctx.db
        .query<{ last_error: string | null }, [string]>(
          "SELECT last_error FROM mail_outbox WHERE post_id = ? AND sent_at IS NULL ORDER BY last_error",
        )
        .all(post.id)
        .map((row) => row.last_error);
      expect(errors.filter((error) => error?.includes("Greeting never received"))).toHaveLength(1);
      expect(errors.filter((error) => error === null)).toHaveLength(3);
    } finally {
      t.close();
      silent.stop(true);
    }
  }, 30_000);
});

describe("without an SMTP server", () => {
  const t = createTestApp();
  afterAll(() => t.close());

  test("mail is kept in the local outbox table", async () => {
    const start = smtp.mail.length;
    const { post, subscribers } = await postWithSubscribers(t);
    await changeStatus(t, post, "APPROVED", true);
    const rows = t.ctx.db
      .query<
        { to_address: string; transport: string | null; sent_at: number | null; subject: string },
        [string]
      >(
        "SELECT to_address, transport, sent_at, subject FROM mail_outbox WHERE post_id = ? ORDER BY to_address",
      )
      .all(post.id);
    expect(rows.map((row) => row.to_address)).toEqual(subscribers);
    for (const row of rows) {
      expect(row.transport).toBe("outbox");
      expect(row.sent_at).toEqual(expect.any(Number));
      expect(row.subject).toContain("approved");
    }
    expect(smtp.mail.length).toBe(start);
    // Each app serves its own unsubscribe pages.
    const token = t.ctx.db
      .query<{ unsubscribe_token: string }, []>("SELECT unsubscribe_token FROM mail_outbox LIMIT 1")
      .get()?.unsubscribe_token;
    expect((await t.call("GET", `/email/unsubscribe/${token}`, { key: null })).status).toBe(200);
  });
});

describe("after a restart", () => {
  test("mail written before the stop is sent when the server starts again", async () => {
    const dir = tempDir();
    const env = {
      FEATUREBOARD_DB: join(dir, "restart.db"),
      FEATUREBOARD_LOG_LEVEL: "silent",
      FEATUREBOARD_PUBLIC_URL: PUBLIC_URL,
    };
    // First life: a process that changes the status and stops before any sender runs (no server, no timer).
    const config = loadConfig(env);
    const first = createContext(config, createLogger("silent"));
    const { project } = createProject(first.db, { slug: "restart", name: "Restart" });
    const { user } = upsertUserByEmail(first.db, project.id, { email: "waiting@example.com" });
    const post = createPost(first.db, project.id, { title: "Offline mode" });
    castVote(first.db, project.id, post.id, { boardUserId: user.id });
    updatePost(first.db, project.id, post.id, { status: "COMPLETE", notify: true });
    commitNow(first.db);
    closeDatabase(first.db);

    // Second life: a running server (startService starts the sender) with SMTP configured finds the mail.
    const start = smtp.mail.length;
    const service = startService(
      loadConfig({ ...env, FEATUREBOARD_SMTP_URL: smtp.url, PORT: "0", HOST: "127.0.0.1" }),
      createLogger("silent"),
      () => undefined,
    );
    try {
      while (smtp.mail.length === start) await Bun.sleep(10);
      expect(newMail(start).map((mail) => mail.to[0])).toEqual(["waiting@example.com"]);
      expect(newMail(start)[0]?.headers.subject).toBe('[Restart] "Offline mode" is now complete');
    } finally {
      await service.stop();
    }
  });
});
