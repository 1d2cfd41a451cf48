import type { Db } from "../db/connection";
import { iso } from "../db/time";
import type { Tag } from "../tags/schema";
import { isPostStatus, type Metadata, type Post, type PostStatus, type VisibleStatus } from "./schema";

export interface PostRow {
  id: string;
  project_id: string;
  title: string;
  description: string | null;
  status: PostStatus;
  vote_count: number;
  metadata: string | null;
  created_by_board_user_id: string | null;
  release_id: string | null;
  merged_into_id: string | null;
  created_at: number;
  updated_at: number;
}

const COLUMNS = `id, project_id, title, description, status, vote_count, metadata, created_by_board_user_id,
  release_id, merged_into_id, created_at, updated_at`;

export function toPost(row: PostRow): Post {
  return {
    id: row.id,
    projectId: row.project_id,
    title: row.title,
    description: row.description,
    status: row.status,
    voteCount: row.vote_count,
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Metadata),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    releaseId: row.release_id,
    mergedIntoId: row.merged_into_id,
    createdByBoardUserId: row.created_by_board_user_id,
  };
}

export function findPostRow(db: Db, projectId: string, postId: string): PostRow | null {
  return db
    .query<PostRow, [string, string]>(`SELECT ${COLUMNS} FROM posts WHERE project_id = ? AND id = ?`)
    .get(projectId, postId);
}

export function insertPost(db: Db, row: PostRow): void {
  db.query(
    `INSERT INTO posts (${COLUMNS}) VALUES ($id, $project_id, $title, $description, $status, $vote_count, $metadata,
     $created_by_board_user_id, $release_id, $merged_into_id, $created_at, $updated_at)`,
  ).run({ ...row });
}

/** Writes the editable columns of `row` (vote_count is the triggers' alone). */
export function updatePostRow(db: Db, row: PostRow): void {
  db.query(
    `UPDATE posts SET title = $title, description = $description, status = $status, metadata = $metadata,
     release_id = $release_id, merged_into_id = $merged_into_id, updated_at = $updated_at
     WHERE project_id = $project_id AND id = $id`,
  ).run({
    id: row.id,
    project_id: row.project_id,
    title: row.title,
    description: row.description,
    status: row.status,
    metadata: row.metadata,
    release_id: row.release_id,
    merged_into_id: row.merged_into_id,
    updated_at: row.updated_at,
  });
}

export function deletePostRow(db: Db, projectId: string, postId: string): void {
  db.query("DELETE FROM posts WHERE project_id = ? AND id = ?").run(projectId, postId);
}

// ---- tags of posts ----

export function tagIdsOfPost(db: Db, postId: string): string[] {
  return db
    .query<{ tag_id: string }, [string]>("SELECT tag_id FROM post_tags WHERE post_id = ? ORDER BY tag_id")
    .all(postId)
    .map((row) => row.tag_id);
}

export function replacePostTags(db: Db, postId: string, tagIds: readonly string[]): void {
  db.query("DELETE FROM post_tags WHERE post_id = ?").run(postId);
  const insert = db.query("INSERT INTO post_tags (post_id, tag_id) VALUES (?, ?)");
  for (const tagId of tagIds) insert.run(postId, tagId);
}

/** The ids among `tagIds` that are tags of this project. */
export function existingTagIds(db: Db, projectId: string, tagIds: readonly string[]): Set<string> {
  const rows = db
    .query<{ id: string }, [string, string]>(
      "SELECT id FROM tags WHERE project_id = ? AND id IN (SELECT value FROM json_each(?))",
    )
    .all(projectId, JSON.stringify(tagIds));
  return new Set(rows.map((row) => row.id));
}

interface PostTagRow {
  post_id: string;
  id: string;
  label: string;
  theme: string;
  created_at: number;
}

