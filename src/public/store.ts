import type { Db } from "../db/connection";
import type { PostRow } from "../posts/store";
import { VISIBLE_STATUSES, type VisibleStatus } from "./schema";

const POST_COLUMNS = `id, project_id, title, description, status, vote_count, metadata, created_by_board_user_id,
  release_id, merged_into_id, created_at, updated_at`;

const ORDER = {
  votes: "vote_count DESC, created_at DESC, id DESC",
  date: "created_at DESC, id DESC",
} as const;

export interface VisibleFilter {
  projectId: string;
  statuses: readonly VisibleStatus[];
  /** Words that must each appear in the title or the description (case-insensitive). */
  words: readonly string[];
}

/** `%`, `_` and `\` in a search word match themselves. */
function likePattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

function where(filter: VisibleFilter): { sql: string; params: string[] } {
  const clauses = ["project_id = ?", "status IN (SELECT value FROM json_each(?))"];
  const params = [filter.projectId, JSON.stringify(filter.statuses)];
  for (const word of filter.words) {
    clauses.push("(title LIKE ? ESCAPE '\\' OR coalesce(description, '') LIKE ? ESCAPE '\\')");
    params.push(likePattern(word), likePattern(word));
  }
  return { sql: clauses.join(" AND "), params };
}

export function listVisiblePostRows(
  db: Db,
  filter: VisibleFilter,
  sort: keyof typeof ORDER,
  limit: number,
  offset: number,
): PostRow[] {
  const { sql, params } = where(filter);
  return db
    .query<PostRow, (string | number)[]>(
      `SELECT ${POST_COLUMNS} FROM posts WHERE ${sql} ORDER BY ${ORDER[sort]} LIMIT ? OFFSET ?`,
    )
    .all(...params, limit, offset);
}

/** Without search words the per-status counters answer; a search counts its matches. */
export function countVisiblePosts(db: Db, filter: VisibleFilter): number {
  if (filter.words.length === 0) {
    const counts = countsByStatus(db, filter.projectId);
    return filter.statuses.reduce((sum, status) => sum + counts[status], 0);
  }
  const { sql, params } = where(filter);
  return (
    db.query<{ n: number }, string[]>(`SELECT count(*) AS n FROM posts WHERE ${sql}`).get(...params)?.n ?? 0
  );
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
