import { keepActingMember, recordActivity } from "../activity/service";
import type { Config } from "../config";
import { type Db, inTransaction, onCommit } from "../db/connection";
import { EVENT_TYPES } from "../events/catalogue";
import { appendTestEvent } from "../events/outbox";
import { notFound, validationError } from "../http/errors";
import { resolveTarget, UnsafeTargetError } from "../http/outbound";
import { nextTurn } from "../turns";
import type {
  CreatedWebhook,
  DeliveryAttempt,
  Webhook,
  WebhookCreate,
  WebhookUpdate,
  WebhookWithDeliveries,
} from "./schema";
import { generateSecret, newMessageId } from "./signing";
import * as store from "./store";

/** The delivery worker reads and settles endpoints through these. */
export { findWebhookRowById, listWebhookRows, updateWebhookRow, type WebhookRow } from "./store";

export type TargetPolicy = Pick<Config, "allowPrivateTargets">;

const RECENT_ATTEMPTS = 50;

/**
 * Refuses a URL featureboard must not call: not https, or resolving to a loopback, private, link-local or
 * metadata address (docs/webhooks.md). Checked again before every attempt, since DNS answers change.
 */
export async function requireSafeUrl(field: string, url: string, policy: TargetPolicy): Promise<string> {
  try {
    await resolveTarget(url, policy.allowPrivateTargets);
  } catch (error) {
    if (error instanceof UnsafeTargetError) throw validationError(field, error.message);
    throw error;
  }
  return url;
}

function cleanEvents(events: readonly string[]): string[] {
  const known = new Set<string>([...EVENT_TYPES, "*"]);
  const unknown = events.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw validationError(
      "events",
      `unknown event type ${unknown.map((n) => `'${n}'`).join(", ")}; use * or one of ${EVENT_TYPES.join(", ")}`,
    );
  }
  return [...new Set(events)];
}

function requireRow(db: Db, projectId: string, webhookId: string): store.WebhookRow {
  const row = store.findWebhookRow(db, projectId, webhookId);
  if (!row) throw notFound("WEBHOOK_NOT_FOUND");
  return row;
}

export function listWebhooks(db: Db, projectId: string): Webhook[] {
  return store.listWebhookRows(db, projectId).map(store.toWebhook);
}

export function getWebhook(db: Db, projectId: string, webhookId: string): WebhookWithDeliveries {
  const row = requireRow(db, projectId, webhookId);
  return { ...store.toWebhook(row), recentDeliveries: store.recentAttempts(db, row.id, RECENT_ATTEMPTS) };
}

/** Creates an endpoint; the only answer that carries its signing secret in full. */
export async function createWebhook(
  db: Db,
  projectId: string,
  input: WebhookCreate,
  policy: TargetPolicy,
): Promise<CreatedWebhook> {
  const asActingMember = keepActingMember(db);
  const events = cleanEvents(input.events);
  const url = await requireSafeUrl("url", input.url.trim(), policy);
  return asActingMember(() =>
    inTransaction(db, () => {
      const now = Date.now();
      const row: store.WebhookRow = {
        id: Bun.randomUUIDv7(),
        project_id: projectId,
        url,
        events: JSON.stringify(events),
        description: input.description ?? null,
        secret: generateSecret(),
        previous_secret: null,
        previous_secret_expires_at: null,
        enabled: input.enabled === false ? 0 : 1,
        failing_since: null,
        last_failure_at: null,
        disabled_reason: null,
        created_at: now,
        updated_at: now,
      };
      store.insertWebhook(db, row);
      recordActivity(db, projectId, {
        action: "created",
        entityType: "webhook",
        entityId: row.id,
        metadata: { url, events, enabled: row.enabled === 1 },
      });
      return { ...store.toWebhook(row), secret: row.secret };
    }),
  );
}

export async function updateWebhook(
  db: Db,
  projectId: string,
  webhookId: string,
  patch: WebhookUpdate,
  policy: TargetPolicy,
): Promise<Webhook> {
  const asActingMember = keepActingMember(db);
  requireRow(db, projectId, webhookId);
  const events = patch.events === undefined ? undefined : cleanEvents(patch.events);
  const url = patch.url === undefined ? undefined : await requireSafeUrl("url", patch.url.trim(), policy);
  return asActingMember(() =>
    inTransaction(db, () => {
      const before = requireRow(db, projectId, webhookId);
      const after: store.WebhookRow = { ...before, updated_at: Date.now() };
      if (url !== undefined) after.url = url;
      if (events !== undefined) after.events = JSON.stringify(events);
      if (patch.description !== undefined) after.description = patch.description;
      if (patch.enabled !== undefined) {
        after.enabled = patch.enabled ? 1 : 0;
        // Re-enabling starts a fresh failure count.
        if (patch.enabled && before.enabled === 0) {
          after.failing_since = null;
          after.last_failure_at = null;
          after.disabled_reason = null;
        }
      }
      store.updateWebhookRow(db, after);
      recordActivity(db, projectId, {
        action: "updated",
        entityType: "webhook",
        entityId: webhookId,
        metadata: { changes: Object.keys(patch) },
      });
      return store.toWebhook(after);
    }),
  );
}

/**
 * How long the secret a rotation replaced keeps signing next to the new one (Standard Webhooks' zero-downtime
 * rotation): a day for the receiver to switch, every delivery meanwhile verifying with either.
 */