/** Tags of many posts in one query, ordered by label. */
export function tagsOfPosts(db: Db, postIds: readonly string[]): Map<string, Tag[]> {
  const byPost = new Map<string, Tag[]>(postIds.map((id) => [id, []]));
  if (postIds.length === 0) return byPost;
  const rows = db
    .query<PostTagRow, [string]>(
      `SELECT pt.post_id, t.id, t.label, t.theme, t.created_at FROM post_tags pt JOIN tags t ON t.id = pt.tag_id
       WHERE pt.post_id IN (SELECT value FROM json_each(?)) ORDER BY t.label COLLATE NOCASE, t.id`,
    )
    .all(JSON.stringify(postIds));
  for (const row of rows) {
    byPost
      .get(row.post_id)
      ?.push({ id: row.id, label: row.label, theme: row.theme, createdAt: iso(row.created_at) });
  }
  return byPost;
}

// ---- listing ----

export interface PostFilter {
  projectId: string;
  status?: PostStatus;
  updatedSince?: number;
  /** Cursor scans only see posts created at or before the first request's time. */
  createdAtMost?: number;
}

function where(filter: PostFilter): { sql: string; params: (string | number)[] } {
  const clauses = ["project_id = ?"];
  const params: (string | number)[] = [filter.projectId];
  if (filter.status !== undefined) {
    clauses.push("status = ?");
    params.push(filter.status);
  }
  if (filter.updatedSince !== undefined) {
    clauses.push("updated_at >= ?");
    params.push(filter.updatedSince);
  }
  if (filter.createdAtMost !== undefined) {
    clauses.push("created_at <= ?");
    params.push(filter.createdAtMost);
  }
  return { sql: clauses.join(" AND "), params };
}

export type PostSort = "votes" | "date";

const ORDER: Record<PostSort, string> = {
  votes: "vote_count DESC, created_at DESC, id DESC",
  date: "created_at DESC, id DESC",
};

function countRows(db: Db, filter: PostFilter, extra = "", extraParams: number[] = []): number {
  const { sql, params } = where(filter);
  return (
    db
      .query<{ n: number }, (string | number)[]>(`SELECT count(*) AS n FROM posts WHERE ${sql}${extra}`)
      .get(...params, ...extraParams)?.n ?? 0
  );
}

/**
 * How many posts match: from the per-status counters, less the posts created after a scan's time bound
 * (few: only those created since the scan began), so a total costs the same on every page. A filter on
 * updatedAt has no counter and counts its (indexed) range.
 */
export function countPosts(db: Db, filter: PostFilter): number {
  if (filter.updatedSince !== undefined) return countRows(db, filter);
  const byStatus = filter.status === undefined ? "" : " AND status = ?";
  const params = filter.status === undefined ? [filter.projectId] : [filter.projectId, filter.status];
  const counted =
    db
      .query<{ n: number }, string[]>(
        `SELECT coalesce(sum(n), 0) AS n FROM post_counts WHERE project_id = ?${byStatus}`,
      )
      .get(...params)?.n ?? 0;
  if (filter.createdAtMost === undefined) return counted;
  const { createdAtMost, ...unbounded } = filter;
  return counted - countRows(db, unbounded, " AND created_at > ?", [createdAtMost]);
}

export function listPostRows(
  db: Db,
  filter: PostFilter,
  sort: PostSort,
  limit: number,
  offset: number,
): PostRow[] {
  const { sql, params } = where(filter);
  return db
    .query<PostRow, (string | number)[]>(
      `SELECT ${COLUMNS} FROM posts WHERE ${sql} ORDER BY ${ORDER[sort]} LIMIT ? OFFSET ?`,
    )
    .all(...params, limit, offset);
}

/** The next page of a scan in (createdAt, id) descending order, strictly after the given position. */
export function listPostRowsAfter(
  db: Db,
  filter: PostFilter,
  after: { createdAt: number; id: string } | null,
  limit: number,
): PostRow[] {
  if (after !== null) {
    // The position lies within the scan's time bound, so it is the only upper bound given: SQLite seeks
    // on one bound, and offered the time bound too it would walk the index down from the top.
    const { createdAtMost: _bound, ...rest } = filter;
    const { sql, params } = where(rest);
    return db
      .query<PostRow, (string | number)[]>(
        `SELECT ${COLUMNS} FROM posts WHERE ${sql} AND (created_at, id) < (?, ?) ORDER BY ${ORDER.date} LIMIT ?`,
      )
      .all(...params, after.createdAt, after.id, limit);
  }
  const { sql, params } = where(filter);
  return db
    .query<PostRow, (string | number)[]>(
      `SELECT ${COLUMNS} FROM posts WHERE ${sql} ORDER BY ${ORDER.date} LIMIT ?`,
    )
    .all(...params, limit);
}

