import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { type DeliveryWorker, startDeliveryWorker } from "../../src/events/worker";
import type { TeamRole } from "../../src/team/schema";
import { inviteMember } from "../../src/team/service";
import { createTestApp, expectApiError, type TestApp } from "../support/app";
import { listen, makePost } from "../support/board";
import { csrfOf, postForm, sessionCookieOf } from "../support/dashboard";
import { type Receiver, startReceiver } from "../support/receiver";

/**
 * "Send a test event" on a webhook endpoint's dashboard page (docs/webhooks.md, "Test events"), black-box
 * over HTTP: a real server, the real delivery worker and loopback receivers that verify the signature with
 * the `standardwebhooks` package receivers use.
 */
describe("Send a test event, from an endpoint's dashboard page", () => {
  let t: TestApp;
  let server: { url: string; stop: () => Promise<void> };
  let worker: DeliveryWorker;
  /** The endpoint under test. */
  let tested: Receiver;
  /** The project's other endpoints: one on `*`, one on post.created. */
  let others: Receiver;
  /** Answers 500 to everything. */
  let failing: Receiver;
  beforeAll(() => {
    // A short retry schedule: a test event that failed would be retried within the test, were it retried.
    t = createTestApp({
      FEATUREBOARD_ALLOW_PRIVATE_TARGETS: "true",
      FEATUREBOARD_WEBHOOK_RETRY_SCHEDULE: "50ms,50ms",
    });
    server = listen(t);
    worker = startDeliveryWorker(t.ctx);
    tested = startReceiver();
    others = startReceiver();
    failing = startReceiver(() => new Response("receiver is down", { status: 500 }));
  });
  afterAll(async () => {
    await worker.stop();
    for (const receiver of [tested, others, failing]) receiver.stop();
    await server.stop();
    t.close();
  });

  async function signedIn(email: string, role: TeamRole) {
    const { token } = inviteMember(t.ctx.db, { email, role, projectSlug: "acme" });
    const cookie = sessionCookieOf(
      await postForm(`${server.url}/admin/invite/${token}`, { password: "correct horse battery" }),
    );
    return { cookie, csrf: await csrfOf(server.url, cookie) };
  }

  async function endpoint(url: string, events: string[], enabled = true) {
    const created = await t.call("POST", "/api/v1/integrations/webhooks", { body: { url, events, enabled } });
    expect(created.status).toBe(201);
    return { id: created.body.data.id as string, secret: created.body.data.secret as string };
  }

  async function sendTest(member: { cookie: string; csrf: string }, webhookId: string) {
    const response = await postForm(
      `${server.url}/admin/webhooks/${webhookId}/test`,
      { csrf: member.csrf, project: "acme" },
      member.cookie,
    );
    return { status: response.status, text: await response.text() };
  }

  const historyOf = async (webhookId: string) =>
    (await t.call("GET", `/api/v1/integrations/webhooks/${webhookId}`)).body.data.recentDeliveries;

  test("the endpoint alone gets one webhook.test, signed with its secret; the page says it answered 200; the history has it; Replay resends it", async () => {
    const admin = await signedIn("admin@example.com", "admin");
    // Subscribed to one event only, which nothing sends meanwhile.
    const hook = await endpoint(`${tested.url}/hooks`, ["release.published"]);
    const star = await endpoint(`${others.url}/star`, ["*"]);
    const posts = await endpoint(`${others.url}/posts`, ["post.created"]);

    const page = await sendTest(admin, hook.id);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/Test event sent: the endpoint answered HTTP 200 in \d+\sms\./);
    expect(tested.received.length).toBe(1);
    const [received] = tested.received;
    // The verifier receivers use accepts it, with the endpoint's own secret.
    const event = new Webhook(hook.secret).verify(received!.body, received!.headers) as Record<
      string,
      unknown
    >;
    expect(event).toEqual({
      type: "webhook.test",
      timestamp: expect.any(String),
      projectId: t.project.project.id,
      data: {
        projectId: t.project.project.id,
        endpointId: hook.id,
        message: expect.stringContaining("test event"),
      },
    });
    expect(received!.headers["user-agent"]).toBe("featureboard-webhooks");

    // In the delivery history, as the API shows it too; the page lists it with its result.
    const [row] = await historyOf(hook.id);
    expect(row).toMatchObject({
      webhookId: received!.headers["webhook-id"],
      eventType: "webhook.test",
      state: "delivered",
      attempt: 1,
      statusCode: 200,
      error: null,
      nextAttemptAt: null,
    });
    expect(page.text).toContain(`data-delivery="${row.webhookId}"`);

    // Replayable like any delivery: the same webhook-id and body again.
    const replayed = await postForm(
      `${server.url}/admin/webhooks/${hook.id}/replay`,
      { csrf: admin.csrf, project: "acme", deliveryId: row.webhookId },
      admin.cookie,
    );
    expect(replayed.status).toBe(303);
    const [, again] = await tested.waitFor(2);
    expect(again!.headers["webhook-id"]).toBe(received!.headers["webhook-id"]!);
    expect(again!.body).toBe(received!.body);

    // The other endpoints got nothing: a change made after the test reaches them first and alone.
    await makePost(t, { title: "After the test" });
    await others.waitFor(2);
    expect(others.received.map((request) => JSON.parse(request.body).type)).toEqual([
      "post.created",
      "post.created",
    ]);
    for (const other of [star, posts]) {
      expect((await historyOf(other.id)).map((attempt: { eventType: string }) => attempt.eventType)).toEqual([
        "post.created",
      ]);
    }
    expect(tested.received.length).toBe(2);

    // The activity names who sent it.
    const activity = (await t.call("GET", `/api/v1/activity?entityType=webhook`)).body.data;
    expect(activity).toContainEqual(
      expect.objectContaining({
        action: "test_sent",
        entityId: hook.id,
        metadata: expect.objectContaining({ deliveryId: row.webhookId }),
      }),
    );
    for (const id of [hook.id, star.id, posts.id])
      await t.call("DELETE", `/api/v1/integrations/webhooks/${id}`);
  }, 30_000);

  test("a failed test says why, is tried once and never retried; a refused connection says so", async () => {
    const owner = await signedIn("owner@example.com", "owner");
    const hook = await endpoint(`${failing.url}/hooks`, ["*"]);
    const page = await sendTest(owner, hook.id);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(
      /Test event failed after \d+\sms: HTTP 500: receiver is down\. A test is not retried/,
    );
    const [row] = await historyOf(hook.id);
    expect(row).toMatchObject({
      eventType: "webhook.test",
      state: "failed",
      statusCode: 500,
      nextAttemptAt: null,
    });
    // Were it retried, the 50 ms schedule would have sent it again by now.
    await Bun.sleep(300);
    expect(failing.received.length).toBe(1);
    expect((await historyOf(hook.id)).length).toBe(1);

    // Nobody listens on this port any more.
    const gone = startReceiver();
    const closedUrl = `${gone.url}/hooks`;
    gone.stop();
    const closed = await endpoint(closedUrl, ["post.created"]);
    const refused = await sendTest(owner, closed.id);
    expect(refused.text).toMatch(
      /Test event failed after \d+\sms: connection refused \(nothing listens at that address and port\)\./,
    );
    const [attempt] = await historyOf(closed.id);
    expect(attempt).toMatchObject({ eventType: "webhook.test", state: "failed", statusCode: null });
    expect(attempt.error).toContain("ECONNREFUSED");
    for (const id of [hook.id, closed.id]) await t.call("DELETE", `/api/v1/integrations/webhooks/${id}`);
  }, 30_000);

  test("a disabled endpoint gets the test too (to check it before turning it on), and stays disabled", async () => {
    const admin = await signedIn("admin2@example.com", "admin");
    const hook = await endpoint(`${tested.url}/disabled`, ["post.created"], false);
    const before = tested.received.length;
    const page = await sendTest(admin, hook.id);
    expect(page.text).toMatch(/Test event sent: the endpoint answered HTTP 200/);
    expect(tested.received.length).toBe(before + 1);
    expect(tested.received.at(-1)!.path).toBe("/disabled");
    const shown = (await t.call("GET", `/api/v1/integrations/webhooks/${hook.id}`)).body.data;
    expect(shown.enabled).toBe(false);
    expect(shown.recentDeliveries[0]).toMatchObject({ eventType: "webhook.test", state: "delivered" });
    await t.call("DELETE", `/api/v1/integrations/webhooks/${hook.id}`);
  }, 30_000);

  test("a member (not admin) is refused with 403 and nothing is sent; another project's endpoint is not found", async () => {
    const hook = await endpoint(`${tested.url}/members`, ["*"]);
    const before = tested.received.length;
    const member = await signedIn("member@example.com", "member");
    const refused = await sendTest(member, hook.id);
    expect(refused.status).toBe(403);
    expect(await historyOf(hook.id)).toEqual([]);

    const admin = await signedIn("admin3@example.com", "admin");
    const theirs = await t.call("POST", "/api/v1/integrations/webhooks", {
      key: t.other.secretKey,
      body: { url: `${tested.url}/theirs`, events: ["*"] },
    });
    const notFound = await sendTest(admin, theirs.body.data.id);
    expect(notFound.status).toBe(404);
    // A forged CSRF token is refused before anything is sent.
    const forged = await sendTest({ cookie: admin.cookie, csrf: "forged" }, hook.id);
    expect(forged.status).toBe(400);
    expect(await historyOf(hook.id)).toEqual([]);
    expect(tested.received.length).toBe(before);
    await t.call("DELETE", `/api/v1/integrations/webhooks/${hook.id}`);
  }, 30_000);

  test("webhook.test cannot be subscribed to: creating or changing an endpoint with it → 400 unknown event", async () => {
    const created = await t.call("POST", "/api/v1/integrations/webhooks", {
      body: { url: `${tested.url}/sub`, events: ["webhook.test"] },
    });
    expect(expectApiError(created, 400, "VALIDATION_ERROR").message).toContain(
      "unknown event type 'webhook.test'",
    );
    const hook = await endpoint(`${tested.url}/sub`, ["post.created"]);
    const patched = await t.call("PATCH", `/api/v1/integrations/webhooks/${hook.id}`, {
      body: { events: ["post.created", "webhook.test"] },
    });
    expectApiError(patched, 400, "VALIDATION_ERROR");
    await t.call("DELETE", `/api/v1/integrations/webhooks/${hook.id}`);
  });
});

