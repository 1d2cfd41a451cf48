import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createTestApp, type TestApp } from "../support/app";
import { listen, makePost, makeUser } from "../support/board";
import { connectHttp, toolValue } from "../support/mcp";
import { type SmtpReceiver, startSmtpReceiver } from "../email/smtp-receiver";

// create_release publishes like the dashboard's Publish when asked to: the subscribers of each shipped
// request are emailed (docs/mcp.md); by default nobody is, as with the REST API.

let smtp: SmtpReceiver;
let t: TestApp;
let server: ReturnType<typeof listen>;
let admin: Client;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = createTestApp({ FEATUREBOARD_SMTP_URL: smtp.url });
  server = listen(t);
  admin = await connectHttp(server.url, { key: t.project.secretKey });
});
afterAll(async () => {
  await admin.close();
  await server.stop();
  t.close();
  await smtp.close();
});

async function shippable(title: string, author: string) {
  const user = await makeUser(t, { email: author });
  return makePost(t, { title, status: "COMPLETE", createdByBoardUserId: user.id });
}

test("create_release with email_subscribers emails each shipped request's subscribers; without it, nobody", async () => {
  const quiet = await shippable("Quiet feature", "quiet@example.com");
  await toolValue(admin, "create_release", { title: "v1", is_draft: false, post_ids: [quiet.id] });
  await t.ctx.mail.flush();
  expect(smtp.mail).toHaveLength(0);

  const told = await shippable("Told feature", "told@example.com");
  await toolValue(admin, "create_release", {
    title: "v2",
    is_draft: false,
    post_ids: [told.id],
    email_subscribers: true,
  });
  await t.ctx.mail.flush();
  expect(smtp.mail.map((mail) => mail.to[0])).toEqual(["told@example.com"]);
  expect(smtp.mail[0]!.headers.subject).toContain("Told feature");
});
