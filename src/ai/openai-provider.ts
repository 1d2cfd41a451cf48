import type OpenAI from "openai";
import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { ApiError } from "../http/errors";
import { matchTags } from "./local-provider";
import type {
  AiProvider,
  Embedded,
  ExtractedPost,
  PostText,
  SummaryInput,
  SummaryText,
  TriageNote,
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

/** The HTTP status of a failed call (the SDK's APIError carries it), read without loading the SDK. */
function statusOf(error: unknown): number | undefined {
  if (!(error instanceof Error) || !("status" in error)) return undefined;
  return typeof error.status === "number" ? error.status : undefined;
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

function upstreamError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const detail =
    error instanceof Error && error.name === "APIConnectionTimeoutError"
      ? "timed out"
      : statusOf(error) !== undefined
        ? `answered ${statusOf(error)}`
        : error instanceof Error
          ? error.message
          : String(error);
  // A 4xx other than 408 (time-out) and 429 (rate limited) will answer the same next time: retrying it
  // only costs (a wrong key, a missing model, a refused request).
  const status = statusOf(error);
  const permanent = status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
  return new ApiError(
    "UPSTREAM_ERROR",
    `The AI provider failed: ${detail}`,
    permanent
      ? "Check OPENAI_BASE_URL, OPENAI_API_KEY and the model names (FEATUREBOARD_EMBED_MODEL, FEATUREBOARD_CHAT_MODEL)."
      : "Retry later; if it persists, check OPENAI_BASE_URL, the model names and the provider's status.",
    { retry: !permanent },
  );
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

  constructor(private readonly settings: OpenAiSettings) {
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
          // The client retries time-outs, 408, 409, 429 and 5xx with backoff; then the error reaches us.
          timeout: settings.timeoutMs,
          maxRetries: settings.maxRetries,
        }),
    );
    return this.clientPromise;
  }

  /** The inputs per request this provider uses now (it learns a smaller one from the server). */
  get currentBatchSize(): number {
    return this.batchSize;
  }

  async embed(posts: { title: string; description: string | null }[]): Promise<Embedded[]> {
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
        results.push(...(await this.embedChunk(chunk)));
        start += chunk.length;
      } catch (error) {
        const status = statusOf(error);
        if (status === undefined || !REFUSED_REQUEST.has(status)) throw upstreamError(error);
        if (chunk.length > 1) {
          // Refused as a batch: the server may take fewer at once (a batch cap). Learn it, and go on.
          this.batchSize = Math.max(1, Math.floor(chunk.length / 2));
          continue;
        }
        // One input refused on its own: that text is the problem, not the server; the others go on.
        results.push({ rejected: error instanceof Error ? error.message.slice(0, 300) : String(error) });
        start += 1;
      }
    }
    return results;
  }

  private async embedChunk(inputs: string[]): Promise<Float32Array[]> {
    const response = await (
      await this.client()
    ).embeddings.create({
      model: this.settings.embedModel,
      input: inputs,
      encoding_format: "float",
    });
    const byIndex = [...response.data].sort((a, b) => a.index - b.index);
    if (byIndex.length !== inputs.length) {
      throw new ApiError(
        "UPSTREAM_ERROR",
        `The AI provider answered ${byIndex.length} embeddings for ${inputs.length} inputs`,
        "Check that OPENAI_BASE_URL serves an OpenAI-compatible /v1/embeddings.",
        { retry: true },
      );
    }
    return byIndex.map((item) => l2Normalise(Float32Array.from(item.embedding)));
  }

  private async structured<S extends TSchema>(
    name: string,
    schema: S,
    system: string,
    user: string,
  ): Promise<Static<S>> {
    try {
      const completion = await (
        await this.client()
      ).chat.completions.create({
        model: this.settings.chatModel,
        messages: [
          { role: "system", content: system },
          { role: "user", content: user },
        ],
        response_format: {
          type: "json_schema",
          json_schema: { name, strict: true, schema: schema as Record<string, unknown> },
        },
      });
      const content = completion.choices[0]?.message.content;
      if (!content) throw new Error("empty answer");
      const parsed: unknown = JSON.parse(content);
      if (!Value.Check(schema, parsed)) throw new Error(`answer does not match the ${name} schema`);
      return parsed;
    } catch (error) {
      throw upstreamError(error);
    }
  }

  async extractPost(text: string, tagLabels: string[]): Promise<ExtractedPost> {
    const answer = await this.structured(
      "feature_request",
      ExtractionSchema,
      "You turn raw customer feedback into one feature request for a product team. Keep the customer's meaning; " +
        "do not invent details. Choose tags only from the list given, or none.",
      JSON.stringify({ feedback: text, tag_labels: tagLabels }),
    );
    const allowed = new Set(tagLabels);
    return {
      title: answer.title.trim().slice(0, 200) || text.trim().slice(0, 120),
      description: answer.description?.slice(0, 10_000) ?? null,
      tagLabels: answer.tags.filter((label) => allowed.has(label)),
    };
  }

  async triageNotes(posts: PostText[], tagLabels: string[]): Promise<TriageNote[]> {
    if (posts.length === 0) return [];
    const answer = await this.structured(
      "triage",
      TriageSchema,
      "You triage a product's inbox of feature requests. For each post, choose tags only from the list given " +
        "and write one short sentence for the team. Answer for every postId given.",
      JSON.stringify({ tag_labels: tagLabels, posts }),
    );
    const allowed = new Set(tagLabels);
    const byId = new Map(answer.posts.map((note) => [note.postId, note]));
    return posts.map((post) => {
      const note = byId.get(post.id);
      return {
        postId: post.id,
        suggestedTags: note
          ? note.tags.filter((label) => allowed.has(label))
          : matchTags(`${post.title}\n${post.description ?? ""}`, tagLabels),
        note: note?.note ?? "",
      };
    });
  }

  async summarise(input: SummaryInput): Promise<SummaryText> {
    const answer = await this.structured(
      "feedback_summary",
      SummarySchema,
      "You summarise a period of customer feedback for a product team: a short paragraph, up to five " +
        "highlights and up to five themes. Use only the data given.",
      // Stems of the product's words would only confuse a model; the project's name tells it the product.
      JSON.stringify({
        project: input.projectName,
        period: input.period,
        stats: input.stats,
        posts: input.posts,
      }),
    );
    return { summary: answer.summary, highlights: answer.highlights, topThemes: answer.top_themes };
  }
}