// ---- deletion tombstones and notifications ----

export function insertTombstone(db: Db, projectId: string, postId: string, now: number): void {
  db.query("INSERT OR REPLACE INTO post_tombstones (post_id, project_id, deleted_at) VALUES (?, ?, ?)").run(
    postId,
    projectId,
    now,
  );
}

export function listTombstones(db: Db, projectId: string, since: number, limit: number) {
  return db
    .query<{ post_id: string; deleted_at: number }, [string, number, number]>(
      `SELECT post_id, deleted_at FROM post_tombstones WHERE project_id = ? AND deleted_at >= ?
       ORDER BY deleted_at, post_id LIMIT ?`,
    )
    .all(projectId, since, limit)
    .map((row) => ({ id: row.post_id, deletedAt: iso(row.deleted_at) }));
}

// ---- subscribers and merging ----

/** Moves the source's votes, comments and subscribers to the target; returns what moved. */
export function moveEngagement(db: Db, sourceId: string, targetId: string) {
  // A voter who voted on both keeps one vote: their vote on the source goes.
  const duplicates = db
    .query(
      `DELETE FROM votes WHERE post_id = $source AND (
         (board_user_id IS NOT NULL AND board_user_id IN (SELECT board_user_id FROM votes WHERE post_id = $target AND board_user_id IS NOT NULL))
         OR (anonymous_id IS NOT NULL AND anonymous_id IN (SELECT anonymous_id FROM votes WHERE post_id = $target AND anonymous_id IS NOT NULL)))`,
    )
    .run({ source: sourceId, target: targetId }).changes;
  const votes = db.query("UPDATE votes SET post_id = ? WHERE post_id = ?").run(targetId, sourceId).changes;
  recountVotes(db, [sourceId, targetId]);
  const comments = db
    .query("UPDATE comments SET post_id = ? WHERE post_id = ?")
    .run(targetId, sourceId).changes;
  db.query(
    `INSERT OR IGNORE INTO post_subscribers (post_id, board_user_id, created_at)
     SELECT ?, board_user_id, created_at FROM post_subscribers WHERE post_id = ?`,
  ).run(targetId, sourceId);
  db.query("DELETE FROM post_subscribers WHERE post_id = ?").run(sourceId);
  // Posts merged into the source earlier now name the post that holds their votes, never a closed one.
  db.query("UPDATE posts SET merged_into_id = $target, updated_at = $now WHERE merged_into_id = $source").run(
    {
      target: targetId,
      source: sourceId,
      now: Date.now(),
    },
  );
  return { movedVotes: votes, droppedDuplicateVotes: duplicates, movedComments: comments };
}

// ---- the visible listing of public boards (public API, board pages, MCP public tools) ----

export type VisibleSort = "votes" | "date";

const VISIBLE_POST_COLUMNS = `p.id, p.project_id, p.title, p.description, p.status, p.vote_count, p.metadata,
  p.created_by_board_user_id, p.release_id, p.merged_into_id, p.created_at, p.updated_at`;

const VISIBLE_ORDER = {
  votes: "p.vote_count DESC, p.created_at DESC, p.id DESC",
  date: "p.created_at DESC, p.id DESC",
} as const;

export interface VisibleFilter {
  projectId: string;
  statuses: readonly VisibleStatus[];
  /** Words that must each appear in the title or the description (case-insensitive). */
  words: readonly string[];
  /** Only the posts carrying this tag (the board pages' tag filter). */
  tagId?: string | undefined;
}

