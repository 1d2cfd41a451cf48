import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { ApiError } from "../../src/http/errors";
import { makePost, makeTag } from "../support/board";
import {
  chatCompletion,
  createOpenAiTestApp,
  embeddingList,
  modelError,
  startFakeModelServer,
  structuredAnswer,
  structuredCompletion,
  timed,
  topicFlags,
  type AssistantMessage,
  type ModelRequestBody,
} from "./fake-model";

/**
 * What real model servers answer, played by the loopback fake of test/ai/fake-model.ts:
 * Azure quotas with Retry-After of hours, reasoning and JSON-mode models that wrap their JSON, answers of
 * megabytes, invalid embeddings, proxies that answer HTML, and model servers whose errors an operator
 * must see in the log.
 */
const API_KEY = "sk-quirk-secret-key-123456";
type Handler = (body: ModelRequestBody) => Response | Promise<Response>;
let chat: Handler | null = null;
let embeddings: Handler | null = null;
const logLines: string[] = [];

/** What a server that works answers: topic vectors of five dimensions, never zero. */
function normalEmbeddings(body: ModelRequestBody): Response {
  return embeddingList((body.input ?? []).map((text) => [...topicFlags(text), 0.1]));
}

const server = startFakeModelServer(({ path, body }) => {
  if (path === "/v1/embeddings") return embeddings ? embeddings(body) : normalEmbeddings(body);
  return chat ? chat(body) : structuredCompletion(body);
});
const requests = server.requests;

const t = createOpenAiTestApp(
  server,
  {
    FEATUREBOARD_LOG_LEVEL: "warn",
    OPENAI_API_KEY: API_KEY,
    FEATUREBOARD_EMBED_MODEL: "test-embed",
    FEATUREBOARD_CHAT_MODEL: "test-chat",
    FEATUREBOARD_AI_TIMEOUT_MS: "1000",
    FEATUREBOARD_AI_MAX_RETRIES: "2",
  },
  (line) => logLines.push(line),
);

beforeAll(async () => {
  await makeTag(t, "Mobile");
  await makeTag(t, "Billing");
  await makePost(t, { title: "Dark mode for the editor" });
  await makePost(t, { title: "Export invoices to CSV" });
  // Embedded now, with the normal answers: the tests' broken answers are for their own queries.
  await t.ctx.ai.drain(null);
});
afterAll(() => {
  t.close();
  server.stop();
});
beforeEach(() => {
  chat = null;
  embeddings = null;
  requests.length = 0;
  logLines.length = 0;
});

const warnings = () =>
  logLines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === "AI provider call failed");

describe("Retry-After and the time a call may take", () => {
  test("embeddings answering 429 with Retry-After 86400 (an Azure quota) fail at once, retryable, saying the wait", async () => {
    embeddings = () => modelError(429, "quota exceeded", { "Retry-After": "86400" });
    const { value: response, ms } = await timed(() => t.call("GET", "/api/v1/posts/similar?query=quota"));
    expect(ms).toBeLessThan(1_000);
    expect(response.status).toBe(502);
    expect(response.body).toMatchObject({ error_code: "UPSTREAM_ERROR", retry: true });
    expect(requests.filter((call) => call.path === "/v1/embeddings")).toHaveLength(1);
    // The provider's error carries the wait, for the embedding worker's backoff and the HTTP answer.
    const thrown = await t.ctx.ai.provider
      .embed([{ title: "quota", description: null }])
      .catch((error) => error);
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({
      code: "UPSTREAM_ERROR",
      retry: true,
      headers: { "Retry-After": "86400" },
    });
  });

  test("a chat 429 with Retry-After 3600 answers the summary at once with the wait, not an hour later", async () => {
    chat = () => modelError(429, "rate limited", { "Retry-After": "3600" });
    const { value: response, ms } = await timed(() => t.call("POST", "/api/v1/ai/summary", { body: {} }));
    expect(ms).toBeLessThan(1_000);
    expect(response.status).toBe(502);
    expect(response.body.retry).toBe(true);
    expect(response.headers.get("retry-after")).toBe("3600");
  });

  test("a short Retry-After is waited and the call succeeds; the whole call stays within (1 + retries) time-outs", async () => {
    let refusals = 0;
    chat = (body) =>
      refusals++ < 1 ? modelError(429, "slow down", { "Retry-After": "1" }) : structuredCompletion(body);
    const { value: response, ms } = await timed(() => t.call("POST", "/api/v1/ai/summary", { body: {} }));
    expect(response.status).toBe(200);
    expect(response.body.data.summary).toBe("Model summary.");
    expect(ms).toBeGreaterThanOrEqual(900);
    // A server that always asks for a second: two waits fit in three seconds, then it fails with the wait.
    chat = () => modelError(429, "slow down", { "Retry-After": "1" });
    const always = await timed(() => t.call("POST", "/api/v1/ai/summary", { body: {} }));
    expect(always.value.status).toBe(502);
    expect(always.value.headers.get("retry-after")).toBe("1");
    expect(always.ms).toBeLessThan(3_500);
  });

  test("a server that sends its headers and never the rest of the body times out within the bound", async () => {
    chat = () =>
      new Response(
        new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode("{")) }),
        {
          headers: { "content-type": "application/json" },
        },
      );
    const { value: response, ms } = await timed(() => t.call("POST", "/api/v1/ai/summary", { body: {} }));
    expect(response.status).toBe(502);
    expect(response.body.retry).toBe(true);
    expect(response.body.message).toContain("timed out");
    expect(ms).toBeLessThan(3_500);
  });
});

