import { afterAll, expect, test } from "bun:test";
import { commitNow } from "../../src/db/connection";
import { createPost } from "../../src/posts/service";
import { createAiTestApp } from "./support";

const t = createAiTestApp();
afterAll(() => t.close());

test("a long drain gives the event loop back between batches, so requests are served while it runs", async () => {
  for (let index = 0; index < 300; index++) {
    createPost(t.ctx.db, t.project.project.id, { title: `Queued request ${index}`, description: "to embed" });
  }
  commitNow(t.ctx.db);
  const order: string[] = [];
  const drained = t.ctx.ai.drain(null).then((count) => {
    order.push(`drained ${count}`);
  });
  // What a request arriving meanwhile would need: a turn of the event loop before the drain ends.
  setImmediate(() => order.push("served"));
  const health = t
    .call("GET", "/healthz", { key: null })
    .then((response) => order.push(`healthz ${response.status}`));
  await Promise.all([drained, health]);
  expect(order[order.length - 1]).toBe("drained 300");
  expect(order).toContain("served");
  expect(order).toContain("healthz 200");
});