/** `%`, `_` and `\` in a search word match themselves. */
function likePattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * The FROM and WHERE of a visible listing. With a tag it is driven from the tag's `post_tags` rows (CROSS
 * JOIN fixes that order in SQLite): a tag usually marks a small share of the posts, so reading its rows
 * and sorting them beats walking every visible post in vote order and probing each for the tag (measured
 * in bench/web.ts: about half the time at 100k posts).
 */
function source(filter: VisibleFilter): { sql: string; params: string[] } {
  const clauses = ["p.project_id = ?", "p.status IN (SELECT value FROM json_each(?))"];
  const params = [filter.projectId, JSON.stringify(filter.statuses)];
  for (const word of filter.words) {
    clauses.push("(p.title LIKE ? ESCAPE '\\' OR coalesce(p.description, '') LIKE ? ESCAPE '\\')");
    params.push(likePattern(word), likePattern(word));
  }
  if (filter.tagId === undefined) return { sql: `posts p WHERE ${clauses.join(" AND ")}`, params };
  return {
    sql: `post_tags pt CROSS JOIN posts p ON p.id = pt.post_id WHERE pt.tag_id = ? AND ${clauses.join(" AND ")}`,
    params: [filter.tagId, ...params],
  };
}

export function listVisiblePostRows(
  db: Db,
  filter: VisibleFilter,
  sort: VisibleSort,
  limit: number,
  offset: number,
): PostRow[] {
  const { sql, params } = source(filter);
  return db
    .query<PostRow, (string | number)[]>(
      `SELECT ${VISIBLE_POST_COLUMNS} FROM ${sql} ORDER BY ${VISIBLE_ORDER[sort]} LIMIT ? OFFSET ?`,
    )
    .all(...params, limit, offset);
}

/** Without search words or a tag the per-status counters answer; otherwise the matches are counted. */
export function countVisiblePosts(db: Db, filter: VisibleFilter): number {
  if (filter.words.length === 0 && filter.tagId === undefined) {
    const counts = countVisibleByStatus(db, filter.projectId);
    return filter.statuses.reduce((sum, status) => sum + counts[status], 0);
  }
  const { sql, params } = source(filter);
  return db.query<{ n: number }, string[]>(`SELECT count(*) AS n FROM ${sql}`).get(...params)?.n ?? 0;
}

export function countVisibleByStatus(db: Db, projectId: string): Record<VisibleStatus, number> {
  const all = countByStatus(db, projectId);
  return { APPROVED: all.APPROVED, IN_PROGRESS: all.IN_PROGRESS, COMPLETE: all.COMPLETE };
}

/** Posts per status, from the counters the posts triggers keep (no scan). */
export function countByStatus(db: Db, projectId: string): Record<PostStatus, number> {
  const counts: Record<PostStatus, number> = {
    PENDING: 0,
    APPROVED: 0,
    IN_PROGRESS: 0,
    COMPLETE: 0,
    CLOSED: 0,
    ARCHIVED: 0,
  };
  const rows = db
    .query<{ status: string; n: number }, [string]>("SELECT status, n FROM post_counts WHERE project_id = ?")
    .all(projectId);
  for (const row of rows) {
    if (isPostStatus(row.status)) counts[row.status] = row.n;
  }
  return counts;
}

/** Titles of these posts of the project that are not PENDING (a changelog's shipped requests). */
export function publicTitlesOf(db: Db, projectId: string, postIds: readonly string[]): Map<string, string> {
  return titlesOf(db, projectId, postIds, "public");
}

/** Titles of these posts of the project, whatever their status (the team's activity log names them). */
export function teamTitlesOf(db: Db, projectId: string, postIds: readonly string[]): Map<string, string> {
  return titlesOf(db, projectId, postIds, "team");
}

