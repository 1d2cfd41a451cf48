import type { Db } from "../db/connection";
import type { PostStatus } from "../posts/schema";
import { fromBlob, toHalfBlob, type VectorFormat } from "./vectors";

export interface EmbeddingRow {
  vector_id: number;
  post_id: string;
  vector: Float32Array;
}

interface StoredVectorRow {
  vector_id: number;
  post_id: string;
  vector: Uint8Array;
  vector_format: VectorFormat;
}

function decoded(row: StoredVectorRow): EmbeddingRow {
  return { vector_id: row.vector_id, post_id: row.post_id, vector: fromBlob(row.vector, row.vector_format) };
}

export function storedModelKey(db: Db): string | null {
  return (
    db.query<{ model_key: string }, []>("SELECT model_key FROM ai_index_state WHERE id = 1").get()
      ?.model_key ?? null
  );
}

export function setModelKey(db: Db, modelKey: string, now: number): void {
  db.query(
    `INSERT INTO ai_index_state (id, model_key, updated_at) VALUES (1, ?, ?)
     ON CONFLICT (id) DO UPDATE SET model_key = excluded.model_key, updated_at = excluded.updated_at`,
  ).run(modelKey, now);
}

export function textHashOf(db: Db, postId: string, modelKey: string): string | null {
  return (
    db
      .query<{ text_hash: string }, [string, string]>(
        "SELECT text_hash FROM post_embeddings WHERE post_id = ? AND model_key = ?",
      )
      .get(postId, modelKey)?.text_hash ?? null
  );
}

/** Removes a post's vector; a trigger of migration 0006 removes its signature (vec0 has no cascade). */
export function deleteEmbedding(db: Db, postId: string): void {
  db.query("DELETE FROM post_embeddings WHERE post_id = ?").run(postId);
}

export function writeEmbedding(
  db: Db,
  input: {
    projectId: string;
    postId: string;
    modelKey: string;
    textHash: string;
    vector: Float32Array;
    signature: Uint8Array;
    now: number;
  },
): void {
  deleteEmbedding(db, input.postId);
  const inserted = db
    .query<{ vector_id: number }, [string, string, string, string, Uint8Array, number]>(
      `INSERT INTO post_embeddings (post_id, project_id, model_key, text_hash, vector, vector_format, embedded_at)
       VALUES (?, ?, ?, ?, ?, 'f16', ?) RETURNING vector_id`,
    )
    .get(input.postId, input.projectId, input.modelKey, input.textHash, toHalfBlob(input.vector), input.now);
  db.query("INSERT INTO post_signatures (rowid, project_id, signature) VALUES (?, ?, vec_bit(?))").run(
    inserted!.vector_id,
    input.projectId,
    input.signature,
  );
}

/** Queues a post (again); a new text also clears an earlier refusal, so it is tried once more. */
export function enqueue(db: Db, projectId: string, postId: string, now: number): void {
  db.query(
    `INSERT INTO embedding_queue (post_id, project_id, queued_at) VALUES (?, ?, ?)
     ON CONFLICT (post_id) DO UPDATE SET queued_at = excluded.queued_at, failed_at = NULL, failure = NULL`,
  ).run(postId, projectId, now);
}

/** A post the model server refused to embed: it leaves the work queue but stays listed, with the reason. */
export function markFailed(db: Db, postId: string, reason: string, now: number): void {
  db.query("UPDATE embedding_queue SET failed_at = ?, failure = ? WHERE post_id = ?").run(
    now,
    reason,
    postId,
  );
}

export function failedEmbeddings(db: Db, limit: number): { postId: string; reason: string }[] {
  return db
    .query<{ post_id: string; failure: string }, [number]>(
      `SELECT post_id, failure FROM embedding_queue WHERE failed_at IS NOT NULL ORDER BY failed_at DESC LIMIT ?`,
    )
    .all(limit)
    .map((row) => ({ postId: row.post_id, reason: row.failure }));
}

export function dequeue(db: Db, postId: string): void {
  db.query("DELETE FROM embedding_queue WHERE post_id = ?").run(postId);
}

