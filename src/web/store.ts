import type { Db } from "../db/connection";
import type { PostRow } from "../posts/store";
import { VISIBLE_STATUSES, type VisibleStatus } from "../public/schema";

/**
 * The board page's tag filter, which the public API's listing does not offer: the same visible posts,
 * search and order as `listVisiblePosts` (src/public), restricted to the posts carrying one tag.
 */
export interface TaggedListing {
  status?: VisibleStatus;
  q?: string;
  sort: "votes" | "date";
  page: number;
  limit: number;
}

const COLUMNS = `id, project_id, title, description, status, vote_count, metadata, created_by_board_user_id,
  release_id, merged_into_id, created_at, updated_at`;

const ORDER = {
  votes: "vote_count DESC, created_at DESC, id DESC",
  date: "created_at DESC, id DESC",
} as const;

/** `%`, `_` and `\` in a search word match themselves, as in the public API's search. */
function likePattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

export function listTaggedVisiblePosts(
  db: Db,
  projectId: string,
  tagId: string,
  listing: TaggedListing,
): { rows: PostRow[]; total: number } {
  const clauses = [
    "project_id = ?",
    "status IN (SELECT value FROM json_each(?))",
    "id IN (SELECT post_id FROM post_tags WHERE tag_id = ?)",
  ];
  const params = [projectId, JSON.stringify(listing.status ? [listing.status] : VISIBLE_STATUSES), tagId];
  for (const word of (listing.q ?? "").split(/\s+/).filter((word) => word !== "")) {
    clauses.push("(title LIKE ? ESCAPE '\\' OR coalesce(description, '') LIKE ? ESCAPE '\\')");
    params.push(likePattern(word), likePattern(word));
  }
  const where = clauses.join(" AND ");
  const rows = db
    .query<PostRow, (string | number)[]>(
      `SELECT ${COLUMNS} FROM posts WHERE ${where} ORDER BY ${ORDER[listing.sort]} LIMIT ? OFFSET ?`,
    )
    .all(...params, listing.limit, (listing.page - 1) * listing.limit);
  const total =
    db.query<{ n: number }, string[]>(`SELECT count(*) AS n FROM posts WHERE ${where}`).get(...params)?.n ??
    0;
  return { rows, total };
}