describe("Send a test event while the worker cannot take it", () => {
  test("the page says it is queued (after the delivery's time-out and 2 s), and it is delivered once a worker runs", async () => {
    // No worker yet: the attempt cannot come within FEATUREBOARD_DELIVERY_TIMEOUT + 2 s.
    const t = createTestApp({
      FEATUREBOARD_ALLOW_PRIVATE_TARGETS: "true",
      FEATUREBOARD_DELIVERY_TIMEOUT: "100ms",
    });
    const server = listen(t);
    const receiver = startReceiver();
    let worker: DeliveryWorker | null = null;
    try {
      const { token } = inviteMember(t.ctx.db, {
        email: "owner@example.com",
        role: "owner",
        projectSlug: "acme",
      });
      const cookie = sessionCookieOf(
        await postForm(`${server.url}/admin/invite/${token}`, { password: "correct horse battery" }),
      );
      const csrf = await csrfOf(server.url, cookie);
      const hook = (
        await t.call("POST", "/api/v1/integrations/webhooks", {
          body: { url: `${receiver.url}/later`, events: ["post.created"] },
        })
      ).body.data;
      const page = await postForm(
        `${server.url}/admin/webhooks/${hook.id}/test`,
        { csrf, project: "acme" },
        cookie,
      );
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(
        "Test event queued: it was not tried within the delivery&#39;s time-out",
      );
      expect(receiver.received).toEqual([]);

      worker = startDeliveryWorker(t.ctx);
      const [received] = await receiver.waitFor(1);
      expect(JSON.parse(received!.body).type).toBe("webhook.test");
      new Webhook(hook.secret).verify(received!.body, received!.headers);
    } finally {
      await worker?.stop();
      receiver.stop();
      await server.stop();
      t.close();
    }
  }, 30_000);
});