export interface QueuedPost {
  post_id: string;
  project_id: string;
  title: string;
  description: string | null;
}

/** The oldest queued posts, of one project or of all. */
export function queuedPosts(db: Db, projectId: string | null, limit: number): QueuedPost[] {
  const filter = projectId === null ? "" : "AND q.project_id = ?";
  const params = projectId === null ? [limit] : [projectId, limit];
  return db
    .query<QueuedPost, (string | number)[]>(
      `SELECT q.post_id, q.project_id, p.title, p.description FROM embedding_queue q
       JOIN posts p ON p.id = q.post_id WHERE q.failed_at IS NULL ${filter} ORDER BY q.queued_at, q.post_id LIMIT ?`,
    )
    .all(...params);
}

export function queueLength(db: Db, projectId: string | null = null): number {
  const row =
    projectId === null
      ? db.query<{ n: number }, []>("SELECT count(*) AS n FROM embedding_queue WHERE failed_at IS NULL").get()
      : db
          .query<{ n: number }, [string]>(
            "SELECT count(*) AS n FROM embedding_queue WHERE project_id = ? AND failed_at IS NULL",
          )
          .get(projectId);
  return row?.n ?? 0;
}

/** Forgets every stored embedding and queues every searchable post: the provider or model changed. */
export function resetIndex(db: Db, now: number): number {
  db.run("DELETE FROM post_signatures");
  db.run("DELETE FROM post_embeddings");
  db.query(
    `INSERT INTO embedding_queue (post_id, project_id, queued_at)
     SELECT id, project_id, ? FROM posts WHERE merged_into_id IS NULL
     ON CONFLICT (post_id) DO UPDATE SET failed_at = NULL, failure = NULL`,
  ).run(now);
  return queueLength(db);
}

/** A stored vector's dimension, from its length in bytes and its format (SQLite reads a blob's length from its header). */
const DIMENSION = "length(vector) / (CASE vector_format WHEN 'f16' THEN 2 ELSE 4 END)";

/** The dimension of the newest stored vector: the index's, or null when it holds none. */
export function newestDimension(db: Db): number | null {
  return (
    db
      .query<{ dimension: number }, []>(
        `SELECT ${DIMENSION} AS dimension FROM post_embeddings ORDER BY vector_id DESC LIMIT 1`,
      )
      .get()?.dimension ?? null
  );
}

/**
 * The dimensions of the oldest and the newest stored vectors (two reads by primary key): when they differ
 * the index mixes two models' vectors.
 */
export function oldestAndNewestDimensions(db: Db): { oldest: number; newest: number } | null {
  const oldest = db
    .query<{ dimension: number }, []>(
      `SELECT ${DIMENSION} AS dimension FROM post_embeddings ORDER BY vector_id LIMIT 1`,
    )
    .get()?.dimension;
  const newest = newestDimension(db);
  return oldest === undefined || newest === null ? null : { oldest, newest };
}

export function countEmbeddings(db: Db, projectId: string | null = null): number {
  const row =
    projectId === null
      ? db.query<{ n: number }, []>("SELECT count(*) AS n FROM post_embeddings").get()
      : db
          .query<{ n: number }, [string]>("SELECT count(*) AS n FROM post_embeddings WHERE project_id = ?")
          .get(projectId);
  return row?.n ?? 0;
}

/** Every vector of a project: the exact scan, for small projects and for the benchmark's ground truth. */
export function allVectors(db: Db, projectId: string): EmbeddingRow[] {
  return db
    .query<StoredVectorRow, [string]>(
      "SELECT vector_id, post_id, vector, vector_format FROM post_embeddings WHERE project_id = ?",
    )
    .all(projectId)
    .map(decoded);
}

/** The `k` signatures nearest by Hamming distance, within one project's partition. */
export function nearestSignatures(db: Db, projectId: string, signature: Uint8Array, k: number): number[] {
  return db
    .query<{ rowid: number }, [Uint8Array, number, string]>(
      "SELECT rowid FROM post_signatures WHERE signature MATCH vec_bit(?) AND k = ? AND project_id = ?",
    )
    .all(signature, k, projectId)
    .map((row) => row.rowid);
}

