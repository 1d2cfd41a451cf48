import type { Db } from "../db/connection";
import type { PostStatus } from "../posts/schema";
import type { AiRuntime } from "./embeddings";
import { ApiError } from "../http/errors";
import { unusableQueryVector } from "./model-answers";
import { type AiProvider, calibrate, isRejected } from "./provider";
import type { SignatureIndex } from "./signature-index";
import * as store from "./store";
import { onePlaceApart, plainWords, terms, titlesSetApart } from "./text";
import { dot, signature } from "./vectors";

/** Up to this many posts a project is scanned exactly; above it the signature index finds candidates. */
export const EXACT_SCAN_LIMIT = 1000;
/** Candidates the Hamming scan hands to the exact re-ranking (see docs/ai.md for the recall it buys). */
export const CANDIDATES = 24;
/**
 * The share of its similarity a pair keeps when its titles are one place apart (text.ts, onePlaceApart):
 * such pairs share most of their words, so their vectors meet although they ask for different things.
 * 0.8 takes the closest of them (~0.85) under the duplicate threshold (0.7); docs/ai.md has the figures.
 */
export const ONE_PLACE_APART_SHARE = 0.8;

/**
 * The similarity of two posts from their vectors' calibrated similarity and their titles' terms (`terms`
 * of text.ts): less when the titles are one place apart.
 */
export function pairSimilarity(
  similarity: number,
  titleTermsA: readonly string[],
  titleTermsB: readonly string[],
): number {
  return onePlaceApart(titleTermsA, titleTermsB) ? similarity * ONE_PLACE_APART_SHARE : similarity;
}

/**
 * True when two titles ask for different things, whatever their similarity: each names a platform,
 * vendor, direction, format or channel the other does not (titlesSetApart), or they read the same but for
 * one place (onePlaceApart). from-text never files feedback on such a post and triage never proposes
 * closing one as a duplicate of the other: they are listed as related (docs/ai.md, "Endpoints").
 */
export function titlesAskApart(titleA: string, titleB: string): boolean {
  return titlesSetApart(titleA, titleB) || onePlaceApart(terms(titleA), terms(titleB));
}

export interface SimilarPost {
  id: string;
  title: string;
  similarity: number;
  voteCount: number;
  status: PostStatus;
}

export interface Scored {
  postId: string;
  raw: number;
}

/**
 * Each row's cosine with the query, best first. A row of another dimension (another model's vector, until
 * the re-embed replaces it) has no cosine with the query, and a score that is not a finite number (a stored
 * NaN) is never a hit: in the sort it made the order arbitrary, and `limit=5` dropped the best hit that
 * `limit=10` listed first (docs/ai.md, "Vectors the index refuses").
 */
function ranked(rows: store.EmbeddingRow[], query: Float32Array, k: number): Scored[] {
  const scored: Scored[] = [];
  for (const row of rows) {
    if (row.vector.length !== query.length) continue;
    const raw = dot(row.vector, query);
    if (Number.isFinite(raw)) scored.push({ postId: row.post_id, raw });
  }
  return scored.sort((a, b) => b.raw - a.raw).slice(0, k);
}

/** The `k` nearest posts by exact cosine over every vector of the project: the ground truth. */
export function exactNearest(db: Db, projectId: string, query: Float32Array, k: number): Scored[] {
  return ranked(store.allVectors(db, projectId), query, k);
}

/** Where a search reads: the database, and the in-memory copy of the large projects' signatures. */
export interface SearchSources {
  db: Db;
  signatures: SignatureIndex;
}

/** The `k` nearest posts: Hamming KNN on the signatures, then exact cosine on the candidates. */
export function indexedNearest(
  sources: SearchSources,
  projectId: string,
  query: Float32Array,
  k: number,
): Scored[] {
  const candidates = sources.signatures.nearest(projectId, signature(query), Math.max(CANDIDATES, k * 4));
  return ranked(store.vectorsById(sources.db, candidates), query, k);
}

