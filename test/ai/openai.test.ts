import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { expectApiError } from "../support/app";
import { makePost, makeTag } from "../support/board";
import {
  createOpenAiTestApp,
  embeddingList,
  modelError,
  startFakeModelServer,
  structuredCompletion,
  topicFlags,
  type StructuredAnswers,
} from "./fake-model";

/**
 * A small OpenAI-compatible server on loopback: /v1/embeddings and /v1/chat/completions, as OpenAI,
 * Ollama or vLLM answer them. `mode` makes it slow (past the client's time-out) or failing.
 */
type Mode = "ok" | "slow" | "error" | "rate-limited-once" | "error-once";
let mode: Mode = "ok";
/** Runs when a chat request arrives, before it is answered: what happens while the model thinks. */
let whileChatting: (() => Promise<unknown>) | null = null;

/** Topic vectors: texts about the same topic point the same way, whatever their wording. */
function fakeEmbedding(text: string): number[] {
  return [...topicFlags(text), 0.05 * (text.length % 7)];
}

/** Titles and tags from the feedback, with a tag the project lacks; triage suggests "Mobile" everywhere. */
const ANSWERS: Partial<StructuredAnswers> = {
  feature_request: (input) => ({
    title: `Model title: ${String(input.feedback).slice(0, 30)}`,
    description: input.feedback,
    tags: [...(input.tag_labels ?? []).filter((label) => /mobile/i.test(label)), "Not a tag of the project"],
  }),
  triage: (input) => ({
    posts: (input.posts ?? []).map((post) => ({ postId: post.id, tags: ["Mobile"], note: "Model note." })),
  }),
};

const server = startFakeModelServer(async ({ path, body }) => {
  if (mode === "slow") await Bun.sleep(2000);
  if (mode === "error") return modelError(500, "model crashed");
  if (mode === "error-once") {
    mode = "ok";
    return modelError(502, "bad gateway");
  }
  if (mode === "rate-limited-once") {
    mode = "ok";
    return modelError(429, "slow down", { "retry-after-ms": "10" });
  }
  if (path === "/v1/embeddings") return embeddingList((body.input ?? []).map(fakeEmbedding));
  if (path === "/v1/chat/completions") {
    await whileChatting?.();
    return structuredCompletion(body, ANSWERS);
  }
  return new Response("not found", { status: 404 });
});
const requests = server.requests;

const t = createOpenAiTestApp(server, {
  OPENAI_API_KEY: "sk-test-key",
  FEATUREBOARD_EMBED_MODEL: "test-embed",
  FEATUREBOARD_CHAT_MODEL: "test-chat",
  FEATUREBOARD_AI_TIMEOUT_MS: "300",
  FEATUREBOARD_AI_MAX_RETRIES: "1",
});
afterAll(() => {
  t.close();
  server.stop();
});
beforeEach(() => {
  mode = "ok";
  whileChatting = null;
  requests.length = 0;
});

