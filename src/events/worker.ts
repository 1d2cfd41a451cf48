import { recordActivity } from "../activity/service";
import type { AppContext } from "../context";
import { commitNow, inTransaction, onCommit, whenWritesOpen } from "../db/connection";
import type { CallOutcome } from "../http/outbound";
import { integrationWants, sendToIntegration } from "../integrations/senders";
import { enabledIntegrations } from "../integrations/service";
import { describeError } from "../log";
import { nextTurn } from "../turns";
import { sendWebhook } from "../webhooks/deliver";
import { newMessageId } from "../webhooks/signing";
import { findWebhookRowById, listWebhookRows, updateWebhookRow, type WebhookRow } from "../webhooks/service";
import { type EventPayload, TEST_EVENT_TYPE } from "./catalogue";
import * as deliveries from "./store";

/**
 * The delivery worker (docs/webhooks.md). It reads the outbox in `seq` order, fans each event out as one
 * delivery row per matching webhook endpoint and integration (committed before anything is sent, so a
 * crash loses nothing and the `webhook-id` never changes), then sends the due rows concurrently and records
 * every attempt. Woken after each commit, so a delivery normally leaves within milliseconds, and every
 * second by a timer for retries that come due. Rows pending at a crash are simply due on the next start.
 */
export interface DeliveryWorker {
  /** Look for new events and due deliveries now. */
  wake(): void;
  /** Stops the timer, aborts attempts in flight (they are retried on the next start) and waits for them. */
  stop(): Promise<void>;
}

const FAN_OUT_BATCH = 500;
const MAX_IN_FLIGHT = 16;
/**
 * At most this many attempts to one webhook endpoint at once, so that an endpoint that never answers
 * holds 4 of the 16 slots until its time-outs, not all of them (docs/integrations.md, "Concurrency").
 */
const MAX_IN_FLIGHT_PER_ENDPOINT = 4;
/**
 * An attempt running longer than this no longer holds one of the 16 slots (it stays open, up to its time-out):
 * five endpoints hanging at once took every slot for 10 s, and a healthy endpoint's deliveries waited that
 * long. Deliveries usually answer within a few hundred milliseconds (docs/integrations.md, "Concurrency").
 */
const SLOW_ATTEMPT_MS = 2000;
/** Attempts open at once, slow ones included: what bounds the connections the worker holds. */
const MAX_OPEN_ATTEMPTS = 64;
const QUARANTINE_MS = 60_000;
/** How often the worker looks for retries that came due. */
const TICK_MS = 1000;
/**
 * Each retry waits up to this much longer than the schedule says, at random, so that deliveries that
 * failed together (an endpoint's outage) are not all retried in the same second (docs/webhooks.md).
 */
const RETRY_JITTER = 0.2;
/** The Standard Webhooks answer to stop sending: the endpoint is disabled at once (docs/webhooks.md). */
const GONE = 410;

