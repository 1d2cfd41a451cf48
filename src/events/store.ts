import type { Db } from "../db/connection";
import type { IntegrationKind } from "../integrations/schema";

/** The delivery rows of the outbox: one per event and target, and every attempt made for it. */

export interface OutboxEvent {
  seq: number;
  id: string;
  project_id: string;
  type: string;
  payload: string;
}

export function undispatchedEvents(db: Db, limit: number): OutboxEvent[] {
  return db
    .query<OutboxEvent, [number]>(
      "SELECT seq, id, project_id, type, payload FROM events WHERE dispatched_at IS NULL ORDER BY seq LIMIT ?",
    )
    .all(limit);
}

/** Marks every event up to `seq` dispatched: the batch just fanned out, read in `seq` order. */
export function markDispatchedThrough(db: Db, seq: number, now: number): void {
  db.query("UPDATE events SET dispatched_at = ? WHERE dispatched_at IS NULL AND seq <= ?").run(now, seq);
}

export type DeliveryTarget = { endpointId: string } | { integration: IntegrationKind };

export function insertDelivery(
  db: Db,
  id: string,
  event: Pick<OutboxEvent, "id" | "project_id" | "type">,
  target: DeliveryTarget,
  now: number,
): void {
  db.query(
    `INSERT INTO deliveries (id, project_id, event_id, event_type, endpoint_id, integration, next_attempt_at,
       created_at, updated_at)
     VALUES ($id, $projectId, $eventId, $eventType, $endpointId, $integration, $now, $now, $now)
     ON CONFLICT DO NOTHING`,
  ).run({
    id,
    projectId: event.project_id,
    eventId: event.id,
    eventType: event.type,
    endpointId: "endpointId" in target ? target.endpointId : null,
    integration: "integration" in target ? target.integration : null,
    now,
  });
}

export interface DueDelivery {
  id: string;
  project_id: string;
  event_id: string;
  event_type: string;
  endpoint_id: string | null;
  integration: IntegrationKind | null;
  attempts: number;
  payload: string;
  /** Who receives it: `endpoint:<id>`, or `integration:<project>:<kind>` (one lane per project and kind). */
  target: string;
}

const TARGET_OF_DELIVERY = `CASE WHEN d.endpoint_id IS NOT NULL THEN 'endpoint:' || d.endpoint_id
  ELSE 'integration:' || d.project_id || ':' || d.integration END`;

/**
 * Pending deliveries due by `now`, oldest first, leaving out the given deliveries (in flight, set aside) and
 * every delivery of the given targets (as busy as they may be), so that one target's backlog cannot fill
 * the page and hide the others' deliveries.
 */
export function dueDeliveries(
  db: Db,
  now: number,
  limit: number,
  skip: { deliveryIds: readonly string[]; targets: readonly string[] },
): DueDelivery[] {
  return db
    .query<DueDelivery, [number, string, string, number]>(
      `SELECT d.id, d.project_id, d.event_id, d.event_type, d.endpoint_id, d.integration, d.attempts, e.payload,
              ${TARGET_OF_DELIVERY} AS target
       FROM deliveries d JOIN events e ON e.id = d.event_id
       WHERE d.state = 'pending' AND d.next_attempt_at <= ?
         AND d.id NOT IN (SELECT value FROM json_each(?))
         AND ${TARGET_OF_DELIVERY} NOT IN (SELECT value FROM json_each(?))
       ORDER BY d.next_attempt_at, d.id
       LIMIT ?`,
    )
    .all(now, JSON.stringify(skip.deliveryIds), JSON.stringify(skip.targets), limit);
}

export interface AttemptRecord {
  attempt: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  startedAt: number;
  finishedAt: number;
}

export function insertAttempt(db: Db, deliveryId: string, record: AttemptRecord): void {
  db.query(
    `INSERT INTO delivery_attempts (delivery_id, attempt, status_code, duration_ms, error, started_at, finished_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    deliveryId,
    record.attempt,
    record.statusCode,
    record.durationMs,
    record.error,
    record.startedAt,
    record.finishedAt,
  );
}

export function settleDelivery(
  db: Db,
  deliveryId: string,
  state: "pending" | "delivered" | "failed",
  attempts: number,
  nextAttemptAt: number,
  now: number,
): void {
  db.query(
    "UPDATE deliveries SET state = ?, attempts = ?, next_attempt_at = ?, updated_at = ? WHERE id = ?",
  ).run(state, attempts, nextAttemptAt, now, deliveryId);
}

/** Pending deliveries of a disabled endpoint are given up, so re-enabling it does not replay days of events. */
export function failPendingOfEndpoint(db: Db, endpointId: string, now: number): void {
  db.query(
    "UPDATE deliveries SET state = 'failed', updated_at = ? WHERE endpoint_id = ? AND state = 'pending'",
  ).run(now, endpointId);
}

export function deliveryExists(db: Db, deliveryId: string): boolean {
  return (
    db.query<{ one: number }, [string]>("SELECT 1 AS one FROM deliveries WHERE id = ?").get(deliveryId) !==
    null
  );
}

/** An event; one stored with `dispatchedAt` is never fanned out (a test event carries its one delivery). */
export function insertEvent(
  db: Db,
  event: { id: string; projectId: string; type: string; payload: string; createdAt: number },
  dispatchedAt: number | null = null,
): void {
  db.query(
    `INSERT INTO events (id, project_id, type, payload, created_at, dispatched_at)
     VALUES ($id, $projectId, $type, $payload, $createdAt, $dispatchedAt)`,
  ).run({ ...event, dispatchedAt });
}
