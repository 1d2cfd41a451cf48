import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { AiRuntime, indexStatus, REQUEST_DRAIN_WAIT_MS } from "../../src/ai/embeddings";
import type { AiProvider } from "../../src/ai/provider";
import * as store from "../../src/ai/store";
import { dot, signature } from "../../src/ai/vectors";
import { inTransaction } from "../../src/db/connection";
import { ApiError } from "../../src/http/errors";
import { createProject } from "../../src/projects/service";
import { makePost } from "../support/board";
import {
  createOpenAiTestApp,
  embeddingList,
  modelError,
  startFakeModelServer,
  structuredCompletion,
  timed,
  topicFlags,
} from "./fake-model";
import { createAiTestApp } from "./support";

/**
 * What a real model server does to the embedding index (docs/ai.md, "When the model server misbehaves"):
 * hangs on a batch, starts answering another dimension under the same model name (llama.cpp and LM Studio
 * serve whatever model is loaded), answers a vector of zeros, or serves chat without embeddings (404, or
 * 501 from llama.cpp without --embeddings). A loopback fake plays it.
 */
let dimension = 8;
/** The status the embeddings endpoint answers with, when not 200. */
let embeddingsStatus = 200;
/**
 * While set, a batch (two inputs or more) holding a text that starts with "Queued" waits for it, as a
 * client honouring a long Retry-After waits: a search's single query is still answered.
 */
let held: Promise<void> | null = null;
let release: () => void = () => {};
const embeddingCalls: string[][] = [];

function vectorOf(text: string): number[] {
  if (/all zeros/i.test(text)) return new Array<number>(dimension).fill(0);
  const vector = [...topicFlags(text), 0.05 + (text.length % 5) * 0.01];
  while (vector.length < dimension) vector.push(0);
  return vector.slice(0, dimension);
}

const server = startFakeModelServer(async ({ path, body }) => {
  if (path === "/v1/chat/completions") return structuredCompletion(body);
  const input = body.input ?? [];
  embeddingCalls.push(input);
  if (embeddingsStatus !== 200) return modelError(501, "This server does not support embeddings");
  if (held && input.length > 1 && input.some((text) => text.startsWith("Queued"))) await held;
  return embeddingList(input.map(vectorOf));
});

const logs: string[] = [];
const t = createOpenAiTestApp(
  server,
  {
    FEATUREBOARD_LOG_LEVEL: "warn",
    FEATUREBOARD_EMBED_MODEL: "whatever-is-loaded",
    FEATUREBOARD_CHAT_MODEL: "chat",
    // Longer than any test: a held batch is held by the server, not cut by the client.
    FEATUREBOARD_AI_TIMEOUT_MS: "20000",
    FEATUREBOARD_AI_MAX_RETRIES: "0",
  },
  (line) => logs.push(line),
);
afterAll(() => {
  release();
  t.ctx.ai.stopWorker();
  t.close();
  server.stop();
});
beforeEach(() => {
  embeddingsStatus = 200;
  embeddingCalls.length = 0;
  logs.length = 0;
});

let projects = 0;
/** A project of its own per test, so each starts from an empty board. */
const freshKey = () =>
  createProject(t.ctx.db, { slug: `embed-fail-${++projects}`, plan: "growth" }).secretKey;

/** The dimensions of every stored vector (16-bit floats: two bytes an entry). */
const storedDimensions = () =>
  t.ctx.db
    .query<{ dimension: number }, []>(
      "SELECT DISTINCT length(vector) / 2 AS dimension FROM post_embeddings ORDER BY dimension",
    )
    .all()
    .map((row) => row.dimension);

/**
 * Embeds every queued post. The openai provider refuses the first answer of a new dimension once
 * (UPSTREAM_ERROR, src/ai/model-answers.ts) and takes it the next time: the queue is drained again then.
 */
async function drainAll(): Promise<void> {
  try {
    await t.ctx.ai.drain(null);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "UPSTREAM_ERROR") throw error;
    await t.ctx.ai.drain(null);
  }
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await Bun.sleep(50);
  }
}