export function startDeliveryWorker(ctx: AppContext): DeliveryWorker {
  const { db, config, log } = ctx;
  /** Attempts under way, by delivery id. */
  const inFlight = new Map<string, { work: Promise<void>; startedAt: number }>();
  /** How many of them each target has (`DueDelivery.target`). */
  const inFlightOfTarget = new Map<string, number>();
  const quarantined = new Map<string, number>();
  const stopping = new AbortController();
  let running = false;
  let again = false;

  function targetsOf(projectId: string) {
    return {
      endpoints: listWebhookRows(db, projectId)
        .filter((endpoint) => endpoint.enabled === 1)
        .map((endpoint) => ({ id: endpoint.id, events: JSON.parse(endpoint.events) as string[] })),
      integrations: enabledIntegrations(db, projectId),
    };
  }

  function fanOut(): void {
    for (;;) {
      const events = deliveries.undispatchedEvents(db, FAN_OUT_BATCH);
      if (events.length === 0) return;
      let created = 0;
      inTransaction(db, () => {
        const now = Date.now();
        // Targets per project, read once per batch: a burst of votes costs a few queries, not two per event.
        const targets = new Map<string, ReturnType<typeof targetsOf>>();
        for (const event of events) {
          let projectTargets = targets.get(event.project_id);
          if (!projectTargets) targets.set(event.project_id, (projectTargets = targetsOf(event.project_id)));
          if (projectTargets.endpoints.length === 0 && projectTargets.integrations.length === 0) continue;
          const payload = JSON.parse(event.payload) as EventPayload;
          for (const endpoint of projectTargets.endpoints) {
            if (!endpoint.events.includes("*") && !endpoint.events.includes(event.type)) continue;
            deliveries.insertDelivery(db, newMessageId(), event, { endpointId: endpoint.id }, now);
            created++;
          }
          for (const integration of projectTargets.integrations) {
            if (!integrationWants(integration.kind, integration.config, payload)) continue;
            deliveries.insertDelivery(db, newMessageId(), event, { integration: integration.kind }, now);
            created++;
          }
        }
        deliveries.markDispatchedThrough(db, events.at(-1)!.seq, now);
      });
      // New rows must be durable before their first attempt: a crash then resends the same webhook-id.
      // Events nobody listens to just ride along with the next batch of changes.
      if (created > 0) commitNow(db);
      if (events.length < FAN_OUT_BATCH) return;
    }
  }

  async function attempt(due: deliveries.DueDelivery): Promise<void> {
    const startedAt = Date.now();
    const event = JSON.parse(due.payload) as EventPayload;
    let outcome: CallOutcome;
    const endpoint = due.endpoint_id === null ? null : findWebhookRowById(db, due.endpoint_id);
    // Deleted meanwhile: its deliveries went with it.
    if (due.endpoint_id !== null && !endpoint) return;
    // A test event goes to a disabled endpoint too: checking it before turning it on is what it is for
    // (docs/webhooks.md, "Test events").
    if (endpoint && endpoint.enabled !== 1 && due.event_type !== TEST_EVENT_TYPE) {
      inTransaction(db, () => deliveries.failPendingOfEndpoint(db, endpoint.id, startedAt));
      return;
    }
    try {
      if (endpoint) outcome = await sendWebhook(endpoint, due.id, due.payload, config, stopping.signal);
      else
        outcome = await sendToIntegration(db, due.integration!, event, { config, signal: stopping.signal });
    } catch (error) {
      if (stopping.signal.aborted) return;
      outcome = {
        ok: false,
        statusCode: null,
        error: error instanceof Error ? error.message : String(error),
        durationMs: Date.now() - startedAt,
        responseText: "",
      };
    }
    record(due, endpoint?.id ?? null, outcome, startedAt);
  }

  const longestWait = Math.max(0, ...config.delivery.retryScheduleMs);

  /**
   * The wait before retry number `attemptNumber`: the schedule's, up to RETRY_JITTER longer, and no sooner
   * than the target's Retry-After, which counts up to the longest wait of the schedule (a receiver asking for
   * a day would otherwise stretch the retries past what docs/webhooks.md promises).
   */
  function retryWait(attemptNumber: number, outcome: CallOutcome): number {
    const scheduled = config.delivery.retryScheduleMs[attemptNumber - 1]!;
    const jittered = Math.round(scheduled * (1 + Math.random() * RETRY_JITTER));
    if (outcome.retryAfterMs === undefined) return jittered;
    return Math.max(jittered, Math.min(outcome.retryAfterMs, longestWait));
  }

  function record(
    due: deliveries.DueDelivery,
    endpointId: string | null,
    outcome: CallOutcome,
    startedAt: number,
  ) {
    const now = Date.now();
    const attemptNumber = due.attempts + 1;
    // A test event is tried once, its result shown at once; it is never retried (docs/webhooks.md).
    const retries = due.event_type === TEST_EVENT_TYPE ? 0 : config.delivery.retryScheduleMs.length;
    const gone = endpointId !== null && outcome.statusCode === GONE;
    // The endpoint may have been deleted during the attempt, taking the delivery with it.
    if (!deliveries.deliveryExists(db, due.id)) return;
    inTransaction(db, () => {
      deliveries.insertAttempt(db, due.id, {
        attempt: attemptNumber,
        statusCode: outcome.statusCode,
        durationMs: outcome.durationMs,
        error: outcome.error,
        startedAt,
        finishedAt: now,
      });
      if (outcome.ok) {
        deliveries.settleDelivery(db, due.id, "delivered", attemptNumber, now, now);
      } else if (gone || attemptNumber > retries) {
        deliveries.settleDelivery(db, due.id, "failed", attemptNumber, now, now);
      } else {
        const nextAttemptAt = now + retryWait(attemptNumber, outcome);
        deliveries.settleDelivery(db, due.id, "pending", attemptNumber, nextAttemptAt, now);
      }
      if (endpointId !== null && gone) endpointGone(endpointId, now);
      else if (endpointId !== null) trackEndpointHealth(endpointId, outcome.ok, now);
    });
    if (!outcome.ok) {
      log.warn("delivery attempt failed", {
        deliveryId: due.id,
        attempt: attemptNumber,
        error: outcome.error,
      });
    }
  }

  /** Turns the endpoint off and gives up its pending deliveries: re-enabling must not replay days of events. */
  function disableEndpoint(
    endpoint: WebhookRow,
    run: Pick<WebhookRow, "failing_since" | "last_failure_at">,
    reason: { text: string; activity: "failing" | "gone" },
    now: number,
  ): void {
    updateWebhookRow(db, { ...endpoint, ...run, enabled: 0, disabled_reason: reason.text, updated_at: now });
    deliveries.failPendingOfEndpoint(db, endpoint.id, now);
    recordActivity(db, endpoint.project_id, {
      action: "disabled",
      entityType: "webhook",
      entityId: endpoint.id,
      metadata: { reason: reason.activity },
    });
  }

  /** 410 Gone: the receiver says the endpoint no longer exists (Standard Webhooks), so it is disabled now. */
  function endpointGone(endpointId: string, now: number): void {
    const endpoint = findWebhookRowById(db, endpointId);
    if (!endpoint || endpoint.enabled !== 1) return;
    const text = "the endpoint answered 410 Gone; re-enable it with PATCH enabled: true";
    const run = { failing_since: endpoint.failing_since ?? now, last_failure_at: now };
    disableEndpoint(endpoint, run, { text, activity: "gone" }, now);
  }

  /**
   * The longest two failures of a failing run can be apart: the longest retry wait with its jitter, plus one
   * attempt's time-out and the worker's tick before the retry leaves.
   */
  const longestSilence = longestWait * (1 + RETRY_JITTER) + config.delivery.timeoutMs + TICK_MS;

  /**
   * "Failing for 5 days straight" (docs/webhooks.md): every attempt since `failing_since` failed, and they kept
   * failing without a silence longer than a retry can take (`longestSilence`). A success ends the run; so does
   * a silence (an endpoint that failed once, had no traffic for days, then failed once was not seen failing in
   * between: its run restarts). When the run spans `disableAfterMs`, the endpoint is disabled.
   */
  function trackEndpointHealth(endpointId: string, ok: boolean, now: number): void {
    const endpoint = findWebhookRowById(db, endpointId);
    if (!endpoint) return;
    if (ok) {
      if (endpoint.failing_since !== null || endpoint.last_failure_at !== null) {
        updateWebhookRow(db, { ...endpoint, failing_since: null, last_failure_at: null });
      }
      return;
    }
    const runGoesOn =
      endpoint.failing_since !== null &&
      endpoint.last_failure_at !== null &&
      now - endpoint.last_failure_at <= longestSilence;
    const run = { failing_since: runGoesOn ? endpoint.failing_since! : now, last_failure_at: now };
    if (endpoint.enabled === 1 && now - run.failing_since >= config.delivery.disableAfterMs) {
      const days = Math.round(config.delivery.disableAfterMs / 86_400_000);
      const text = `every delivery failed for ${days} days; re-enable it with PATCH enabled: true`;
      disableEndpoint(endpoint, run, { text, activity: "failing" }, now);
    } else {
      updateWebhookRow(db, { ...endpoint, ...run });
    }
  }

  /**
   * Webhook deliveries go out in parallel, at most 4 at once per endpoint. An integration's go one at a time
   * per project, in order: chat messages keep their order, and two approvals of one post cannot both find
   * no issue and open two.
   */
  function capOf(row: deliveries.DueDelivery): number {
    return row.endpoint_id === null ? 1 : MAX_IN_FLIGHT_PER_ENDPOINT;
  }

  function start(row: deliveries.DueDelivery): void {
    inFlightOfTarget.set(row.target, (inFlightOfTarget.get(row.target) ?? 0) + 1);
    const work = attempt(row)
      .catch((error: unknown) => {
        // A bug or a database error, not the target's answer: leave the row pending but do not spin on it.
        quarantined.set(row.id, Date.now() + QUARANTINE_MS);
        log.error("delivery failed unexpectedly", { deliveryId: row.id, ...describeError(error) });
      })
      .finally(() => {
        inFlight.delete(row.id);
        const left = (inFlightOfTarget.get(row.target) ?? 1) - 1;
        if (left > 0) inFlightOfTarget.set(row.target, left);
        else inFlightOfTarget.delete(row.target);
        wake();
      });
    inFlight.set(row.id, { work, startedAt: Date.now() });
  }

  /** Whether another attempt may start: a slot free among the attempts that are not slow, and room overall. */
  function slotFree(now: number): boolean {
    if (inFlight.size >= MAX_OPEN_ATTEMPTS) return false;
    let holding = 0;
    for (const { startedAt } of inFlight.values()) if (now - startedAt < SLOW_ATTEMPT_MS) holding++;
    return holding < MAX_IN_FLIGHT;
  }

  /**
   * Starts due deliveries until the slots are full. Targets found at their cap are left out of the next
   * query, so a backlog of one endpoint's deliveries cannot hide the others'. Each pass starts an attempt or
   * finds another full target, or it is the last.
   */
  function sendDue(): void {
    const now = Date.now();
    for (const [id, until] of quarantined) if (until <= now) quarantined.delete(id);
    const full = new Set<string>();
    while (slotFree(now)) {
      const rows = deliveries.dueDeliveries(db, now, MAX_IN_FLIGHT, {
        deliveryIds: [...inFlight.keys(), ...quarantined.keys()],
        targets: [...full],
      });
      let progress = false;
      for (const row of rows) {
        if (!slotFree(now)) return;
        if ((inFlightOfTarget.get(row.target) ?? 0) >= capOf(row)) {
          if (!full.has(row.target)) progress = true;
          full.add(row.target);
          continue;
        }
        start(row);
        progress = true;
      }
      if (!progress || rows.length < MAX_IN_FLIGHT) return;
    }
  }

  let waitingForWrites = false;
  function wake(): void {
    if (stopping.signal.aborted) return;
    // Like a request, the worker's writes wait while the WAL starts over (src/db/checkpoints.ts).
    const hold = whenWritesOpen(db);
    if (hold) {
      if (!waitingForWrites) {
        waitingForWrites = true;
        // On a turn of its own: the hold lets every held writer go in the same turn.
        void hold.then(nextTurn).then(() => {
          waitingForWrites = false;
          wake();
        });
      }
      return;
    }
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        fanOut();
        sendDue();
      } while (again);
    } catch (error) {
      log.error("delivery worker failed", describeError(error));
    } finally {
      running = false;
    }
  }

  // A commit's listeners run inside commitNow, possibly while fanOut is committing: the fan-out waits for a
  // later turn, as background steps do (src/turns.ts), instead of adding to the committing turn; once,
  // however many commits come meanwhile.
  let wakeQueued = false;
  const removeListener = onCommit(db, () => {
    if (wakeQueued) return;
    wakeQueued = true;
    void nextTurn().then(() => {
      wakeQueued = false;
      wake();
    });
  });
  // A plain interval, not a cron: wake never overlaps itself (`running`), and a cron in local time would
  // load the time-zone data at start-up (~10 ms; issue 19).
  const timer = setInterval(wake, TICK_MS);
  queueMicrotask(wake);

  return {
    wake,
    async stop() {
      clearInterval(timer);
      removeListener();
      stopping.abort();
      await Promise.allSettled([...inFlight.values()].map((attempt) => attempt.work));
    },
  };
}