const PREVIOUS_SECRET_SIGNS_MS = 24 * 3_600_000;

/**
 * A new signing secret for the endpoint; the one it replaces keeps signing for a day (docs/webhooks.md), and
 * one rotated out earlier stops at once. Answers the endpoint with the new secret, the only time it is shown.
 */
export function rotateSigningSecret(db: Db, projectId: string, webhookId: string): CreatedWebhook {
  return inTransaction(db, () => {
    const before = requireRow(db, projectId, webhookId);
    const now = Date.now();
    const secrets = {
      secret: generateSecret(),
      previous: before.secret,
      previousExpiresAt: now + PREVIOUS_SECRET_SIGNS_MS,
    };
    store.rotateSecret(db, webhookId, secrets, now);
    recordActivity(db, projectId, { action: "secret_rotated", entityType: "webhook", entityId: webhookId });
    const after: store.WebhookRow = {
      ...before,
      secret: secrets.secret,
      previous_secret: secrets.previous,
      previous_secret_expires_at: secrets.previousExpiresAt,
      updated_at: now,
    };
    return { ...store.toWebhook(after), secret: after.secret };
  });
}

/** The dashboard's rotation (src/admin): the new secret alone, which its page shows once. */
export function rotateWebhookSecret(db: Db, projectId: string, webhookId: string): string {
  return rotateSigningSecret(db, projectId, webhookId).secret;
}

/** Sends a delivered or failed delivery again, with its original `webhook-id` and payload. */
export function replayDelivery(db: Db, projectId: string, webhookId: string, deliveryId: string): void {
  inTransaction(db, () => {
    requireRow(db, projectId, webhookId);
    if (!store.requeueDelivery(db, webhookId, deliveryId, Date.now())) {
      throw validationError("deliveryId", "no finished delivery of this webhook has that id");
    }
    recordActivity(db, projectId, {
      action: "delivery_replayed",
      entityType: "webhook",
      entityId: webhookId,
      metadata: { deliveryId },
    });
  });
}

/** The sentence a test event's `data.message` carries (docs/webhooks.md, "Test events"). */
export const TEST_EVENT_MESSAGE =
  "This is a test event sent from the featureboard dashboard to check this endpoint; nothing changed on the board.";

/**
 * How long past the delivery's own time-out "Send a test event" waits for the worker to pick the delivery up
 * and record its attempt; after that the member is told it is queued, and the history shows its result.
 */
const TEST_PICK_UP_MS = 2_000;

/**
 * What "Send a test event" saw: the delivery (its `webhook-id`) and its one attempt; without one, whether it
 * still waits in the queue or was given up before it (its endpoint was disabled or deleted meanwhile).
 */
export type TestEventOutcome = { deliveryId: string } & (
  { attempt: DeliveryAttempt } | { attempt: null; queued: boolean }
);

/**
 * Sends one `webhook.test` event to this endpoint only, enabled or not, whatever it subscribes to
 * (docs/webhooks.md, "Test events"), and waits for its one attempt: the delivery worker sends it like any
 * delivery (signed, its URL checked, recorded in the history, replayable) but never retries it. The wait is
 * bounded by the delivery's time-out and TEST_PICK_UP_MS.
 */
export async function sendTestEvent(
  db: Db,
  projectId: string,
  webhookId: string,
  config: Pick<Config, "delivery">,
): Promise<TestEventOutcome> {
  const deliveryId = newMessageId();
  inTransaction(db, () => {
    requireRow(db, projectId, webhookId);
    appendTestEvent(db, { projectId, endpointId: webhookId, message: TEST_EVENT_MESSAGE }, deliveryId);
    recordActivity(db, projectId, {
      action: "test_sent",
      entityType: "webhook",
      entityId: webhookId,
      metadata: { deliveryId },
    });
  });
  await untilAttempted(db, deliveryId, config.delivery.timeoutMs + TEST_PICK_UP_MS);
  const attempt = store.latestAttemptOf(db, deliveryId);
  if (attempt) return { deliveryId, attempt };
  return { deliveryId, attempt: null, queued: store.isDeliveryPending(db, deliveryId) };
}

/**
 * Resolves once the delivery has an attempt or left the queue without one, looking after each commit (the
 * worker records an attempt in a transaction of its own), or when `timeoutMs` has passed.
 */
function untilAttempted(db: Db, deliveryId: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      stopListening();
      resolve();
    };
    const look = () => {
      if (store.latestAttemptOf(db, deliveryId) || !store.isDeliveryPending(db, deliveryId)) finish();
    };
    const timer = setTimeout(finish, timeoutMs);
    // A commit's listeners run inside the commit: the look waits for a turn of its own (src/turns.ts).
    const stopListening = onCommit(db, () => void nextTurn().then(look));
  });
}

/** Removes the endpoint with its delivery history; its pending deliveries are never sent. */
export function deleteWebhook(db: Db, projectId: string, webhookId: string): void {
  inTransaction(db, () => {
    const row = requireRow(db, projectId, webhookId);
    store.deleteWebhookRow(db, projectId, webhookId);
    recordActivity(db, projectId, {
      action: "deleted",
      entityType: "webhook",
      entityId: webhookId,
      metadata: { url: row.url },
    });
  });
}
