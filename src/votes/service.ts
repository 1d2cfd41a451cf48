import { recordActivity } from "../activity/store";
import { type Db, inTransaction, isUniqueViolation } from "../db/connection";
import { iso } from "../db/time";
import { appendEvent } from "../events/outbox";
import { ApiError, notFound, validationError } from "../http/errors";
import { requirePostRow } from "../posts/service";
import { subscribe } from "../posts/store";
import { requireUserRow } from "../users/service";
import type { Vote, VoteCreate } from "./schema";
import * as store from "./store";

export function listVotes(db: Db, projectId: string, postId: string): Vote[] {
  requirePostRow(db, projectId, postId);
  return store.votesOfPost(db, postId);
}

function requireVote(db: Db, postId: string, voteId: string): Vote {
  const vote = store.findVote(db, postId, voteId);
  if (!vote) throw notFound("VOTE_NOT_FOUND");
  return vote;
}

function duplicateVote(): ApiError {
  return new ApiError(
    "DUPLICATE_VOTE",
    "This voter has already voted on this post",
    "A voter can vote once per post; list the post's votes to find the existing one.",
  );
}

/** Vote events carry the vote, its post and the post's vote count after the change. */

/**
 * Casts one vote. Uniqueness per board user and per anonymous id is the database's unique indexes, and
 * the vote count moves in the same transaction as the vote row, so concurrent votes cannot break either.
 */
export function castVote(
  db: Db,
  projectId: string,
  postId: string,
  input: VoteCreate,
  /** An import keeps the time the vote was cast where it came from. */
  origin: { createdAt?: number } = {},
): Vote {
  const boardUserId = input.boardUserId ?? null;
  const anonymousId = input.anonymousId ?? null;
  if ((boardUserId === null) === (anonymousId === null)) {
    throw validationError("body", "give exactly one of boardUserId or anonymousId");
  }
  return inTransaction(db, () => {
    const voter = boardUserId === null ? null : requireUserRow(db, projectId, boardUserId);
    const id = Bun.randomUUIDv7();
    const now = origin.createdAt ?? Date.now();
    let voteCount: number | null;
    try {
      voteCount = store.insertVote(db, { id, projectId, postId, boardUserId, anonymousId }, now);
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateVote();
      throw error;
    }
    if (voteCount === null) throw notFound("POST_NOT_FOUND");
    if (boardUserId !== null) subscribe(db, postId, boardUserId, now);
    const vote: Vote = {
      id,
      boardUserId,
      anonymousId,
      createdAt: iso(now),
      boardUserName: voter?.name ?? null,
      boardUserEmail: voter?.email ?? null,
    };
    recordActivity(db, projectId, {
      action: "created",
      entityType: "vote",
      entityId: id,
      metadata: { postId },
    });
    appendEvent(db, projectId, "vote.created", { ...vote, postId, voteCount });
    return vote;
  });
}

/** Re-attributes a vote to an anonymous id: clears boardUserId and keeps the vote itself. */
export function changeVoteAnonymousId(
  db: Db,
  projectId: string,
  postId: string,
  voteId: string,
  anonymousId: string,
): Vote {
  return inTransaction(db, () => {
    requirePostRow(db, projectId, postId);
    const before = requireVote(db, postId, voteId);
    if (before.anonymousId === anonymousId && before.boardUserId === null) return before;
    try {
      store.setAnonymousId(db, voteId, anonymousId);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new ApiError(
        "ANONYMOUS_ID_ALREADY_VOTED",
        "That anonymousId has already voted on this post",
        "Use another anonymousId, or delete one of the two votes.",
      );
    }
    const vote = requireVote(db, postId, voteId);
    recordActivity(db, projectId, {
      action: "updated",
      entityType: "vote",
      entityId: voteId,
      metadata: { postId },
    });
    appendEvent(db, projectId, "vote.updated", { ...vote, postId, voteCount: store.voteCountOf(db, postId) });
    return vote;
  });
}

export function removeVote(db: Db, projectId: string, postId: string, voteId: string): void {
  inTransaction(db, () => {
    requirePostRow(db, projectId, postId);
    const vote = requireVote(db, postId, voteId);
    const voteCount = store.deleteVote(db, postId, voteId);
    recordActivity(db, projectId, {
      action: "deleted",
      entityType: "vote",
      entityId: voteId,
      metadata: { postId },
    });
    appendEvent(db, projectId, "vote.removed", { ...vote, postId, voteCount });
  });
}
