import { afterAll, expect, test } from "bun:test";
import { createTestApp } from "../support/app";

const t = createTestApp();
afterAll(() => t.close());

// While the WAL is being started over (src/db/checkpoints.ts), requests that may write wait for it before
// their handler runs; reads answer meanwhile.
test("a write request waits while writes are held back; a read answers meanwhile", async () => {
  let release: () => void = () => undefined;
  t.ctx.db.writeHold = new Promise<void>((resolve) => {
    release = resolve;
  });
  let created = false;
  const creating = t
    .call("POST", "/api/v1/posts", { body: { title: "Held back until the WAL starts over" } })
    .then((response) => {
      created = true;
      return response;
    });
  const listed = await t.call("GET", "/api/v1/posts");
  expect(listed.status).toBe(200);
  await Bun.sleep(50);
  expect(created).toBe(false);
  t.ctx.db.writeHold = null;
  release();
  const response = await creating;
  expect(response.status).toBe(201);
  const after = await t.call("GET", "/api/v1/posts");
  expect(after.body.data.map((post: { title: string }) => post.title)).toContain(
    "Held back until the WAL starts over",
  );
});

test("the health check does not wait for other requests' commits; a read of stored data does", async () => {
  // A commit whose WAL sync has not completed yet (src/db/connection.ts, syncCommitsOffLoop).
  let durable: () => void = () => undefined;
  t.ctx.db.lastCommitted = new Promise<void>((resolve) => {
    durable = resolve;
  });
  let listed = false;
  const listing = t.call("GET", "/api/v1/posts").then((response) => {
    listed = true;
    return response;
  });
  const health = await t.call("GET", "/healthz", { key: null });
  expect(health.status).toBe(200);
  expect(health.body.status).toBe("ok");
  await Bun.sleep(20);
  expect(listed).toBe(false);
  durable();
  expect((await listing).status).toBe(200);
});
