import type { Db } from "../db/connection";
import type { VisibleStatus } from "./pages";

/**
 * The board page's listing: what the public API's listing does not offer (a tag filter, search over
 * title and description together with several visible statuses) in one query with its total.
 */
export interface BoardFilter {
  projectId: string;
  statuses: readonly VisibleStatus[];
  tagId: string | null;
  /** Matched as a substring of the title or the description, ASCII case-insensitively. */
  q: string;
}

export interface BoardPostRow {
  id: string;
  title: string;
  description: string | null;
  status: VisibleStatus;
  vote_count: number;
  created_at: number;
}

const ORDER = {
  votes: "vote_count DESC, created_at DESC, id DESC",
  new: "created_at DESC, id DESC",
} as const;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

function where(filter: BoardFilter): { sql: string; params: string[] } {
  const clauses = ["project_id = ?", "status IN (SELECT value FROM json_each(?))"];
  const params = [filter.projectId, JSON.stringify(filter.statuses)];
  if (filter.tagId !== null) {
    clauses.push("id IN (SELECT post_id FROM post_tags WHERE tag_id = ?)");
    params.push(filter.tagId);
  }
  if (filter.q !== "") {
    const pattern = `%${escapeLike(filter.q)}%`;
    clauses.push("(title LIKE ? ESCAPE '\\' OR description LIKE ? ESCAPE '\\')");
    params.push(pattern, pattern);
  }
  return { sql: clauses.join(" AND "), params };
}

export function listBoardPosts(
  db: Db,
  filter: BoardFilter,
  sort: keyof typeof ORDER,
  limit: number,
  offset: number,
): { rows: BoardPostRow[]; total: number } {
  const { sql, params } = where(filter);
  const rows = db
    .query<BoardPostRow, (string | number)[]>(
      `SELECT id, title, description, status, vote_count, created_at FROM posts WHERE ${sql}
       ORDER BY ${ORDER[sort]} LIMIT ? OFFSET ?`,
    )
    .all(...params, limit, offset);
  const total =
    db.query<{ n: number }, string[]>(`SELECT count(*) AS n FROM posts WHERE ${sql}`).get(...params)?.n ?? 0;
  return { rows, total };
}
