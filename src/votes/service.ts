import { recordActivity } from "../activity/service";
import { type Db, inTransaction, isUniqueViolation } from "../db/connection";
import { iso } from "../db/time";
import { appendEvent } from "../events/outbox";
import { ApiError, bodyError, notFound, validationError } from "../http/errors";
import type { Post, PostCreate } from "../posts/schema";
import {
  createPost,
  recountVotes,
  requireListedPostRow,
  requirePostRow,
  requireUnmergedPostRow,
  toPost,
} from "../posts/service";
import { subscribeToPost } from "../email/service";
import { findUserIdByEmail, requireUserRow, upsertUserByEmail } from "../users/service";
import type { BoardUser } from "../users/schema";
import { askToFollow, requestEmailConfirmation } from "../email/confirmation";
import { requireValid } from "../http/validation-message";
import { formatCents } from "../users/money";
import { UserUpsertSchema } from "../users/schema";
import type { Vote, VoteCreate, Voter } from "./schema";
import * as store from "./store";

export function listVotes(db: Db, projectId: string, postId: string): Vote[] {
  requirePostRow(db, projectId, postId);
  return store.votesOfPost(db, postId);
}

/** A post's voters with their monthly spend (the dashboard's request page). */
export function listVoters(db: Db, projectId: string, postId: string): Voter[] {
  requirePostRow(db, projectId, postId);
  return store.votersOfPost(db, postId);
}

/**
 * The summed monthly spend of a post's voters, as "23093.90" (the dashboard's request page; the requests
 * table's revenue of the voters).
 */
export function votersSpendOfPost(db: Db, projectId: string, postId: string): string {
  requirePostRow(db, projectId, postId);
  return formatCents(store.votersSpendCentsOfPost(db, postId));
}

/**
 * A request the team files for a customer (a sales call, docs/dashboard.md): the board user with that
 * email (created when new, as for a vote on their behalf) is its author, subscribed to it, and votes for it
 * when `vote`. No email, no author (and no vote to cast). It lives here, beside castVoteForEmail, because
 * it casts a vote; one transaction, so nothing is left half made.
 */
export function createPostForCustomer(
  db: Db,
  projectId: string,
  input: PostCreate,
  customer: { email: string; vote: boolean },
): Post {
  const email = customer.email.trim();
  if (email === "" && customer.vote)
    throw validationError("email", "give the customer's email to add their vote");
  const user = email === "" ? null : requireValid(UserUpsertSchema, { email }, "email");
  return inTransaction(db, () => {
    const author = user ? upsertUserByEmail(db, projectId, user).user.id : null;
    const { id } = createPost(db, projectId, {
      ...input,
      ...(author !== null ? { createdByBoardUserId: author } : {}),
    });
    if (author !== null && customer.vote) castVote(db, projectId, id, { boardUserId: author });
    return toPost(requirePostRow(db, projectId, id));
  });
}

/**
 * A vote on behalf of a customer the team talked to: the board user with that email (created when new)
 * votes, in one transaction, through castVote, so the event, activity and subscription are the same.
 */
export function castVoteForEmail(db: Db, projectId: string, postId: string, email: string): Vote {
  const input = requireValid(UserUpsertSchema, { email: email.trim() }, "email");
  return inTransaction(db, () => {
    const { user } = upsertUserByEmail(db, projectId, input);
    return castVote(db, projectId, postId, { boardUserId: user.id });
  });
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
  /**
   * An import restoring a vote: it keeps the time the vote was cast where it came from, and may restore one
   * on a post merged since (a merged post takes no new votes).
   */
  imported?: { createdAt?: number | undefined },
): Vote {
  const boardUserId = input.boardUserId ?? null;
  const anonymousId = input.anonymousId ?? null;
  if ((boardUserId === null) === (anonymousId === null)) {
    throw bodyError("give exactly one of boardUserId or anonymousId");
  }
  return inTransaction(db, () => {
    if (imported) requirePostRow(db, projectId, postId);
    else requireUnmergedPostRow(db, projectId, postId);
    const voter = boardUserId === null ? null : requireUserRow(db, projectId, boardUserId);
    const id = Bun.randomUUIDv7();
    const now = imported?.createdAt ?? Date.now();
    let voteCount: number | null;
    try {
      voteCount = store.insertVote(db, { id, projectId, postId, boardUserId, anonymousId }, now);
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateVote();
      throw error;
    }
    if (voteCount === null) throw notFound("POST_NOT_FOUND");
    if (boardUserId !== null) subscribeToPost(db, postId, boardUserId, now);
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
    removeVoteRow(db, projectId, postId, voteId);
  });
}

/** Deletes a vote of a post already checked, with its activity and event, inside the caller's transaction. */
function removeVoteRow(db: Db, projectId: string, postId: string, voteId: string): void {
  const vote = requireVote(db, postId, voteId);
  const voteCount = store.deleteVote(db, postId, voteId);
  recordActivity(db, projectId, {
    action: "deleted",
    entityType: "vote",
    entityId: voteId,
    metadata: { postId },
  });
  appendEvent(db, projectId, "vote.removed", { ...vote, postId, voteCount });
}

// ---- public votes: an anonymous voter on a listed post (public API, board pages, widget, MCP) ----

export interface PublicVoter {
  anonymousId: string;
  email?: string | undefined;
  name?: string | undefined;
}

/** A post's vote state as the public sees it: whether this voter's vote is there, and the count. */
export interface PublicVoteState {
  postId: string;
  voted: boolean;
  voteCount: number;
}