export async function nearest(
  sources: SearchSources,
  projectId: string,
  query: Float32Array,
  k: number,
): Promise<Scored[]> {
  if (store.projectPostCount(sources.db, projectId) <= EXACT_SCAN_LIMIT)
    return exactNearest(sources.db, projectId, query, k);
  // The first search of a large project copies its signatures a slice at a time (signature-index.ts).
  await sources.signatures.catchUp(projectId);
  return indexedNearest(sources, projectId, query, k);
}

/**
 * A request's text as a vector: one attempt, no retries, no wait for a Retry-After (the provider's
 * `forRequest`), so the request answers within one time-out (docs/ai.md, "The openai provider").
 */
export async function embedQuery(provider: AiProvider, text: { title: string; description: string | null }) {
  if (provider.embedNow) return provider.embedNow(text);
  const [vector] = await provider.embed([text], { forRequest: true });
  if (vector && isRejected(vector) && vector.kind === "unusable") throw unusableQueryVector(vector.rejected);
  if (!vector || isRejected(vector)) {
    throw new ApiError(
      "VALIDATION_ERROR",
      `The AI provider cannot embed this text: ${vector && isRejected(vector) ? vector.rejected : "no answer"}`,
      "Shorten the text, or raise the model server's input limit.",
    );
  }
  return vector;
}

/**
 * A search's query as a vector. A model server that answers ends the embedding worker's backoff. When it
 * answers with another dimension than the index holds, it serves another model now: the index is reset and
 * re-embedded (AiRuntime.adoptDimension), and the caller's catchUp starts on it before the search.
 */
export async function queryVector(
  ai: AiRuntime,
  text: { title: string; description: string | null },
): Promise<Float32Array> {
  const vector = await embedQuery(ai.provider, text);
  if (ai.provider.embedNow) return vector;
  ai.serverAnswered();
  ai.adoptDimension(vector.length);
  return vector;
}

/**
 * Posts of the project most similar to `query` (calibrated 0-1, best first), at or above `threshold`.
 * Posts still waiting for an embedding are embedded first (for at most a moment: AiRuntime.catchUp), so a
 * post created a moment ago is found.
 */
export async function similarTo(
  ai: AiRuntime,
  projectId: string,
  query: { title: string; description: string | null },
  options: { threshold: number; limit: number; excludeIds?: readonly string[]; matchWords?: boolean },
): Promise<SimilarPost[]> {
  const { db, provider } = ai;
  // The query first: a server that answers it is up again, and catchUp then embeds what is queued.
  const vector = await queryVector(ai, query);
  await ai.catchUp(projectId);
  const excluded = new Set(options.excludeIds ?? []);
  // Twice the posts asked for: a neighbour one place apart may fall below the threshold (pairSimilarity).
  const hits = (await nearest(ai, projectId, vector, 2 * options.limit + excluded.size))
    .filter((hit) => !excluded.has(hit.postId))
    .map((hit) => ({ postId: hit.postId, similarity: calibrate(hit.raw, provider.calibration) }));
  const searched = options.matchWords ? withWordMatches(db, projectId, query, hits, options.limit) : hits;
  return similarPostsOf(
    db,
    projectId,
    query.title,
    searched.filter((hit) => !excluded.has(hit.postId)),
    options,
  );
}

/** A search of at most this many words (stopwords aside) also finds the titles that hold them all. */
export const WORD_MATCH_MAX_WORDS = 2;
/**
 * The similarity of a post whose title holds every word of a short search: from 0.86 (the words are a
 * small part of a long title) to 0.95 (they are the title), above the default threshold (0.7). A one-word
 * search reads a meaning the embedding of one word cannot: "dark" is about "Dark mode" (whose vector
 * stands for the phrase: 0 against the lone word), "mobile" about "Mobile app" (docs/ai.md).
 */
export const WORD_MATCH_SIMILARITY = { least: 0.86, most: 0.95 };
/**
 * When a title holds the searched words, a post that only means them ranks under it: its similarity is
 * held at this, just under WORD_MATCH_SIMILARITY.least ("vat" finds "VAT / GST handling" before "Sales
 * tax by state"; "excel" finds "Export invoices to Excel" before "Import clients from CSV").
 */