describe("a background batch the model server holds", () => {
  test("searches, from-text and triage answer within a bounded wait, and the worker empties the queue once the server answers", async () => {
    const key = freshKey();
    const dark = await makePost(t, { title: "Dark mode for the editor" }, key);
    await t.ctx.ai.drain(null);
    held = new Promise((resolve) => (release = resolve));
    for (let index = 0; index < 3; index++)
      await makePost(t, { title: `Queued export request ${index}` }, key);
    t.ctx.ai.startWorker();
    try {
      await until(() => embeddingCalls.some((call) => call[0]!.startsWith("Queued")), 5_000);
      // Posts written meanwhile are the request's to embed, and the server holds that batch too.
      for (let index = 3; index < 5; index++)
        await makePost(t, { title: `Queued export request ${index}` }, key);

      const first = await timed(() => t.call("GET", "/api/v1/posts/similar?query=night%20theme", { key }));
      expect(first.value.status).toBe(200);
      expect(first.value.body.data.map((hit: { id: string }) => hit.id)).toEqual([dark.id]);
      expect(first.ms).toBeLessThan(REQUEST_DRAIN_WAIT_MS + 1_000);
      // The project's embedding has run past the bound already: later requests do not wait for it again.
      const again = await timed(() => t.call("GET", "/api/v1/posts/similar?query=dark", { key }));
      expect(again.value.status).toBe(200);
      expect(again.ms).toBeLessThan(REQUEST_DRAIN_WAIT_MS);
      const fromText = await timed(() =>
        t.call("POST", "/api/v1/posts/from-text", {
          key,
          body: { text: "Night theme for the editor please" },
        }),
      );
      expect(fromText.value.status).toBe(201);
      expect(fromText.ms).toBeLessThan(REQUEST_DRAIN_WAIT_MS + 1_000);
      const triage = await timed(() => t.call("POST", "/api/v1/ai/triage", { key, body: {} }));
      expect(triage.value.status).toBe(200);
      expect(triage.ms).toBeLessThan(REQUEST_DRAIN_WAIT_MS + 1_000);
      // Another project does not wait for this one's batch either.
      const other = await timed(() => t.call("GET", "/api/v1/posts/similar?query=dark", { key: freshKey() }));
      expect(other.value.status).toBe(200);
      expect(other.ms).toBeLessThan(REQUEST_DRAIN_WAIT_MS + 1_000);

      release();
      held = null;
      await until(() => store.queueLength(t.ctx.db) === 0, 10_000);
      const found = await t.call("GET", "/api/v1/posts/similar?query=export%20csv&threshold=0.5", { key });
      expect(found.body.data).toHaveLength(5);
    } finally {
      release();
      held = null;
      t.ctx.ai.stopWorker();
    }
  }, 30_000);
});

describe("vectors of another dimension", () => {
  test("a batch answered in another dimension re-embeds the whole index in it, with a warning; nothing is mixed", async () => {
    const key = freshKey();
    dimension = 8;
    const dark = await makePost(t, { title: "Dark mode for the editor" }, key);
    await makePost(t, { title: "Export reports to CSV" }, key);
    await drainAll();
    expect(storedDimensions()).toEqual([8]);

    dimension = 5;
    await makePost(t, { title: "Mobile app for Android" }, key);
    await drainAll();
    expect(storedDimensions()).toEqual([5]);
    expect(store.queueLength(t.ctx.db)).toBe(0);
    expect(logs.some((line) => line.includes("dimension changed"))).toBe(true);

    // The same title is the same post again: matched, not created twice.
    const fromText = await t.call("POST", "/api/v1/posts/from-text", {
      key,
      body: { text: "Dark mode for the editor" },
    });
    expect(fromText.status).toBe(201);
    expect(fromText.body.data).toMatchObject({ action: "matched_duplicate", post: { id: dark.id } });
  });

  test("a search whose query comes back in another dimension re-embeds the index before it searches", async () => {
    const key = freshKey();
    dimension = 8;
    const dark = await makePost(t, { title: "Dark mode for the editor" }, key);
    await makePost(t, { title: "Export reports to CSV" }, key);
    await drainAll();

    dimension = 6;
    const search = () =>
      t.call("GET", "/api/v1/posts/similar?query=Dark%20mode%20for%20the%20editor", { key });
    // The provider may refuse the first vector of the new dimension once (drainAll says why).
    let similar = await search();
    if (similar.status === 502) similar = await search();
    expect(similar.status).toBe(200);
    expect(similar.body.data[0]).toMatchObject({ id: dark.id });
    expect(similar.body.data[0].similarity).toBeGreaterThan(0.9);
    expect(storedDimensions()).toEqual([6]);
  });

  test("vectors of different dimensions have no cosine", () => {
    expect(() => dot(new Float32Array([1, 0, 0]), new Float32Array([1, 0]))).toThrow(RangeError);
  });
});

describe("vectors the index refuses, whatever the provider lets through", () => {
  const own = createAiTestApp();
  afterAll(() => own.close());
  const refused = (name: string) => () => Promise.reject(new Error(`${name} is not used here`));

  test("a vector of zeros or holding a NaN is never stored: the post is set aside with the reason", async () => {
    const key = own.project.secretKey;
    const zero = await makePost(own, { title: "All zeros please" }, key);
    const nan = await makePost(own, { title: "Not a number please" }, key);
    const fine = await makePost(own, { title: "Dark mode for the editor" }, key);
    const provider: AiProvider = {
      name: "openai",
      modelKey: "test:answers-as-given",
      calibration: { boundary: 0.6 },
      embed: (posts) =>
        Promise.resolve(
          posts.map((post) =>
            /zeros/.test(post.title)
              ? new Float32Array(4)
              : /number/.test(post.title)
                ? Float32Array.of(Number.NaN, 1, 0, 0)
                : Float32Array.of(1, 0, 0, 0),
          ),
        ),
      extractPost: refused("extractPost"),
      triageNotes: refused("triageNotes"),
      summarise: refused("summarise"),
    };
    // Another model key: the runtime queues every post again, to be embedded by this provider.
    const runtime = new AiRuntime(own.ctx.db, provider);
    await runtime.drain(null);
    expect(store.storedVector(own.ctx.db, zero.id)).toBeNull();
    expect(store.storedVector(own.ctx.db, nan.id)).toBeNull();
    expect(store.storedVector(own.ctx.db, fine.id)).not.toBeNull();
    const failed = new Map(
      indexStatus(own.ctx.db, "openai").failed.map((entry) => [entry.postId, entry.reason]),
    );
    expect(failed.get(zero.id)).toContain("all zeros");
    expect(failed.get(nan.id)).toContain("not a finite number");
  });
});

