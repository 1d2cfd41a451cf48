import type OpenAI from "openai";
import { type TSchema, Type } from "@sinclair/typebox";
import { ApiError } from "../http/errors";
import { LIMITS } from "../http/limits";
import type { Logger } from "../log";
import { matchTags } from "./local-provider";
import {
  completionText,
  dimensionChanged,
  embeddingVectors,
  excerpt,
  isRecord,
  jsonObjectIn,
  projectLabels,
  textField,
  textList,
  unreadableAnswer,
} from "./model-answers";
import {
  type AiProvider,
  type EmbedOptions,
  type Embedded,
  type ExtractedPost,
  type PostText,
  type SummaryInput,
  type SummaryText,
  type TriageNote,
  isRejected,
} from "./provider";
import { l2Normalise } from "./vectors";

export interface OpenAiSettings {
  apiKey: string | null;
  baseUrl: string | null;
  chatModel: string;
  embedModel: string;
  timeoutMs: number;
  maxRetries: number;
  /** Inputs per embeddings request at first; halved when the server refuses a batch as too big. */
  embedBatchSize: number;
  /** Each text is cut to this many characters before it is sent. */
  embedMaxChars: number;
  /** The raw cosine that maps to similarity 0.7 for this model (FEATUREBOARD_EMBED_BOUNDARY). */
  embedBoundary: number | null;
}

/** HTTP statuses with which a server refuses a request as such (too big, malformed), not for a while. */
const REFUSED_REQUEST = new Set([400, 413, 422]);

/**
 * What the service keeps of a model's words (docs/ai.md, "What the openai provider reads"): a model can
 * answer megabytes (a 10 MB note gave a 94-210 MB triage answer); posts keep their field limits.
 */
export const MODEL_TEXT = {
  title: LIMITS.postTitleLength,
  description: LIMITS.postDescriptionLength,
  tags: LIMITS.tagsPerPost,
  note: 1_000,
  summary: 4_000,
  /** Highlights and themes: at most this many, each at most `listItem` characters. */
  listItems: 10,
  listItem: 300,
} as const;

/**
 * Bytes read of one answer of the model server. A chat answer of capped text is far smaller (a reasoning
 * model's thinking included); a batch of 64 embeddings of 8,192 dimensions in JSON is ~12 MB.
 */
export const MAX_CHAT_ANSWER_BYTES = 4 * 1024 * 1024;
export const MAX_EMBEDDINGS_ANSWER_BYTES = 32 * 1024 * 1024;

/** A model server's answer cut off at its cap while it was read. */
class AnswerTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the model server's answer was larger than ${maxBytes / 1024 / 1024} MB`);
  }
}

/**
 * `fetch` for the SDK that reads at most the cap of the answer's kind: the SDK would otherwise read
 * whatever the server sends into memory (also an error body).
 */