function titlesOf(
  db: Db,
  projectId: string,
  postIds: readonly string[],
  audience: "public" | "team",
): Map<string, string> {
  const titles = new Map<string, string>();
  if (postIds.length === 0) return titles;
  const rows = db
    .query<{ id: string; title: string }, [string, string, number]>(
      `SELECT id, title FROM posts WHERE project_id = ? AND id IN (SELECT value FROM json_each(?))
          AND (? = 0 OR status != 'PENDING')`,
    )
    .all(projectId, JSON.stringify([...new Set(postIds)]), audience === "public" ? 1 : 0);
  for (const row of rows) titles.set(row.id, row.title);
  return titles;
}

// ---- the team's listing (the dashboard's requests table) ----

export type TeamSort = "votes" | "revenue" | "newest";

export interface TeamFilter {
  projectId: string;
  /** Every status when empty. */
  statuses: readonly PostStatus[];
  words: readonly string[];
  tagId?: string | undefined;
  /** Only posts with at least one paying voter. */
  withRevenue: boolean;
}

const TEAM_ORDER: Record<TeamSort, string> = {
  votes: "p.vote_count DESC, p.created_at DESC, p.id DESC",
  revenue: "revenue_cents DESC, p.vote_count DESC, p.created_at DESC, p.id DESC",
  newest: "p.created_at DESC, p.id DESC",
};

/**
 * The monthly spend of each post's voters, from the paying board users outward (votes_board_user): paying
 * customers are few, so this reads their votes only, not every vote of the project.
 */
const REVENUE_CTE = `WITH revenue AS (
  SELECT v.post_id, sum(u.spend_cents) AS cents FROM board_users u JOIN votes v ON v.board_user_id = u.id
   WHERE u.project_id = ? AND u.spend_cents > 0 GROUP BY v.post_id)`;

function teamSource(filter: TeamFilter): { sql: string; params: string[] } {
  const clauses = ["p.project_id = ?"];
  const params = [filter.projectId];
  if (filter.statuses.length > 0) {
    clauses.push("p.status IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(filter.statuses));
  }
  for (const word of filter.words) {
    clauses.push("(p.title LIKE ? ESCAPE '\\' OR coalesce(p.description, '') LIKE ? ESCAPE '\\')");
    params.push(likePattern(word), likePattern(word));
  }
  if (filter.withRevenue) clauses.push("r.cents > 0");
  const posts =
    filter.tagId === undefined ? "posts p" : "post_tags pt CROSS JOIN posts p ON p.id = pt.post_id";
  if (filter.tagId !== undefined) clauses.unshift("pt.tag_id = ?");
  return {
    sql: `${posts} LEFT JOIN revenue r ON r.post_id = p.id WHERE ${clauses.join(" AND ")}`,
    params: [filter.projectId, ...(filter.tagId === undefined ? [] : [filter.tagId]), ...params],
  };
}

export interface TeamPostRow extends PostRow {
  revenue_cents: number;
}

export function listTeamPostRows(
  db: Db,
  filter: TeamFilter,
  sort: TeamSort,
  limit: number,
  offset: number,
): TeamPostRow[] {
  const { sql, params } = teamSource(filter);
  return db
    .query<TeamPostRow, (string | number)[]>(
      `${REVENUE_CTE} SELECT ${VISIBLE_POST_COLUMNS}, coalesce(r.cents, 0) AS revenue_cents FROM ${sql}
        ORDER BY ${TEAM_ORDER[sort]} LIMIT ? OFFSET ?`,
    )
    .all(...params, limit, offset);
}

export function countTeamPosts(db: Db, filter: TeamFilter): number {
  const { sql, params } = teamSource(filter);
  return (
    db.query<{ n: number }, string[]>(`${REVENUE_CTE} SELECT count(*) AS n FROM ${sql}`).get(...params)?.n ??
    0
  );
}

/** Sets the posts' vote_count from their vote rows (after votes were moved or inserted in bulk). */
export function recountVotes(db: Db, postIds: readonly string[]): void {
  db.query(
    `UPDATE posts SET vote_count = (SELECT count(*) FROM votes WHERE votes.post_id = posts.id)
     WHERE id IN (SELECT value FROM json_each(?))`,
  ).run(JSON.stringify(postIds));
}
