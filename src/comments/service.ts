import { recordActivity } from "../activity/service";
import { type Db, inTransaction } from "../db/connection";
import { queueReplyEmails } from "../email/service";
import { appendEvent } from "../events/outbox";
import { notFound, validationError } from "../http/errors";
import type { PostStatus } from "../posts/schema";
import { requireListedPostRow, requirePostRow, requireUnmergedPostRow, updatePost } from "../posts/service";
import type { Comment, CommentPatch, InternalFilter, ThreadComment } from "./schema";
import * as store from "./store";
import type { CommentRow } from "./store";

export function listComments(db: Db, projectId: string, postId: string, filter: InternalFilter): Comment[] {
  requirePostRow(db, projectId, postId);
  return store.commentsOfPost(db, postId, filter).map(store.toComment);
}

/** The comments of a post as a thread shows them: each says whether the team wrote it. */
export function listThread(
  db: Db,
  projectId: string,
  postId: string,
  filter: InternalFilter,
): ThreadComment[] {
  requirePostRow(db, projectId, postId);
  return store.commentsOfPost(db, postId, filter).map(store.toThreadComment);
}

/** How far back the dashboard's inbox lists comments from the board. */
export const INBOX_COMMENT_DAYS = 7;

/** The inbox's new comments: the board's public comments of the last INBOX_COMMENT_DAYS, newest first. */
/** Board comments of the inbox's last days, newest first; `seenSince`: only those written after it. */
export function newBoardComments(db: Db, projectId: string, limit: number, seenSince = 0, now = Date.now()) {
  const since = Math.max(now - INBOX_COMMENT_DAYS * 86_400_000, seenSince + 1);
  return store.recentBoardComments(db, projectId, since, limit);
}

/** One comment of a post, as a thread shows it (the dashboard's page to correct a reply or a note). */
export function getThreadComment(
  db: Db,
  projectId: string,
  postId: string,
  commentId: string,
): ThreadComment {
  requirePostRow(db, projectId, postId);
  return store.toThreadComment(requireCommentRow(db, postId, commentId));
}

function requireCommentRow(db: Db, postId: string, commentId: string): CommentRow {
  const row = store.findCommentRow(db, postId, commentId);
  if (!row) throw notFound("COMMENT_NOT_FOUND");
  return row;
}

function checkBody(body: string): string {
  if (body.trim() === "") throw validationError("body", "must not be blank");
  return body;
}

export interface CommentInput {
  body: string;
  authorName?: string | null;
  isInternalNote?: boolean;
  /** Set by the public API: who wrote it, when known. */
  boardUserId?: string | null;
  anonymousId?: string | null;
  /** Set by the dashboard: the team member who wrote it (an official reply, or an internal note). */
  teamMemberId?: string | null;
  /**
   * An official reply emails the request's subscribers unless this is false: when its words already go
   * out in the status email of the same change (changeStatusWithMessage).
   */
  emailSubscribers?: boolean;
}

/** Public comment counts of posts the caller already scoped to its project (board listings). */
export function publicCommentCounts(db: Db, postIds: readonly string[]): Map<string, number> {
  return store.countPublicCommentsOfPosts(db, postIds);
}

export function createComment(
  db: Db,
  projectId: string,
  postId: string,
  input: CommentInput,
  /**
   * An import restoring a comment: it keeps the time the comment was written where it came from, and may
   * restore one on a post merged since (a merged post takes no new comments).
   */
  imported?: { createdAt?: number | undefined },
): Comment {
  const body = checkBody(input.body);
  return inTransaction(db, () => {
    const post = imported
      ? requirePostRow(db, projectId, postId)
      : requireUnmergedPostRow(db, projectId, postId);
    const row = store.insertComment(
      db,
      {
        id: Bun.randomUUIDv7(),
        projectId,
        postId,
        body,
        authorName: input.authorName ?? null,
        boardUserId: input.boardUserId ?? null,
        anonymousId: input.anonymousId ?? null,
        isInternal: input.isInternalNote ?? false,
        teamMemberId: input.teamMemberId ?? null,
      },
      imported?.createdAt ?? Date.now(),
    );
    const comment = store.toComment(row);
    recordActivity(db, projectId, {
      action: "created",
      entityType: "comment",
      entityId: comment.id,
      metadata: { postId, isInternalNote: comment.isInternalNote },
    });
    appendEvent(db, projectId, "comment.created", comment);
    // An official reply from the dashboard tells the request's subscribers; a note never leaves the team.
    if (input.teamMemberId && !comment.isInternalNote && input.emailSubscribers !== false) {
      queueReplyEmails(
        db,
        projectId,
        {
          post: { id: post.id, title: post.title },
          authorName: comment.authorName ?? "The team",
          body: comment.body,
        },
        Date.now(),
      );
    }
    return comment;
  });
}

