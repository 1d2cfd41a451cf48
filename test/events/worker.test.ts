import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { commitNow, inTransaction, onCommit } from "../../src/db/connection";
import { startDeliveryWorker } from "../../src/events/worker";
import { createTestApp, readJson, tempDir } from "../support/app";
import { makePost } from "../support/board";
import { SOURCE_COMMAND, startServiceProcess } from "../support/process";
import { startReceiver, waitUntil } from "../support/receiver";

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("onCommit", () => {
  test("listeners run after each successful commit, not before, and can be removed", () => {
    const t = createTestApp();
    let calls = 0;
    const remove = onCommit(t.ctx.db, () => calls++);
    inTransaction(t.ctx.db, () => t.ctx.db.run("CREATE TABLE scratch (x INTEGER)"));
    expect(calls).toBe(0);
    commitNow(t.ctx.db);
    expect(calls).toBe(1);
    remove();
    inTransaction(t.ctx.db, () => t.ctx.db.run("INSERT INTO scratch VALUES (1)"));
    commitNow(t.ctx.db);
    expect(calls).toBe(1);
    t.close();
  });
});

describe("the delivery worker", () => {
  test("events stored while no worker ran are delivered when one starts", async () => {
    const t = createTestApp({ FEATUREBOARD_ALLOW_PRIVATE_TARGETS: "true" });
    const receiver = startReceiver();
    await t.call("POST", "/api/v1/integrations/webhooks", { body: { url: receiver.url, events: ["*"] } });
    await makePost(t, { title: "Before the worker" });
    expect(receiver.received).toHaveLength(0);
    const worker = startDeliveryWorker(t.ctx);
    await receiver.waitFor(1);
    expect(JSON.parse(receiver.received[0]!.body).data.title).toBe("Before the worker");
    await worker.stop();
    t.close();
    receiver.stop();
  });
});

/** A receiver that answers nothing until `release` is called: an endpoint that hangs. */
function hangingReceiver() {
  let release!: () => void;
  const never = new Promise<void>((resolve) => (release = resolve));
  const receiver = startReceiver(async () => {
    await never;
    return new Response("too late");
  });
  return { receiver, release };
}

describe("one hanging endpoint", () => {
  test("takes at most 4 of the attempts in flight: a healthy endpoint and an integration get a burst at once", async () => {
    const t = createTestApp({ FEATUREBOARD_ALLOW_PRIVATE_TARGETS: "true" });
    const { receiver: hanging, release } = hangingReceiver();
    const healthy = startReceiver();
    const chat = startReceiver();
    for (const url of [`${hanging.url}/a`, `${hanging.url}/b`, healthy.url]) {
      await t.call("POST", "/api/v1/integrations/webhooks", { body: { url, events: ["post.created"] } });
    }
    await t.call("PUT", "/api/v1/integrations/team-chat", { body: { webhookUrl: chat.url } });
    const worker = startDeliveryWorker(t.ctx);
    const started = Date.now();
    for (let i = 0; i < 40; i++) await makePost(t, { title: `Burst ${i}` });
    // Without a cap per target the two hanging endpoints took all 16 slots until their 10 s time-outs.
    await healthy.waitFor(40, 5_000);
    await chat.waitFor(40, 5_000);
    expect(Date.now() - started).toBeLessThan(5_000);
    const perEndpoint = (path: string) => hanging.received.filter((request) => request.path === path);
    expect(perEndpoint("/a")).toHaveLength(4);
    expect(perEndpoint("/b")).toHaveLength(4);
    // The chat got the posts in the order they were made, one at a time (docs/integrations.md).
    expect(chat.received.map((request) => JSON.parse(request.body).text.split("\n")[0])).toEqual(
      Array.from({ length: 40 }, (_, i) => `New post: *Burst ${i}*`),
    );
    await worker.stop();
    release();
    t.close();
    for (const receiver of [hanging, healthy, chat]) receiver.stop();
  });
});

describe("many hanging endpoints", () => {
  test("hold the slots only while young: a healthy endpoint's burst still goes out in seconds, not after their time-outs", async () => {
    const t = createTestApp({
      FEATUREBOARD_ALLOW_PRIVATE_TARGETS: "true",
      FEATUREBOARD_DELIVERY_TIMEOUT: "30s",
    });
    const { receiver: hanging, release } = hangingReceiver();
    const healthy = startReceiver();
    // Five endpoints at 4 attempts each would take all 16 slots until their time-outs.
    for (const path of ["a", "b", "c", "d", "e"]) {
      const url = `${hanging.url}/${path}`;
      await t.call("POST", "/api/v1/integrations/webhooks", { body: { url, events: ["post.created"] } });
    }
    const worker = startDeliveryWorker(t.ctx);
    for (let i = 0; i < 10; i++) await makePost(t, { title: `Before ${i}` });
    await hanging.waitFor(16, 5_000);
    await t.call("POST", "/api/v1/integrations/webhooks", {
      body: { url: healthy.url, events: ["post.created"] },
    });
    const started = Date.now();
    for (let i = 0; i < 40; i++) await makePost(t, { title: `Burst ${i}` });
    await healthy.waitFor(40, 8_000);
    expect(Date.now() - started).toBeLessThan(8_000);
    // Each hanging endpoint still has at most 4 attempts open.
    for (const path of ["/a", "/b", "/c", "/d", "/e"]) {
      expect(hanging.received.filter((request) => request.path === path).length).toBeLessThanOrEqual(4);
    }
    await worker.stop();
    release();
    t.close();
    for (const receiver of [hanging, healthy]) receiver.stop();
  });
});