export const MEANING_ONLY_UNDER_WORD_MATCH = 0.85;

/**
 * A short search's hits with the posts whose titles hold all its words raised to WORD_MATCH_SIMILARITY
 * (their similarity kept when higher), the closer the title is to those words the higher, and the posts
 * found by meaning alone held under them. The similar-post search only: a duplicate is still decided by
 * meaning alone (from-text).
 */
function withWordMatches(
  db: Db,
  projectId: string,
  query: { title: string; description: string | null },
  hits: readonly { postId: string; similarity: number }[],
  limit: number,
): { postId: string; similarity: number }[] {
  const words = [...new Set(plainWords(`${query.title} ${query.description ?? ""}`))];
  if (words.length === 0 || words.length > WORD_MATCH_MAX_WORDS) return [...hits];
  const literal = new Map<string, number>();
  // Their titles come with them: scoredPosts reads the rows it keeps, once.
  for (const { id: postId, title } of store.postsWithTitleFragments(db, projectId, words, 4 * limit)) {
    const titleWords = new Set(plainWords(title));
    if (!words.every((word) => titleWords.has(word))) continue;
    const { least, most } = WORD_MATCH_SIMILARITY;
    // Four decimals, as calibrate() gives every other similarity.
    literal.set(
      postId,
      Math.round((least + ((most - least) * words.length) / titleWords.size) * 10_000) / 10_000,
    );
  }
  if (literal.size === 0) return [...hits];
  const merged = new Map(
    hits.map((hit) => [
      hit.postId,
      literal.has(hit.postId) ? hit.similarity : Math.min(hit.similarity, MEANING_ONLY_UNDER_WORD_MATCH),
    ]),
  );
  for (const [postId, similarity] of literal)
    merged.set(postId, Math.max(merged.get(postId) ?? 0, similarity));
  return [...merged].map(([postId, similarity]) => ({ postId, similarity }));
}

/** A post read for a search, with its similarity to the title searched for. */
export interface ScoredPost {
  row: store.PostSummaryRow;
  similarity: number;
}

/**
 * Hits as posts: merged posts left out, each scored against the title searched for (pairSimilarity), best
 * first, at or above `threshold`, at most `limit`. Titles are read (~0.1 ms each) best hit first, only
 * until no later hit can make the list.
 */
export function scoredPosts(
  db: Db,
  projectId: string,
  title: string,
  hits: readonly { postId: string; similarity: number }[],
  options: { threshold: number; limit: number },
): ScoredPost[] {
  const candidates = hits
    .filter((hit) => hit.similarity >= options.threshold)
    .sort((a, b) => b.similarity - a.similarity);
  if (candidates.length === 0) return [];
  const rows = store.unmergedPostsById(
    db,
    projectId,
    candidates.map((hit) => hit.postId),
  );
  const titleTerms = terms(title);
  const chosen: ScoredPost[] = [];
  for (const hit of candidates) {
    // pairSimilarity only ever lowers a similarity: a hit below the last chosen one cannot make the list.
    if (chosen.length === options.limit && hit.similarity <= chosen[chosen.length - 1]!.similarity) break;
    const row = rows.get(hit.postId);
    if (!row) continue;
    const similarity = pairSimilarity(hit.similarity, titleTerms, terms(row.title));
    if (similarity < options.threshold) continue;
    chosen.push({ row, similarity });
    chosen.sort((a, b) => b.similarity - a.similarity);
    if (chosen.length > options.limit) chosen.pop();
  }
  return chosen;
}

/** A scored post as the answers list it: its title, votes and status. */
export function toSimilarPost({ row, similarity }: ScoredPost): SimilarPost {
  return { id: row.id, title: row.title, similarity, voteCount: row.vote_count, status: row.status };
}

/** Hits as the answers list them (scoredPosts, then toSimilarPost). */
export function similarPostsOf(
  db: Db,
  projectId: string,
  title: string,
  hits: readonly { postId: string; similarity: number }[],
  options: { threshold: number; limit: number },
): SimilarPost[] {
  return scoredPosts(db, projectId, title, hits, options).map(toSimilarPost);
}