async function fetchCapped(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const url = input instanceof Request ? input.url : String(input);
  const maxBytes = url.endsWith("/embeddings") ? MAX_EMBEDDINGS_ANSWER_BYTES : MAX_CHAT_ANSWER_BYTES;
  const response = await fetch(input, init);
  if (!response.body) return response;
  let read = 0;
  const capped = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        read += chunk.byteLength;
        if (read > maxBytes) controller.error(new AnswerTooLarge(maxBytes));
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Response(capped, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** The HTTP status of a failed call (the SDK's APIError carries it), read without loading the SDK. */
function statusOf(error: unknown): number | undefined {
  if (!(error instanceof Error) || !("status" in error)) return undefined;
  return typeof error.status === "number" ? error.status : undefined;
}

function headersOf(error: unknown): Headers | undefined {
  if (!(error instanceof Error) || !("headers" in error)) return undefined;
  return error.headers instanceof Headers ? error.headers : undefined;
}

/** The error and its causes (the SDK wraps a failed fetch as APIConnectionError with the cause). */
function causesOf(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let at = error; at !== undefined && chain.length < 5;) {
    chain.push(at);
    at = at instanceof Error ? at.cause : undefined;
  }
  return chain;
}

/** How long the server asks to wait (`retry-after-ms`, `Retry-After` in seconds or as a date), if it says. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | null {
  const milliseconds = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const retryAfter = headers?.get("retry-after")?.trim();
  if (!retryAfter) return null;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(retryAfter);
  return Number.isFinite(date) ? Math.max(0, date - now) : null;
}

/** A call that ran out of its time: an attempt's time-out (the SDK's, or ours while the body was read). */
class TimedOut extends Error {
  constructor(readonly afterMs: number) {
    super(`timed out after ${afterMs} ms`);
  }
}

/** Worth another attempt: time-outs, connection failures, 408, 409, 429 and 5xx (as the SDK decides). */
function retryable(error: unknown): boolean {
  if (error instanceof TimedOut) return true;
  if (!(error instanceof Error) || error instanceof ApiError) return false;
  const said = headersOf(error)?.get("x-should-retry");
  if (said === "true" || said === "false") return said === "true";
  const status = statusOf(error);
  if (status === undefined)
    return error.name === "APIConnectionError" || error.name === "APIConnectionTimeoutError";
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * The wait before attempt `attempt + 1` when the server names none: 0.5 s doubling up to 8 s (the
 * SDK's), less up to a quarter at random, and never more than a quarter of an attempt's time-out.
 */
function backoffBeforeRetry(attempt: number, timeoutMs: number): number {
  return Math.min(500 * 2 ** attempt, 8_000, timeoutMs / 4) * (1 - Math.random() * 0.25);
}

/** A failed call in the service's words (`apiError`), and the server's own reason for the log. */
interface Failure {
  apiError: ApiError;
  status: number | undefined;
  reason: string;
}

const CHECK_CONFIGURATION =
  "Check OPENAI_BASE_URL, OPENAI_API_KEY and the model names (FEATUREBOARD_EMBED_MODEL, FEATUREBOARD_CHAT_MODEL).";
const RETRY_LATER =
  "Retry later; if it persists, check OPENAI_BASE_URL, the model names and the provider's status.";

function failureOf(error: unknown): Failure {
  const status = statusOf(error);
  const tooLarge = causesOf(error).find((cause) => cause instanceof AnswerTooLarge);
  if (tooLarge instanceof AnswerTooLarge)
    return { apiError: unreadableAnswer(tooLarge.message), status, reason: tooLarge.message };
  if (error instanceof ApiError) return { apiError: error, status, reason: error.message };
  const serverSaid = error instanceof Error ? error.message : String(error);
  if (error instanceof TimedOut || (error instanceof Error && error.name === "APIConnectionTimeoutError")) {
    const detail = error instanceof TimedOut ? error.message : "timed out";
    return { apiError: upstream(detail, true, undefined), status, reason: detail };
  }
  const wait = retryAfterMs(headersOf(error));
  if (status !== undefined) {
    // A 4xx other than 408 (time-out), 409 and 429 (rate limited) will answer the same next time: retrying
    // it only costs (a wrong key, a missing model, a refused request).
    const again = retryable(error);
    return {
      apiError: upstream(`answered ${status}`, again, again ? wait : null),
      status,
      reason: serverSaid,
    };
  }
  if (error instanceof Error && error.name === "APIConnectionError") {
    const cause = causesOf(error)[1];
    const reason = cause instanceof Error ? cause.message : serverSaid;
    return { apiError: upstream("could not be reached", true, null), status, reason };
  }
  // Anything else came from inside the client (a bug, an answer it could not handle): its message is a
  // JavaScript engine's, for the log only.
  return { apiError: upstream("failed unexpectedly", true, null), status, reason: serverSaid };
}

function upstream(detail: string, retry: boolean, waitMs: number | null | undefined): ApiError {
  return new ApiError(
    "UPSTREAM_ERROR",
    `The AI provider failed: ${detail}`,
    retry ? RETRY_LATER : CHECK_CONFIGURATION,
    {
      retry,
      ...(retry && waitMs ? { headers: { "Retry-After": String(Math.ceil(waitMs / 1000)) } } : {}),
    },
  );
}

/** The server asks for a wait the call cannot afford: fail now, retryable, saying how long to wait. */
function waitTooLong(error: unknown, waitMs: number): ApiError {
  const seconds = Math.ceil(waitMs / 1000);
  return new ApiError(
    "UPSTREAM_ERROR",
    `The AI provider failed: answered ${statusOf(error) ?? "with a failure"} and asks to wait ${seconds} s, longer than this call may take`,
    `Retry after ${seconds} s; a longer FEATUREBOARD_AI_TIMEOUT_MS or a higher quota lets such calls wait.`,
    { retry: true, headers: { "Retry-After": String(seconds) } },
  );
}

/** Keys and tokens never reach the log, whatever a server echoes. */
function redacted(text: string, apiKey: string | null): string {
  const withoutKey = apiKey && apiKey.length >= 4 ? text.split(apiKey).join("[redacted]") : text;
  return withoutKey
    .replace(/\b(sk|pk|rk)-[A-Za-z0-9_*-]{8,}/g, "[redacted]")
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, "$1 [redacted]");
}

/** The server's address for the log: no credentials, no path beyond the host. */
function serverOf(baseUrl: string | null): string {
  if (!baseUrl) return "api.openai.com";
  try {
    return new URL(baseUrl).host;
  } catch {
    return "(invalid OPENAI_BASE_URL)";
  }
}

/**
 * Raw cosine that maps to similarity 0.7 for OpenAI-style embedding models: reworded duplicates commonly
 * score 0.65–0.9 with text-embedding-3-small, related requests 0.4–0.6. Not fitted on a model here (no
 * network in the build); docs/ai.md says how to refit it for another model.
 */
export const OPENAI_BOUNDARY = 0.6;

const ExtractionSchema = Type.Object(
  {
    title: Type.String({ description: "A short feature-request title, at most 120 characters" }),
    description: Type.Union([Type.String(), Type.Null()], { description: "The request in full, or null" }),
    tags: Type.Array(Type.String(), { description: "Labels chosen only among the given tag labels" }),
  },
  { additionalProperties: false },
);

const TriageSchema = Type.Object(
  {
    posts: Type.Array(
      Type.Object(
        {
          postId: Type.String(),
          tags: Type.Array(Type.String()),
          note: Type.String({ description: "One sentence on why this request matters or what it needs" }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const SummarySchema = Type.Object(
  {
    summary: Type.String(),
    highlights: Type.Array(Type.String()),
    top_themes: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);

/** Per-attempt options for the SDK: the retries are ours (`send`), the signal also bounds reading the body. */
interface AttemptOptions {
  timeout: number;
  signal: AbortSignal;
  maxRetries: 0;
}

/** Any OpenAI-compatible server (OpenAI, Ollama, vLLM, llama.cpp) behind `OPENAI_BASE_URL`. */
export class OpenAiProvider implements AiProvider {
  readonly name = "openai" as const;
  readonly modelKey: string;
  readonly calibration: { boundary: number };
  /** The SDK's client, made on the first call: the `openai` module costs nothing at start-up. */
  private clientPromise: Promise<OpenAI> | null = null;
  /** How many inputs the server takes per request, as learnt: starts at the setting, halves on refusal. */
  private batchSize: number;
  /** The dimension of the vectors the embedding model answered so far: another one means another model. */
  private dimension: number | null = null;

  constructor(
    private readonly settings: OpenAiSettings,
    private readonly log: Logger | null = null,
  ) {
    this.calibration = { boundary: settings.embedBoundary ?? OPENAI_BOUNDARY };
    this.batchSize = settings.embedBatchSize;
    this.modelKey = `openai:${settings.embedModel}@${settings.baseUrl ?? "api.openai.com"}`;
  }

  private client(): Promise<OpenAI> {
    const { settings } = this;
    this.clientPromise ??= import("openai").then(
      ({ default: Sdk }) =>
        new Sdk({
          // Local servers (Ollama, llama.cpp) need no key, but the client insists on one.
          apiKey: settings.apiKey ?? "unused",
          ...(settings.baseUrl ? { baseURL: settings.baseUrl } : {}),
          timeout: settings.timeoutMs,
          // The SDK sleeps whatever Retry-After says (a day, for an Azure quota): `send` retries instead.
          maxRetries: 0,
          fetch: fetchCapped,
        }),
    );
    return this.clientPromise;
  }

  /**
   * One call to the model server with its retries (docs/ai.md, "The openai provider"): each attempt within
   * FEATUREBOARD_AI_TIMEOUT_MS, body included; time-outs, connection failures, 408, 409, 429 and 5xx tried
   * again up to FEATUREBOARD_AI_MAX_RETRIES times; the whole call, waits included, within (1 + retries)
   * time-outs. A wait the server asks for that would not leave a quarter of a time-out before that bound
   * is not waited: the call fails at once, retryable, with the wait as Retry-After. A request's own
   * embedding passes `maxRetries` 0: one attempt, and a Retry-After goes back to the client instead of
   * being waited. Failures are thrown as the SDK raised them (`failureOf` words them).
   */
  private async send<T>(
    attempt: (client: OpenAI, options: AttemptOptions) => Promise<T>,
    maxRetries = this.settings.maxRetries,
  ): Promise<T> {
    const { timeoutMs } = this.settings;
    const client = await this.client();
    const deadline = Date.now() + timeoutMs * (1 + maxRetries);
    for (let tried = 0; ; tried++) {
      const attemptMs = Math.max(1, Math.min(timeoutMs, deadline - Date.now()));
      const signal = AbortSignal.timeout(attemptMs);
      let failure: unknown;
      try {
        return await attempt(client, { timeout: attemptMs, signal, maxRetries: 0 });
      } catch (error) {
        failure =
          signal.aborted && !causesOf(error).some((cause) => cause instanceof AnswerTooLarge)
            ? new TimedOut(attemptMs)
            : error;
      }
      if (!retryable(failure) || tried >= maxRetries) throw failure;
      const asked = retryAfterMs(headersOf(failure));
      const waitMs = asked ?? backoffBeforeRetry(tried, timeoutMs);
      if (deadline - Date.now() - waitMs < timeoutMs / 4)
        throw asked === null ? failure : waitTooLong(failure, asked);
      await Bun.sleep(waitMs);
    }
  }

  /** A failed call in the service's words, logged once with the server's own reason (docs/ai.md). */
  private failed(call: string, model: string, error: unknown): ApiError {
    const failure = failureOf(error);
    this.log?.warn("AI provider call failed", {
      call,
      model,
      server: serverOf(this.settings.baseUrl),
      ...(failure.status !== undefined ? { status: failure.status } : {}),
      reason: excerpt(redacted(failure.reason, this.settings.apiKey), 300),
      retry: failure.apiError.retry,
    });
    return failure.apiError;
  }

  /** The inputs per request this provider uses now (it learns a smaller one from the server). */
  get currentBatchSize(): number {
    return this.batchSize;
  }

  async embed(
    posts: { title: string; description: string | null }[],
    options: EmbedOptions = {},
  ): Promise<Embedded[]> {
    // A request waits one attempt at most (docs/ai.md, "The openai provider"); the background keeps its retries.
    const maxRetries = options.forRequest ? 0 : this.settings.maxRetries;
    const inputs = posts.map((post) =>
      (post.description ? `${post.title}\n\n${post.description}` : post.title).slice(
        0,
        this.settings.embedMaxChars,
      ),
    );
    const results: Embedded[] = [];
    let start = 0;
    while (start < inputs.length) {
      const chunk = inputs.slice(start, start + this.batchSize);
      try {
        results.push(...(await this.embedChunk(chunk, maxRetries)));
        start += chunk.length;
      } catch (error) {
        const status = statusOf(error);
        if (status === undefined || !REFUSED_REQUEST.has(status))
          throw this.failed("embeddings", this.settings.embedModel, error);
        if (chunk.length > 1) {
          // Refused as a batch: the server may take fewer at once (a batch cap). Learn it, and go on.
          this.batchSize = Math.max(1, Math.floor(chunk.length / 2));
          continue;
        }
        // One input refused on its own: that text is the problem, not the server; the others go on.
        const reason = error instanceof Error ? error.message : String(error);
        results.push({ rejected: excerpt(redacted(reason, this.settings.apiKey), 300), kind: "refused" });
        start += 1;
      }
    }
    return results;
  }

  private async embedChunk(inputs: string[], maxRetries: number): Promise<Embedded[]> {
    const answer: unknown = await this.send(
      (client, options) =>
        client.embeddings.create(
          { model: this.settings.embedModel, input: inputs, encoding_format: "float" },
          options,
        ),
      maxRetries,
    );
    const embedded = embeddingVectors(answer, inputs.length);
    const before = this.dimension;
    const dimension =
      embedded.find((vector): vector is Float32Array => !isRejected(vector))?.length ?? before;
    this.dimension = dimension;
    if (before !== null && dimension !== null && dimension !== before)
      throw dimensionChanged(before, dimension);
    return embedded.map((vector) => (isRejected(vector) ? vector : l2Normalise(vector)));
  }

  /**
   * The JSON object the chat model answered, read however it is wrapped (model-answers.ts); fields are
   * read by the caller, which drops what it does not know and fills what is missing.
   */
  private async structured(name: string, schema: TSchema, system: string, user: string) {
    try {
      const completion: unknown = await this.send((client, options) =>
        client.chat.completions.create(
          {
            model: this.settings.chatModel,
            messages: [
              { role: "system", content: system },
              { role: "user", content: user },
            ],
            response_format: {
              type: "json_schema",
              json_schema: { name, strict: true, schema: { ...schema } },
            },
          },
          options,
        ),
      );
      return jsonObjectIn(completionText(completion));
    } catch (error) {
      throw this.failed(name, this.settings.chatModel, error);
    }
  }

  async extractPost(text: string, tagLabels: string[]): Promise<ExtractedPost> {
    const answer = await this.structured(
      "feature_request",
      ExtractionSchema,
      "You turn raw customer feedback into one feature request for a product team. Keep the customer's meaning; " +
        "do not invent details. Choose tags only from the list given, or none. Answer with the JSON object only.",
      JSON.stringify({ feedback: text, tag_labels: tagLabels }),
    );
    const title = textField(answer.title, MODEL_TEXT.title);
    if (title === null)
      throw this.failed(
        "feature_request",
        this.settings.chatModel,
        unreadableAnswer("the model's answer had no title"),
      );
    return {
      title: title || text.trim().slice(0, 120),
      description: textField(answer.description, MODEL_TEXT.description) || null,
      tagLabels: projectLabels(answer.tags, tagLabels, MODEL_TEXT.tags),
    };
  }

  async triageNotes(posts: PostText[], tagLabels: string[]): Promise<TriageNote[]> {
    if (posts.length === 0) return [];
    const answer = await this.structured(
      "triage",
      TriageSchema,
      "You triage a product's inbox of feature requests. For each post, choose tags only from the list given " +
        "and write one short sentence for the team. Answer for every postId given, with the JSON object only.",
      JSON.stringify({ tag_labels: tagLabels, posts }),
    );
    if (!Array.isArray(answer.posts))
      throw this.failed(
        "triage",
        this.settings.chatModel,
        unreadableAnswer("the model's answer had no posts"),
      );
    const byId = new Map<string, Record<string, unknown>>();
    for (const item of answer.posts) {
      if (!isRecord(item)) continue;
      const id = typeof item.postId === "string" ? item.postId : typeof item.id === "string" ? item.id : null;
      if (id !== null && !byId.has(id)) byId.set(id, item);
    }
    return posts.map((post) => {
      const note = byId.get(post.id);
      return {
        postId: post.id,
        suggestedTags:
          note && note.tags !== undefined
            ? projectLabels(note.tags, tagLabels, MODEL_TEXT.tags)
            : matchTags(`${post.title}\n${post.description ?? ""}`, tagLabels),
        note: textField(note?.note, MODEL_TEXT.note) ?? "",
      };
    });
  }

  async summarise(input: SummaryInput): Promise<SummaryText> {
    const answer = await this.structured(
      "feedback_summary",
      SummarySchema,
      "You summarise a period of customer feedback for a product team: a short paragraph, up to five " +
        "highlights and up to five themes. Use only the data given. Answer with the JSON object only.",
      // Stems of the product's words would only confuse a model; the project's name tells it the product.
      JSON.stringify({
        project: input.projectName,
        period: input.period,
        stats: input.stats,
        posts: input.posts,
      }),
    );
    const summary = textField(answer.summary, MODEL_TEXT.summary);
    if (!summary)
      throw this.failed(
        "feedback_summary",
        this.settings.chatModel,
        unreadableAnswer("the model's answer had no summary"),
      );
    return {
      summary,
      highlights: textList(answer.highlights, MODEL_TEXT.listItems, MODEL_TEXT.listItem),
      topThemes: textList(answer.top_themes, MODEL_TEXT.listItems, MODEL_TEXT.listItem),
    };
  }
}
