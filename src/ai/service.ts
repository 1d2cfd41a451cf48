import type { Db } from "../db/connection";
import { createComment } from "../comments/service";
import { ApiError, notFound, validationError } from "../http/errors";
import { LIMITS } from "../http/limits";
import type { Post, PostStatus } from "../posts/schema";
import { createPost, requirePostRow, toPost } from "../posts/service";
import { GATED_FROM, requirePlan } from "../projects/plans";
import { findProjectById } from "../projects/service";
import { listTags } from "../tags/service";
import { formatMoney } from "../users/money";
import type { AiRuntime } from "./embeddings";
import { cleanFeedback, holdsWords, plainTextOf } from "./feedback-text";
import { LocalProvider } from "./local-provider";
import { type AiProvider, calibrate } from "./provider";
import {
  DEFAULT_SIMILAR_LIMIT,
  type FromTextInput,
  type SimilarInput,
  type SprintPlanRequest,
  type Strategy,
  type SummaryRequest,
  type TriageInput,
} from "./schema";
import {
  nearest,
  queryVector,
  type ScoredPost,
  scoredPosts,
  type SimilarPost,
  similarTo,
  titlesAskApart,
  toSimilarPost,
} from "./similarity";
import * as store from "./store";
import { terms } from "./text";
import { effortOf } from "./effort";
import type { CandidateRow } from "./store";
import { plural } from "../plural";
import { inSlices } from "../turns";

export const DEFAULT_THRESHOLD = 0.7;
export const DEFAULT_TRIAGE_LIMIT = 20;
/**
 * Triage proposes closing a post as a duplicate only from this similarity: the search's 0.7 called "Add PO
 * number field to invoice" a duplicate of "Multi-language invoices" (0.72). Chosen on the easy fixture and
 * the hard fixture's tuning half (docs/ai.md, "Endpoints"); below it the nearest post is named in the reason.
 */
export const TRIAGE_DUPLICATE_THRESHOLD = 0.76;
export const DEFAULT_CAPACITY = 5;
const DAY_MS = 86_400_000;

/** AI workflows and from-text need the growth plan; the similar-post search does not (docs/ai.md, "Endpoints"). */
export function requireAiPlan(db: Db, projectId: string, feature: string): void {
  const project = findProjectById(db, projectId);
  if (!project) throw notFound("PROJECT_NOT_FOUND");
  requirePlan(project, GATED_FROM, feature);
}

/** Writes the words of the workflows when the configured server cannot (it has no chat model). */
const LOCAL_WORDS = new LocalProvider();

/**
 * A workflow's words from the configured provider; when its server refuses for good (no chat model, a
 * rejected request: UPSTREAM_ERROR with retry false), from the local logic instead, saying so, rather than
 * failing a workflow whose scores never needed the model. A temporary failure still answers 502.
 */
async function wordsFrom<T>(
  ai: AiRuntime,
  write: (provider: AiProvider) => Promise<T>,
): Promise<{ value: T; fellBack: { provider: "local" } | Record<string, never> }> {
  try {
    return { value: await write(ai.provider), fellBack: {} };
  } catch (error) {
    if (
      !(error instanceof ApiError) ||
      error.code !== "UPSTREAM_ERROR" ||
      error.retry ||
      ai.provider.name === "local"
    ) {
      throw error;
    }
    return { value: await write(LOCAL_WORDS), fellBack: { provider: "local" } };
  }
}

/** An error of the model server (UPSTREAM_ERROR): down, refusing, or without an embeddings endpoint. */
function isUpstreamError(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === "UPSTREAM_ERROR";
}

// ---- similar posts ----

export async function findSimilarPosts(ai: AiRuntime, projectId: string, input: SimilarInput) {
  try {
    return await similarTo(
      ai,
      projectId,
      { title: input.query, description: null },
      {
        threshold: input.threshold ?? DEFAULT_THRESHOLD,
        limit: input.limit ?? DEFAULT_SIMILAR_LIMIT,
        matchWords: true,
      },
    );
  } catch (error) {
    // Without the query's vector there is nothing to search with: still 502, saying what failed.
    if (!isUpstreamError(error)) throw error;
    throw new ApiError(
      "UPSTREAM_ERROR",
      `Cannot search for similar posts: the embedding model did not embed the query (${error.message})`,
      error.hint,
      // The server's Retry-After goes with it, as a summary's or a triage's 502 carries it.
      { retry: error.retry, headers: error.headers },
    );
  }
}