/** Whether this anonymous id had already voted on the post, and the post's vote state afterwards. */
export interface PublicVoteOutcome {
  vote: PublicVoteState;
  alreadyVoted: boolean;
}

/**
 * The board user a public vote may be linked to: only one created right now for an email nobody has yet.
 * An email that already belongs to a board user is not proof of being that person, so it neither casts a
 * vote in their name nor finds their vote: the vote stays the anonymous id's alone.
 */
function newBoardUserForVote(db: Db, projectId: string, voter: PublicVoter): BoardUser | null {
  if (voter.email === undefined || findUserIdByEmail(db, projectId, voter.email) !== null) return null;
  // Typed on a keyless surface: unconfirmed until its owner follows the link (src/email/confirmation.ts).
  return upsertUserByEmail(
    db,
    projectId,
    { email: voter.email, ...(voter.name ? { name: voter.name } : {}) },
    { keyless: true },
  ).user;
}

/** Stores a public vote inside the caller's transaction (the post is known to be listed). */
function storePublicVote(
  db: Db,
  projectId: string,
  post: { id: string; title: string },
  voter: PublicVoter,
): PublicVoteOutcome {
  const postId = post.id;
  const already = (): PublicVoteOutcome => ({
    vote: { postId, voted: true, voteCount: store.voteCountOf(db, postId) },
    alreadyVoted: true,
  });
  if (store.findAnonymousVoteId(db, postId, voter.anonymousId) !== null) return already();
  const newUser = newBoardUserForVote(db, projectId, voter);
  const boardUserId = newUser?.id ?? null;
  const id = Bun.randomUUIDv7();
  const now = Date.now();
  let voteCount: number | null;
  try {
    voteCount = store.insertVote(
      db,
      { id, projectId, postId, boardUserId, anonymousId: voter.anonymousId },
      now,
    );
  } catch (error) {
    if (isUniqueViolation(error)) return already();
    throw error;
  }
  if (voteCount === null) throw notFound("POST_NOT_FOUND");
  if (newUser?.email) {
    subscribeToPost(db, postId, newUser.id, now);
    const unconfirmed = { boardUserId: newUser.id, email: newUser.email, name: newUser.name, post };
    requestEmailConfirmation(db, projectId, unconfirmed, now);
  } else if (voter.email !== undefined) {
    // A known address: the vote stays anonymous, and its owner is asked by mail whether to hear about it.
    askToFollow(db, projectId, { email: voter.email, post }, now);
  }
  // The event goes to trusted webhooks only, and carries the voter like a REST vote's does.
  const user = boardUserId === null ? null : requireUserRow(db, projectId, boardUserId);
  const vote: Vote = {
    id,
    boardUserId,
    anonymousId: voter.anonymousId,
    createdAt: iso(now),
    boardUserName: user?.name ?? null,
    boardUserEmail: user?.email ?? null,
  };
  recordActivity(db, projectId, {
    action: "created",
    entityType: "vote",
    entityId: id,
    metadata: { postId, source: "public" },
  });
  appendEvent(db, projectId, "vote.created", { ...vote, postId, voteCount });
  return { vote: { postId, voted: true, voteCount }, alreadyVoted: false };
}

/** Removes this anonymous id's vote inside the caller's transaction, if it is there. */
function dropPublicVote(db: Db, projectId: string, postId: string, anonymousId: string): PublicVoteState {
  const voteId = store.findAnonymousVoteId(db, postId, anonymousId);
  if (voteId !== null) removeVoteRow(db, projectId, postId, voteId);
  return { postId, voted: false, voteCount: store.voteCountOf(db, postId) };
}

/**
 * One vote per anonymous id per post, idempotent: voting again with the same anonymous id changes nothing.
 * The answer depends only on what this anonymous id did, never on other voters (see newBoardUserForVote).
 */
export function castPublicVote(
  db: Db,
  projectId: string,
  postId: string,
  voter: PublicVoter,
): PublicVoteOutcome {
  return inTransaction(db, () => {
    return storePublicVote(db, projectId, requireListedPostRow(db, projectId, postId), voter);
  });
}

/**
 * Removes the vote cast with this anonymous id, if any: removing a vote that is not there is not an error.
 * Only the anonymous id finds a vote; an email never does (it would let anyone remove a customer's vote).
 */
export function removePublicVote(
  db: Db,
  projectId: string,
  postId: string,
  voter: { anonymousId: string },
): PublicVoteState {
  return inTransaction(db, () => {
    requireListedPostRow(db, projectId, postId);
    return dropPublicVote(db, projectId, postId, voter.anonymousId);
  });
}

/** Votes when this anonymous id has not voted yet, otherwise removes its vote: one transaction, one lookup. */
export function togglePublicVote(
  db: Db,
  projectId: string,
  postId: string,
  voter: PublicVoter,
): PublicVoteState {
  return inTransaction(db, () => {
    const post = requireListedPostRow(db, projectId, postId);
    if (store.findAnonymousVoteId(db, postId, voter.anonymousId) !== null) {
      return dropPublicVote(db, projectId, postId, voter.anonymousId);
    }
    return storePublicVote(db, projectId, post, voter).vote;
  });
}

/**
 * Votes an import brings as a count: `count` anonymous votes `import:<postId>:<n>` on a post of this import,
 * then the post's vote_count from its rows. No activity or event per vote (docs/reporting.md).
 */
export function castImportedVotes(
  db: Db,
  projectId: string,
  postId: string,
  count: number,
  createdAt: number,
): void {
  store.insertAnonymousVoteRows(db, projectId, postId, count, createdAt);
  recountVotes(db, [postId]);
}
