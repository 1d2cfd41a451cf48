import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { backoffMs, indexStatus } from "../../src/ai/embeddings";
import { makePost } from "../support/board";
import {
  createOpenAiTestApp,
  embeddingList,
  modelError,
  startFakeModelServer,
  topicFlags,
} from "./fake-model";

/**
 * An OpenAI-compatible embeddings server with the limits real ones have (a local server with an
 * embeddings model and nothing else): at most 8 inputs per request (413 beyond), at most 2,000
 * characters per input (400 for the whole request when one is longer), and no chat model (404).
 */
const BATCH_CAP = 8;
const INPUT_CAP = 2_000;
const embeddedTexts: string[] = [];
const requests: { path: string; inputs: number; longest: number; status: number }[] = [];
let refuseKey = false;

function vectorOf(text: string): number[] {
  return [...topicFlags(text), 0.01 + (text.length % 5) * 0.01];
}

const server = startFakeModelServer(({ path, body }) => {
  const input = body.input ?? [];
  const longest = Math.max(0, ...input.map((text) => text.length));
  const refuse = (status: number, message: string) => {
    requests.push({ path, inputs: input.length, longest, status });
    return modelError(status, message);
  };
  if (refuseKey) return refuse(401, "invalid api key");
  if (path !== "/v1/embeddings") return refuse(404, `model 'test-chat' not found`);
  if (input.length > BATCH_CAP) return refuse(413, `too many inputs: at most ${BATCH_CAP} per request`);
  if (input.some((text) => text.length > INPUT_CAP)) return refuse(400, "input is too long for the context");
  requests.push({ path, inputs: input.length, longest, status: 200 });
  embeddedTexts.push(...input);
  return embeddingList(input.map(vectorOf));
});

const t = createOpenAiTestApp(server, {
  OPENAI_API_KEY: "sk-test-key",
  FEATUREBOARD_EMBED_MODEL: "test-embed",
  FEATUREBOARD_CHAT_MODEL: "test-chat",
  FEATUREBOARD_AI_TIMEOUT_MS: "2000",
  FEATUREBOARD_AI_MAX_RETRIES: "0",
  // Longer than the server takes, so that one post can fail on its own.
  FEATUREBOARD_EMBED_MAX_CHARS: "5000",
});
afterAll(() => {
  t.close();
  server.stop();
});
beforeEach(() => {
  refuseKey = false;
  requests.length = 0;
  embeddedTexts.length = 0;
});

describe("the openai provider against a server with real limits", () => {
  test("a server capped at 8 inputs per request: the provider halves its batch and every post is embedded", async () => {
    for (let index = 0; index < 30; index++)
      await makePost(t, { title: `Request number ${index} about exports` });
    const response = await t.call("GET", "/api/v1/posts/similar?query=csv%20export");
    expect(response.status).toBe(200);
    expect(response.body.data.length).toBeGreaterThan(0);
    expect(indexStatus(t.ctx.db, "openai").queued).toBe(0);
    // It learnt the cap: after the first refusals, no request carries more than 8 inputs.
    const accepted = requests.filter((call) => call.status === 200);
    expect(accepted.every((call) => call.inputs <= BATCH_CAP)).toBe(true);
    expect(requests.filter((call) => call.status === 413).length).toBeLessThanOrEqual(3);
  });

  test("one post too long for the server is set aside with its reason; the posts after it are embedded", async () => {
    const long = await makePost(t, { title: "Huge request", description: "word ".repeat(900) });
    const after = await makePost(t, { title: "Dark mode for the editor" });
    const response = await t.call("GET", "/api/v1/posts/similar?query=night%20theme");
    expect(response.status).toBe(200);
    expect(response.body.data.map((hit: { id: string }) => hit.id)).toContain(after.id);
    const status = indexStatus(t.ctx.db, "openai");
    expect(status.queued).toBe(0);
    expect(status.failed).toEqual([{ postId: long.id, reason: expect.stringContaining("too long") }]);
    // Editing the post queues it again (and, short enough now, it is embedded).
    await t.call("PATCH", `/api/v1/posts/${long.id}`, { body: { description: "short now" } });
    expect((await t.call("GET", "/api/v1/posts/similar?query=huge")).status).toBe(200);
    expect(indexStatus(t.ctx.db, "openai").failed).toEqual([]);
  });

  test("texts longer than FEATUREBOARD_EMBED_MAX_CHARS are cut before they are sent", async () => {
    await makePost(t, { title: "Very long", description: "x".repeat(8_000) });
    await t.call("GET", "/api/v1/posts/similar?query=long");
    const sent = requests.filter((call) => call.path === "/v1/embeddings");
    expect(sent.length).toBeGreaterThan(0);
    expect(Math.max(...sent.map((call) => call.longest))).toBe(5_000);
  });

  test("each queued post is embedded once, though the worker and searches drain at the same time", async () => {
    for (let index = 0; index < 12; index++) await makePost(t, { title: `Once only ${index}` });
    t.ctx.ai.startWorker();
    try {
      await Promise.all([
        t.call("GET", "/api/v1/posts/similar?query=once"),
        t.call("GET", "/api/v1/posts/similar?query=only"),
        t.ctx.ai.drain(null),
      ]);
    } finally {
      t.ctx.ai.stopWorker();
    }
    const once = embeddedTexts.filter((text) => text.startsWith("Once only"));
    expect(once.length).toBe(12);
    expect(new Set(once).size).toBe(12);
  });

  test("a permanent refusal (a wrong key) is UPSTREAM_ERROR with retry false (time-outs and 5xx stay retryable: openai.test.ts)", async () => {
    await makePost(t, { title: "Needs an embedding" });
    refuseKey = true;
    const response = await t.call("GET", "/api/v1/posts/similar?query=anything");
    expect(response.status).toBe(502);
    expect(response.body).toMatchObject({ error_code: "UPSTREAM_ERROR", retry: false });
  });
});

describe("a server without a chat model", () => {
  test("from-text, triage and summary fall back to the local logic and say so (provider: local)", async () => {
    const created = await t.call("POST", "/api/v1/posts/from-text", {
      body: { text: "Could we get SAML single sign-on for our Okta users? Our security team requires it." },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ action: "created", provider: "local" });
    expect(created.body.data.post.title.length).toBeGreaterThan(0);
    const triage = await t.call("POST", "/api/v1/ai/triage", { body: {} });
    expect(triage.status).toBe(200);
    expect(triage.body.data.provider).toBe("local");
    expect(triage.body.data.triaged).toBeGreaterThan(0);
    const summary = await t.call("POST", "/api/v1/ai/summary", { body: {} });
    expect(summary.status).toBe(200);
    expect(summary.body.data).toMatchObject({ provider: "local", summary: expect.any(String) });
    // The refusals were the chat model's; embeddings kept working for the similarity checks.
    expect(requests.filter((call) => call.path === "/v1/chat/completions").length).toBeGreaterThanOrEqual(3);
  });
});

test("the worker's backoff doubles per failure up to five minutes, with jitter below each ceiling", () => {
  expect(backoffMs(1, 0)).toBe(1_000);
  expect(backoffMs(1, 1)).toBe(2_000);
  expect(backoffMs(3, 1)).toBe(8_000);
  expect(backoffMs(30, 1)).toBe(300_000);
  expect(backoffMs(30, 0)).toBe(150_000);
});
