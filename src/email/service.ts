import { randomToken } from "../random";
import { recordActivity } from "../activity/service";
import { type Db, inTransaction } from "../db/connection";
import { findProjectById } from "../projects/service";
import { statusChangeMessage, teamReplyMessage } from "./message";
import * as store from "./store";

/** What a status change tells the mail room. */
export interface StatusChange {
  post: { id: string; title: string };
  previousStatus: string;
  status: string;
  /** The release that shipped the post, when a publication moved it to ARCHIVED (docs/payments-and-email.md). */
  shippedIn?: { title: string; label: string | null };
  /** A team member's words sent with the change, in the same email (docs/dashboard.md, Request page). */
  message?: { authorName: string; body: string };
}

/**
 * Queues one email per subscriber of the post for a status change made with `notify: true`. Call it
 * inside the change's transaction: the mail exists exactly when the change does, and it leaves right after
 * the commit (or on the sender's next round, after a restart).
 */
export function queueStatusEmails(db: Db, projectId: string, change: StatusChange, now: number): number {
  const notificationId = Bun.randomUUIDv7();
  const subscribers = store.subscribersOf(db, change.post.id);
  store.insertNotification(db, {
    id: notificationId,
    projectId,
    postId: change.post.id,
    previousStatus: change.previousStatus,
    status: change.status,
    now,
    // Nobody to write to: the notification is done at once.
    sentAt: subscribers.length === 0 ? now : null,
  });
  const boardName = findProjectById(db, projectId)?.name ?? "feature";
  for (const subscriber of subscribers) {
    const message = statusChangeMessage({
      boardName,
      postTitle: change.post.title,
      previousStatus: change.previousStatus,
      status: change.status,
      recipientName: subscriber.name,
      shippedIn: change.shippedIn,
      message: change.message,
    });
    store.insertMail(db, {
      id: Bun.randomUUIDv7(),
      project_id: projectId,
      notification_id: notificationId,
      post_id: change.post.id,
      board_user_id: subscriber.board_user_id,
      to_address: subscriber.email,
      subject: message.subject,
      body_text: message.text,
      unsubscribe_token: randomToken(24, "base64url"),
      confirm_token: null,
      created_at: now,
    });
  }
  // The running sender wakes after the commit (src/email/sender.ts), so the mail leaves at once.
  return subscribers.length;
}

/** What an official reply from the dashboard tells the mail room. */
export interface TeamReply {
  post: { id: string; title: string };
  authorName: string;
  body: string;
}

/**
 * Queues one email per subscriber of the post for an official team reply (never for an internal note).
 * Call it inside the reply's transaction, as for status changes.
 */
export function queueReplyEmails(db: Db, projectId: string, reply: TeamReply, now: number): number {
  const subscribers = store.subscribersOf(db, reply.post.id);
  const boardName = findProjectById(db, projectId)?.name ?? "feature";
  for (const subscriber of subscribers) {
    const message = teamReplyMessage({
      boardName,
      postTitle: reply.post.title,
      authorName: reply.authorName,
      body: reply.body,
      recipientName: subscriber.name,
    });
    store.insertMail(db, {
      id: Bun.randomUUIDv7(),
      project_id: projectId,
      notification_id: null,
      post_id: reply.post.id,
      board_user_id: subscriber.board_user_id,
      to_address: subscriber.email,
      subject: message.subject,
      body_text: message.text,
      unsubscribe_token: randomToken(24, "base64url"),
      confirm_token: null,
      created_at: now,
    });
  }
  return subscribers.length;
}

/** The board a mail's page leads back to: its name, and its slug when the board is public (else null). */
export interface MailBoard {
  name: string;
  publicSlug: string | null;
}

/** The board of a link's project, as the pages after a mail's links name it and lead back to it. */
export function mailBoardOf(target: {
  board_name: string;
  board_slug: string;
  board_public: number;
}): MailBoard {
  return { name: target.board_name, publicSlug: target.board_public === 1 ? target.board_slug : null };
}

export interface UnsubscribePage {
  postTitle: string;
  /** Already unsubscribed before this request. */
  already: boolean;
  board: MailBoard;
}

/**
 * Subscribes a board user to a post's mail (authors and voters are), inside the caller's transaction. The
 * subscriber list is the mail's, so it is kept here, below the rooms that add to it (posts, votes) and the
 * confirmation that does (confirmation.ts).
 */
export function subscribeToPost(db: Db, postId: string, boardUserId: string, now: number): void {
  store.subscribe(db, postId, boardUserId, now);
}

/**
 * Call inside a merge's transaction, before the source's subscribers move to the target: a person who
 * unsubscribed from the duplicate asked for no more mail about that request, which the target now is, so
 * the merge does not subscribe them back; one who followed the target too keeps its mail
 * (docs/payments-and-email.md, "Unsubscribing").
 */
export function keepUnsubscribesThroughMerge(
  db: Db,
  sourceId: string,
  targetId: string,
  now: number,
): number {
  return store.carryUnsubscribes(db, sourceId, targetId, now);
}

/** What an unsubscribe link is about, or null for an unknown token (or a post or user since deleted). */
export function describeUnsubscribe(db: Db, token: string): UnsubscribePage | null {
  const target = store.findUnsubscribeTarget(db, token);
  return target
    ? { postTitle: target.post_title, already: target.unsubscribed === 1, board: mailBoardOf(target) }
    : null;
}

/** Stops emails about the link's post to the link's subscriber; idempotent. */
export function unsubscribe(db: Db, token: string): UnsubscribePage | null {
  return inTransaction(db, () => {
    const target = store.findUnsubscribeTarget(db, token);
    if (!target) return null;
    const now = Date.now();
    const added = store.insertUnsubscribe(db, target.post_id, target.board_user_id, now);
    // Mail about the post already queued (waiting for a retry while SMTP was down) goes no further either.
    store.cancelQueuedMail(db, target.post_id, target.board_user_id, now);
    if (added) {
      recordActivity(db, target.project_id, {
        action: "unsubscribed",
        entityType: "post",
        entityId: target.post_id,
        metadata: { boardUserId: target.board_user_id },
      });
    }
    return { postTitle: target.post_title, already: !added, board: mailBoardOf(target) };
  });
}
