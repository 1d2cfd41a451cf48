/**
 * What an AI provider does for featureboard (docs/ai.md). Scores that decide things (similarity ranks,
 * priorities, plan order) are computed by the services from stored data, the same under every provider;
 * the provider embeds text and writes the words: an extracted post, triage notes, a summary.
 */

/** A post as the providers see it. */
export interface PostText {
  id: string;
  title: string;
  description: string | null;
}

export interface ExtractedPost {
  title: string;
  description: string | null;
  /** Labels among the project's tags that fit the text. */
  tagLabels: string[];
}

export interface TriageNote {
  postId: string;
  suggestedTags: string[];
  /** One sentence for the team; the service prefixes the facts (votes, spend, duplicate). */
  note: string;
}

export interface SummaryInput {
  period: string;
  /** The project's name: its words name the product, never a theme. */
  projectName: string;
  /**
   * Terms (text.ts `terms`) in most of the board's posts: on an invoicing board "invoice" describes the
   * product, not a theme of the period (docs/ai.md, "Extraction" and summary themes).
   */
  productTerms: string[];
  stats: Record<string, number | string>;
  /** The period's posts, most voted first. */
  posts: (PostText & { voteCount: number; status: string })[];
}

export interface SummaryText {
  summary: string;
  highlights: string[];
  topThemes: string[];
}

/** Maps a raw cosine to the 0-1 similarity the API reports: 0.7 is where a pair becomes a likely duplicate. */
export interface Calibration {
  /** The raw cosine that maps to 0.7, fitted on labelled pairs (docs/ai.md). */
  boundary: number;
}

/**
 * Why one text has no vector, for good (the same text gives the same answer again): the model server
 * refused the text on its own (`refused`: too long even cut to the configured maximum), or answered a
 * vector no search can use for it (`unusable`: all zeros, or a value that is not a finite number).
 */
export interface Rejected {
  rejected: string;
  kind: "refused" | "unusable";
}

/** What embedding one text gave: its vector, or why it has none (docs/ai.md, "Vectors the index refuses"). */
export type Embedded = Float32Array | Rejected;

export function isRejected(embedded: Embedded): embedded is Rejected {
  return !(embedded instanceof Float32Array);
}

/**
 * Who waits for an embedding. A request (its query's vector) gets one attempt, with no retries and no
 * wait for a Retry-After, so it answers within one time-out; the background embedding keeps its retries
 * (docs/ai.md, "The openai provider").
 */
export interface EmbedOptions {
  forRequest?: boolean;
}

export interface AiProvider {
  readonly name: "local" | "openai";
  /** Identifies the vector space: stored vectors with another key are rebuilt. */
  readonly modelKey: string;
  readonly calibration: Calibration;
  /** Present when embedding needs no I/O: then a post's vector is written in the post's own transaction. */
  embedNow?(post: { title: string; description: string | null }): Float32Array;
  /**
   * Loads what embedding needs (the local provider's word vectors) without holding the event loop; the
   * embedding worker awaits it before its first batch. `embedNow` loads it synchronously if it comes first.
   */
  prepare?(): Promise<void>;
  /**
   * One result per text, in order. A text the server refuses on its own (too long even cut to the
   * configured maximum), or whose vector is unusable (zeros, not a number), is `{rejected}`, and the others
   * still get their vectors; a failure of the server itself (down, bad key, rate limited) or an answer
   * malformed as a whole (another count of vectors, mixed dimensions) throws UPSTREAM_ERROR.
   */
  embed(posts: { title: string; description: string | null }[], options?: EmbedOptions): Promise<Embedded[]>;
  extractPost(text: string, tagLabels: string[]): Promise<ExtractedPost>;
  triageNotes(posts: PostText[], tagLabels: string[]): Promise<TriageNote[]>;
  summarise(input: SummaryInput): Promise<SummaryText>;
}

export function calibrate(raw: number, calibration: Calibration): number {
  const { boundary } = calibration;
  const similarity =
    raw <= boundary ? (0.7 * Math.max(0, raw)) / boundary : 0.7 + (0.3 * (raw - boundary)) / (1 - boundary);
  return Math.min(1, Math.max(0, Math.round(similarity * 10_000) / 10_000));
}
