import type { Db } from "../db/connection";
import type { PostRow } from "../posts/store";
import { VISIBLE_STATUSES, type VisibleStatus } from "./schema";

const POST_COLUMNS = `p.id, p.project_id, p.title, p.description, p.status, p.vote_count, p.metadata,
  p.created_by_board_user_id, p.release_id, p.merged_into_id, p.created_at, p.updated_at`;

const ORDER = {
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
  sort: keyof typeof ORDER,
  limit: number,
  offset: number,
): PostRow[] {
  const { sql, params } = source(filter);
  return db
    .query<PostRow, (string | number)[]>(
      `SELECT ${POST_COLUMNS} FROM ${sql} ORDER BY ${ORDER[sort]} LIMIT ? OFFSET ?`,
    )
    .all(...params, limit, offset);
}

/** Without search words or a tag the per-status counters answer; otherwise the matches are counted. */
export function countVisiblePosts(db: Db, filter: VisibleFilter): number {
  if (filter.words.length === 0 && filter.tagId === undefined) {
    const counts = countsByStatus(db, filter.projectId);
    return filter.statuses.reduce((sum, status) => sum + counts[status], 0);
  }
  const { sql, params } = source(filter);
  return db.query<{ n: number }, string[]>(`SELECT count(*) AS n FROM ${sql}`).get(...params)?.n ?? 0;
}

export function countsByStatus(db: Db, projectId: string): Record<VisibleStatus, number> {
  const counts: Record<VisibleStatus, number> = { APPROVED: 0, IN_PROGRESS: 0, COMPLETE: 0 };
  const rows = db
    .query<{ status: string; n: number }, [string]>("SELECT status, n FROM post_counts WHERE project_id = ?")
    .all(projectId);
  for (const row of rows) {
    if ((VISIBLE_STATUSES as readonly string[]).includes(row.status))
      counts[row.status as VisibleStatus] = row.n;
  }
  return counts;
}

/** The vote cast on a post with this anonymous id: the only way a public voter finds a vote. */
export function findAnonymousVoteId(db: Db, postId: string, anonymousId: string): string | null {
  return (
    db
      .query<{ id: string }, [string, string]>("SELECT id FROM votes WHERE post_id = ? AND anonymous_id = ?")
      .get(postId, anonymousId)?.id ?? null
  );
}
