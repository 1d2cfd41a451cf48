import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { indexStatus } from "../../src/ai/embeddings";
import * as store from "../../src/ai/store";
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

/**
 * A model server during an outage and with texts it cannot embed, played by the loopback fake of
 * test/ai/fake-model.ts: what a request waits, what it passes on of the server's
 * Retry-After, how long the background embedding backs off, and a vector of zeros for one post among others.
 */
type Handler = (input: string[]) => Response | Promise<Response>;
let embeddings: Handler | null = null;
const embeddingCalls: string[][] = [];
/** Answers held by a hanging server, released at the end of each test. */
let hung: (() => void)[] = [];

/** Topic vectors of five dimensions; a text saying "all zeros" gets zeros. */
function vectorOf(text: string): number[] {
  if (/all zeros/i.test(text)) return [0, 0, 0, 0, 0];
  return [...topicFlags(text), 0.1];
}

function normalEmbeddings(input: string[]): Response {
  return embeddingList(input.map(vectorOf));
}

const server = startFakeModelServer(({ path, body }) => {
  if (path !== "/v1/embeddings") return structuredCompletion(body);
  const input = body.input ?? [];
  embeddingCalls.push(input);
  return embeddings ? embeddings(input) : normalEmbeddings(input);
});

const TIMEOUT_MS = 1_000;
const logs: string[] = [];
const t = createOpenAiTestApp(
  server,
  {
    FEATUREBOARD_LOG_LEVEL: "warn",
    FEATUREBOARD_EMBED_MODEL: "test-embed",
    FEATUREBOARD_CHAT_MODEL: "test-chat",
    FEATUREBOARD_AI_TIMEOUT_MS: String(TIMEOUT_MS),
    FEATUREBOARD_AI_MAX_RETRIES: "2",
  },
  (line) => logs.push(line),
);
afterAll(() => {
  for (const answer of hung) answer();
  t.close();
  server.stop();
});
beforeEach(() => {
  for (const answer of hung) answer();
  hung = [];
  embeddings = null;
  embeddingCalls.length = 0;
  logs.length = 0;
  // A test that made the background embedding back off leaves no backoff to the next one.
  t.ctx.ai.serverAnswered();
});

let projects = 0;
/** A project of its own per test, so each starts from an empty board and an empty queue. */
const freshProject = () => {
  const created = createProject(t.ctx.db, { slug: `outage-${++projects}`, plan: "growth" });
  return { id: created.project.id, secretKey: created.secretKey };
};

/** A server that never answers (until the test ends): each attempt runs to its time-out. */
const hanging: Handler = () =>
  new Promise<Response>((resolve) => hung.push(() => resolve(Response.json({}, { status: 503 }))));

const unavailable = (retryAfter: string) => () =>
  modelError(503, "overloaded", { "Retry-After": retryAfter });

describe("a request's own embedding: one attempt, within one time-out", () => {
  test("the similar-post search passes on the server's Retry-After with its 502, as a summary does", async () => {
    embeddings = () => modelError(429, "quota", { "Retry-After": "120" });
    const response = await t.call("GET", "/api/v1/posts/similar?query=dark%20mode");
    expect(response.status).toBe(502);
    expect(response.body).toMatchObject({ error_code: "UPSTREAM_ERROR", retry: true });
    expect(response.body.message).toContain("Cannot search for similar posts");
    expect(response.headers.get("retry-after")).toBe("120");
  });

  test("a server that never answers: the search fails after one time-out, not (1 + retries)", async () => {
    embeddings = hanging;
    const { value: response, ms } = await timed(() => t.call("GET", "/api/v1/posts/similar?query=dark"));
    expect(response.status).toBe(502);
    expect(response.body.retry).toBe(true);
    expect(response.body.message).toContain("timed out");
    expect(embeddingCalls).toHaveLength(1);
    // (1 + retries) time-outs would be 3 s; the margin is for a busy machine.
    expect(ms).toBeLessThan(TIMEOUT_MS + 1_500);
  });

  test("a 503 asking for a second is not waited by a request: it fails at once and passes the wait on", async () => {
    embeddings = unavailable("1");
    const { value: response, ms } = await timed(() => t.call("GET", "/api/v1/posts/similar?query=dark"));
    expect(response.status).toBe(502);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(embeddingCalls).toHaveLength(1);
    // Waiting the Retry-After would take a second at least.
    expect(ms).toBeLessThan(1_000);
  });

  test("from-text and triage embed their texts once each: answered within a time-out of embedding", async () => {
    const project = freshProject();
    await makePost(t, { title: "Night theme for the editor" }, project.secretKey);
    embeddings = hanging;
    const created = await timed(() =>
      t.call("POST", "/api/v1/posts/from-text", {
        key: project.secretKey,
        body: { text: "Please add SAML single sign-on" },
      }),
    );
    expect(created.value.status).toBe(201);
    expect(created.ms).toBeLessThan(TIMEOUT_MS + 2_000);
    const triage = await timed(() =>
      t.call("POST", "/api/v1/ai/triage", { key: project.secretKey, body: {} }),
    );
    expect(triage.value.status).toBe(200);
    // catchUp waits at most 1.5 s for the queue, then one post's embedding fails after one time-out and
    // triage asks the server no more.
    expect(triage.ms).toBeLessThan(1_500 + TIMEOUT_MS + 1_500);
  });

  test("the background embedding keeps its retries: it waits a short Retry-After and tries again", async () => {
    let refusals = 0;
    embeddings = (input) => (refusals++ < 1 ? unavailable("1")() : normalEmbeddings(input));
    const vectors = await t.ctx.ai.provider.embed([{ title: "Dark mode", description: null }]);
    expect(vectors).toHaveLength(1);
    // Only this call's attempts: a post an earlier test left queued may be embedded meanwhile.
    const attempts = embeddingCalls.filter((input) => input.some((text) => text.includes("Dark mode")));
    expect(attempts).toHaveLength(2);
  });
});