describe("answers of reasoning and JSON-mode models", () => {
  const title = {
    title: "Offline mode for the app",
    description: "Work without a connection.",
    tags: ["mobile"],
  };
  const wrapped: [string, AssistantMessage, string?][] = [
    ["```json fences", { content: "```json\n" + JSON.stringify(title, null, 2) + "\n```" }],
    [
      "a leading <think> block",
      { content: `<think>The user wants {offline}. Let me answer.</think>\n${JSON.stringify(title)}` },
    ],
    [
      "prose around the JSON",
      { content: `Sure! Here is the JSON: ${JSON.stringify(title)} Let me know if you need more.` },
    ],
    [
      "content empty, the text in reasoning_content",
      { content: "", reasoning_content: JSON.stringify(title) },
      "length",
    ],
    [
      "an extra field and a missing optional one",
      { content: JSON.stringify({ title: title.title, confidence: 0.93, tags: ["mobile"] }) },
    ],
    ["a stray brace in the prose", { content: `Using {curly braces as asked: ${JSON.stringify(title)}` }],
    [
      "trailing commas and comments",
      {
        content: `{\n  // the request\n  "title": "Offline mode for the app", /* short */\n  "description": "Work without a connection.",\n  "tags": ["mobile",],\n}`,
      },
    ],
  ];
  for (const [what, message, finish] of wrapped) {
    test(`from-text reads ${what}`, async () => {
      chat = () => chatCompletion(message, finish);
      const response = await t.call("POST", "/api/v1/posts/from-text", {
        body: { text: `Offline mode please, our field team has no signal (${what})` },
      });
      expect(response.status).toBe(201);
      expect(response.body.data.provider).toBeUndefined();
      expect(response.body.data.post.title).toBe("Offline mode for the app");
      const post = (await t.call("GET", `/api/v1/posts/${response.body.data.post.id}`)).body.data;
      // "mobile" is the project's "Mobile": tags are matched without regard to case.
      expect(post.tags.map((tag: { label: string }) => tag.label)).toEqual(["Mobile"]);
      await t.call("DELETE", `/api/v1/posts/${post.id}`);
    });
  }

  test("a comma inside a text is kept while trailing commas go", async () => {
    chat = () =>
      chatCompletion(
        '{"title": "Offline mode for the app", "description": "Sync, ] later", "tags": ["mobile",],}',
      );
    const response = await t.call("POST", "/api/v1/posts/from-text", {
      body: { text: "Offline mode please, and sync later" },
    });
    expect(response.body.data.post).toMatchObject({
      title: "Offline mode for the app",
      description: "Sync, ] later",
    });
    await t.call("DELETE", `/api/v1/posts/${response.body.data.post.id}`);
  });

  test("triage and summary read a think block and fences; tags in another case are the project's", async () => {
    chat = (body) => {
      const json = structuredAnswer(body);
      if (Array.isArray(json.posts))
        for (const note of json.posts)
          Object.assign(note, { tags: ["BILLING", "mobile", "Not ours"], extra: 1 });
      return chatCompletion(`<think>hmm</think>\n\`\`\`json\n${JSON.stringify(json)}\n\`\`\``);
    };
    const triage = await t.call("POST", "/api/v1/ai/triage", { body: {} });
    expect(triage.status).toBe(200);
    expect(triage.body.data.provider).toBeUndefined();
    const item = triage.body.data.recommendations[0];
    expect(item.reason).toContain("Model note.");
    expect(item.suggested_tags).toEqual(["Billing", "Mobile"]);
    const summary = await t.call("POST", "/api/v1/ai/summary", { body: {} });
    expect(summary.body.data).toMatchObject({ summary: "Model summary.", top_themes: ["model theme"] });
  });

  test("an answer that holds no JSON falls back to the local words (provider local), not a 502 to retry", async () => {
    chat = () => chatCompletion("I'm sorry, I can't help with that request.");
    const created = await t.call("POST", "/api/v1/posts/from-text", {
      body: { text: "Please add SAML single sign-on for our Okta users" },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.provider).toBe("local");
    chat = () => chatCompletion("", "length");
    const summary = await t.call("POST", "/api/v1/ai/summary", { body: {} });
    expect(summary.status).toBe(200);
    expect(summary.body.data.provider).toBe("local");
    const triage = await t.call("POST", "/api/v1/ai/triage", { body: {} });
    expect(triage.body.data.provider).toBe("local");
    await t.call("DELETE", `/api/v1/posts/${created.body.data.post.id}`);
  });
});

describe("how much of a model's words are kept", () => {
  test("a long note, summary and lists are cut; an answer of megabytes falls back to the local words", async () => {
    chat = (body) => {
      const json = structuredAnswer(body);
      if (Array.isArray(json.posts)) for (const note of json.posts) note.note = "Long note. ".repeat(5_000);
      else
        Object.assign(json, {
          summary: "Long summary. ".repeat(10_000),
          highlights: Array.from({ length: 50 }, () => "h".repeat(2_000)),
          top_themes: Array.from({ length: 50 }, () => "theme"),
        });
      return chatCompletion(JSON.stringify(json));
    };
    const triage = await t.call("POST", "/api/v1/ai/triage", { body: {} });
    expect(triage.body.data.provider).toBeUndefined();
    for (const item of triage.body.data.recommendations) expect(item.reason.length).toBeLessThan(1_500);
    const summary = await t.call("POST", "/api/v1/ai/summary", { body: {} });
    expect(summary.body.data.provider).toBeUndefined();
    expect(summary.body.data.summary.length).toBeLessThanOrEqual(4_000);
    expect(summary.body.data.highlights.length).toBeLessThanOrEqual(10);
    for (const highlight of summary.body.data.highlights) expect(highlight.length).toBeLessThanOrEqual(300);
    expect(summary.body.data.top_themes.length).toBeLessThanOrEqual(10);

    // A 10 MB note: the answer is not read past its cap, and the triage is the local one.
    chat = (body) => {
      const json = structuredAnswer(body);
      if (Array.isArray(json.posts)) for (const note of json.posts) note.note = "x".repeat(10_000_000);
      return chatCompletion(JSON.stringify(json));
    };
    const huge = await t.call("POST", "/api/v1/ai/triage", { body: {} });
    expect(huge.status).toBe(200);
    expect(huge.body.data.provider).toBe("local");
    expect(JSON.stringify(huge.body).length).toBeLessThan(100_000);
    expect(warnings().at(-1).reason).toContain("larger than 4 MB");
  });
});

describe("invalid embeddings are refused with what was wrong", () => {
  const cases: [string, (index: number) => unknown, string][] = [
    ["all zeros", () => [0, 0, 0, 0, 0], "all zeros"],
    ["null", () => null, "is null"],
    ["empty", () => [], "is empty"],
    ["nested", () => [[0.1, 0.2, 0.3, 0.4, 0.5]], "not a flat list of numbers"],
  ];
  for (const [what, embedding, message] of cases) {
    test(`an embedding that is ${what}`, async () => {
      embeddings = () => embeddingList([embedding(0)]);
      const response = await t.call("GET", `/api/v1/posts/similar?query=${encodeURIComponent(what)}`);
      expect(response.status).toBe(502);
      expect(response.body.error_code).toBe("UPSTREAM_ERROR");
      expect(response.body.message).toContain(message);
    });
  }

  test("a number that is not finite (1e999 in the JSON)", async () => {
    embeddings = () =>
      new Response('{"object":"list","data":[{"index":0,"embedding":[0.1,1e999,0.2,0.3,0.4]}]}', {
        headers: { "content-type": "application/json" },
      });
    const response = await t.call("GET", "/api/v1/posts/similar?query=infinite");
    expect(response.status).toBe(502);
    expect(response.body.message).toContain("not a finite number");
  });

  test("vectors of another dimension than the model's earlier ones (another model loaded)", async () => {
    expect((await t.call("GET", "/api/v1/posts/similar?query=dark")).status).toBe(200);
    embeddings = () => embeddingList([[0.1, 0.2, 0.3]]);
    const response = await t.call("GET", "/api/v1/posts/similar?query=dark");
    expect(response.status).toBe(502);
    expect(response.body.message).toContain("3 dimensions where this model's earlier vectors had 5");
    // Refused once, then taken as the model's (the index is rebuilt for it: AiRuntime.adoptDimension).
    embeddings = null;
    const provider = t.ctx.ai.provider;
    const back = await provider.embed([{ title: "dark", description: null }]).catch((error) => error);
    expect(back.message).toContain("5 dimensions where this model's earlier vectors had 3");
    expect(await provider.embed([{ title: "dark", description: null }])).toHaveLength(1);
  });
});

describe("answers that are no OpenAI-style completion", () => {
  test("a streamed reply nobody asked for is put back together", async () => {
    chat = () => {
      const json = JSON.stringify({ title: "Streamed title", description: null, tags: [] });
      const events = [json.slice(0, 10), json.slice(10)]
        .map((piece) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece } }] })}\n\n`)
        .join("");
      return new Response(`${events}data: [DONE]\n\n`, { headers: { "content-type": "text/event-stream" } });
    };
    const response = await t.call("POST", "/api/v1/posts/from-text", {
      body: { text: "Could the editor get a streamed thing" },
    });
    expect(response.status).toBe(201);
    expect(response.body.data.post.title).toBe("Streamed title");
    await t.call("DELETE", `/api/v1/posts/${response.body.data.post.id}`);
  });

  test("an HTML login page or a body without choices: the service's words, never a JavaScript engine's", async () => {
    const login = () =>
      new Response("<!DOCTYPE html><html><body>Sign in to the proxy</body></html>", {
        headers: { "content-type": "text/html" },
      });
    chat = login;
    const created = await t.call("POST", "/api/v1/posts/from-text", {
      body: { text: "Please add a dark mode to the dashboard" },
    });
    expect(created.body.data.provider).toBe("local");
    expect(warnings().at(-1).reason).toContain("not an OpenAI-style chat completion");
    await t.call("DELETE", `/api/v1/posts/${created.body.data.post.id}`);

    chat = () => Response.json({ id: "x", object: "chat.completion" });
    const summary = await t.call("POST", "/api/v1/ai/summary", { body: {} });
    expect(summary.body.data.provider).toBe("local");
    expect(warnings().at(-1).reason).toContain(
      "the model server's answer was not an OpenAI-style chat completion (no choices)",
    );

    embeddings = login;
    const similar = await t.call("GET", "/api/v1/posts/similar?query=login");
    expect(similar.status).toBe(502);
    expect(similar.body.message).toContain("not an OpenAI-style embeddings answer");
    for (const text of [similar.body.message, ...logLines]) {
      expect(text).not.toContain("undefined is not");
      expect(text).not.toContain("evaluating");
    }
  });
});

describe("the log says why", () => {
  test("one warning per failed call with the server's own reason, and never the key", async () => {
    chat = () => modelError(404, `model 'test-chat' not found, try pulling it first (key ${API_KEY})`);
    const created = await t.call("POST", "/api/v1/posts/from-text", {
      body: { text: "Please add an Android app for our field team" },
    });
    expect(created.body.data.provider).toBe("local");
    const logged = warnings();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      level: "warn",
      call: "feature_request",
      model: "test-chat",
      status: 404,
      retry: false,
    });
    expect(logged[0].reason).toContain("model 'test-chat' not found, try pulling it first");
    expect(logLines.join("\n")).not.toContain(API_KEY);
    await t.call("DELETE", `/api/v1/posts/${created.body.data.post.id}`);
  });
});
