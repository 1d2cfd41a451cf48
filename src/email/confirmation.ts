import { recordActivity } from "../activity/service";
import { type Db, inTransaction } from "../db/connection";
import { findProjectById } from "../projects/service";
import { randomToken } from "../random";
import { confirmUserEmail } from "../users/service";
import { confirmationMessage } from "./message";
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
  if (store.hasPendingConfirmation(db, unconfirmed.boardUserId, unconfirmed.email, now)) return false;
  // 192 random bits, stored as sent, like an unsubscribe token (mail_outbox.unsubscribe_token).
  const token = randomToken(24, "base64url");
  store.insertConfirmation(db, {
    token,
    projectId,
    boardUserId: unconfirmed.boardUserId,
    email: unconfirmed.email,
    postId: unconfirmed.post.id,
    now,
    expiresAt: now + CONFIRMATION_TTL_MS,
  });
  const message = confirmationMessage({
    boardName: findProjectById(db, projectId)?.name ?? "feature",
    postTitle: unconfirmed.post.title,
    recipientName: unconfirmed.name,
  });
  store.insertMail(db, {
    id: Bun.randomUUIDv7(),
    project_id: projectId,
    notification_id: null,
    post_id: unconfirmed.post.id,
    board_user_id: unconfirmed.boardUserId,
    to_address: unconfirmed.email,
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

export interface ConfirmationPage {
  boardName: string;
  /** Null when the request was deleted since. */
  postTitle: string | null;
  /** Confirmed already before this request. */
  already: boolean;
}

/** The page a target shows, or null for an unused link past its 7 days. */
function pageOf(target: store.ConfirmationTarget, now: number): ConfirmationPage | null {
  const already = target.confirmed_at !== null || target.user_confirmed === 1;
  if (!already && target.expires_at <= now) return null;
  return { boardName: target.board_name, postTitle: target.post_title, already };
}

/**
 * What a confirmation link is about, or null for an unknown token, an unused one past its 7 days, or one
 * whose board user no longer has the address. A used link keeps saying "already confirmed".
 */
export function describeConfirmation(db: Db, token: string): ConfirmationPage | null {
  const target = store.findConfirmation(db, token);
  return target ? pageOf(target, Date.now()) : null;
}

/**
 * Confirms the link's address: from now on it gets subscriber mail as any other (nothing that was left out
 * before is sent afterwards). Idempotent; null as for describeConfirmation.
 */
export function confirmEmail(db: Db, token: string): ConfirmationPage | null {
  return inTransaction(db, () => {
    const now = Date.now();
    const target = store.findConfirmation(db, token);
    const page = target ? pageOf(target, now) : null;
    if (!target || !page) return null;
    if (target.confirmed_at === null) store.markConfirmationUsed(db, token, now);
    if (page.already) return page;
    confirmUserEmail(db, target.project_id, target.board_user_id, target.email);
    recordActivity(db, target.project_id, {
      action: "email_confirmed",
      entityType: "user",
      entityId: target.board_user_id,
      // Done by whoever holds the mailbox, from a link: the board's visitor, named as such in the log.
      metadata: { source: "public", email: target.email },
    });
    return page;
  });
}
