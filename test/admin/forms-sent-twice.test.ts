import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import type { TestApp } from "../support/app";
import { makePost } from "../support/board";
import { browserMissing, serveInBrowser, stopServed } from "../support/browser";
import { memberInInbox } from "../support/dashboard";
import { type SmtpReceiver, startSmtpReceiver } from "../email/smtp-receiver";

// docs/dashboard.md: the same form sent again (Back and Send) is answered 409 and changes nothing, though
// dashboard pages are sent no-store and Back renders the form again from the server.
describe.skipIf(browserMissing())("Back, then Send again, in Chromium", () => {
  let t: TestApp;
  let server: { url: string; stop: () => Promise<void> };
  let browser: Browser;
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    ({ t, server, browser } = await serveInBrowser({ FEATUREBOARD_SMTP_URL: smtp.url }));
  }, 30_000);
  afterAll(async () => {
    await stopServed({ t, server, browser });
    smtp.close();
  });

  test("an official reply sent again after Back is refused: one reply, one email per subscriber", async () => {
    const post = await makePost(t, { title: "Dark mode", status: "APPROVED" });
    const voter = await t.call("POST", "/api/v1/users", { body: { email: "voter@example.com" } });
    await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { boardUserId: voter.body.data.id } });
    const page = await memberInInbox(browser, t, server.url, {
      email: "twice@example.com",
      name: "Rita",
      role: "member",
    });
    await page.goto(`${server.url}/admin/posts/${post.id}?project=acme`);
    const before = smtp.mail.length;
    await page.getByLabel("Write").fill("Shipping next week.");
    await page.getByRole("button", { name: "Post official reply" }).click();
    await page.getByText("Official reply posted.").waitFor();
    await page.goBack();
    await page.getByRole("button", { name: "Post official reply" }).waitFor();
    // The browser brought back what was typed; the member sends it again.
    expect(await page.getByLabel("Write").inputValue()).toBe("Shipping next week.");
    const [again] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === "POST"),
      page.getByRole("button", { name: "Post official reply" }).click(),
    ]);
    expect(again.status()).toBe(409);
    await page.getByText("This form was already sent").waitFor();
    await t.ctx.mail.flush();
    const comments = await t.call("GET", `/api/v1/posts/${post.id}/comments?internal=all`);
    expect(comments.body.data.map((comment: { body: string }) => comment.body)).toEqual([
      "Shipping next week.",
    ]);
    expect(smtp.mail.slice(before).map((mail) => mail.to[0])).toEqual(["voter@example.com"]);

    // The page opened again takes the next reply.
    await page.getByRole("link", { name: "Open the page again" }).click();
    await page.getByLabel("Write").fill("It is out.");
    await page.getByRole("button", { name: "Post official reply" }).click();
    await page.getByText("Official reply posted.").waitFor();
    const after = await t.call("GET", `/api/v1/posts/${post.id}/comments?internal=all`);
    expect(after.body.data).toHaveLength(2);
    await page.context().close();
  }, 60_000);

  /** Sends the page's form with `button`, goes Back, sends it again: the second answer's status. */
  async function sendBackAndSendAgain(page: Page, button: string, done: string): Promise<number> {
    await page.getByRole("button", { name: button, exact: true }).click();
    await page.getByText(done).first().waitFor();
    await page.goBack();
    const [again] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === "POST"),
      page.getByRole("button", { name: button, exact: true }).click(),
    ]);
    await page.getByText("This form was already sent").waitFor();
    return again.status();
  }

  test("every form keeps its first id after Back: a status change with notify, a vote, an invite", async () => {
    const post = await makePost(t, { title: "Calendar sync", status: "APPROVED" });
    const voter = await t.call("POST", "/api/v1/users", { body: { email: "fan@example.com" } });
    await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { boardUserId: voter.body.data.id } });
    const page = await memberInInbox(browser, t, server.url, {
      email: "owner-twice@example.com",
      name: "Olga",
      role: "owner",
    });
    const requestPage = `${server.url}/admin/posts/${post.id}?project=acme`;

    await page.goto(requestPage);
    await t.ctx.mail.flush();
    const before = smtp.mail.length;
    await page.getByLabel("Status", { exact: true }).selectOption("IN_PROGRESS");
    await page.getByLabel("Notify subscribers by email").check();
    expect(await sendBackAndSendAgain(page, "Change status", "Status changed.")).toBe(409);
    await t.ctx.mail.flush();
    expect(smtp.mail.slice(before).map((mail) => mail.to[0])).toEqual(["fan@example.com"]);

    await page.goto(requestPage);
    await page.getByLabel("Add a vote for a customer").fill("buyer@example.com");
    expect(await sendBackAndSendAgain(page, "Add vote", "Vote added.")).toBe(409);
    expect((await t.call("GET", `/api/v1/posts/${post.id}`)).body.data.voteCount).toBe(2);

    await page.goto(`${server.url}/admin/members?project=acme`);
    await page.getByLabel("Email", { exact: true }).fill("newcomer@example.com");
    expect(await sendBackAndSendAgain(page, "Invite", "/admin/invite/")).toBe(409);
    const invites = t.ctx.db
      .query<{ n: number }, [string]>("SELECT count(*) AS n FROM team_invites WHERE email = ?")
      .get("newcomer@example.com");
    expect(invites?.n).toBe(1);
    await page.context().close();
  }, 60_000);
});
