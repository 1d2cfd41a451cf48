import type { Db } from "../db/connection";

export interface Subscriber {
  board_user_id: string;
  email: string;
  name: string | null;
}

/**
 * Who is emailed about a post: its author and voters (post_subscribers) and the board users who wrote a
 * public comment on it, each with an email, once per address, less those who unsubscribed from it and
 * those whose email, typed on a keyless surface, is not confirmed yet (docs/payments-and-email.md).
 */
export function subscribersOf(db: Db, postId: string): Subscriber[] {
  return db
    .query<Subscriber, { $postId: string }>(
      `WITH candidates AS (
         SELECT board_user_id FROM post_subscribers WHERE post_id = $postId
         UNION
         SELECT board_user_id FROM comments
         WHERE post_id = $postId AND board_user_id IS NOT NULL AND is_internal = 0
       )
       SELECT min(u.id) AS board_user_id, u.email AS email, u.name AS name
       FROM candidates c JOIN board_users u ON u.id = c.board_user_id
       WHERE u.email IS NOT NULL AND u.email_confirmed = 1
         AND NOT EXISTS (SELECT 1 FROM mail_unsubscribes m WHERE m.post_id = $postId AND m.board_user_id = u.id)
       GROUP BY lower(u.email)
       ORDER BY u.email`,
    )
    .all({ $postId: postId });
}

export function insertNotification(
  db: Db,
  notification: {
    id: string;
    projectId: string;
    postId: string;
    previousStatus: string;
    status: string;
    now: number;
    sentAt: number | null;
  },
): void {
  db.query(
    `INSERT INTO status_notifications (id, project_id, post_id, previous_status, status, created_at, sent_at)
     VALUES ($id, $projectId, $postId, $previousStatus, $status, $now, $sentAt)`,
  ).run({
    $sentAt: notification.sentAt,
    $id: notification.id,
    $projectId: notification.projectId,
    $postId: notification.postId,
    $previousStatus: notification.previousStatus,
    $status: notification.status,
    $now: notification.now,
  });
}

export interface MailRow {
  id: string;
  project_id: string;
  notification_id: string | null;
  post_id: string | null;
  board_user_id: string | null;
  to_address: string;
  subject: string;
  body_text: string;
  unsubscribe_token: string;
  /** Set on a confirmation mail (src/email/confirmation.ts): the token its link carries. */
  confirm_token: string | null;
  created_at: number;
  attempts: number;
}

export function insertMail(db: Db, mail: Omit<MailRow, "attempts">): void {
  db.query(
    `INSERT INTO mail_outbox (id, project_id, notification_id, post_id, board_user_id, to_address, subject,
       body_text, unsubscribe_token, confirm_token, created_at, next_attempt_at)
     VALUES ($id, $project_id, $notification_id, $post_id, $board_user_id, $to_address, $subject,
       $body_text, $unsubscribe_token, $confirm_token, $created_at, $created_at)`,
  ).run({
    $id: mail.id,
    $project_id: mail.project_id,
    $notification_id: mail.notification_id,
    $post_id: mail.post_id,
    $board_user_id: mail.board_user_id,
    $to_address: mail.to_address,
    $subject: mail.subject,
    $body_text: mail.body_text,
    $unsubscribe_token: mail.unsubscribe_token,
    $confirm_token: mail.confirm_token,
    $created_at: mail.created_at,
  });
}

/** Mail due now, oldest first. */
/** Whether any mail is due now: one probe of the pending index, cheap enough to run after each commit. */
export function hasDueMail(db: Db, now: number): boolean {
  return (
    db
      .query<{ one: number }, [number]>(
        "SELECT 1 AS one FROM mail_outbox WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= ? LIMIT 1",
      )
      .get(now) !== null
  );
}

export function dueMail(db: Db, now: number, limit: number): MailRow[] {
  return db
    .query<MailRow, [number, number]>(
      `SELECT id, project_id, notification_id, post_id, board_user_id, to_address, subject, body_text,
         unsubscribe_token, confirm_token, created_at, attempts
       FROM mail_outbox WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= ?
       ORDER BY next_attempt_at, id LIMIT ?`,
    )
    .all(now, limit);
}