/**
 * Requests like this one (the dashboard's request page and inbox), by its stored vector, itself and merged
 * posts left out. Every plan, as the similar-post search.
 */
export async function similarRequests(
  ai: AiRuntime,
  projectId: string,
  postId: string,
  options: { threshold: number; limit: number },
): Promise<SimilarPost[]> {
  const post = requirePostRow(ai.db, projectId, postId);
  await ai.catchUp(projectId);
  const vector = await vectorOfPost(ai, post);
  return (await neighboursOf(ai, projectId, post, vector, options.limit, options.threshold)).map(
    toSimilarPost,
  );
}

// ---- from text ----

/** from-text lists related posts from this similarity on, so the team sees them even when nothing matched. */
export const RELATED_THRESHOLD = 0.5;
/**
 * A CLOSED post was declined and an ARCHIVED one put away: new feedback asking for the same thing is a new
 * request the team should see again, so it creates a post (listed with the old one in `similar_posts`)
 * instead of being absorbed. A COMPLETE post still absorbs it: what is asked for has shipped.
 */
const NEVER_ABSORBS: readonly PostStatus[] = ["CLOSED", "ARCHIVED"];

/**
 * A PENDING post nobody has voted for (one from-text or a visitor created a moment ago) absorbs feedback
 * only from this similarity: nobody has read it yet, so feedback filed on it by a wrong match is demand no
 * one sees, where a missed match only leaves two PENDING posts for triage to compare. An audit's fitness
 * board filed "Could the front desk book classes for members without smartphones?" on such a post about
 * hiding workouts (0.77). 0.82 is the lowest cut of the sweep at which the hard fixture's tuning half had
 * no false duplicate (docs/ai.md, "Endpoints").
 */
export const UNREVIEWED_ABSORB_THRESHOLD = 0.82;

/**
 * A reviewed post absorbs feedback from this similarity on; from 0.7 (where the similar-post search lists
 * it) only when the feedback holds every term of the post's title ("Please send automatic payment
 * reminders…" and "Automatic payment reminders", 0.71). Absorbing files the feedback's demand in another
 * request, so a wrong match costs more than a missed one (two posts triage compares later). Three audits
 * on fresh boards the rules were never tuned on found the local embedder's 0.70–0.77 band close to chance:
 * a vet clinic's matches between 0.70 and 0.75 right 1 time in 7; a fitness app's wrong ones at
 * 0.71–0.78; a school library's between 0.75 and 0.77 right 1 time in 5, from 0.79 6 in 9
 * (docs/ai.md, "Endpoints").
 */
export const ABSORB_THRESHOLD = 0.78;
/** Two posts this close to the feedback (under 0.82) are a coin toss: neither absorbs it, both stay listed. */
export const ABSORB_MARGIN = 0.02;

/**
 * Whether a post may absorb the feedback as its duplicate, by similarity: higher when nobody has reviewed
 * the post, and under ABSORB_THRESHOLD only when the feedback names everything the post's title does.
 */
function absorbs(hit: SimilarPost, feedbackTerms: ReadonlySet<string>): boolean {
  if (hit.status === "PENDING" && hit.voteCount === 0) return hit.similarity >= UNREVIEWED_ABSORB_THRESHOLD;
  if (hit.similarity >= ABSORB_THRESHOLD) return true;
  const titleTerms = terms(hit.title);
  return (
    hit.similarity >= DEFAULT_THRESHOLD &&
    titleTerms.length > 0 &&
    titleTerms.every((term) => feedbackTerms.has(term))
  );
}

/** Who wrote the internal note that keeps feedback matched to an existing post (docs/ai.md). */
export const FEEDBACK_NOTE_AUTHOR = "Pasted feedback";

/** What a triage reason and a from-text note say when the model server could not embed the text. */
export const NOT_CHECKED_FOR_DUPLICATES = "Not checked for duplicates: the embedding model did not answer";

/** Matched feedback as an internal note: where it came from, then its text, within the comment limit. */
function feedbackNote(input: FromTextInput): string {
  const origin = [input.source, input.source_url].filter((part) => part !== undefined && part !== "");
  const heading = `Matched to this request by from-text${origin.length > 0 ? ` (${origin.join(", ")})` : ""}:\n\n`;
  const text = plainTextOf(input.text).trim();
  const room = LIMITS.commentLength - heading.length;
  return heading + (text.length <= room ? text : `${text.slice(0, room - 1).trimEnd()}…`);
}

