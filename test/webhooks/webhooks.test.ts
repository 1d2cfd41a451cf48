import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { loadConfig } from "../../src/config";
import { startDeliveryWorker, type DeliveryWorker } from "../../src/events/worker";
import { createTestApp, expectApiError, type TestApp } from "../support/app";
import { makePost } from "../support/board";
import { type Receiver, startReceiver } from "../support/receiver";

// A literal public address: accepted without the allow flag and without needing DNS.
const PUBLIC_URL = "https://93.184.216.34/hooks/featureboard";

describe("webhook endpoints: the API", () => {
  const t = createTestApp();
  afterAll(() => t.close());

  test("create answers 201 with the whsec_ secret once; list and GET never show it", async () => {
    const created = await t.call("POST", "/api/v1/integrations/webhooks", {
      body: { url: PUBLIC_URL, events: ["post.created", "vote.created"], description: "CRM sync" },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      url: PUBLIC_URL,
      events: ["post.created", "vote.created"],
      description: "CRM sync",
      enabled: true,
      disabledReason: null,
    });
    expect(created.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const id = created.body.data.id;

    const list = await t.call("GET", "/api/v1/integrations/webhooks");
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([expect.objectContaining({ id, url: PUBLIC_URL })]);
    expect(list.text).not.toContain(created.body.data.secret);

    const one = await t.call("GET", `/api/v1/integrations/webhooks/${id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id, recentDeliveries: [] });
    expect(one.body.data.secret).toBeUndefined();
  });

  test("create accepts enabled: false (stored disabled) and defaults to true; a non-boolean → 400", async () => {
    const disabled = await t.call("POST", "/api/v1/integrations/webhooks", {
      body: { url: PUBLIC_URL, events: ["*"], enabled: false },
    });
    expect(disabled.status).toBe(201);
    expect(disabled.body.data).toMatchObject({ enabled: false, disabledReason: null });
    const shown = await t.call("GET", `/api/v1/integrations/webhooks/${disabled.body.data.id}`);
    expect(shown.body.data.enabled).toBe(false);
    const enabled = await t.call("POST", "/api/v1/integrations/webhooks", {
      body: { url: PUBLIC_URL, events: ["*"], enabled: true },
    });
    expect(enabled.body.data.enabled).toBe(true);
    expectApiError(
      await t.call("POST", "/api/v1/integrations/webhooks", {
        body: { url: PUBLIC_URL, events: ["*"], enabled: "yes" },
      }),
      400,
      "VALIDATION_ERROR",
    );
    for (const id of [disabled.body.data.id, enabled.body.data.id])
      await t.call("DELETE", `/api/v1/integrations/webhooks/${id}`);
  });

  test("events: * is allowed, an unknown name or an empty list → 400, nothing stored", async () => {
    const star = await t.call("POST", "/api/v1/integrations/webhooks", {
      body: { url: PUBLIC_URL, events: ["*"] },
    });
    expect(star.status).toBe(201);
    const before = (await t.call("GET", "/api/v1/integrations/webhooks")).body.data.length;
    const unknown = await t.call("POST", "/api/v1/integrations/webhooks", {
      body: { url: PUBLIC_URL, events: ["post.created", "post.exploded"] },
    });
    expect(expectApiError(unknown, 400, "VALIDATION_ERROR").message).toContain("post.exploded");
    expectApiError(
      await t.call("POST", "/api/v1/integrations/webhooks", { body: { url: PUBLIC_URL, events: [] } }),
      400,
      "VALIDATION_ERROR",
    );
    expectApiError(
      await t.call("POST", "/api/v1/integrations/webhooks", { body: { events: ["*"] } }),
      400,
      "VALIDATION_ERROR",
    );
    expect((await t.call("GET", "/api/v1/integrations/webhooks")).body.data.length).toBe(before);
  });

  test.each([
    ["http (not https)", "http://93.184.216.34/hook"],
    ["loopback", "https://127.0.0.1/hook"],
    ["private", "https://10.0.0.1/hook"],
    ["cloud metadata", "https://169.254.169.254/latest/meta-data"],
    ["IPv6 loopback", "https://[::1]/hook"],
    ["a host name resolving to loopback", "https://localhost/hook"],
    ["not a URL", "hooks.example"],
  ])("a URL that is %s → 400 without the allow flag", async (_, url) => {
    const response = await t.call("POST", "/api/v1/integrations/webhooks", { body: { url, events: ["*"] } });
    expect(expectApiError(response, 400, "VALIDATION_ERROR").message).toContain("'url'");
  });

  test("PATCH changes the given fields; an unsafe URL or unknown event → 400 and the endpoint is unchanged", async () => {
    const id = (
      await t.call("POST", "/api/v1/integrations/webhooks", {
        body: { url: PUBLIC_URL, events: ["post.created"] },
      })
    ).body.data.id;
    const patched = await t.call("PATCH", `/api/v1/integrations/webhooks/${id}`, {
      body: { events: ["*"], enabled: false, description: "paused" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      events: ["*"],
      enabled: false,
      description: "paused",
      url: PUBLIC_URL,
    });
    expectApiError(
      await t.call("PATCH", `/api/v1/integrations/webhooks/${id}`, {
        body: { url: "https://169.254.169.254/" },
      }),
      400,
      "VALIDATION_ERROR",
    );
    expectApiError(
      await t.call("PATCH", `/api/v1/integrations/webhooks/${id}`, { body: { events: ["nope"] } }),
      400,
      "VALIDATION_ERROR",
    );
    expectApiError(
      await t.call("PATCH", `/api/v1/integrations/webhooks/${id}`, { body: {} }),
      400,
      "VALIDATION_ERROR",
    );
    const after = await t.call("GET", `/api/v1/integrations/webhooks/${id}`);
    expect(after.body.data).toMatchObject({ url: PUBLIC_URL, events: ["*"], enabled: false });
  });

  test("another project's endpoint → 404 WEBHOOK_NOT_FOUND; DELETE removes it", async () => {
    const id = (
      await t.call("POST", "/api/v1/integrations/webhooks", { body: { url: PUBLIC_URL, events: ["*"] } })
    ).body.data.id;
    const key = t.other.secretKey;
    expectApiError(
      await t.call("GET", `/api/v1/integrations/webhooks/${id}`, { key }),
      404,
      "WEBHOOK_NOT_FOUND",
    );
    expectApiError(
      await t.call("PATCH", `/api/v1/integrations/webhooks/${id}`, { key, body: { enabled: false } }),
      404,
      "WEBHOOK_NOT_FOUND",
    );
    expectApiError(
      await t.call("DELETE", `/api/v1/integrations/webhooks/${id}`, { key }),
      404,
      "WEBHOOK_NOT_FOUND",
    );
    expect((await t.call("GET", "/api/v1/integrations/webhooks", { key })).body.data).toEqual([]);
    const removed = await t.call("DELETE", `/api/v1/integrations/webhooks/${id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true });
    expectApiError(await t.call("GET", `/api/v1/integrations/webhooks/${id}`), 404, "WEBHOOK_NOT_FOUND");
  });
});

describe("webhook deliveries to a real loopback receiver", () => {
  let t: TestApp;
  let worker: DeliveryWorker;
  let receivers: Receiver[] = [];

  function start(env: Record<string, string> = {}) {
    t = createTestApp({ FEATUREBOARD_ALLOW_PRIVATE_TARGETS: "true", ...env });
    worker = startDeliveryWorker(t.ctx);
  }
  function receiver(answer?: Parameters<typeof startReceiver>[0]) {
    const created = startReceiver(answer);
    receivers.push(created);
    return created;
  }
  async function subscribe(url: string, events: string[] = ["*"]) {
    const response = await t.call("POST", "/api/v1/integrations/webhooks", { body: { url, events } });
    if (response.status !== 201) throw new Error(response.text);
    return response.body.data as { id: string; secret: string };
  }

  interface Attempt {
    webhookId: string;
    attempt: number;
    statusCode: number | null;
    state: string;
    error: string | null;
    finishedAt: string;
    nextAttemptAt: string | null;
  }
  /** The endpoint's recentDeliveries, read again until `done` holds. */
  async function historyUntil(webhookId: string, done: (history: Attempt[]) => boolean): Promise<Attempt[]> {
    let history: Attempt[] = [];
    const read = async () => {
      history = (await t.call("GET", `/api/v1/integrations/webhooks/${webhookId}`)).body.data
        .recentDeliveries;
      return done(history);
    };
    const deadline = Date.now() + 15_000;
    while (!(await read())) {
      if (Date.now() > deadline) throw new Error(`history never matched: ${JSON.stringify(history)}`);
      await Bun.sleep(10);
    }
    return history;
  }

  afterEach(async () => {
    await worker.stop();
    t.close();
    for (const each of receivers) each.stop();
    receivers = [];
  });

  test("every delivery verifies with the standardwebhooks package; a tampered body does not", async () => {
    start();
    const hook = receiver();
    const endpoint = await subscribe(`${hook.url}/in`);
    const post = await makePost(t, { title: "Dark mode" });
    await t.call("POST", `/api/v1/posts/${post.id}/comments`, { body: { body: "Yes please" } });
    await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { status: "APPROVED" } });
    const received = await hook.waitFor(3);

    const verifier = new Webhook(endpoint.secret);
    const types = received.map((request) => {
      expect(request.method).toBe("POST");
      expect(request.headers["content-type"]).toBe("application/json");
      const payload = verifier.verify(request.body, request.headers) as { type: string; projectId: string };
      expect(payload.projectId).toBe(t.project.project.id);
      return payload.type;
    });
    expect(types.sort()).toEqual(["comment.created", "post.created", "post.status_changed"]);

    const first = received[0]!;
    expect(() => verifier.verify(first.body.replace("Dark mode", "Dark mod3"), first.headers)).toThrow();
    expect(() => verifier.verify(`${first.body} `, first.headers)).toThrow();
    const otherSecret = await subscribe(`${hook.url}/other`, ["tag.created"]);
    expect(() => new Webhook(otherSecret.secret).verify(first.body, first.headers)).toThrow();
  });

  test("post payloads carry metadata; the shape is {type, timestamp, data, projectId}", async () => {
    start();
    const hook = receiver();
    await subscribe(hook.url, ["post.created", "post.status_changed"]);
    const post = await makePost(t, { title: "SSO", metadata: { crmId: "crm-42", tier: "enterprise" } });
    await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { status: "IN_PROGRESS" } });
    const received = await hook.waitFor(2);
    const bodies = received
      .map((request) => JSON.parse(request.body))
      .sort((a, b) => a.type.localeCompare(b.type));
    expect(bodies[0]).toEqual({
      type: "post.created",
      timestamp: expect.any(String),
      projectId: t.project.project.id,
      data: expect.objectContaining({
        id: post.id,
        title: "SSO",
        metadata: { crmId: "crm-42", tier: "enterprise" },
      }),
    });
    expect(bodies[1]).toMatchObject({
      type: "post.status_changed",
      data: {
        post: { id: post.id, metadata: { crmId: "crm-42" } },
        previousStatus: "PENDING",
        status: "IN_PROGRESS",
      },
    });
  });

  test("an endpoint created with enabled: false receives nothing", async () => {
    start();
    const off = receiver();
    const on = receiver();
    const created = await t.call("POST", "/api/v1/integrations/webhooks", {
      body: { url: off.url, events: ["*"], enabled: false },
    });
    expect(created.status).toBe(201);
    await subscribe(on.url, ["*"]);
    await makePost(t);
    await on.waitFor(1);
    // One fan-out served both endpoints: the disabled one got no delivery row, so nothing can follow.
    const rows = t.ctx.db
      .query<{ n: number }, [string]>("SELECT count(*) AS n FROM deliveries WHERE endpoint_id = ?")
      .get(created.body.data.id);
    expect(rows?.n).toBe(0);
    expect(off.received).toHaveLength(0);
  });

  test("only subscribed events are delivered", async () => {
    start();
    const votes = receiver();
    const everything = receiver();
    await subscribe(votes.url, ["tag.created"]);
    await subscribe(everything.url, ["*"]);
    await makePost(t);
    await t.call("POST", "/api/v1/tags", { body: { label: "ui" } });
    await everything.waitFor(2);
    await votes.waitFor(1);
    expect(votes.received.map((request) => JSON.parse(request.body).type)).toEqual(["tag.created"]);
  });

  test("500, 500, then 200: delivered on the third attempt, same webhook-id, three attempts in the history", async () => {
    start({ FEATUREBOARD_WEBHOOK_RETRY_SCHEDULE: "20ms,20ms,20ms" });
    const hook = receiver(
      (_, index) => new Response(index < 2 ? "down" : "ok", { status: index < 2 ? 500 : 200 }),
    );
    const endpoint = await subscribe(hook.url, ["post.created"]);
    await makePost(t);
    const received = await hook.waitFor(3);
    const ids = new Set(received.map((request) => request.headers["webhook-id"]));
    expect(ids.size).toBe(1);
    const verifier = new Webhook(endpoint.secret);
    for (const request of received) verifier.verify(request.body, request.headers);

    const history = await historyUntil(
      endpoint.id,
      (entries) => entries.length === 3 && entries[0]!.state === "delivered",
    );
    expect(history.map((entry) => [entry.attempt, entry.statusCode, entry.state])).toEqual([
      [3, 200, "delivered"],
      [2, 500, "failed"],
      [1, 500, "failed"],
    ]);
    expect(history.every((entry) => entry.webhookId === [...ids][0])).toBe(true);
    expect(history[2]!.error).toContain("HTTP 500");
    expect(received).toHaveLength(3);
  });

  test("each attempt shows its own outcome: a failed one before a pending retry, and only the retry's time", async () => {
    start({ FEATUREBOARD_WEBHOOK_RETRY_SCHEDULE: "20ms,1h" });
    const hook = receiver(() => new Response("down", { status: 500 }));
    const endpoint = await subscribe(hook.url, ["post.created"]);
    await makePost(t);
    await hook.waitFor(2);
    const history = await historyUntil(endpoint.id, (entries) => entries.length === 2);
    expect(history.map((entry) => [entry.attempt, entry.statusCode, entry.state])).toEqual([
      [2, 500, "pending"],
      [1, 500, "failed"],
    ]);
    // Only the attempt a retry follows carries that retry's time.
    expect(Date.parse(history[0]!.nextAttemptAt!)).toBeGreaterThan(Date.now() + 30 * 60_000);
    expect(history[1]!.nextAttemptAt).toBeNull();
  });

  test("after the last retry the delivery is failed and not sent again", async () => {
    start({ FEATUREBOARD_WEBHOOK_RETRY_SCHEDULE: "10ms" });
    const hook = receiver(() => new Response("no", { status: 503 }));
    const endpoint = await subscribe(hook.url, ["post.created"]);
    await makePost(t);
    await hook.waitFor(2);
    const history = await historyUntil(
      endpoint.id,
      (entries) => entries.length === 2 && entries[0]!.state === "failed",
    );
    expect(history.map((entry) => [entry.attempt, entry.state])).toEqual([
      [2, "failed"],
      [1, "failed"],
    ]);
    // A later event is delivered while the failed one is not retried.
    await makePost(t);
    await hook.waitFor(3);
    expect(new Set(hook.received.map((request) => request.headers["webhook-id"])).size).toBe(2);
  });

  test("an attempt that outlives the time-out fails with a time-out error and is retried", async () => {
    start({ FEATUREBOARD_DELIVERY_TIMEOUT: "200ms", FEATUREBOARD_WEBHOOK_RETRY_SCHEDULE: "10ms" });
    const hook = receiver(async (_, index) => {
      if (index === 0) await Bun.sleep(2_000);
      return new Response("ok");
    });
    const endpoint = await subscribe(hook.url, ["post.created"]);
    await makePost(t);
    await hook.waitFor(2);
    const history = await historyUntil(
      endpoint.id,
      (entries) => entries.length === 2 && entries[0]!.state === "delivered",
    );
    expect(history[1]).toMatchObject({ attempt: 1, statusCode: null, error: "timed out after 200 ms" });
  });

  test("a redirect is never followed: the attempt fails and the redirect target gets nothing", async () => {
    start({ FEATUREBOARD_WEBHOOK_RETRY_SCHEDULE: "1h" });
    const target = receiver();
    const hook = receiver(
      () => new Response(null, { status: 302, headers: { location: `${target.url}/stolen` } }),
    );
    const endpoint = await subscribe(hook.url, ["post.created"]);
    await makePost(t);
    await hook.waitFor(1);
    const history = await historyUntil(endpoint.id, (entries) => entries.length > 0);
    expect(history[0]).toMatchObject({ statusCode: 302 });
    expect(history[0]!.error).toContain("redirect");
    expect(target.received).toHaveLength(0);
  });

  test("an endpoint failing for the whole disable period is disabled, and says why", async () => {
    start({ FEATUREBOARD_WEBHOOK_DISABLE_AFTER: "0ms", FEATUREBOARD_WEBHOOK_RETRY_SCHEDULE: "1h" });
    const hook = receiver(() => new Response("down", { status: 503 }));
    const endpoint = await subscribe(hook.url, ["post.created"]);
    await makePost(t);
    await hook.waitFor(1);
    let webhook = (await t.call("GET", `/api/v1/integrations/webhooks/${endpoint.id}`)).body.data;
    while (webhook.enabled) {
      await Bun.sleep(10);
      webhook = (await t.call("GET", `/api/v1/integrations/webhooks/${endpoint.id}`)).body.data;
    }
    expect(webhook.disabledReason).toContain("failed");
    const reenabled = await t.call("PATCH", `/api/v1/integrations/webhooks/${endpoint.id}`, {
      body: { enabled: true },
    });
    expect(reenabled.body.data).toMatchObject({ enabled: true, disabledReason: null });
  });

  test("410 Gone disables the endpoint at once, says why, and nothing is sent to it again", async () => {
    start({ FEATUREBOARD_WEBHOOK_RETRY_SCHEDULE: "10ms,10ms" });
    const hook = receiver(() => new Response("gone", { status: 410 }));
    const endpoint = await subscribe(hook.url, ["post.created"]);
    await makePost(t);
    const history = await historyUntil(endpoint.id, (entries) => entries.length === 1);
    expect(history[0]).toMatchObject({ attempt: 1, statusCode: 410, state: "failed", nextAttemptAt: null });
    const webhook = (await t.call("GET", `/api/v1/integrations/webhooks/${endpoint.id}`)).body.data;
    expect(webhook).toMatchObject({ enabled: false, disabledReason: expect.stringContaining("410 Gone") });
    await makePost(t);
    // Long enough for the 10 ms retries and the second post's delivery, had any been sent.
    await Bun.sleep(300);
    expect(hook.received).toHaveLength(1);
    const reenabled = await t.call("PATCH", `/api/v1/integrations/webhooks/${endpoint.id}`, {
      body: { enabled: true },
    });
    expect(reenabled.body.data).toMatchObject({ enabled: true, disabledReason: null });
  });

  /** How long the worker waits after the attempt before its retry, for each of the endpoint's pending ones. */
  async function retryWaits(endpointId: string, count: number): Promise<number[]> {
    const history = await historyUntil(endpointId, (entries) => entries.length === count);
    return history.map((entry) => Date.parse(entry.nextAttemptAt!) - Date.parse(entry.finishedAt));
  }

  test.each([
    ["429, Retry-After in seconds", 429, () => "60", 60_000],
    ["503, Retry-After as an HTTP date", 503, () => new Date(Date.now() + 120_000).toUTCString(), 120_000],
    ["503, Retry-After of a day (capped to the longest retry wait)", 503, () => "86400", 3_600_000],
  ])("%s: the retry waits for it, not for the schedule's 20 ms", async (_, status, retryAfter, expected) => {
    start({ FEATUREBOARD_WEBHOOK_RETRY_SCHEDULE: "20ms,1h" });
    const hook = receiver(() => new Response("later", { status, headers: { "retry-after": retryAfter() } }));
    const endpoint = await subscribe(hook.url, ["post.created"]);
    await makePost(t);
    const [wait] = await retryWaits(endpoint.id, 1);
    // An HTTP date has whole seconds: up to a second of it is gone by the time it is read.
    expect(wait).toBeGreaterThan(expected - 2_000);
    expect(wait).toBeLessThanOrEqual(expected);
    await Bun.sleep(100);
    expect(hook.received).toHaveLength(1);
  });

  test("retries are spread: each wait is the schedule's plus up to 20% at random", async () => {
    start({ FEATUREBOARD_WEBHOOK_RETRY_SCHEDULE: "1h" });
    const hook = receiver(() => new Response("down", { status: 500 }));
    const endpoint = await subscribe(hook.url, ["post.created"]);
    for (let i = 0; i < 6; i++) await makePost(t);
    const waits = await retryWaits(endpoint.id, 6);
    for (const wait of waits) {
      expect(wait).toBeGreaterThanOrEqual(3_600_000);
      expect(wait).toBeLessThanOrEqual(3_600_000 * 1.2);
    }
    expect(new Set(waits).size).toBeGreaterThan(1);
  });

  describe("rotating the signing secret", () => {
    const rotate = (id: string, key?: string) =>
      t.call("POST", `/api/v1/integrations/webhooks/${id}/rotate-secret`, key ? { key } : {});
    const signaturesOf = (request: { headers: Record<string, string> }) =>
      request.headers["webhook-signature"]!.split(" ");

    test("answers the endpoint with its new secret once, and when the previous one stops signing", async () => {
      start();
      const hook = receiver();
      const endpoint = await subscribe(hook.url);
      const before = Date.now();
      const rotated = await rotate(endpoint.id);
      expect(rotated.status).toBe(200);
      expect(rotated.body.data).toMatchObject({ id: endpoint.id, url: hook.url, enabled: true });
      expect(rotated.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      expect(rotated.body.data.secret).not.toBe(endpoint.secret);
      const expiresAt = Date.parse(rotated.body.data.previousSecretExpiresAt);
      expect(expiresAt).toBeGreaterThanOrEqual(before + 24 * 3_600_000);
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);
      const shown = await t.call("GET", `/api/v1/integrations/webhooks/${endpoint.id}`);
      expect(shown.body.data.previousSecretExpiresAt).toBe(rotated.body.data.previousSecretExpiresAt);
      expect(shown.text).not.toContain(rotated.body.data.secret);
      expect(shown.text).not.toContain(endpoint.secret);
      expectApiError(await rotate(endpoint.id, t.other.secretKey), 404, "WEBHOOK_NOT_FOUND");
      expectApiError(await rotate(Bun.randomUUIDv7()), 404, "WEBHOOK_NOT_FOUND");
    });

    test("the old and the new secret both verify during the overlap; after it only the new one", async () => {
      start();
      const hook = receiver();
      const endpoint = await subscribe(hook.url, ["post.created"]);
      const newSecret = (await rotate(endpoint.id)).body.data.secret as string;
      await makePost(t, { title: "During the overlap" });
      const [during] = await hook.waitFor(1);
      expect(signaturesOf(during!)).toHaveLength(2);
      for (const secret of [endpoint.secret, newSecret]) {
        const payload = new Webhook(secret).verify(during!.body, during!.headers) as {
          data: { title: string };
        };
        expect(payload.data.title).toBe("During the overlap");
      }

      // The overlap is over (as if 24 hours had passed).
      t.ctx.db
        .query("UPDATE webhook_endpoints SET previous_secret_expires_at = ? WHERE id = ?")
        .run(Date.now() - 1, endpoint.id);
      await makePost(t, { title: "After the overlap" });
      const after = (await hook.waitFor(2))[1]!;
      expect(signaturesOf(after)).toHaveLength(1);
      expect(new Webhook(newSecret).verify(after.body, after.headers)).toMatchObject({
        data: { title: "After the overlap" },
      });
      expect(() => new Webhook(endpoint.secret).verify(after.body, after.headers)).toThrow();
    });

    test("rotating again keeps only the secret just replaced: the first one stops verifying", async () => {
      start();
      const hook = receiver();
      const endpoint = await subscribe(hook.url, ["post.created"]);
      const second = (await rotate(endpoint.id)).body.data.secret as string;
      const third = (await rotate(endpoint.id)).body.data.secret as string;
      await makePost(t);
      const [request] = await hook.waitFor(1);
      expect(signaturesOf(request!)).toHaveLength(2);
      for (const secret of [second, third]) new Webhook(secret).verify(request!.body, request!.headers);
      expect(() => new Webhook(endpoint.secret).verify(request!.body, request!.headers)).toThrow();
    });
  });

  test("defaults: retries after 5s, 5m, 30m, 2h, 5h, 10h, 10h; 10 s per attempt; disabled after 5 days", () => {
    const { delivery } = loadConfig({});
    const [s, m, h] = [1000, 60_000, 3_600_000];
    expect(delivery.retryScheduleMs).toEqual([5 * s, 5 * m, 30 * m, 2 * h, 5 * h, 10 * h, 10 * h]);
    expect(delivery.timeoutMs).toBe(10 * s);
    expect(delivery.disableAfterMs).toBe(5 * 24 * h);
  });

  /** The endpoint's failing run, as the worker keeps it. */
  function failingRun(endpointId: string) {
    return t.ctx.db
      .query<{ failing_since: number | null; last_failure_at: number | null; enabled: number }, [string]>(
        "SELECT failing_since, last_failure_at, enabled FROM webhook_endpoints WHERE id = ?",
      )
      .get(endpointId)!;
  }
  /** As if the endpoint had been failing since `since` and last failed at `lastFailure` (ms ago). */
  function backdateRun(endpointId: string, sinceAgo: number, lastFailureAgo: number) {
    const now = Date.now();
    t.ctx.db
      .query("UPDATE webhook_endpoints SET failing_since = ?, last_failure_at = ? WHERE id = ?")
      .run(now - sinceAgo, now - lastFailureAgo, endpointId);
  }
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;

  test("a success ends the failing run: failing_since is cleared", async () => {
    start({ FEATUREBOARD_WEBHOOK_RETRY_SCHEDULE: "10ms" });
    const hook = receiver(
      (_, index) => new Response(index === 0 ? "down" : "ok", { status: index === 0 ? 500 : 200 }),
    );
    const endpoint = await subscribe(hook.url, ["post.created"]);
    await makePost(t);
    await historyUntil(endpoint.id, (entries) => entries.some((entry) => entry.state === "delivered"));
    expect(hook.received).toHaveLength(2);
    expect(failingRun(endpoint.id)).toEqual({ failing_since: null, last_failure_at: null, enabled: 1 });
  });

  test("with the defaults, an endpoint failing without pause for over 5 days is disabled on its next failure", async () => {
    start();
    const hook = receiver(() => new Response("down", { status: 503 }));
    const endpoint = await subscribe(hook.url, ["post.created"]);
    backdateRun(endpoint.id, 5 * DAY + HOUR, HOUR);
    await makePost(t);
    const history = await historyUntil(endpoint.id, (entries) => entries.length === 1);
    expect(history[0]).toMatchObject({ attempt: 1, statusCode: 503, state: "failed" });
    const webhook = (await t.call("GET", `/api/v1/integrations/webhooks/${endpoint.id}`)).body.data;
    expect(webhook).toMatchObject({ enabled: false, disabledReason: expect.stringContaining("5 days") });
  });

  test("failed once, silent for days, failed once: not failing 5 days straight, the run restarts", async () => {
    start();
    const hook = receiver(() => new Response("down", { status: 503 }));
    const endpoint = await subscribe(hook.url, ["post.created"]);
    // First failure 6 days ago, the last one 5 days ago: far longer than the 10 h longest retry wait.
    backdateRun(endpoint.id, 6 * DAY, 5 * DAY);
    const before = Date.now();
    await makePost(t);
    const history = await historyUntil(endpoint.id, (entries) => entries.length === 1);
    expect(history[0]).toMatchObject({ attempt: 1, statusCode: 503, state: "pending" });
    const webhook = (await t.call("GET", `/api/v1/integrations/webhooks/${endpoint.id}`)).body.data;
    expect(webhook).toMatchObject({ enabled: true, disabledReason: null });
    const run = failingRun(endpoint.id);
    expect(run.failing_since).toBeGreaterThanOrEqual(before);
    expect(run.last_failure_at).toBe(run.failing_since);
  });

  test("the address is checked again before every attempt, not only when the URL was saved", async () => {
    start({ FEATUREBOARD_WEBHOOK_RETRY_SCHEDULE: "1h" });
    const hook = receiver();
    const endpoint = await subscribe(hook.url, ["post.created"]);
    // The same URL, now that private targets are no longer allowed (as if its DNS answer had changed).
    t.ctx.config.allowPrivateTargets = false;
    await makePost(t);
    const history = await historyUntil(endpoint.id, (entries) => entries.length === 1);
    expect(history[0]).toMatchObject({ attempt: 1, statusCode: null, state: "pending" });
    expect(history[0]!.error).toContain("https");
    expect(hook.received).toHaveLength(0);
  });
});
