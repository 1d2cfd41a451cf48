import type { Db } from "../db/connection";
import { iso } from "../db/time";
import { formatCents } from "../users/money";
import type { Vote, Voter } from "./schema";

interface VoteRow {
  id: string;
  board_user_id: string | null;
  anonymous_id: string | null;
  created_at: number;
  board_user_name: string | null;
  board_user_email: string | null;
  board_user_spend_cents: number | null;
}

const SELECT = `SELECT v.id, v.board_user_id, v.anonymous_id, v.created_at, u.name AS board_user_name,
  u.email AS board_user_email, u.spend_cents AS board_user_spend_cents
  FROM votes v LEFT JOIN board_users u ON u.id = v.board_user_id`;

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

function voteRowsOfPost(db: Db, postId: string): VoteRow[] {
  return db.query<VoteRow, [string]>(`${SELECT} WHERE v.post_id = ? ORDER BY v.created_at, v.id`).all(postId);
}

/** A post's votes, oldest first (sorted after the lookup by post: few enough per post). */
export function votesOfPost(db: Db, postId: string): Vote[] {
  return voteRowsOfPost(db, postId).map(toVote);
}

/** A post's votes with each registered voter's monthly spend (null for anonymous votes). */
export function votersOfPost(db: Db, postId: string): Voter[] {
  return voteRowsOfPost(db, postId).map((row) => ({
    ...toVote(row),
    userSpend: row.board_user_spend_cents === null ? null : formatCents(row.board_user_spend_cents),
  }));
}

/** The summed monthly spend, in cents, of a post's voters (one vote per board user and post). */
export function votersSpendCentsOfPost(db: Db, postId: string): number {
  return (
    db
      .query<{ cents: number | null }, [string]>(
        "SELECT sum(u.spend_cents) AS cents FROM votes v JOIN board_users u ON u.id = v.board_user_id WHERE v.post_id = ?",
      )
      .get(postId)?.cents ?? 0
  );
}

export function findVote(db: Db, postId: string, voteId: string): Vote | null {
  const row = db
    .query<VoteRow, [string, string]>(`${SELECT} WHERE v.id = ? AND v.post_id = ?`)
    .get(voteId, postId);
  return row ? toVote(row) : null;
}

// Every statement below that adds or removes a vote row moves posts.vote_count with it, so the count
// always equals the rows; callers run them inside one transaction with the rest of the change.

/**
 * Adds a vote and returns the post's new vote count, or null when the post is not in this project.
 * Throws a UNIQUE violation when this user or anonymous id already voted on the post.
 */
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
): number | null {
  const counted = db
    .query<{ vote_count: number }, [string, string]>(
      "UPDATE posts SET vote_count = vote_count + 1 WHERE project_id = ? AND id = ? RETURNING vote_count",
    )
    .get(vote.projectId, vote.postId);
  if (!counted) return null;
  db.query(
    `INSERT INTO votes (id, project_id, post_id, board_user_id, anonymous_id, created_at)
     VALUES ($id, $projectId, $postId, $boardUserId, $anonymousId, $now)`,
  ).run({ ...vote, now });
  return counted.vote_count;
}

/** Removes a vote; returns the post's new vote count. */
export function deleteVote(db: Db, postId: string, voteId: string): number {
  db.query("DELETE FROM votes WHERE id = ?").run(voteId);
  return (
    db
      .query<{ vote_count: number }, [string]>(
        "UPDATE posts SET vote_count = vote_count - 1 WHERE id = ? RETURNING vote_count",
      )
      .get(postId)?.vote_count ?? 0
  );
}

/** Sets vote_count from the vote rows, for changes that move many votes at once (merge, import). */
/** Throws a UNIQUE violation when another vote on the post has that anonymous id. */
export function setAnonymousId(db: Db, voteId: string, anonymousId: string): void {
  db.query("UPDATE votes SET anonymous_id = ?, board_user_id = NULL WHERE id = ?").run(anonymousId, voteId);
}

export function voteCountOf(db: Db, postId: string): number {
  return (
    db.query<{ vote_count: number }, [string]>("SELECT vote_count FROM posts WHERE id = ?").get(postId)
      ?.vote_count ?? 0
  );
}

/** The vote cast on a post with this anonymous id: the only way a public voter finds a vote. */
export function findAnonymousVoteId(db: Db, postId: string, anonymousId: string): string | null {
  return (
    db
      .query<{ id: string }, [string, string]>("SELECT id FROM votes WHERE post_id = ? AND anonymous_id = ?")
      .get(postId, anonymousId)?.id ?? null
  );
}

/**
 * The anonymous votes a csv row's `votes` count stands for, as rows `import:<postId>:<n>`, then the post's
 * caller sets the post's vote_count from its rows: one prepared insert each instead of a castVote each
 * (docs/reporting.md).
 */
export function insertAnonymousVoteRows(
  db: Db,
  projectId: string,
  postId: string,
  count: number,
  createdAt: number,
): void {
  const insert = db.query(
    `INSERT INTO votes (id, project_id, post_id, board_user_id, anonymous_id, created_at)
     VALUES (?, ?, ?, NULL, ?, ?)`,
  );
  for (let index = 0; index < count; index++) {
    insert.run(Bun.randomUUIDv7(), projectId, postId, `import:${postId}:${index}`, createdAt);
  }
}
