import { recordActivity } from "../activity/service";
import { type Db, inTransaction } from "../db/connection";
import { findProjectById } from "../projects/service";
import { randomToken } from "../random";
import { confirmUserEmail } from "../users/service";
import { confirmationMessage } from "./message";
import { type MailBoard, mailBoardOf } from "./service";
import * as store from "./store";

/**
 * Double opt-in (docs/payments-and-email.md, "Confirming an email"): an email typed on a keyless surface
 * creates an unconfirmed board user, who gets no subscriber mail until they follow the link of the one
 * confirmation mail queued here.
 */

/** How long a confirmation link works. */
export const CONFIRMATION_TTL_MS = 7 * 24 * 3_600_000;

/** The board user a keyless surface just created for an email, and the request it was typed with. */
export interface UnconfirmedEmail {
  boardUserId: string;
  email: string;
  name: string | null;
  post: { id: string; title: string };
}

/**
 * Queues the confirmation mail for a board user created from a keyless surface, inside the caller's
 * transaction, through the outbox like every other mail (so it leaves after the commit, with or without
 * SMTP, with retries). Nothing when one is still waiting for that address: the board cannot be used to
 * send an address a stream of mail. Returns whether a mail was queued.
 */
export function requestEmailConfirmation(
  db: Db,
  projectId: string,
  unconfirmed: UnconfirmedEmail,
  now: number,
): boolean {
  return queueConfirmation(db, projectId, unconfirmed, false, now);
}

/** The one confirmation mail of an address, worded for a confirmed address (`addressConfirmed`) or not. */
function queueConfirmation(
  db: Db,
  projectId: string,
  recipient: UnconfirmedEmail,
  addressConfirmed: boolean,
  now: number,
): boolean {
  if (store.hasPendingConfirmation(db, recipient.boardUserId, recipient.email, now)) return false;
  // 192 random bits, stored as sent, like an unsubscribe token (mail_outbox.unsubscribe_token).
  const token = randomToken(24, "base64url");
  store.insertConfirmation(db, {
    token,
    projectId,
    boardUserId: recipient.boardUserId,
    email: recipient.email,
    postId: recipient.post.id,
    now,
    expiresAt: now + CONFIRMATION_TTL_MS,
  });
  const message = confirmationMessage({
    boardName: findProjectById(db, projectId)?.name ?? "feature",
    postTitle: recipient.post.title,
    recipientName: recipient.name,
    addressConfirmed,
  });
  store.insertMail(db, {
    id: Bun.randomUUIDv7(),
    project_id: projectId,
    notification_id: null,
    post_id: recipient.post.id,
    board_user_id: recipient.boardUserId,
    to_address: recipient.email,
    subject: message.subject,
    body_text: message.text,
    // The column is required and unique; a confirmation mail carries no unsubscribe link, so this token
    // is never sent anywhere.
    unsubscribe_token: randomToken(24, "base64url"),
    confirm_token: token,
    created_at: now,
  });
  return true;
}

/** How long a request asked for by a known address waits for a confirmation: as long as a link works. */
export const PENDING_SUBSCRIPTION_TTL_MS = CONFIRMATION_TTL_MS;

/**
 * A keyless request (public vote or submission, widget, public MCP) gave an email a board user of the
 * project already has. The request stays anonymous (an email is no proof of identity: it neither votes in
 * that user's name nor finds their vote), but its owner may want to hear about it: when they do not follow
 * the post yet, it is recorded as a pending subscription, which a confirmation link turns into a real one.
 * A confirmation mail is queued unless one is pending for the address (its link covers this post too), so
 * the address gets one mail per pending link whatever is typed on the board. Inside the caller's
 * transaction; the caller's answer must not depend on it (docs/public-api.md). Returns whether a mail was
 * queued.
 */