export function markSent(db: Db, mail: MailRow, transport: "smtp" | "outbox", now: number): void {
  db.query("UPDATE mail_outbox SET sent_at = ?, transport = ?, attempts = attempts + 1 WHERE id = ?").run(
    now,
    transport,
    mail.id,
  );
  if (mail.notification_id === null) return;
  // The notification is done once none of its mail waits any more.
  db.query(
    `UPDATE status_notifications SET sent_at = ? WHERE id = ? AND sent_at IS NULL AND NOT EXISTS (
       SELECT 1 FROM mail_outbox WHERE notification_id = ? AND sent_at IS NULL AND failed_at IS NULL)`,
  ).run(now, mail.notification_id, mail.notification_id);
}

export function markAttemptFailed(
  db: Db,
  mailId: string,
  error: string,
  nextAttemptAt: number | null,
  now: number,
): void {
  db.query(
    `UPDATE mail_outbox SET attempts = attempts + 1, last_error = ?,
       next_attempt_at = coalesce(?, next_attempt_at), failed_at = CASE WHEN ? IS NULL THEN ? END
     WHERE id = ?`,
  ).run(error, nextAttemptAt, nextAttemptAt, now, mailId);
}

export interface UnsubscribeTarget {
  project_id: string;
  post_id: string;
  board_user_id: string;
  post_title: string;
  unsubscribed: number;
  board_name: string;
  board_slug: string;
  board_public: number;
}

/** What an unsubscribe token stands for, or null when the token, the post or the user is gone. */
export function findUnsubscribeTarget(db: Db, token: string): UnsubscribeTarget | null {
  return db
    .query<UnsubscribeTarget, [string]>(
      `SELECT m.project_id, m.post_id, m.board_user_id, p.title AS post_title,
         EXISTS (SELECT 1 FROM mail_unsubscribes u WHERE u.post_id = m.post_id AND u.board_user_id = m.board_user_id)
           AS unsubscribed,
         pr.name AS board_name, pr.slug AS board_slug, pr.is_public AS board_public
       FROM mail_outbox m JOIN posts p ON p.id = m.post_id JOIN board_users b ON b.id = m.board_user_id
         JOIN projects pr ON pr.id = m.project_id
       WHERE m.unsubscribe_token = ?`,
    )
    .get(token);
}

/** Ends the queued mail to one subscriber about one post, as failed with the reason "unsubscribed". */
export function cancelQueuedMail(db: Db, postId: string, boardUserId: string, now: number): void {
  db.query(
    `UPDATE mail_outbox SET failed_at = ?, last_error = 'unsubscribed'
       WHERE post_id = ? AND board_user_id = ? AND sent_at IS NULL AND failed_at IS NULL`,
  ).run(now, postId, boardUserId);
}

export function insertUnsubscribe(db: Db, postId: string, boardUserId: string, now: number): boolean {
  return (
    db
      .query("INSERT OR IGNORE INTO mail_unsubscribes (post_id, board_user_id, created_at) VALUES (?, ?, ?)")
      .run(postId, boardUserId, now).changes > 0
  );
}

/** Subscribes a board user to a post's mail (post_subscribers); nothing when they are already. */
export function subscribe(db: Db, postId: string, boardUserId: string, now: number): void {
  db.query(
    "INSERT OR IGNORE INTO post_subscribers (post_id, board_user_id, created_at) VALUES (?, ?, ?)",
  ).run(postId, boardUserId, now);
}

/**
 * A merge's unsubscribes: who unsubscribed from the source, and was not already a subscriber of the target
 * (its author or a voter, or a public commenter on it), is unsubscribed from the target too; how many.
 */
export function carryUnsubscribes(db: Db, sourceId: string, targetId: string, now: number): number {
  return db
    .query(
      `INSERT OR IGNORE INTO mail_unsubscribes (post_id, board_user_id, created_at)
       SELECT $target, m.board_user_id, $now FROM mail_unsubscribes m
       WHERE m.post_id = $source
         AND m.board_user_id NOT IN (SELECT board_user_id FROM post_subscribers WHERE post_id = $target)
         AND m.board_user_id NOT IN (
           SELECT board_user_id FROM comments
           WHERE post_id = $target AND board_user_id IS NOT NULL AND is_internal = 0
         )`,
    )
    .run({ source: sourceId, target: targetId, now }).changes;
}

