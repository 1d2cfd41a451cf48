import type Stripe from "stripe";
import { keepActingMember, recordActivity } from "../activity/service";
import type { Config } from "../config";
import { type Db, inTransaction, whenCommitted } from "../db/connection";
import { notFound } from "../http/errors";
import { GATED_FROM, requirePlan } from "../projects/plans";
import { findProjectById } from "../projects/service";
import { MAX_SPEND } from "../users/money";
import { updateUser, upsertUserByEmail, findUserRowByEmail } from "../users/service";
import { monthlyRevenue, UnvaluedSubscription, unresolvedCouponIds } from "./revenue";
import type { PaymentsConfig, PaymentsConfigInput, SyncResult } from "./schema";
import * as store from "./store";

/** What the payments room needs from the running service: REST, MCP and the daily job all have it. */
export interface PaymentsContext {
  db: Db;
  config: Pick<Config, "payments">;
  /** Syncs in flight, by project: a second request joins the running one (part of the runtime object). */
  paymentSyncs: Map<string, Promise<SyncResult>>;
}

function requireConfigRow(db: Db, projectId: string): store.PaymentsRow {
  const row = store.findPaymentsRow(db, projectId);
  if (!row) throw notFound("INTEGRATION_NOT_FOUND");
  return row;
}

/** The payments settings, or null when the project has not connected a processor. */
export function findPaymentsConfig(db: Db, projectId: string): PaymentsConfig | null {
  const row = store.findPaymentsRow(db, projectId);
  return row ? store.toPaymentsConfig(row) : null;
}

export function getPaymentsConfig(db: Db, projectId: string): PaymentsConfig {
  return store.toPaymentsConfig(requireConfigRow(db, projectId));
}

/** Creates or replaces the project's processor settings; `created` tells the route 201 from 200. */
export function savePaymentsConfig(
  db: Db,
  projectId: string,
  input: PaymentsConfigInput,
): { config: PaymentsConfig; created: boolean } {
  return inTransaction(db, () => {
    const before = store.findPaymentsRow(db, projectId);
    const now = Date.now();
    store.savePaymentsRow(db, {
      project_id: projectId,
      api_key: input.apiKey,
      // PUT replaces the settings: an omitted `enabled` means enabled, as on creation.
      enabled: (input.enabled ?? true) ? 1 : 0,
      created_at: before?.created_at ?? now,
      updated_at: now,
      last_sync_at: null,
      last_sync_result: null,
    });
    const config = getPaymentsConfig(db, projectId);
    recordActivity(db, projectId, {
      action: before ? "updated" : "created",
      entityType: "integration",
      entityId: "payments",
      metadata: { enabled: config.enabled, apiKey: config.apiKey },
    });
    return { config, created: before === null };
  });
}

export function deletePaymentsConfig(db: Db, projectId: string): void {
  inTransaction(db, () => {
    if (!store.deletePaymentsRow(db, projectId)) throw notFound("INTEGRATION_NOT_FOUND");
    recordActivity(db, projectId, { action: "deleted", entityType: "integration", entityId: "payments" });
  });
}

/** The processor's SDK loads with the first sync, not at start-up. */
async function stripeClient(apiUrl: string, apiKey: string): Promise<Stripe> {
  const { default: Sdk } = await import("stripe");
  const url = new URL(apiUrl);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return new Sdk(apiKey, {
    host: url.hostname,
    port: url.port || (protocol === "http" ? 80 : 443),
    protocol,
    // fetch is what Bun speaks natively, and what the compiled binary carries.
    httpClient: Sdk.createFetchHttpClient(),
    maxNetworkRetries: 2,
    timeout: 30_000,
    telemetry: false,
  });
}

async function activeSubscriptions(client: Stripe): Promise<Stripe.Subscription[]> {
  const subscriptions: Stripe.Subscription[] = [];
  const pages = client.subscriptions.list({
    status: "active",
    limit: 100,
    // Four levels at most, which is what the API allows; coupons named only by id are fetched afterwards.
    expand: ["data.customer", "data.discounts", "data.items.data.discounts"],
  });
  for await (const subscription of pages) subscriptions.push(subscription);
  return subscriptions;
}