describe("graceful stop", () => {
  test("stop() aborts an attempt in flight without recording it; the next worker sends it with the same id", async () => {
    const t = createTestApp({ FEATUREBOARD_ALLOW_PRIVATE_TARGETS: "true" });
    let releaseHeld!: () => void;
    const held = new Promise<void>((resolve) => (releaseHeld = resolve));
    const receiver = startReceiver(async (_, index) => {
      if (index === 0) await held;
      return new Response("ok");
    });
    const endpoint = (
      await t.call("POST", "/api/v1/integrations/webhooks", { body: { url: receiver.url, events: ["*"] } })
    ).body.data;
    const first = startDeliveryWorker(t.ctx);
    await makePost(t);
    await receiver.waitFor(1);
    await first.stop();
    releaseHeld();
    const history = () =>
      t.call("GET", `/api/v1/integrations/webhooks/${endpoint.id}`).then((r) => r.body.data.recentDeliveries);
    expect(await history()).toEqual([]);

    const second = startDeliveryWorker(t.ctx);
    await receiver.waitFor(2);
    expect(receiver.received[1]!.headers["webhook-id"]).toBe(receiver.received[0]!.headers["webhook-id"]);
    let entries: { attempt: number; state: string }[] = [];
    for (let tries = 0; tries < 1000 && entries.length === 0; tries++) {
      entries = await history();
      await Bun.sleep(10);
    }
    expect(entries).toEqual([expect.objectContaining({ attempt: 1, state: "delivered" })]);
    await second.stop();
    t.close();
    receiver.stop();
  });
});

describe("a crash between the acknowledged change and its delivery", () => {
  test("SIGKILL, restart: the event is delivered exactly once, with the same webhook-id", async () => {
    const key = `sk_${"W".repeat(32)}`;
    const env = {
      FEATUREBOARD_DB: join(dir, "crash.db"),
      FEATUREBOARD_BOOTSTRAP_SECRET_KEY: key,
      FEATUREBOARD_ALLOW_PRIVATE_TARGETS: "true",
    };
    // The first request is held unanswered: the server dies while the delivery is under way.
    let releaseHeld!: () => void;
    const held = new Promise<void>((resolve) => (releaseHeld = resolve));
    const acknowledged: string[] = [];
    const receiver = startReceiver(async (request, index) => {
      if (index === 0) {
        await held;
        return new Response("too late", { status: 200 });
      }
      acknowledged.push(request.headers["webhook-id"]!);
      return new Response("ok");
    });

    const service = await startServiceProcess(SOURCE_COMMAND, env);
    const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const created = await readJson(
      await fetch(`${service.url}/api/v1/integrations/webhooks`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ url: `${receiver.url}/hook`, events: ["post.created"] }),
      }),
    );
    const post = await fetch(`${service.url}/api/v1/posts`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ title: "Survives the crash" }),
    });
    expect(post.status).toBe(201);
    await receiver.waitFor(1);
    service.proc.kill("SIGKILL");
    await service.exited;
    releaseHeld();

    const restarted = await startServiceProcess(SOURCE_COMMAND, env);
    await receiver.waitFor(2);
    // A later event proves the worker moved on: the crashed one is not sent a third time.
    await fetch(`${restarted.url}/api/v1/posts`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ title: "After the restart" }),
    });
    await receiver.waitFor(3);
    await waitUntil(() => acknowledged.length === 2);

    const [crashed, redelivered, later] = receiver.received;
    expect(redelivered!.headers["webhook-id"]).toBe(crashed!.headers["webhook-id"]);
    expect(later!.headers["webhook-id"]).not.toBe(crashed!.headers["webhook-id"]);
    const verifier = new Webhook(created.data.secret);
    const titles = receiver.received.map(
      (request) => (verifier.verify(request.body, request.headers) as { data: { title: string } }).data.title,
    );
    expect(titles).toEqual(["Survives the crash", "Survives the crash", "After the restart"]);
    expect(acknowledged.filter((id) => id === crashed!.headers["webhook-id"])).toHaveLength(1);

    const history = await readJson(
      await fetch(`${restarted.url}/api/v1/integrations/webhooks/${created.data.id}`, { headers: auth }),
    );
    const ofCrashed = history.data.recentDeliveries.filter(
      (entry: { webhookId: string }) => entry.webhookId === crashed!.headers["webhook-id"],
    );
    expect(ofCrashed).toEqual([expect.objectContaining({ attempt: 1, statusCode: 200, state: "delivered" })]);

    restarted.proc.kill("SIGTERM");
    expect(await restarted.exited).toBe(0);
    receiver.stop();
  });
});