export async function createPostFromText(ai: AiRuntime, projectId: string, input: FromTextInput) {
  const { db } = ai;
  requireAiPlan(db, projectId, "Creating posts from text");
  if (input.text.trim() === "") throw validationError("text", "must not be blank");
  // "...", "🔥🙏" or a lone "Hi" would become a PENDING post titled so, whatever the provider.
  if (!holdsWords(cleanFeedback(input.text))) {
    throw validationError("text", "has no words to make a request of");
  }
  const tags = listTags(db, projectId);
  const { value: extracted, fellBack } = await wordsFrom(ai, (writer) =>
    writer.extractPost(
      input.text,
      tags.map((tag) => tag.label),
    ),
  );
  // The words are extracted already: when only the embeddings fail (a server without an embeddings
  // endpoint, or one that is down) the post is still created, as POST /posts creates one, and its
  // embedding waits in the queue; a note on it says no duplicate check was made (docs/ai.md).
  let similar: SimilarPost[] = [];
  let embeddingFailure: string | null = null;
  try {
    similar = await similarTo(
      ai,
      projectId,
      { title: extracted.title, description: extracted.description },
      { threshold: RELATED_THRESHOLD, limit: DEFAULT_SIMILAR_LIMIT },
    );
  } catch (error) {
    if (!isUpstreamError(error)) throw error;
    embeddingFailure = error.message;
  }
  // Below its cut, or asking for something else ("German" / "Spanish", "SMS" / "push"), a near post stays
  // listed in similar_posts and the feedback becomes a post of its own.
  const feedbackTerms = new Set(terms(`${extracted.title}\n${extracted.description ?? ""}`));
  const best = similar.find(
    (hit) =>
      absorbs(hit, feedbackTerms) &&
      !NEVER_ABSORBS.includes(hit.status) &&
      !titlesAskApart(hit.title, extracted.title),
  );
  // Another open post about as near, under the cut where both would be the same request anyway, makes
  // the match a coin toss between the two: neither absorbs the feedback.
  const rival = similar.find(
    (hit) =>
      hit.id !== best?.id && hit.similarity >= DEFAULT_THRESHOLD && !NEVER_ABSORBS.includes(hit.status),
  );
  const tossUp =
    best !== undefined &&
    rival !== undefined &&
    best.similarity < UNREVIEWED_ABSORB_THRESHOLD &&
    Math.abs(best.similarity - rival.similarity) < ABSORB_MARGIN;
  const duplicate = tossUp ? undefined : best;
  if (duplicate) {
    // The customer's words are kept on the matched post, for the team only: a match can be wrong (a long
    // e-mail sharing "client" and "invoice"), and a right one still says who asked again and how.
    createComment(db, projectId, duplicate.id, {
      body: feedbackNote(input),
      authorName: FEEDBACK_NOTE_AUTHOR,
      isInternalNote: true,
    });
    const post = toPost(requirePostRow(db, projectId, duplicate.id));
    return { action: "matched_duplicate" as const, post, similar_posts: similar, ...fellBack };
  }
  const metadata: Record<string, string> = {};
  if (input.source !== undefined) metadata.source = input.source;
  if (input.source_url !== undefined) metadata.source_url = input.source_url;
  const wanted = new Set(extracted.tagLabels.map((label) => label.toLowerCase()));
  const post: Post = createPost(db, projectId, {
    title: extracted.title,
    description: extracted.description,
    status: "PENDING",
    // Read again: a tag the model saw may have been deleted while it was asked, and a request that names no
    // tag must not fail for it.
    tagIds: listTags(db, projectId)
      .filter((tag) => wanted.has(tag.label.toLowerCase()))
      .map((tag) => tag.id),
    metadata: Object.keys(metadata).length > 0 ? metadata : null,
  });
  if (embeddingFailure !== null) {
    createComment(db, projectId, post.id, {
      body: `${NOT_CHECKED_FOR_DUPLICATES} (${embeddingFailure}) when from-text created this request. AI triage compares it with the board once embeddings work again.`,
      authorName: FEEDBACK_NOTE_AUTHOR,
      isInternalNote: true,
    });
  }
  return { action: "created" as const, post, similar_posts: similar, ...fellBack };
}

