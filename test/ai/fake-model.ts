import { createTestApp, type TestApp } from "../support/app";
import { startReceiver } from "../support/receiver";
import { UNLIMITED_AI } from "./support";

/**
 * A loopback fake of an OpenAI-compatible model server (OpenAI, Ollama, vLLM, llama.cpp), shared by the
 * tests of the openai provider: the envelopes its answers come in, and the JSON a well-behaved chat model
 * answers for each workflow. Each test file keeps its own misbehaviours (hanging, 429 with Retry-After,
 * wrapped JSON…) in the handler it passes to startFakeModelServer.
 */

/** The fields of the openai provider's request bodies that the fakes read (src/ai/openai-provider.ts). */
export interface ModelRequestBody {
  model?: string;
  /** Embeddings: the texts to embed. */
  input?: string[];
  /** Chat: the system message, then the user message holding the workflow's input as JSON. */
  messages?: { role: string; content: string }[];
  /** Chat: the JSON schema the answer must follow, named after the workflow. */
  response_format?: { type: string; json_schema: { name: string; strict?: boolean } };
}

export interface ModelRequest {
  path: string;
  body: ModelRequestBody;
}

export type ModelHandler = (request: ModelRequest) => Response | Promise<Response>;

export interface FakeModelServer {
  /** The OPENAI_BASE_URL that points the openai provider at this server. */
  baseUrl: string;
  /** Every request received, in order; a test empties it to count only its own. */
  requests: ModelRequest[];
  stop(): void;
}

/** The one place a request body is read: the provider always sends JSON of the shape above. */
function readBody(text: string): ModelRequestBody {
  return JSON.parse(text) as ModelRequestBody;
}

/** Starts the fake on a free loopback port; each request is recorded before `handler` answers it. */
export function startFakeModelServer(handler: ModelHandler): FakeModelServer {
  const requests: ModelRequest[] = [];
  const receiver = startReceiver((received) => {
    const request: ModelRequest = { path: received.path, body: readBody(received.body) };
    requests.push(request);
    return handler(request);
  });
  return { baseUrl: `${receiver.url}/v1`, requests, stop: () => receiver.stop() };
}

/**
 * A test app whose openai provider asks `server`, without the AI rate limit (the tests ask often); `env`
 * names the models, time-out and retries each file plays with, and `logLine` receives what is logged.
 */
export function createOpenAiTestApp(
  server: FakeModelServer,
  env: Record<string, string>,
  logLine?: (line: string) => void,
): TestApp {
  return createTestApp(
    { ...UNLIMITED_AI, FEATUREBOARD_AI_PROVIDER: "openai", OPENAI_BASE_URL: server.baseUrl, ...env },
    logLine,
  );
}

/** Runs `work` and says how long it took: how long a request waits on a slow or failing model server. */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/** What the fakes' vectors stand for: texts about the same topic point the same way, whatever their words. */
const TOPICS = [
  /dark|night/i,
  /export|csv|spreadsheet|excel/i,
  /sso|sign-on|saml/i,
  /mobile|phone|android|ios/i,
];

/** 1 for each topic the text is about, 0 for the others; each test file adds the dimensions it needs. */
export function topicFlags(text: string): number[] {
  return TOPICS.map((topic) => (topic.test(text) ? 1 : 0));
}

/** The embeddings envelope around one vector per input, in order; invalid ones too, to see them refused. */
export function embeddingList(vectors: unknown[]): Response {
  return Response.json({
    object: "list",
    data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })),
    usage: { prompt_tokens: 1, total_tokens: 1 },
  });
}

/** An assistant's message: its text, and the reasoning some servers put beside it (vLLM, DeepSeek). */
export interface AssistantMessage {
  content: string;
  reasoning_content?: string;
}

/** The chat-completion envelope around one assistant message; finish reason "length" is a cut answer. */
export function chatCompletion(message: string | AssistantMessage, finishReason = "stop"): Response {
  const said = typeof message === "string" ? { content: message } : message;
  return Response.json({
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: 0,
    choices: [{ index: 0, finish_reason: finishReason, message: { role: "assistant", ...said } }],
  });
}

/** The error body OpenAI-compatible servers answer with; `headers` carry e.g. Retry-After. */
export function modelError(status: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error: { message } }, { status, headers });
}

/**
 * What the openai provider asks a workflow about, the JSON of its user message: feature_request sends
 * feedback and tag_labels, triage tag_labels and posts, feedback_summary posts and stats.
 */
export interface WorkflowInput {
  feedback?: string;
  tag_labels?: string[];
  posts?: { id: string }[];
}

type Json = Record<string, unknown>;

/** A workflow's answer, by the name of the JSON schema the provider asks for. */
export interface StructuredAnswers {
  feature_request: (input: WorkflowInput) => Json;
  triage: (input: WorkflowInput) => Json;
  feedback_summary: (input: WorkflowInput) => Json;
}

const WELL_BEHAVED: StructuredAnswers = {
  feature_request: (input) => ({ title: String(input.feedback).slice(0, 80), description: null, tags: [] }),
  triage: (input) => ({
    posts: (input.posts ?? []).map((post) => ({ postId: post.id, tags: [], note: "Model note." })),
  }),
  feedback_summary: () => ({
    summary: "Model summary.",
    highlights: ["Model highlight"],
    top_themes: ["model theme"],
  }),
};

/** The JSON a well-behaved model answers for the workflow a chat request asks for, or `overrides` answer. */
export function structuredAnswer(body: ModelRequestBody, overrides: Partial<StructuredAnswers> = {}): Json {
  const answers = { ...WELL_BEHAVED, ...overrides };
  // Read as the provider writes it, as the request body is (readBody).
  const input = JSON.parse(body.messages?.[1]?.content ?? "{}") as WorkflowInput;
  switch (body.response_format?.json_schema.name) {
    case "feature_request":
      return answers.feature_request(input);
    case "triage":
      return answers.triage(input);
    default:
      return answers.feedback_summary(input);
  }
}

/** A chat completion holding structuredAnswer's JSON: what a well-behaved server answers. */
export function structuredCompletion(
  body: ModelRequestBody,
  overrides: Partial<StructuredAnswers> = {},
): Response {
  return chatCompletion(JSON.stringify(structuredAnswer(body, overrides)));
}