/**
 * A project's chunks in vec0's own storage (sqlite-vec 0.1.9, pinned): per chunk of 1,024 slots a validity
 * bitmap, the slots' rowids and their signatures in one blob. The in-memory scan (src/ai/signature-index.ts)
 * keeps a copy and reads here what changed; test/ai/signature-index.test.ts checks it against vec0's KNN.
 */
export function signatureChunks(db: Db, projectId: string): { chunk_id: number; validity: Uint8Array }[] {
  return db
    .query<{ chunk_id: number; validity: Uint8Array }, [string]>(
      "SELECT chunk_id, validity FROM post_signatures_chunks WHERE partition00 = ? ORDER BY chunk_id",
    )
    .all(projectId);
}

/** One chunk's rowids (64-bit little-endian integers, 0 in a free slot) and signatures. */
export function signatureChunk(db: Db, chunkId: number): { rowids: Uint8Array; vectors: Uint8Array } | null {
  return db
    .query<{ rowids: Uint8Array; vectors: Uint8Array }, [number]>(
      `SELECT chunks.rowids, vectors.vectors FROM post_signatures_chunks AS chunks
       JOIN post_signatures_vector_chunks00 AS vectors ON vectors.rowid = chunks.chunk_id
       WHERE chunks.chunk_id = ?`,
    )
    .get(chunkId);
}