describe("a server that serves chat but no embeddings (501)", () => {
  test("from-text still creates the post, and a note on it says no duplicate check was made", async () => {
    const key = freshKey();
    await makePost(t, { title: "Dark mode for the editor" }, key);
    embeddingsStatus = 501;
    const response = await t.call("POST", "/api/v1/posts/from-text", {
      key,
      body: { text: "Please add SAML single sign-on for Okta", source: "email" },
    });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body.data).sort()).toEqual(["action", "post", "similar_posts"]);
    expect(response.body.data).toMatchObject({
      action: "created",
      similar_posts: [],
      post: { title: "Please add SAML single sign-on for Okta", status: "PENDING" },
    });
    const notes = (
      await t.call("GET", `/api/v1/posts/${response.body.data.post.id}/comments?internal=true`, { key })
    ).body.data as { body: string }[];
    expect(notes.map((note) => note.body).join("\n")).toContain("Not checked for duplicates");
    // Its embedding waits in the queue, for when the server embeds again.
    expect(store.queueLength(t.ctx.db)).toBeGreaterThan(0);
  });

  test("triage answers with its priorities, each reason saying duplicates were not checked", async () => {
    const key = freshKey();
    await makePost(t, { title: "Export reports to CSV" }, key);
    await makePost(t, { title: "Mobile app for Android" }, key);
    embeddingsStatus = 501;
    const response = await t.call("POST", "/api/v1/ai/triage", { key, body: {} });
    expect(response.status).toBe(200);
    expect(response.body.data.triaged).toBe(2);
    for (const recommendation of response.body.data.recommendations) {
      expect(recommendation.duplicate_of).toBeNull();
      expect(recommendation.reason).toContain("Not checked for duplicates");
    }
    // Asked once, not once per post.
    expect(embeddingCalls.length).toBeLessThanOrEqual(2);
  });

  test("the similar-post search answers 502 saying the query could not be embedded", async () => {
    const key = freshKey();
    embeddingsStatus = 501;
    const response = await t.call("GET", "/api/v1/posts/similar?query=dark", { key });
    expect(response.status).toBe(502);
    expect(response.body).toMatchObject({ error_code: "UPSTREAM_ERROR" });
    expect(response.body.message).toContain("Cannot search for similar posts");
  });
});

describe("a stored vector that is not a number", () => {
  const local = createAiTestApp();
  afterAll(() => local.close());

  test("is never a hit, and does not change which posts a smaller limit keeps", async () => {
    const key = local.project.secretKey;
    const { db } = local.ctx;
    const titles = [
      "Export reports to CSV",
      "Broken vector request",
      "Mobile app for Android",
      "Recurring invoices",
      "SAML single sign-on",
      "Keyboard shortcuts",
      "Calendar sync",
      "Dark mode for the editor",
    ];
    const posts = [];
    for (const title of titles) posts.push(await makePost(local, { title }, key));
    await local.call("GET", "/api/v1/posts/similar?query=warmup", { key });
    /** Stores a vector for a post again (a new row, so it is read after the rows stored before). */
    const restore = (postId: string, vector: Float32Array) =>
      inTransaction(db, () =>
        store.writeEmbedding(db, {
          projectId: local.project.project.id,
          postId,
          modelKey: local.ctx.ai.provider.modelKey,
          textHash: "stored again",
          vector,
          signature: signature(vector),
          now: Date.now(),
        }),
      );
    const [broken, dark] = [posts[1]!, posts.at(-1)!];
    const vectors = posts.map((post) => store.storedVector(db, post.id)!);
    // A NaN vector read second, as an index stored before vectors were checked could hold: the sort by
    // score then left it and the first row before the best hit (read last).
    restore(broken.id, new Float32Array(vectors[0]!.length).fill(Number.NaN));
    posts.slice(2).forEach((post, index) => restore(post.id, vectors[index + 2]!));
    const search = (limit: number) =>
      local.call("GET", `/api/v1/posts/similar?query=dark%20mode%20editor&threshold=0&limit=${limit}`, {
        key,
      });
    const ten = (await search(10)).body.data as { id: string; title: string }[];
    expect(ten[0]!.id).toBe(dark.id);
    expect(ten.map((hit) => hit.id)).not.toContain(broken.id);
    for (const limit of [1, 2, 5]) {
      const fewer = (await search(limit)).body.data as { id: string }[];
      expect(fewer.map((hit) => hit.id)).toEqual(ten.slice(0, limit).map((hit) => hit.id));
    }
  });
});