// ---- triage ----

type Priority = "high" | "medium" | "low";

/** Votes, the voters' spend and the time waiting, each on a log or capped scale so none drowns the rest. */
export function priorityOf(votes: number, spendCents: number, ageDays: number): Priority {
  const score = Math.log1p(votes) + 0.8 * Math.log1p(spendCents / 10_000) + 0.5 * Math.min(ageDays / 30, 1);
  if (score >= 2.5) return "high";
  if (score >= 1) return "medium";
  return "low";
}

/** A post's stored vector, or its text embedded now when it has none yet. */
async function vectorOfPost(
  ai: AiRuntime,
  post: { id: string; title: string; description: string | null },
): Promise<Float32Array> {
  return (
    store.storedVector(ai.db, post.id) ??
    (await queryVector(ai, { title: post.title, description: post.description }))
  );
}

/** Nearest other posts to a post, by its vector (vectorOfPost). */
async function neighboursOf(
  ai: AiRuntime,
  projectId: string,
  post: { id: string; title: string },
  vector: Float32Array,
  limit: number,
  threshold = DEFAULT_THRESHOLD,
): Promise<ScoredPost[]> {
  const { db, provider } = ai;
  // Twice the posts asked for (and itself): a neighbour one place apart may fall below the threshold.
  const hits = (await nearest(ai, projectId, vector, 2 * limit + 1))
    .filter((hit) => hit.postId !== post.id)
    .map((hit) => ({ postId: hit.postId, similarity: calibrate(hit.raw, provider.calibration) }));
  return scoredPosts(db, projectId, post.title, hits, { threshold, limit });
}

export async function triageInbox(ai: AiRuntime, projectId: string, input: TriageInput = {}) {
  const { db } = ai;
  requireAiPlan(db, projectId, "AI triage");
  await ai.catchUp(projectId);
  const posts = store.candidatePosts(db, projectId, ["PENDING"], input.limit ?? DEFAULT_TRIAGE_LIMIT);
  const tagLabels = listTags(db, projectId).map((tag) => tag.label);
  const written = await wordsFrom(ai, (writer) =>
    writer.triageNotes(
      posts.map((post) => ({ id: post.id, title: post.title, description: post.description })),
      tagLabels,
    ),
  );
  const notes = new Map(written.value.map((note) => [note.postId, note]));
  const now = Date.now();
  const recommendations = [];
  // In slices of the event loop: 100 posts compared with the board held every other request 0.2–0.5 s.
  const slices = inSlices();
  // The priorities need no vectors: when the model server cannot embed a post (it is down, or serves no
  // embeddings), the post is recommended without a duplicate check, its reason says so, and the server is
  // asked no more in this triage (docs/ai.md, "When only the embeddings fail").
  let embeddingFailure: string | null = null;
  for (const post of posts) {
    await slices.step();
    let vector = store.storedVector(db, post.id);
    if (!vector && embeddingFailure === null) {
      try {
        vector = await queryVector(ai, post);
      } catch (error) {
        if (!isUpstreamError(error)) throw error;
        embeddingFailure = error.message;
      }
    }
    // A duplicate points at a post that came first or is already triaged, so two pending copies of one
    // idea never point at each other. A post whose title asks for something else ("SMS reminders" /
    // "Push notification reminders") is never one: the nearest such post is named as related instead.
    let nearestEarlier: { id: string; title: string; similarity: number } | null = null;
    let nearestApart: { id: string; title: string; similarity: number } | null = null;
    for (const { row: other, similarity } of vector
      ? await neighboursOf(ai, projectId, post, vector, 5)
      : []) {
      if (other.id === post.id) continue;
      if (
        other.status !== "PENDING" ||
        other.created_at < post.created_at ||
        (other.created_at === post.created_at && other.id < post.id)
      ) {
        if (titlesAskApart(other.title, post.title)) {
          nearestApart ??= { id: other.id, title: other.title, similarity };
          continue;
        }
        nearestEarlier = { id: other.id, title: other.title, similarity };
        break;
      }
    }
    // Closing a request is proposed only at the stricter cut; under it the post is named, not closed.
    const duplicate =
      nearestEarlier && nearestEarlier.similarity >= TRIAGE_DUPLICATE_THRESHOLD ? nearestEarlier : null;
    const related = duplicate ? null : nearestEarlier;
    // Neighbours come best first, so a post set apart was nearer than the related one.
    const askedApart = duplicate ? null : nearestApart;
    const ageDays = Math.floor((now - post.created_at) / DAY_MS);
    const priority = priorityOf(post.vote_count, post.spend_cents, ageDays);
    const facts = [plural(post.vote_count, "vote")];
    if (post.spend_cents > 0) facts.push(`voters spend ${formatMoney(post.spend_cents)}/month`);
    facts.push(`waiting ${plural(ageDays, "day")}`);
    const note = notes.get(post.id);
    const reason = duplicate
      ? `Likely duplicate of "${duplicate.title}" (similarity ${duplicate.similarity.toFixed(2)}); merge it there. ${facts.join(", ")}.`
      : `${priority[0]!.toUpperCase()}${priority.slice(1)} priority: ${facts.join(", ")}.${note?.note ? ` ${note.note}` : ""}` +
        (askedApart
          ? ` Related to "${askedApart.title}" (similarity ${askedApart.similarity.toFixed(2)}), but its title asks for something else (another name, channel, format or platform): not a duplicate.`
          : "") +
        (related
          ? ` Related to "${related.title}" (similarity ${related.similarity.toFixed(2)}): compare them before merging; not close enough to call a duplicate.`
          : "") +
        (vector ? "" : ` ${NOT_CHECKED_FOR_DUPLICATES} (${embeddingFailure ?? "no vector"}).`);
    recommendations.push({
      postId: post.id,
      title: post.title,
      suggested_status: (duplicate ? "CLOSED" : priority === "low" ? "PENDING" : "APPROVED") as PostStatus,
      suggested_tags: note?.suggestedTags ?? [],
      duplicate_of: duplicate?.id ?? null,
      priority,
      reason,
    });
  }
  return { triaged: recommendations.length, recommendations, ...written.fellBack };
}