export function vectorsById(db: Db, vectorIds: number[]): EmbeddingRow[] {
  if (vectorIds.length === 0) return [];
  return db
    .query<StoredVectorRow, [string]>(
      `SELECT vector_id, post_id, vector, vector_format FROM post_embeddings
       WHERE vector_id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(vectorIds))
    .map(decoded);
}

/** Searchable posts of a project: posts merged into another are duplicates already. */
export function projectPostCount(db: Db, projectId: string): number {
  return (
    db
      .query<{ n: number }, [string]>("SELECT coalesce(sum(n), 0) AS n FROM post_counts WHERE project_id = ?")
      .get(projectId)?.n ?? 0
  );
}

// ---- reads of the board the AI workflows need (one query each, never one per post) ----

/** A post's text as it is now, and whether it was merged away (the embedder re-checks before writing). */
export function currentPostText(
  db: Db,
  postId: string,
): { title: string; description: string | null; merged_into_id: string | null } | null {
  return db
    .query<{ title: string; description: string | null; merged_into_id: string | null }, [string]>(
      "SELECT title, description, merged_into_id FROM posts WHERE id = ?",
    )
    .get(postId);
}

export function storedVector(db: Db, postId: string): Float32Array | null {
  const row = db
    .query<StoredVectorRow, [string]>(
      "SELECT vector_id, post_id, vector, vector_format FROM post_embeddings WHERE post_id = ?",
    )
    .get(postId);
  return row ? decoded(row).vector : null;
}

/** Up to `limit` vectors still stored as 32-bit floats (from before migration 0017). */
export function fullPrecisionVectors(db: Db, limit: number): EmbeddingRow[] {
  return db
    .query<StoredVectorRow, [number]>(
      `SELECT vector_id, post_id, vector, vector_format FROM post_embeddings
       WHERE vector_format = 'f32' LIMIT ?`,
    )
    .all(limit)
    .map(decoded);
}

/** Stores these vectors as 16-bit floats. The signatures stay: they were made from the full vectors. */
export function storeInHalfPrecision(db: Db, rows: EmbeddingRow[]): void {
  const update = db.query("UPDATE post_embeddings SET vector = ?, vector_format = 'f16' WHERE vector_id = ?");
  for (const row of rows) update.run(toHalfBlob(row.vector), row.vector_id);
}

export interface CandidateRow {
  id: string;
  title: string;
  description: string | null;
  status: PostStatus;
  vote_count: number;
  created_at: number;
  spend_cents: number;
  paying_voters: number;
}

/** SQLite reads LIMIT -1 as no limit. */
export const EVERY_ROW = -1;

/** Unmerged posts of these statuses, oldest first, with their voters' total monthly spend, in one query. */
export function candidatePosts(
  db: Db,
  projectId: string,
  statuses: readonly PostStatus[],
  limit: number,
): CandidateRow[] {
  return db
    .query<CandidateRow, [string, number, string]>(
      `SELECT p.id, p.title, p.description, p.status, p.vote_count, p.created_at,
              coalesce(s.spend_cents, 0) AS spend_cents, coalesce(s.paying_voters, 0) AS paying_voters
       FROM posts p
       LEFT JOIN (
         SELECT v.post_id, sum(u.spend_cents) AS spend_cents, count(*) FILTER (WHERE u.spend_cents > 0) AS paying_voters
         FROM votes v JOIN board_users u ON u.id = v.board_user_id
         WHERE v.project_id = ?1 GROUP BY v.post_id
       ) s ON s.post_id = p.id
       WHERE p.project_id = ?1 AND p.merged_into_id IS NULL AND p.status IN (SELECT value FROM json_each(?3))
       ORDER BY p.created_at, p.id LIMIT ?2`,
    )
    .all(projectId, limit, JSON.stringify(statuses));
}

/**
 * The monthly spend of the distinct board users who voted on any of `postIds`: a customer who voted on
 * several posts counts once (a sprint plan's total; each post's own spend is in CandidateRow).
 */
export function distinctVoterSpend(
  db: Db,
  projectId: string,
  postIds: readonly string[],
): { spend_cents: number; paying_voters: number } {
  return db
    .query<{ spend_cents: number; paying_voters: number }, [string, string]>(
      `SELECT coalesce(sum(u.spend_cents), 0) AS spend_cents, count(*) FILTER (WHERE u.spend_cents > 0) AS paying_voters
       FROM board_users u
       WHERE u.project_id = ?1 AND u.id IN (
         SELECT v.board_user_id FROM votes v
         WHERE v.project_id = ?1 AND v.post_id IN (SELECT value FROM json_each(?2))
       )`,
    )
    .get(projectId, JSON.stringify(postIds))!;
}

export interface PostSummaryRow {
  id: string;
  title: string;
  vote_count: number;
  status: PostStatus;
  created_at: number;
}

/**
 * How many of a project's most voted posts a short search's word match reads: at most ~2 ms where every
 * title of a 100,000-post board would hold the event loop for tens (issue 19; docs/ai.md); past these,
 * the search goes by meaning alone.
 */
export const WORD_MATCH_SCAN = 3_000;

/**
 * Unmerged posts whose title holds every fragment (a word's stem, [a-z0-9] only), among the project's
 * WORD_MATCH_SCAN most voted, most voted first: the candidates of a short search's word match
 * (similarity.ts). The inner query walks posts_by_votes in its own order and stops there.
 */
export function postsWithTitleFragments(
  db: Db,
  projectId: string,
  fragments: readonly string[],
  limit: number,
): { id: string; title: string }[] {
  const clauses = fragments.map(() => "title LIKE ?").join(" AND ");
  return db
    .query<{ id: string; title: string }, (string | number)[]>(
      `SELECT id, title FROM (
         SELECT id, title, vote_count, created_at FROM posts WHERE project_id = ? AND merged_into_id IS NULL
         ORDER BY vote_count DESC, created_at DESC, id DESC LIMIT ?
       ) WHERE ${clauses} ORDER BY vote_count DESC, created_at DESC, id DESC LIMIT ?`,
    )
    .all(projectId, WORD_MATCH_SCAN, ...fragments.map((fragment) => `%${fragment}%`), limit);
}

/** The unmerged posts among `ids`, by id. */
export function unmergedPostsById(
  db: Db,
  projectId: string,
  ids: readonly string[],
): Map<string, PostSummaryRow> {
  if (ids.length === 0) return new Map();
  return new Map(
    db
      .query<PostSummaryRow, [string, string]>(
        `SELECT id, title, vote_count, status, created_at FROM posts
         WHERE project_id = ? AND merged_into_id IS NULL AND id IN (SELECT value FROM json_each(?))`,
      )
      .all(projectId, JSON.stringify(ids))
      .map((row) => [row.id, row]),
  );
}

export interface PeriodStats {
  new_posts: number;
  total_votes: number;
  new_comments: number;
  status_changes: number;
  completed: number;
}

/**
 * What moved on the board since `since`. `completed` counts posts moved to COMPLETE in the period and still
 * COMPLETE: an edit to a post shipped long ago is not a completion, and a post reopened since is not done.
 */
export function periodStats(db: Db, projectId: string, since: number): PeriodStats {
  return db
    .query<PeriodStats, [string, number]>(
      `SELECT
         (SELECT count(*) FROM posts WHERE project_id = ?1 AND created_at >= ?2) AS new_posts,
         (SELECT count(*) FROM votes WHERE project_id = ?1 AND created_at >= ?2) AS total_votes,
         (SELECT count(*) FROM comments WHERE project_id = ?1 AND created_at >= ?2) AS new_comments,
         (SELECT count(*) FROM activity WHERE project_id = ?1 AND created_at >= ?2
            AND action = 'status_changed') AS status_changes,
         (SELECT count(DISTINCT a.entity_id) FROM activity a JOIN posts p ON p.id = a.entity_id
            WHERE a.project_id = ?1 AND a.created_at >= ?2 AND a.action = 'status_changed'
              AND a.entity_type = 'post' AND json_extract(a.metadata, '$.to') = 'COMPLETE'
              AND p.project_id = ?1 AND p.status = 'COMPLETE') AS completed`,
    )
    .get(projectId, since)!;
}

/** The most voted unmerged posts created since `since` (what a summary reads). */
export function topPostsSince(
  db: Db,
  projectId: string,
  since: number,
  limit: number,
): { id: string; title: string; description: string | null; vote_count: number; status: PostStatus }[] {
  return db
    .query<
      { id: string; title: string; description: string | null; vote_count: number; status: PostStatus },
      [string, number, number]
    >(
      `SELECT id, title, description, vote_count, status FROM posts
       WHERE project_id = ? AND created_at >= ? AND merged_into_id IS NULL
       ORDER BY vote_count DESC, created_at DESC LIMIT ?`,
    )
    .all(projectId, since, limit);
}

/** The newest unmerged posts' text: the sample a summary reads the product's own words from. */
export function recentPostTexts(
  db: Db,
  projectId: string,
  limit: number,
): { title: string; description: string | null }[] {
  return db
    .query<{ title: string; description: string | null }, [string, number]>(
      `SELECT title, description FROM posts WHERE project_id = ? AND merged_into_id IS NULL
       ORDER BY created_at DESC, id DESC LIMIT ?`,
    )
    .all(projectId, limit);
}

export interface MergedPair {
  projectId: string;
  source: { title: string; description: string | null };
  target: { id: string; title: string; description: string | null };
}

/** Posts the team merged into another (labelled duplicates), with the post each went into. */
export function mergedPairs(db: Db, projectId: string | null, limit: number): MergedPair[] {
  const filter = projectId === null ? "" : "AND s.project_id = ?";
  const params = projectId === null ? [limit] : [projectId, limit];
  return db
    .query<
      {
        project_id: string;
        s_title: string;
        s_description: string | null;
        t_id: string;
        t_title: string;
        t_description: string | null;
      },
      (string | number)[]
    >(
      `SELECT s.project_id, s.title AS s_title, s.description AS s_description, t.id AS t_id, t.title AS t_title,
              t.description AS t_description
         FROM posts s JOIN posts t ON t.id = s.merged_into_id
        WHERE s.merged_into_id IS NOT NULL ${filter}
        ORDER BY s.updated_at DESC LIMIT ?`,
    )
    .all(...params)
    .map((row) => ({
      projectId: row.project_id,
      source: { title: row.s_title, description: row.s_description },
      target: { id: row.t_id, title: row.t_title, description: row.t_description },
    }));
}
