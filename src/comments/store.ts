import type { Db } from "../db/connection";
import { iso } from "../db/time";
import type { Comment, InboxComment, InternalFilter, ThreadComment } from "./schema";

export interface CommentRow {
  id: string;
  post_id: string;
  body: string;
  author_name: string | null;
  is_internal: number;
  team_member_id: string | null;
  created_at: number;
}

const COLUMNS = "id, post_id, body, author_name, is_internal, team_member_id, created_at";

export function toComment(row: CommentRow): Comment {
  return {
    id: row.id,
    postId: row.post_id,
    body: row.body,
    authorName: row.author_name,
    isInternalNote: row.is_internal === 1,
    createdAt: iso(row.created_at),
  };
}

export function toThreadComment(row: CommentRow): ThreadComment {
  return { ...toComment(row), isTeamReply: row.team_member_id !== null };
}

const VISIBILITY: Record<InternalFilter, string> = {
  public: "AND is_internal = 0",
  internal: "AND is_internal = 1",
  all: "",
};

export function commentsOfPost(db: Db, postId: string, filter: InternalFilter): CommentRow[] {
  return db
    .query<CommentRow, [string]>(
      `SELECT ${COLUMNS} FROM comments WHERE post_id = ? ${VISIBILITY[filter]} ORDER BY created_at, id`,
    )
    .all(postId);
}

/** How many public comments (internal notes never count) each of these posts has. */
export function countPublicCommentsOfPosts(db: Db, postIds: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  if (postIds.length === 0) return counts;
  const rows = db
    .query<{ post_id: string; count: number }, string[]>(
      `SELECT post_id, COUNT(*) AS count FROM comments
        WHERE is_internal = 0 AND post_id IN (${postIds.map(() => "?").join(", ")}) GROUP BY post_id`,
    )
    .all(...postIds);
  for (const row of rows) counts.set(row.post_id, row.count);
  return counts;
}

export function findCommentRow(db: Db, postId: string, commentId: string): CommentRow | null {
  return db
    .query<CommentRow, [string, string]>(`SELECT ${COLUMNS} FROM comments WHERE post_id = ? AND id = ?`)
    .get(postId, commentId);
}

export interface NewComment {
  id: string;
  projectId: string;
  postId: string;
  body: string;
  authorName: string | null;
  boardUserId: string | null;
  anonymousId: string | null;
  isInternal: boolean;
  teamMemberId: string | null;
}

export function insertComment(db: Db, comment: NewComment, now: number): CommentRow {
  db.query(
    `INSERT INTO comments (id, project_id, post_id, body, author_name, board_user_id, anonymous_id, is_internal,
       team_member_id, created_at, updated_at)
     VALUES ($id, $projectId, $postId, $body, $authorName, $boardUserId, $anonymousId, $isInternal,
       $teamMemberId, $now, $now)`,
  ).run({ ...comment, isInternal: comment.isInternal ? 1 : 0, now });
  return {
    id: comment.id,
    post_id: comment.postId,
    body: comment.body,
    author_name: comment.authorName,
    is_internal: comment.isInternal ? 1 : 0,
    team_member_id: comment.teamMemberId,
    created_at: now,
  };
}

export function updateCommentRow(db: Db, row: CommentRow, now: number): void {
  db.query("UPDATE comments SET body = ?, is_internal = ?, updated_at = ? WHERE id = ?").run(
    row.body,
    row.is_internal,
    now,
    row.id,
  );
}

export function deleteCommentRow(db: Db, commentId: string): void {
  db.query("DELETE FROM comments WHERE id = ?").run(commentId);
}

/** Public comments from the board (not the team's own) since a time, newest first. */
export function recentBoardComments(db: Db, projectId: string, since: number, limit: number): InboxComment[] {
  return db
    .query<CommentRow & { post_title: string }, [string, number, number]>(
      `SELECT c.id, c.post_id, c.body, c.author_name, c.is_internal, c.team_member_id, c.created_at,
              p.title AS post_title
         FROM comments c JOIN posts p ON p.id = c.post_id
        WHERE c.project_id = ? AND c.created_at >= ? AND c.is_internal = 0 AND c.team_member_id IS NULL
        ORDER BY c.created_at DESC LIMIT ?`,
    )
    .all(projectId, since, limit)
    .map((row) => ({ ...toComment(row), postTitle: row.post_title }));
}
