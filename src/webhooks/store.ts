import type { Db } from "../db/connection";
import { iso, isoOrNull } from "../db/time";
import type { DeliveryAttempt, Webhook } from "./schema";

export interface WebhookRow {
  id: string;
  project_id: string;
  url: string;
  events: string;
  description: string | null;
  secret: string;
  /** The secret a rotation replaced: it signs too until previous_secret_expires_at (docs/webhooks.md). */
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  enabled: number;
  failing_since: number | null;
  /** When the latest failed attempt finished; with failing_since, tells a failing run from a silence. */
  last_failure_at: number | null;
  disabled_reason: string | null;
  created_at: number;
  updated_at: number;
}

const COLUMNS =
  "id, project_id, url, events, description, secret, previous_secret, previous_secret_expires_at, enabled, failing_since, last_failure_at, disabled_reason, created_at, updated_at";

export function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    description: row.description,
    enabled: row.enabled === 1,
    disabledReason: row.disabled_reason,
    previousSecretExpiresAt: isoOrNull(row.previous_secret_expires_at),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export function listWebhookRows(db: Db, projectId: string): WebhookRow[] {
  return db
    .query<WebhookRow, [string]>(
      `SELECT ${COLUMNS} FROM webhook_endpoints WHERE project_id = ? ORDER BY created_at, id`,
    )
    .all(projectId);
}

export function findWebhookRow(db: Db, projectId: string, webhookId: string): WebhookRow | null {
  return db
    .query<WebhookRow, [string, string]>(
      `SELECT ${COLUMNS} FROM webhook_endpoints WHERE project_id = ? AND id = ?`,
    )
    .get(projectId, webhookId);
}

export function findWebhookRowById(db: Db, webhookId: string): WebhookRow | null {
  return db
    .query<WebhookRow, [string]>(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = ?`)
    .get(webhookId);
}

export function insertWebhook(db: Db, row: WebhookRow): void {
  db.query(
    `INSERT INTO webhook_endpoints (${COLUMNS}) VALUES ($id, $project_id, $url, $events, $description, $secret,
       $previous_secret, $previous_secret_expires_at, $enabled, $failing_since, $last_failure_at, $disabled_reason,
       $created_at, $updated_at)`,
  ).run({ ...row });
}

export function updateWebhookRow(db: Db, row: WebhookRow): void {
  db.query(
    `UPDATE webhook_endpoints SET url = $url, events = $events, description = $description, enabled = $enabled,
       failing_since = $failing_since, last_failure_at = $last_failure_at, disabled_reason = $disabled_reason,
       updated_at = $updated_at
     WHERE id = $id`,
  ).run({
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    failing_since: row.failing_since,
    last_failure_at: row.last_failure_at,
    disabled_reason: row.disabled_reason,
    updated_at: row.updated_at,
  });
}

export function deleteWebhookRow(db: Db, projectId: string, webhookId: string): void {
  db.query("DELETE FROM webhook_endpoints WHERE project_id = ? AND id = ?").run(projectId, webhookId);
}

interface AttemptRow {
  delivery_id: string;
  event_id: string;
  event_type: string;
  state: "pending" | "delivered" | "failed";
  next_attempt_at: number;
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  started_at: number;
  finished_at: number;
  /** 1 when this is the delivery's latest attempt so far. */
  last_attempt: number;
}

/**
 * Attempts with their delivery, each with its own outcome: an attempt without an error was delivered; a
 * delivery's latest attempt that failed has the delivery's state (pending, with the retry's time, or failed
 * for good); an earlier one that failed is failed (a replay adds attempts after a success too).
 * docs/webhooks.md. `where` picks the deliveries: a constant condition with one placeholder, for `key`.
 */
function attemptsWhere(db: Db, where: string, key: string, limit: number): DeliveryAttempt[] {
  return db
    .query<AttemptRow, [string, number]>(
      `SELECT d.id AS delivery_id, d.event_id, d.event_type, d.state, d.next_attempt_at,
              a.attempt, a.status_code, a.duration_ms, a.error, a.started_at, a.finished_at,
              a.attempt = (SELECT MAX(x.attempt) FROM delivery_attempts x WHERE x.delivery_id = d.id) AS last_attempt
       FROM deliveries d JOIN delivery_attempts a ON a.delivery_id = d.id
       WHERE ${where}
       ORDER BY a.started_at DESC, a.attempt DESC
       LIMIT ?`,
    )
    .all(key, limit)
    .map((row) => ({
      webhookId: row.delivery_id,
      eventId: row.event_id,
      eventType: row.event_type,
      state:
        row.error === null
          ? "delivered"
          : row.last_attempt && row.state !== "delivered"
            ? row.state
            : "failed",
      attempt: row.attempt,
      statusCode: row.status_code,
      durationMs: row.duration_ms,
      error: row.error,
      attemptedAt: iso(row.started_at),
      finishedAt: iso(row.finished_at),
      nextAttemptAt: row.last_attempt && row.state === "pending" ? isoOrNull(row.next_attempt_at) : null,
    }));
}

/** The endpoint's latest attempts, newest first. */
export function recentAttempts(db: Db, webhookId: string, limit: number): DeliveryAttempt[] {
  return attemptsWhere(db, "d.endpoint_id = ?", webhookId, limit);
}

/** The latest attempt of one delivery, or null while it has had none. */
export function latestAttemptOf(db: Db, deliveryId: string): DeliveryAttempt | null {
  return attemptsWhere(db, "d.id = ?", deliveryId, 1)[0] ?? null;
}

/** Whether the delivery waits in the queue: false once settled, given up or deleted with its endpoint. */
export function isDeliveryPending(db: Db, deliveryId: string): boolean {
  return (
    db
      .query<{ one: number }, [string]>("SELECT 1 AS one FROM deliveries WHERE id = ? AND state = 'pending'")
      .get(deliveryId) !== null
  );
}

/** A new signing secret; the one it replaces keeps signing until `previousExpiresAt`. */
export function rotateSecret(
  db: Db,
  webhookId: string,
  secrets: { secret: string; previous: string; previousExpiresAt: number },
  now: number,
): void {
  db.query(
    `UPDATE webhook_endpoints SET secret = ?, previous_secret = ?, previous_secret_expires_at = ?, updated_at = ?
     WHERE id = ?`,
  ).run(secrets.secret, secrets.previous, secrets.previousExpiresAt, now, webhookId);
}

/**
 * Puts a finished delivery of this endpoint back in the queue, due now: the same delivery row, so the
 * receiver gets the same `webhook-id` (and can tell it is a replay). False when there is no such delivery
 * or it is still pending.
 */
export function requeueDelivery(db: Db, webhookId: string, deliveryId: string, now: number): boolean {
  return (
    db
      .query(
        `UPDATE deliveries SET state = 'pending', next_attempt_at = ?, updated_at = ?
          WHERE id = ? AND endpoint_id = ? AND state != 'pending'`,
      )
      .run(now, now, deliveryId, webhookId).changes === 1
  );
}
