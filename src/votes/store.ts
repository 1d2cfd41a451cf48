import type { Db } from "../db/connection";
import { iso } from "../db/time";
import type { Vote } from "./schema";

interface VoteRow {
  id: string;
  board_user_id: string | null;
  anonymous_id: string | null;
  created_at: number;
  board_user_name: string | null;
  board_user_email: string | null;
}

const SELECT = `SELECT v.id, v.board_user_id, v.anonymous_id, v.created_at, u.name AS board_user_name,
  u.email AS board_user_email FROM votes v LEFT JOIN board_users u ON u.id = v.board_user_id`;

function toVote(row: VoteRow): Vote {
  return {
    id: row.id,
    boardUserId: row.board_user_id,
    anonymousId: row.anonymous_id,
    createdAt: iso(row.created_at),
    boardUserName: row.board_user_name,
    boardUserEmail: row.board_user_email,
  };
}

export function votesOfPost(db: Db, postId: string): Vote[] {
  return db
    .query<VoteRow, [string]>(`${SELECT} WHERE v.post_id = ? ORDER BY v.created_at, v.id`)
    .all(postId)
    .map(toVote);
}

export function findVote(db: Db, postId: string, voteId: string): Vote | null {
  const row = db
    .query<VoteRow, [string, string]>(`${SELECT} WHERE v.post_id = ? AND v.id = ?`)
    .get(postId, voteId);
  return row ? toVote(row) : null;
}

/** Throws a UNIQUE violation when this user or anonymous id already voted on the post. */
export function insertVote(
  db: Db,
  vote: {
    id: string;
    projectId: string;
    postId: string;
    boardUserId: string | null;
    anonymousId: string | null;
  },
  now: number,
): void {
  db.query(
    `INSERT INTO votes (id, project_id, post_id, board_user_id, anonymous_id, created_at)
     VALUES ($id, $projectId, $postId, $boardUserId, $anonymousId, $now)`,
  ).run({ ...vote, now });
}

/** Throws a UNIQUE violation when another vote on the post has that anonymous id. */
export function setAnonymousId(db: Db, voteId: string, anonymousId: string): void {
  db.query("UPDATE votes SET anonymous_id = ?, board_user_id = NULL WHERE id = ?").run(anonymousId, voteId);
}

export function deleteVote(db: Db, voteId: string): void {
  db.query("DELETE FROM votes WHERE id = ?").run(voteId);
}

export function voteCountOf(db: Db, postId: string): number {
  return (
    db.query<{ vote_count: number }, [string]>("SELECT vote_count FROM posts WHERE id = ?").get(postId)
      ?.vote_count ?? 0
  );
}
