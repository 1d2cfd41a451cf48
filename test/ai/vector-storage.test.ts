import { afterAll, expect, test } from "bun:test";
import { commitNow } from "../../src/db/connection";
import { LOCAL_DIMENSION } from "../../src/ai/local-embedder";
import { createPost } from "../../src/posts/service";
import { createAiTestApp } from "./support";

// Vectors are stored as 16-bit floats (migration 0017): a local 612-dimension vector takes 1,224 bytes, so
// rows no longer leave half of each 4 KiB page empty; rows from before are rewritten by the worker.
const t = createAiTestApp();
afterAll(() => t.close());
const db = t.ctx.db;
const projectId = t.project.project.id;
const TOPICS = ["dark mode", "export to CSV", "single sign-on", "mobile app", "Slack alerts", "API keys"];

async function similarTo(query: string): Promise<{ id: string; similarity: number }[]> {
  const response = await t.call("GET", `/api/v1/posts/similar?query=${encodeURIComponent(query)}&limit=10`);
  expect(response.status).toBe(200);
  return response.body.data;
}

test("new vectors take half precision, three rows to a page", async () => {
  for (let index = 0; index < 300; index++) {
    const topic = TOPICS[index % TOPICS.length]!;
    createPost(db, projectId, {
      title: `${topic} request ${index}`,
      description: `Customers ask for ${topic}`,
    });
  }
  commitNow(db);
  await t.ctx.ai.drain(null);
  const formats = db
    .query<{ vector_format: string; bytes: number; n: number }, []>(
      "SELECT vector_format, length(vector) AS bytes, count(*) AS n FROM post_embeddings GROUP BY 1, 2",
    )
    .all();
  expect(formats).toEqual([{ vector_format: "f16", bytes: 2 * LOCAL_DIMENSION, n: 300 }]);
  const pages = db
    .query<{ n: number }, []>("SELECT count(*) AS n FROM dbstat WHERE name = 'post_embeddings'")
    .get()!.n;
  // 4-byte floats took one page per row (~300 pages); 2-byte ones fit three.
  expect(pages).toBeLessThan(130);
});

test("vectors stored before in 32-bit floats are rewritten in the background; answers stay the same", async () => {
  const before = await similarTo("a night theme for the editor");
  // Back to how migration 0017 found them: every vector as 32-bit floats.
  const rows = db
    .query<{ vector_id: number; vector: Uint8Array }, []>("SELECT vector_id, vector FROM post_embeddings")
    .all();
  for (const row of rows) {
    const full = Float32Array.from(new Float16Array(new Uint8Array(row.vector).buffer));
    db.query("UPDATE post_embeddings SET vector = ?, vector_format = 'f32' WHERE vector_id = ?").run(
      new Uint8Array(full.buffer),
      row.vector_id,
    );
  }
  commitNow(db);
  expect(await similarTo("a night theme for the editor")).toEqual(before);

  t.ctx.ai.startWorker();
  try {
    const left = () =>
      db
        .query<{ n: number }, []>("SELECT count(*) AS n FROM post_embeddings WHERE vector_format = 'f32'")
        .get()!.n;
    const deadline = Date.now() + 15_000;
    while (left() > 0 && Date.now() < deadline) await Bun.sleep(100);
    expect(left()).toBe(0);
  } finally {
    t.ctx.ai.stopWorker();
  }
  const after = await similarTo("a night theme for the editor");
  expect(after.map((hit) => hit.id)).toEqual(before.map((hit) => hit.id));
  after.forEach((hit, index) =>
    expect(Math.abs(hit.similarity - before[index]!.similarity)).toBeLessThan(0.002),
  );
});
