import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { JsonBody } from "../support/app";
import { makePost, makeUser } from "../support/board";
import { browserMissing, type ServedInBrowser, serveInBrowser, stopServed } from "../support/browser";
import { memberInInbox } from "../support/dashboard";
import { type ReceivedMail, type SmtpReceiver, startSmtpReceiver } from "../email/smtp-receiver";

// The dashboard tells the people who asked: a published release emails the subscribers of the requests it
// ships, and a status change carries the member's message in its one email (docs/dashboard.md).

const PUBLIC_URL = "https://board.example";

describe.skipIf(browserMissing())("subscriber email from the dashboard, received over SMTP", () => {
  let smtp: SmtpReceiver;
  let served: Partial<ServedInBrowser> = {};
  const app = () => served.t!;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    served = await serveInBrowser({ FEATUREBOARD_SMTP_URL: smtp.url, FEATUREBOARD_PUBLIC_URL: PUBLIC_URL });
  }, 30_000);
  afterAll(async () => {
    await stopServed(served);
    await smtp?.close();
  });

  const signedIn = (email: string, name: string) =>
    memberInInbox(served.browser!, app(), served.server!.url, { email, name, role: "admin" });

  /** A request asked for by `author` and voted for by `voters` (board users with these emails). */
  async function requestWith(title: string, author: string, voters: string[]): Promise<JsonBody> {
    const t = app();
    const authorUser = await makeUser(t, { email: author });
    const post = await makePost(t, { title, status: "IN_PROGRESS", createdByBoardUserId: authorUser.id });
    for (const email of voters) {
      const voter = await makeUser(t, { email });
      await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { boardUserId: voter.id } });
    }
    return post;
  }

  async function mailSince(start: number): Promise<ReceivedMail[]> {
    await app().ctx.mail.flush();
    return smtp.mail.slice(start);
  }

  const recipients = (mail: ReceivedMail[]) => mail.map((one) => one.to[0]).sort();

  test("publishing a release emails each subscriber of each request it ships, with the unsubscribe link; unticked, nobody", async () => {
    const t = app();
    await requestWith("Offline mode", "olga@example.com", ["vic@example.com", "both@example.com"]);
    await requestWith("Audit log", "ann@example.com", ["both@example.com"]);
    const page = await signedIn("shipper@example.com", "Sam Shipper");
    await page.getByRole("link", { name: "Changelog" }).click();
    await page.getByLabel("Title").fill("Spring release");
    await page.getByLabel("Version label (optional)").fill("v3.0");
    await page.getByRole("checkbox", { name: /Offline mode/ }).check();
    await page.getByRole("checkbox", { name: /Audit log/ }).check();
    // What a product manager expects: the people who asked are told, unless the member unticks it.
    expect(
      await page.getByRole("checkbox", { name: "Email the subscribers of the shipped requests" }).isChecked(),
    ).toBe(true);
    const start = smtp.mail.length;
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByText("Release published").waitFor();
    // The list counts in words: "ships 2 requests".
    await page.locator("li.card", { hasText: "Spring release" }).getByText("ships 2 requests").waitFor();

    const sent = await mailSince(start);
    // One email per subscriber per shipped request: both@ follows both requests and gets one about each.
    expect(recipients(sent)).toEqual([
      "ann@example.com",
      "both@example.com",
      "both@example.com",
      "olga@example.com",
      "vic@example.com",
    ]);
    const offline = sent.filter((mail) => mail.headers.subject?.includes("Offline mode"));
    expect(offline).toHaveLength(3);
    for (const mail of sent) {
      expect(mail.headers.subject).toMatch(
        /^\[Acme\] "(Offline mode|Audit log)" has shipped in Spring release \(v3\.0\)$/,
      );
      expect(mail.text).toContain("has shipped: it is part of the release Spring release (v3.0)");
      expect(mail.text).toMatch(
        new RegExp(`Stop emails about this post: ${PUBLIC_URL}/email/unsubscribe/\\S+`),
      );
      expect(mail.headers["list-unsubscribe"]).toStartWith(`<${PUBLIC_URL}/email/unsubscribe/`);
    }

    // Unticked: the release ships its request and nobody is emailed.
    await requestWith("Dark theme", "dora@example.com", ["vic@example.com"]);
    await page.reload();
    await page.getByLabel("Title").fill("Quiet release");
    await page.getByRole("checkbox", { name: /Dark theme/ }).check();
    await page.getByRole("checkbox", { name: "Email the subscribers of the shipped requests" }).uncheck();
    const quiet = smtp.mail.length;
    await page.getByRole("button", { name: "Publish" }).click();
    await page
      .locator("li.card", { hasText: "Quiet release" })
      .getByText(/Published/)
      .waitFor();
    expect(await mailSince(quiet)).toEqual([]);

    // A draft published later from the list emails as ticked there.
    const draftPost = await requestWith("SAML sign-in", "sara@example.com", []);
    await page.reload();
    await page.getByLabel("Title").fill("Draft release");
    await page.getByRole("checkbox", { name: /SAML sign-in/ }).check();
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.locator("li.card", { hasText: "Draft release" }).waitFor();
    // One request in words: "ships 1 request", not "ships 1 requests".
    expect(
      (
        await page.locator("li.card", { hasText: "Draft release" }).locator("p.muted").first().innerText()
      ).trim(),
    ).toMatch(/· ships 1 request$/);
    const fromList = smtp.mail.length;
    await page
      .locator("li.card", { hasText: "Draft release" })
      .getByRole("button", { name: "Publish" })
      .click();
    await page
      .locator("li.card", { hasText: "Draft release" })
      .getByText(/Published/)
      .waitFor();
    expect(recipients(await mailSince(fromList))).toEqual(["sara@example.com"]);
    expect((await t.call("GET", `/api/v1/posts/${draftPost.id}`)).body.data.status).toBe("ARCHIVED");

    // The REST API keeps the specification's release fields (no notify): its publications email nobody.
    const viaApi = await requestWith("Webhooks v2", "wes@example.com", []);
    const apiStart = smtp.mail.length;
    const created = await t.call("POST", "/api/v1/releases", {
      body: { title: "API release", isDraft: false, postIds: [viaApi.id] },
    });
    expect(created.status).toBe(201);
    expect(await mailSince(apiStart)).toEqual([]);
    await page.close();
  }, 90_000);

  test("a status change with a message sends one email per subscriber carrying it, and the board shows it as an official reply", async () => {
    const t = app();
    const post = await requestWith("Bulk invoices", "ivy@example.com", ["vic@example.com"]);
    await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { status: "APPROVED" } });
    const page = await signedIn("triager@example.com", "Tia Triager");
    await page.goto(`${served.server!.url}/admin/posts/${post.id}?project=acme`);
    await page.getByLabel("Status", { exact: true }).selectOption("CLOSED");
    await page.getByLabel("Notify subscribers by email").check();
    await page
      .getByLabel("Message to subscribers (optional)")
      .fill("Our payment provider cannot batch invoices.\nWe will revisit this next year.");
    const start = smtp.mail.length;
    await page.getByRole("button", { name: "Change status" }).click();
    await page.getByText("Status changed.").waitFor();

    const sent = await mailSince(start);
    expect(recipients(sent)).toEqual(["ivy@example.com", "vic@example.com"]);
    for (const mail of sent) {
      expect(mail.headers.subject).toBe('[Acme] "Bulk invoices" is now closed');
      expect(mail.text).toContain("moved from approved to closed.");
      expect(mail.text).toContain(
        "Tia Triager from the Acme team wrote:\n\nOur payment provider cannot batch invoices.\nWe will revisit this next year.",
      );
      expect(mail.text).toContain(`${PUBLIC_URL}/email/unsubscribe/`);
    }
    // The message is on the request as an official reply by the member.
    const reply = page.locator("li.card", { hasText: "Our payment provider cannot batch invoices." });
    await reply.getByText("Team").waitFor();
    const comments = (await t.call("GET", `/api/v1/posts/${post.id}/comments`)).body.data as JsonBody[];
    expect(comments.map((comment) => [comment.body, comment.authorName, comment.isInternalNote])).toEqual([
      ["Our payment provider cannot batch invoices.\nWe will revisit this next year.", "Tia Triager", false],
    ]);

    // Without "Notify" the message is an official reply, which emails as every official reply does: once.
    await page.getByLabel("Status", { exact: true }).selectOption("APPROVED");
    await page.getByLabel("Message to subscribers (optional)").fill("Reopened: a new provider can.");
    const second = smtp.mail.length;
    await page.getByRole("button", { name: "Change status" }).click();
    await page.getByText("Status changed.").waitFor();
    const replyMail = await mailSince(second);
    expect(recipients(replyMail)).toEqual(["ivy@example.com", "vic@example.com"]);
    expect(
      replyMail.every((mail) => mail.headers.subject === '[Acme] Tia Triager replied to "Bulk invoices"'),
    ).toBe(true);
    expect((await t.call("GET", `/api/v1/posts/${post.id}`)).body.data.status).toBe("APPROVED");
    await page.close();
  }, 60_000);
});