async function fetchCoupons(client: Stripe, ids: Iterable<string>): Promise<Map<string, Stripe.Coupon>> {
  const coupons = new Map<string, Stripe.Coupon>();
  for (const id of new Set(ids)) {
    try {
      coupons.set(id, await client.coupons.retrieve(id));
    } catch {
      // A subscription naming a coupon that cannot be read is reported as unvalued, not synced without it.
    }
  }
  return coupons;
}

interface Payer {
  email: string;
  name: string | null;
  /** Monthly recurring revenue in cents, unrounded until the sum is complete. */
  cents: number;
  problems: string[];
}

interface Tally {
  customerIds: Set<string>;
  skippedNoEmail: Set<string>;
  payers: Map<string, Payer>;
}

function customerOf(subscription: Stripe.Subscription): {
  id: string;
  email: string | null;
  name: string | null;
} {
  const customer = subscription.customer;
  if (typeof customer === "string") return { id: customer, email: null, name: null };
  if (customer.deleted) return { id: customer.id, email: null, name: null };
  return { id: customer.id, email: customer.email?.trim() || null, name: customer.name ?? null };
}

/** Revenue per customer email: two customers with one email are one board user paying both. */
function tally(subscriptions: Stripe.Subscription[], coupons: Map<string, Stripe.Coupon>): Tally {
  const result: Tally = { customerIds: new Set(), skippedNoEmail: new Set(), payers: new Map() };
  const nowSeconds = Math.floor(Date.now() / 1000);
  for (const subscription of subscriptions) {
    const customer = customerOf(subscription);
    result.customerIds.add(customer.id);
    if (customer.email === null) {
      result.skippedNoEmail.add(customer.id);
      continue;
    }
    const key = customer.email.toLowerCase();
    const payer = result.payers.get(key) ?? {
      email: customer.email,
      name: customer.name,
      cents: 0,
      problems: [],
    };
    result.payers.set(key, payer);
    try {
      payer.cents += monthlyRevenue(subscription, coupons, nowSeconds);
    } catch (error) {
      if (!(error instanceof UnvaluedSubscription)) throw error;
      payer.problems.push(`subscription ${subscription.id} (customer ${customer.id}): ${error.message}`);
    }
  }
  return result;
}

function summary(result: Omit<SyncResult, "status" | "message">): Pick<SyncResult, "status" | "message"> {
  const applied = result.matchedUsers + result.createdUsers;
  const status = result.errors.length === 0 ? "success" : applied > 0 ? "partial" : "error";
  const count = result.errors.length;
  const failed = count > 0 ? `, ${count} ${count === 1 ? "error" : "errors"}` : "";
  return {
    status,
    message:
      `Synced ${result.totalCustomers} paying ${result.totalCustomers === 1 ? "customer" : "customers"}: ` +
      `${result.matchedUsers} matched, ` +
      `${result.createdUsers} created, ${result.skippedNoEmail} without email${failed}`,
  };
}

function failure(message: string): SyncResult {
  return {
    status: "error",
    message,
    totalCustomers: 0,
    matchedUsers: 0,
    createdUsers: 0,
    skippedNoEmail: 0,
    errors: [message],
  };
}

/** Sets one payer's spend, creating the board user when the email is new; atomic per payer. */
function applyPayer(db: Db, projectId: string, payer: Payer): { userId: string; created: boolean } {
  const cents = Math.round(payer.cents);
  if (cents > MAX_SPEND * 100) throw new Error(`monthly revenue ${cents / 100} exceeds the spend limit`);
  return inTransaction(db, () => {
    const existing = findUserRowByEmail(db, projectId, payer.email);
    // A name typed on the board wins over the processor's; a new user takes the processor's.
    const name = existing ? {} : { name: payer.name?.slice(0, 200) ?? null };
    const { user, created } = upsertUserByEmail(db, projectId, {
      email: payer.email,
      userSpend: cents / 100,
      ...name,
    });
    store.markSynced(db, projectId, user.id, Date.now());
    return { userId: user.id, created };
  });
}