/** A status change that tells the subscribers why (the dashboard's status form with a message). */
export interface StatusWithMessage {
  status: PostStatus;
  notify: boolean;
  message: string;
  authorName: string | null;
  teamMemberId: string;
}

/**
 * Changes a request's status and posts the message as an official reply, in one transaction, so the board
 * shows why. Each subscriber gets one email: with `notify` and an actual status change, the status email
 * carries the message and the reply sends nothing of its own; otherwise the reply emails them as any
 * official reply does (docs/dashboard.md, Request page).
 */
export function changeStatusWithMessage(
  db: Db,
  projectId: string,
  postId: string,
  change: StatusWithMessage,
): void {
  const body = checkBody(change.message);
  const authorName = change.authorName ?? "The team";
  inTransaction(db, () => {
    const before = requireUnmergedPostRow(db, projectId, postId);
    const statusEmailCarriesIt = change.notify && before.status !== change.status;
    updatePost(
      db,
      projectId,
      postId,
      { status: change.status, notify: change.notify },
      { statusEmail: { message: { authorName, body } } },
    );
    createComment(db, projectId, postId, {
      body,
      authorName: change.authorName,
      teamMemberId: change.teamMemberId,
      emailSubscribers: !statusEmailCarriesIt,
    });
  });
}

/** Edits or hides (isInternalNote) a comment; never sends email. */
export function updateComment(
  db: Db,
  projectId: string,
  postId: string,
  commentId: string,
  patch: CommentPatch,
): Comment {
  const body = patch.body === undefined ? undefined : checkBody(patch.body);
  return inTransaction(db, () => {
    requirePostRow(db, projectId, postId);
    const before = requireCommentRow(db, postId, commentId);
    const after: CommentRow = {
      ...before,
      body: body ?? before.body,
      is_internal: patch.isInternalNote === undefined ? before.is_internal : patch.isInternalNote ? 1 : 0,
    };
    const changes = [
      ...(after.body !== before.body ? ["body"] : []),
      ...(after.is_internal !== before.is_internal ? ["isInternalNote"] : []),
    ];
    const comment = store.toComment(after);
    if (changes.length === 0) return comment;
    store.updateCommentRow(db, after, Date.now());
    recordActivity(db, projectId, {
      action: "updated",
      entityType: "comment",
      entityId: commentId,
      metadata: { postId, changes },
    });
    appendEvent(db, projectId, "comment.updated", comment);
    return comment;
  });
}

export function deleteComment(db: Db, projectId: string, postId: string, commentId: string): void {
  inTransaction(db, () => {
    requirePostRow(db, projectId, postId);
    const row = requireCommentRow(db, postId, commentId);
    store.deleteCommentRow(db, commentId);
    recordActivity(db, projectId, {
      action: "deleted",
      entityType: "comment",
      entityId: commentId,
      metadata: { postId },
    });
    appendEvent(db, projectId, "comment.deleted", store.toComment(row));
  });
}

/** What someone on the public board writes: never an internal note, on a post the board lists. */
export interface PublicCommentInput {
  body: string;
  authorName?: string | undefined;
  anonymousId?: string | undefined;
}

/** A comment from the public board (public API, board pages, MCP public tools). */
export function createPublicComment(
  db: Db,
  projectId: string,
  postId: string,
  input: PublicCommentInput,
): Comment {
  return inTransaction(db, () => {
    requireListedPostRow(db, projectId, postId);
    return createComment(db, projectId, postId, {
      body: input.body,
      authorName: input.authorName ?? null,
      anonymousId: input.anonymousId ?? null,
      isInternalNote: false,
    });
  });
}