describe("the background embedding backs off as long as the server asks", () => {
  const backoffs = () =>
    logs
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.msg === "embedding failed; will retry")
      .map((entry) => entry.retryInMs as number);

  test("Retry-After 120 → no try for at least 120 s; Retry-After of a day → the longest backoff, 5 minutes", async () => {
    const project = freshProject();
    await makePost(t, { title: "Dark mode" }, project.secretKey);
    embeddings = () => modelError(429, "quota", { "Retry-After": "120" });
    await t.ctx.ai.catchUp(project.id);
    expect(backoffs()).toHaveLength(1);
    expect(backoffs()[0]).toBeGreaterThanOrEqual(120_000);
    expect(backoffs()[0]).toBeLessThanOrEqual(300_000);
    // While it backs off, a request does not try the queue.
    const calls = embeddingCalls.length;
    await t.ctx.ai.catchUp(project.id);
    expect(embeddingCalls).toHaveLength(calls);

    t.ctx.ai.serverAnswered();
    logs.length = 0;
    embeddings = () => modelError(429, "quota", { "Retry-After": "86400" });
    await t.ctx.ai.catchUp(project.id);
    expect(backoffs()).toEqual([300_000]);
  });
});

describe("a vector of zeros for one post among others", () => {
  test("only that post is set aside with its reason; the others of its batch are stored", async () => {
    const project = freshProject();
    const zeros = await makePost(t, { title: "All zeros please" }, project.secretKey);
    const dark = await makePost(t, { title: "Dark mode for the editor" }, project.secretKey);
    const csv = await makePost(t, { title: "Export invoices to CSV" }, project.secretKey);
    await t.ctx.ai.drain(project.id);
    expect(embeddingCalls.some((input) => input.length === 3)).toBe(true);
    expect(store.storedVector(t.ctx.db, dark.id)).not.toBeNull();
    expect(store.storedVector(t.ctx.db, csv.id)).not.toBeNull();
    expect(store.storedVector(t.ctx.db, zeros.id)).toBeNull();
    const failed = new Map(
      indexStatus(t.ctx.db, "openai").failed.map((entry) => [entry.postId, entry.reason]),
    );
    expect(failed.get(zeros.id)).toContain("all zeros");
    expect(failed.has(dark.id)).toBe(false);
    // Set aside, not queued: the next drain sends nothing.
    embeddingCalls.length = 0;
    await t.ctx.ai.drain(project.id);
    expect(embeddingCalls).toHaveLength(0);
    // The board still finds the others.
    const similar = await t.call("GET", "/api/v1/posts/similar?query=dark%20night", {
      key: project.secretKey,
    });
    expect(similar.body.data.map((post: { id: string }) => post.id)).toContain(dark.id);
  });

  test("a NaN in one post's vector sets that post aside too", async () => {
    const project = freshProject();
    const dark = await makePost(t, { title: "Dark mode" }, project.secretKey);
    const broken = await makePost(t, { title: "Mobile app" }, project.secretKey);
    embeddings = (input) =>
      new Response(
        JSON.stringify({
          object: "list",
          data: input.map((text, index) => ({
            index,
            embedding: /mobile/i.test(text) ? [1, 0, 0, 0, 0] : [1, 0, 0, 0, 0.1],
          })),
        }).replace("[1,0,0,0,0]", "[1,1e999,0,0,0]"),
        { headers: { "content-type": "application/json" } },
      );
    await t.ctx.ai.drain(project.id);
    expect(store.storedVector(t.ctx.db, dark.id)).not.toBeNull();
    const failed = new Map(
      indexStatus(t.ctx.db, "openai").failed.map((entry) => [entry.postId, entry.reason]),
    );
    expect(failed.get(broken.id)).toContain("not a finite number");
  });

  test("a query that embeds to zeros answers 502 that says so, not to be retried", async () => {
    const response = await t.call("GET", "/api/v1/posts/similar?query=all%20zeros");
    expect(response.status).toBe(502);
    expect(response.body).toMatchObject({ error_code: "UPSTREAM_ERROR", retry: false });
    expect(response.body.message).toContain("all zeros");
  });

  test("an answer malformed as a whole still fails the batch, and its posts stay queued", async () => {
    const project = freshProject();
    const one = await makePost(t, { title: "Dark mode" }, project.secretKey);
    const two = await makePost(t, { title: "SAML login" }, project.secretKey);
    const cases: Handler[] = [
      // One vector for two inputs.
      (input) => normalEmbeddings(input.slice(0, 1)),
      // Two dimensions in one answer.
      (input) => embeddingList(input.map((_, index) => (index === 0 ? [1, 0, 0] : [1, 0, 0, 0, 0]))),
    ];
    for (const answer of cases) {
      embeddings = answer;
      const error = await t.ctx.ai.drain(project.id).catch((thrown: unknown) => thrown);
      expect(error).toMatchObject({ code: "UPSTREAM_ERROR", retry: true });
      expect(store.storedVector(t.ctx.db, one.id)).toBeNull();
      const failed = indexStatus(t.ctx.db, "openai").failed.map((entry) => entry.postId);
      expect(failed).not.toContain(one.id);
      expect(failed).not.toContain(two.id);
    }
  });
});