/** Customers who stopped paying since the last sync drop back to 0; only after a complete sync. */
function resetFormerPayers(db: Db, projectId: string, stillPaying: Set<string>): void {
  for (const userId of store.syncedUserIds(db, projectId)) {
    if (stillPaying.has(userId)) continue;
    inTransaction(db, () => {
      updateUser(db, projectId, userId, { userSpend: 0 });
      store.unmarkSynced(db, projectId, userId);
    });
  }
}

async function runSync(
  ctx: PaymentsContext,
  projectId: string,
  apiKey: string,
  asActingMember: <T>(write: () => T) => T,
): Promise<SyncResult> {
  const { db } = ctx;
  const client = await stripeClient(ctx.config.payments.apiUrl, apiKey);
  let subscriptions: Stripe.Subscription[];
  let coupons: Map<string, Stripe.Coupon>;
  try {
    subscriptions = await activeSubscriptions(client);
    coupons = await fetchCoupons(client, subscriptions.flatMap(unresolvedCouponIds));
  } catch (error) {
    return failure(`The payment processor could not be read: ${(error as Error).message}`);
  }
  const { customerIds, skippedNoEmail, payers } = tally(subscriptions, coupons);
  const errors: string[] = [];
  const paying = new Set<string>();
  let matchedUsers = 0;
  let createdUsers = 0;
  for (const payer of payers.values()) {
    if (payer.problems.length > 0) {
      errors.push(...payer.problems.map((problem) => `${payer.email}: ${problem}`));
      continue;
    }
    try {
      const { userId, created } = asActingMember(() => applyPayer(db, projectId, payer));
      if (created) createdUsers += 1;
      else matchedUsers += 1;
      paying.add(userId);
    } catch (error) {
      errors.push(`${payer.email}: ${(error as Error).message}`);
    }
  }
  if (errors.length === 0) asActingMember(() => resetFormerPayers(db, projectId, paying));
  const counts = {
    totalCustomers: customerIds.size,
    matchedUsers,
    createdUsers,
    skippedNoEmail: skippedNoEmail.size,
    errors,
  };
  return { ...summary(counts), ...counts };
}

/**
 * Syncs the project's customers' monthly recurring revenue into board-user spend (docs/payments-and-email.md) and
 * answers the REST response body. 403 below `growth`, 404 when no processor is configured. Provider
 * failures are answered in the body (`status: "error"`), as the specification's shape provides; the
 * result is kept and shown by GET /integrations/payments. A sync already running for the project is
 * joined, not started twice.
 */
export async function syncPayments(ctx: PaymentsContext, projectId: string): Promise<SyncResult> {
  const { db } = ctx;
  // A sync started from the dashboard names its member in what it records (docs/dashboard.md).
  const asActingMember = keepActingMember(db);
  const project = findProjectById(db, projectId);
  if (!project) throw notFound("PROJECT_NOT_FOUND");
  requirePlan(project, GATED_FROM, "The payments sync");
  const row = requireConfigRow(db, projectId);
  const perProject = ctx.paymentSyncs;
  const inFlight = perProject.get(projectId);
  if (inFlight) return inFlight;
  const sync = (async () => {
    const result =
      row.enabled === 1
        ? await runSync(ctx, projectId, row.api_key, asActingMember)
        : failure("The payments integration is disabled; enable it with PUT /integrations/payments");
    asActingMember(() =>
      inTransaction(db, () => {
        store.recordSync(db, projectId, result, Date.now());
        recordActivity(db, projectId, {
          action: "synced",
          entityType: "integration",
          entityId: "payments",
          metadata: { ...result, errors: result.errors.length },
        });
      }),
    );
    // The result must describe stored changes, also for callers that do not answer over HTTP.
    await whenCommitted(db);
    return result;
  })().finally(() => perProject.delete(projectId));
  perProject.set(projectId, sync);
  return sync;
}