export function askToFollow(
  db: Db,
  projectId: string,
  typed: { email: string; post: { id: string; title: string } },
  now: number,
): boolean {
  store.deletePendingSubscriptionsBefore(db, now - PENDING_SUBSCRIPTION_TTL_MS);
  const owner = store.findEmailOwner(db, projectId, typed.email.trim(), typed.post.id);
  if (!owner) return false;
  const addressConfirmed = owner.confirmed === 1;
  if (owner.follows === 0) store.savePendingSubscription(db, owner.id, typed.post.id, now);
  // A confirmed address that already follows the post has nothing to confirm; an unconfirmed one whose
  // link expired unused gets a new one.
  else if (addressConfirmed) return false;
  const recipient = { boardUserId: owner.id, email: owner.email, name: owner.name, post: typed.post };
  return queueConfirmation(db, projectId, recipient, addressConfirmed, now);
}

export interface ConfirmationPage {
  /** The board the link is about, which the page leads back to when it is public. */
  board: MailBoard;
  /**
   * What the address gets mail about: on a link still to follow, what confirming brings (the link's
   * request first); once done, the link's request when the person follows it. Null names the board alone.
   */
  about: { title: string; others: number } | null;
  /** Nothing left to confirm: the address is confirmed and the link adds no request. */
  already: boolean;
}

function aboutOf(titles: string[]): ConfirmationPage["about"] {
  const [title] = titles;
  return title === undefined ? null : { title, others: titles.length - 1 };
}

/**
 * The page a target shows, or null for an unused link past its 7 days of an address still unconfirmed.
 * Only a link still to follow (unused, within its 7 days) confirms anything: a used one has done its work,
 * and every request asked for since it was used got a link of its own.
 */
function pageOf(db: Db, target: store.ConfirmationTarget, now: number): ConfirmationPage | null {
  const used = target.confirmed_at !== null;
  const addressConfirmed = target.user_confirmed === 1;
  const open = !used && target.expires_at > now;
  if (!open && !used && !addressConfirmed) return null;
  const titles = open
    ? store.titlesToConfirm(db, {
        boardUserId: target.board_user_id,
        linkPostId: target.post_id,
        since: now - PENDING_SUBSCRIPTION_TTL_MS,
        withFollowed: !addressConfirmed,
      })
    : [];
  if (open && (!addressConfirmed || titles.length > 0)) {
    return { board: mailBoardOf(target), about: aboutOf(titles), already: false };
  }
  const followed = target.post_followed === 1 ? target.post_title : null;
  return {
    board: mailBoardOf(target),
    about: aboutOf(followed === null ? [] : [followed]),
    already: true,
  };
}

/**
 * What a confirmation link is about, or null for an unknown token, an unused one past its 7 days, or one
 * whose board user no longer has the address. A used link keeps saying "already confirmed".
 */
export function describeConfirmation(db: Db, token: string): ConfirmationPage | null {
  const target = store.findConfirmation(db, token);
  return target ? pageOf(db, target, Date.now()) : null;
}

/**
 * Confirms the link's address: from now on it gets subscriber mail as any other (nothing that was left out
 * before is sent afterwards), and every request its board user asked to hear about in the last 7 days
 * (askToFollow) becomes a subscription, even one they had unsubscribed from: they asked again and
 * confirmed. Idempotent; null as for describeConfirmation.
 */
export function confirmEmail(db: Db, token: string): ConfirmationPage | null {
  return inTransaction(db, () => {
    const now = Date.now();
    const target = store.findConfirmation(db, token);
    const page = target ? pageOf(db, target, now) : null;
    if (!target || !page) return null;
    if (target.confirmed_at === null) store.markConfirmationUsed(db, token, now);
    if (page.already) return page;
    const userId = target.board_user_id;
    for (const postId of store.pendingPostIdsOf(db, userId, now - PENDING_SUBSCRIPTION_TTL_MS)) {
      store.subscribe(db, postId, userId, now);
      store.deleteUnsubscribe(db, postId, userId);
    }
    store.deletePendingSubscriptionsOf(db, userId);
    store.deletePendingSubscriptionsBefore(db, now - PENDING_SUBSCRIPTION_TTL_MS);
    if (!confirmUserEmail(db, target.project_id, userId, target.email)) return page;
    recordActivity(db, target.project_id, {
      action: "email_confirmed",
      entityType: "user",
      entityId: userId,
      // Done by whoever holds the mailbox, from a link: the board's visitor, named as such in the log.
      metadata: { source: "public", email: target.email },
    });
    return page;
  });
}