// ---- confirming an email typed on a keyless surface (src/email/confirmation.ts) ----

export function insertConfirmation(
  db: Db,
  confirmation: {
    token: string;
    projectId: string;
    boardUserId: string;
    email: string;
    postId: string;
    now: number;
    expiresAt: number;
  },
): void {
  db.query(
    `INSERT INTO email_confirmations (token, project_id, board_user_id, email, post_id, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    confirmation.token,
    confirmation.projectId,
    confirmation.boardUserId,
    confirmation.email,
    confirmation.postId,
    confirmation.now,
    confirmation.expiresAt,
  );
}

/** Whether a confirmation of this address for this user is still waiting (sent, not used, not expired). */
export function hasPendingConfirmation(db: Db, boardUserId: string, email: string, now: number): boolean {
  return (
    db
      .query<{ one: number }, [string, number, string]>(
        `SELECT 1 AS one FROM email_confirmations
         WHERE board_user_id = ? AND expires_at > ? AND confirmed_at IS NULL AND email = ? COLLATE NOCASE
         LIMIT 1`,
      )
      .get(boardUserId, now, email) !== null
  );
}

export interface ConfirmationTarget {
  project_id: string;
  board_user_id: string;
  email: string;
  board_name: string;
  board_slug: string;
  board_public: number;
  /** Null once the request is deleted. */
  post_id: string | null;
  /** Null once the request is deleted. */
  post_title: string | null;
  /** The user hears about the link's request (once the address is confirmed): see FOLLOWS. */
  post_followed: number;
  expires_at: number;
  confirmed_at: number | null;
  /** The board user's email is confirmed already (by this link, another way, or the team setting it). */
  user_confirmed: number;
}

/** What a confirmation token stands for, or null when it is unknown or its user no longer has the address. */
export function findConfirmation(db: Db, token: string): ConfirmationTarget | null {
  return db
    .query<ConfirmationTarget, [string]>(
      `SELECT c.project_id, c.board_user_id, c.email, pr.name AS board_name, pr.slug AS board_slug,
         pr.is_public AS board_public, p.id AS post_id,
         p.title AS post_title, c.expires_at, c.confirmed_at, u.email_confirmed AS user_confirmed,
         ${followsPost("p.id", "c.board_user_id")} AS post_followed
       FROM email_confirmations c
         JOIN board_users u ON u.id = c.board_user_id AND u.email = c.email COLLATE NOCASE
         JOIN projects pr ON pr.id = c.project_id
         LEFT JOIN posts p ON p.id = c.post_id
       WHERE c.token = ?`,
    )
    .get(token);
}

export function markConfirmationUsed(db: Db, token: string, now: number): void {
  db.query("UPDATE email_confirmations SET confirmed_at = ? WHERE token = ? AND confirmed_at IS NULL").run(
    now,
    token,
  );
}

// ---- pending subscriptions: a known address asking to hear about a request (src/email/confirmation.ts) ----

/**
 * Whether a board user hears about a post, confirmation aside: its author or a voter (post_subscribers) or a
 * public commenter on it, and not unsubscribed from it; the rule of subscribersOf, for one user.
 */
function followsPost(postId: string, boardUserId: string): string {
  return `(
    (EXISTS (SELECT 1 FROM post_subscribers s WHERE s.post_id = ${postId} AND s.board_user_id = ${boardUserId})
      OR EXISTS (SELECT 1 FROM comments k
                 WHERE k.post_id = ${postId} AND k.board_user_id = ${boardUserId} AND k.is_internal = 0))
    AND NOT EXISTS (SELECT 1 FROM mail_unsubscribes m WHERE m.post_id = ${postId} AND m.board_user_id = ${boardUserId}))`;
}

export interface EmailOwner {
  id: string;
  email: string;
  name: string | null;
  /** 1 when the address is confirmed. */
  confirmed: number;
  /** 1 when the user already hears about the post (see followsPost). */
  follows: number;
}

/** The project's board user with that address (in any case), and whether they already follow the post. */
export function findEmailOwner(db: Db, projectId: string, email: string, postId: string): EmailOwner | null {
  return db
    .query<EmailOwner, { $projectId: string; $email: string; $postId: string }>(
      `SELECT u.id, u.email, u.name, u.email_confirmed AS confirmed, ${followsPost("$postId", "u.id")} AS follows
       FROM board_users u WHERE u.project_id = $projectId AND u.email = $email COLLATE NOCASE`,
    )
    .get({ $projectId: projectId, $email: email, $postId: postId });
}

/** Records (or renews) that this user asked to hear about the post. */
export function savePendingSubscription(db: Db, boardUserId: string, postId: string, now: number): void {
  db.query(
    `INSERT INTO pending_subscriptions (board_user_id, post_id, created_at) VALUES (?, ?, ?)
     ON CONFLICT (board_user_id, post_id) DO UPDATE SET created_at = excluded.created_at`,
  ).run(boardUserId, postId, now);
}

/** Forgets pending subscriptions made before `before` (one range of the created_at index). */
export function deletePendingSubscriptionsBefore(db: Db, before: number): void {
  db.query("DELETE FROM pending_subscriptions WHERE created_at < ?").run(before);
}

/**
 * The posts this user asked to hear about since `since`, oldest first; one merged since stands for the
 * post it was merged into (a merge moves subscribers there, and points every duplicate at the last target).
 */
export function pendingPostIdsOf(db: Db, boardUserId: string, since: number): string[] {
  return db
    .query<{ post_id: string }, [string, number]>(
      `SELECT DISTINCT coalesce(p.merged_into_id, p.id) AS post_id
       FROM pending_subscriptions w JOIN posts p ON p.id = w.post_id
       WHERE w.board_user_id = ? AND w.created_at >= ?
       ORDER BY w.created_at, p.id`,
    )
    .all(boardUserId, since)
    .map((row) => row.post_id);
}

export function deletePendingSubscriptionsOf(db: Db, boardUserId: string): void {
  db.query("DELETE FROM pending_subscriptions WHERE board_user_id = ?").run(boardUserId);
}

/**
 * Titles of the requests a confirmation brings mail about: the user's pending subscriptions since `since`
 * and, when the address itself waits for confirmation (`withFollowed`), every request the user already
 * follows; the link's own request first, then oldest first.
 */
export function titlesToConfirm(
  db: Db,
  query: { boardUserId: string; linkPostId: string | null; since: number; withFollowed: boolean },
): string[] {
  return db
    .query<{ title: string }, { $user: string; $link: string | null; $since: number; $followed: number }>(
      `WITH wanted (post_id, at) AS (
         SELECT coalesce(p.merged_into_id, p.id), w.created_at
         FROM pending_subscriptions w JOIN posts p ON p.id = w.post_id
         WHERE w.board_user_id = $user AND w.created_at >= $since
         UNION ALL
         SELECT p.id, p.created_at FROM posts p
         WHERE $followed = 1 AND p.id IN (
           SELECT post_id FROM post_subscribers WHERE board_user_id = $user
           UNION
           SELECT post_id FROM comments WHERE board_user_id = $user AND is_internal = 0
         ) AND ${followsPost("p.id", "$user")}
       )
       SELECT p.title FROM wanted w JOIN posts p ON p.id = w.post_id
       GROUP BY p.id
       ORDER BY p.id IS $link DESC, min(w.at), p.id`,
    )
    .all({
      $user: query.boardUserId,
      $link: query.linkPostId,
      $since: query.since,
      $followed: query.withFollowed ? 1 : 0,
    })
    .map((row) => row.title);
}

/** They asked again and confirmed: mail about the post reaches them again. */
export function deleteUnsubscribe(db: Db, postId: string, boardUserId: string): void {
  db.query("DELETE FROM mail_unsubscribes WHERE post_id = ? AND board_user_id = ?").run(postId, boardUserId);
}