// ---- summary ----

const PERIOD_DAYS = { week: 7, month: 30, quarter: 90 } as const;
/** How many of the board's newest posts show which words name the product itself. */
const PRODUCT_WORDS_SAMPLE = 300;
/** Below this many posts a board is too small to tell its product's words from a theme. */
const PRODUCT_WORDS_FEWEST_POSTS = 6;

/** Terms in more than half of the texts: on an invoicing board "invoice" and "client" (docs/ai.md). */
async function termsInMostOf(texts: readonly string[]): Promise<string[]> {
  if (texts.length < PRODUCT_WORDS_FEWEST_POSTS) return [];
  const postsWith = new Map<string, number>();
  const slices = inSlices();
  for (const text of texts) {
    await slices.step();
    for (const term of new Set(terms(text))) postsWith.set(term, (postsWith.get(term) ?? 0) + 1);
  }
  return [...postsWith].filter(([, count]) => count > texts.length / 2).map(([term]) => term);
}

export async function summariseFeedback(ai: AiRuntime, projectId: string, input: SummaryRequest = {}) {
  const { db } = ai;
  requireAiPlan(db, projectId, "AI summaries");
  const period = input.period ?? "week";
  const since = Date.now() - PERIOD_DAYS[period] * DAY_MS;
  const stats = { period, ...store.periodStats(db, projectId, since) };
  const posts = store.topPostsSince(db, projectId, since, SUMMARY_POSTS).map((row) => ({
    id: row.id,
    title: row.title,
    description: row.description,
    voteCount: row.vote_count,
    status: row.status,
  }));
  const project = findProjectById(db, projectId)!;
  const productTerms = await termsInMostOf(
    store
      .recentPostTexts(db, projectId, PRODUCT_WORDS_SAMPLE)
      .map((post) => `${post.title} ${post.description ?? ""}`),
  );
  const { value: text, fellBack } = await wordsFrom(ai, (writer) =>
    writer.summarise({ period, stats, posts, projectName: project.name, productTerms }),
  );
  return {
    summary: text.summary,
    highlights: text.highlights,
    top_themes: text.topThemes,
    stats,
    ...fellBack,
  };
}

// ---- sprint plan ----

const PLANNABLE: readonly PostStatus[] = ["PENDING", "APPROVED", "IN_PROGRESS"];
/** How many of the period's most voted posts a summary reads. */
const SUMMARY_POSTS = 100;