describe("the openai provider against an OpenAI-compatible server", () => {
  test("posts are embedded through /v1/embeddings with the configured model; similar ranks by them", async () => {
    const dark = await makePost(t, { title: "Dark mode" });
    await makePost(t, { title: "Export to CSV" });
    const response = await t.call("GET", "/api/v1/posts/similar?query=night%20theme");
    expect(response.status).toBe(200);
    expect(response.body.data[0]).toMatchObject({ id: dark.id, title: "Dark mode" });
    expect(response.body.data[0].similarity).toBeGreaterThanOrEqual(0.7);
    expect(response.body.data).toHaveLength(1);
    const embeddingCalls = requests.filter((call) => call.path === "/v1/embeddings");
    expect(embeddingCalls.length).toBeGreaterThan(0);
    for (const call of embeddingCalls) expect(call.body.model).toBe("test-embed");
  });

  test("from-text still creates the post when a tag the model chose is deleted while it is asked", async () => {
    const mobile = await makeTag(t, "Mobile devices");
    whileChatting = () => t.call("DELETE", `/api/v1/tags/${mobile.id}`);
    const response = await t.call("POST", "/api/v1/posts/from-text", {
      body: { text: "Please build an Android app for the field team" },
    });
    expect(response.status).toBe(201);
    expect(response.body.data.action).toBe("created");
    const post = (await t.call("GET", `/api/v1/posts/${response.body.data.post.id}`)).body.data;
    expect(post.tags).toEqual([]);
    await t.call("DELETE", `/api/v1/posts/${post.id}`);
  });

  test("from-text uses chat completions with a strict JSON schema; tags stay among the project's", async () => {
    const mobile = await makeTag(t, "Mobile");
    const response = await t.call("POST", "/api/v1/posts/from-text", {
      body: { text: "We want an Android app", source: "sales-call" },
    });
    expect(response.status).toBe(201);
    expect(response.body.data.action).toBe("created");
    expect(response.body.data.post.title).toBe("Model title: We want an Android app");
    expect(response.body.data.post.metadata).toEqual({ source: "sales-call" });
    const stored = await t.call("GET", `/api/v1/posts/${response.body.data.post.id}`);
    expect(stored.body.data.tags.map((tag: { id: string }) => tag.id)).toEqual([mobile.id]);
    const chat = requests.find((call) => call.path === "/v1/chat/completions")!;
    expect(chat.body.model).toBe("test-chat");
    expect(chat.body.response_format).toMatchObject({
      type: "json_schema",
      json_schema: { name: "feature_request", strict: true },
    });
    const again = await t.call("POST", "/api/v1/posts/from-text", {
      body: { text: "A phone app please" },
    });
    expect(again.body.data).toMatchObject({
      action: "matched_duplicate",
      post: { id: response.body.data.post.id },
    });
  });

  test("triage and summary carry the model's words", async () => {
    const triage = await t.call("POST", "/api/v1/ai/triage");
    expect(triage.status).toBe(200);
    const item = triage.body.data.recommendations.find(
      (entry: { title: string }) => entry.title === "Export to CSV",
    );
    expect(item.reason).toContain("Model note.");
    expect(item.suggested_tags).toEqual(["Mobile"]);
    const summary = await t.call("POST", "/api/v1/ai/summary");
    expect(summary.body.data).toMatchObject({
      summary: "Model summary.",
      highlights: ["Model highlight"],
      top_themes: ["model theme"],
    });
    expect(summary.body.data.stats.period).toBe("week");
  });

  // Retries are for the background embedding and the workflows' chat calls; a request's own query is tried
  // once, so it answers within one time-out (docs/ai.md, "The openai provider").
  const embeddingRequests = () => requests.filter((call) => call.path === "/v1/embeddings");
  const embedInBackground = () => t.ctx.ai.provider.embed([{ title: "Dark mode", description: null }]);

  test("a 429 is retried by a workflow's chat call and by the background embedding, and they succeed", async () => {
    mode = "rate-limited-once";
    const summary = await t.call("POST", "/api/v1/ai/summary");
    expect(summary.status).toBe(200);
    expect(requests.filter((call) => call.path === "/v1/chat/completions")).toHaveLength(2);
    mode = "rate-limited-once";
    expect(await embedInBackground()).toHaveLength(1);
    expect(embeddingRequests()).toHaveLength(2);
  });

  test("a 5xx is retried: one failed and one answered request reach the server, and the call succeeds", async () => {
    mode = "error-once";
    expect(await embedInBackground()).toHaveLength(1);
    const embeddings = embeddingRequests();
    expect(embeddings).toHaveLength(2);
    expect(embeddings[1]!.body).toEqual(embeddings[0]!.body);
  });

  test("a server failing every time gets the first attempt and FEATUREBOARD_AI_MAX_RETRIES (1) more; a search one", async () => {
    mode = "error";
    expect(await embedInBackground().catch((error: unknown) => error)).toMatchObject({
      code: "UPSTREAM_ERROR",
      retry: true,
    });
    expect(embeddingRequests()).toHaveLength(2);
    requests.length = 0;
    expectApiError(await t.call("GET", "/api/v1/posts/similar?query=dark"), 502, "UPSTREAM_ERROR");
    expect(embeddingRequests()).toHaveLength(1);
  });

  test("a slow server: time-out → 502 UPSTREAM_ERROR with retry true; a search after one attempt, a summary after the retry", async () => {
    mode = "slow";
    const similar = await t.call("GET", "/api/v1/posts/similar?query=dark");
    expect(expectApiError(similar, 502, "UPSTREAM_ERROR").retry).toBe(true);
    expect(embeddingRequests()).toHaveLength(1);
    const summary = await t.call("POST", "/api/v1/ai/summary");
    expect(expectApiError(summary, 502, "UPSTREAM_ERROR").retry).toBe(true);
    expect(requests.filter((call) => call.path === "/v1/chat/completions")).toHaveLength(2);
  });

  test("an error server → 502 UPSTREAM_ERROR; posts are still created and embedded once it recovers", async () => {
    mode = "error";
    const fromText = await t.call("POST", "/api/v1/posts/from-text", { body: { text: "SSO with SAML" } });
    expect(expectApiError(fromText, 502, "UPSTREAM_ERROR").retry).toBe(true);
    expect(fromText.body.message).toContain("500");
    const post = await makePost(t, { title: "Single sign-on with SAML" });
    expectApiError(await t.call("GET", "/api/v1/posts/similar?query=sso"), 502, "UPSTREAM_ERROR");
    mode = "ok";
    const found = await t.call("GET", "/api/v1/posts/similar?query=SAML%20sso%20login");
    expect(found.body.data.map((hit: { id: string }) => hit.id)).toContain(post.id);
  });
});