function scoreFor(strategy: Strategy, post: CandidateRow, maxima: { votes: number; spend: number }): number {
  const votes = post.vote_count / Math.max(1, maxima.votes);
  const spend = post.spend_cents / Math.max(1, maxima.spend);
  const quickness = 1 / effortOf(post).units;
  const started = post.status === "IN_PROGRESS" ? 0.1 : 0;
  switch (strategy) {
    case "popular":
      return post.vote_count;
    case "revenue":
      return post.spend_cents + post.vote_count / (maxima.votes + 1);
    case "quick-wins":
      return (1 + post.vote_count) * quickness * quickness + started;
    case "balanced":
      return 0.45 * votes + 0.35 * spend + 0.2 * quickness + started;
  }
}

function planReason(strategy: Strategy, post: CandidateRow, rank: { byVotes: number; open: number }): string {
  const votes = `${plural(post.vote_count, "vote")} (#${rank.byVotes} of ${rank.open} open requests)`;
  const spend =
    post.spend_cents > 0
      ? `${plural(post.paying_voters, "paying customer")} spending ${formatMoney(post.spend_cents)}/month`
      : "no paying voters yet";
  const effort = effortOf(post);
  const started =
    post.status === "IN_PROGRESS" ? "; already in progress, so finishing it frees capacity" : "";
  switch (strategy) {
    case "popular":
      return `Most wanted: ${votes}; ${effort.words}${started}.`;
    case "revenue":
      return `Revenue at stake: ${spend}, ${votes}${started}.`;
    case "quick-wins":
      // Only what looks small is called a quick win; the rest was picked for its votes, and says so.
      if (effort.kind === "small") return `Quick win: ${effort.words}, with ${votes}${started}.`;
      return `Picked for its votes, not a known quick win: ${effort.words}; ${votes}${started}.`;
    case "balanced":
      return `Balanced pick: ${votes}, ${spend}; ${effort.words}${started}.`;
  }
}

export async function planSprint(ai: AiRuntime, projectId: string, input: SprintPlanRequest = {}) {
  const { db } = ai;
  requireAiPlan(db, projectId, "AI sprint planning");
  const strategy = input.strategy ?? "balanced";
  const capacity = input.capacity ?? DEFAULT_CAPACITY;
  // CLOSED, COMPLETE and ARCHIVED posts are never planned, nor posts merged into another. Every open post
  // is scored: a pool cut by votes would hide the quick win or the revenue pick with few votes.
  const pool = store.candidatePosts(db, projectId, PLANNABLE, store.EVERY_ROW);
  const maxima = {
    votes: Math.max(0, ...pool.map((post) => post.vote_count)),
    spend: Math.max(0, ...pool.map((post) => post.spend_cents)),
  };
  const picked = pool
    .map((post) => ({ post, score: scoreFor(strategy, post, maxima) }))
    .sort(
      (a, b) =>
        b.score - a.score || a.post.created_at - b.post.created_at || a.post.id.localeCompare(b.post.id),
    )
    .slice(0, capacity)
    .map(({ post }) => post);
  // Where each pick stands by votes among every open request (ties share the better place).
  const voteCounts = pool.map((post) => post.vote_count).sort((a, b) => b - a);
  const rankOf = (post: CandidateRow) => ({
    byVotes: voteCounts.indexOf(post.vote_count) + 1,
    open: pool.length,
  });
  const items = picked.map((post) => ({
    postId: post.id,
    title: post.title,
    voteCount: post.vote_count,
    reason: planReason(strategy, post, rankOf(post)),
  }));
  const totalVotes = picked.reduce((sum, post) => sum + post.vote_count, 0);
  // Each customer once: one who voted on three picks spends their money once, not three times.
  const backers = store.distinctVoterSpend(
    db,
    projectId,
    picked.map((post) => post.id),
  );
  const backing =
    backers.paying_voters > 0
      ? `${plural(backers.paying_voters, "paying customer")} spending ${formatMoney(backers.spend_cents)}/month between them`
      : "no paying customers among their voters";
  const summary =
    picked.length === 0
      ? "Nothing to plan: no PENDING, APPROVED or IN_PROGRESS posts."
      : `Planned ${plural(picked.length, "post")} of ${pool.length} open (strategy ${strategy}): ` +
        `${plural(totalVotes, "vote")}; ${backing}.`;
  return { strategy, items, summary };
}

export type { SimilarPost };
