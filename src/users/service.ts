import { recordActivity } from "../activity/service";
import { type Db, inTransaction } from "../db/connection";
import { appendEvent } from "../events/outbox";
import { ApiError, notFound } from "../http/errors";
import { pagination, type PageRequest } from "../http/paging";
import { toCents } from "./money";
import type { BoardUser, UserUpdate, UserUpsert } from "./schema";
import * as store from "./store";
import type { UserRow } from "./store";

export { findUserRowByEmail, insertUser, listUserRows, toBoardUser, type UserRow } from "./store";

export function requireUserRow(db: Db, projectId: string, userId: string): UserRow {
  const row = store.findUserRow(db, projectId, userId);
  if (!row) throw notFound("USER_NOT_FOUND");
  return row;
}

export function getUser(db: Db, projectId: string, userId: string): BoardUser {
  return store.toBoardUser(requireUserRow(db, projectId, userId));
}

/** A board user of the project, or null when there is none (a request's author since deleted). */
export function findUser(db: Db, projectId: string, userId: string): BoardUser | null {
  const row = store.findUserRow(db, projectId, userId);
  return row ? store.toBoardUser(row) : null;
}

export function listUsers(db: Db, projectId: string, page: PageRequest) {
  return {
    data: store.listUserRows(db, projectId, page.limit, page.offset).map(store.toBoardUser),
    pagination: pagination(page, store.countUsers(db, projectId)),
  };
}

function ensureEmailFree(db: Db, projectId: string, email: string | null, userId: string): void {
  if (email === null) return;
  const holder = store.findUserRowByEmail(db, projectId, email);
  if (holder && holder.id !== userId) {
    throw new ApiError(
      "EMAIL_ALREADY_USED",
      `Another board user of this project has the email ${email}`,
      `Update that user (id ${holder.id}) instead, or use another email.`,
    );
  }
}

function changedFields(before: UserRow, after: UserRow): string[] {
  const fields: [string, keyof UserRow][] = [
    ["email", "email"],
    ["name", "name"],
    ["avatarUrl", "avatar_url"],
    ["userSpend", "spend_cents"],
  ];
  return fields.filter(([, column]) => before[column] !== after[column]).map(([field]) => field);
}

/** Saves `after` and, when anything changed, records activity and `user.updated` in the same transaction. */
function saveChanges(db: Db, projectId: string, before: UserRow, after: UserRow): BoardUser {
  const changes = changedFields(before, after);
  const user = store.toBoardUser(after);
  if (changes.length === 0) return user;
  store.updateUserRow(db, projectId, after, Date.now());
  recordActivity(db, projectId, {
    action: "updated",
    entityType: "user",
    entityId: after.id,
    metadata: { changes },
  });
  appendEvent(db, projectId, "user.updated", user);
  return user;
}

export function updateUser(db: Db, projectId: string, userId: string, patch: UserUpdate): BoardUser {
  return inTransaction(db, () => {
    const before = requireUserRow(db, projectId, userId);
    const email = patch.email === undefined ? before.email : (patch.email?.trim() ?? null);
    ensureEmailFree(db, projectId, email, userId);
    const user = saveChanges(db, projectId, before, {
      ...before,
      email,
      name: patch.name === undefined ? before.name : patch.name,
      spend_cents: patch.userSpend === undefined ? before.spend_cents : toCents(patch.userSpend),
    });
    // An email the team sets is its own data, confirmed (docs/payments-and-email.md, "Confirming an email").
    if (email !== null && patch.email !== undefined) store.markEmailConfirmed(db, projectId, userId);
    return user;
  });
}

/**
 * Confirms a board user's email from its confirmation link, only while the user still has that address;
 * false when it does not (or it was confirmed already).
 */
export function confirmUserEmail(db: Db, projectId: string, userId: string, email: string): boolean {
  return store.confirmEmail(db, projectId, userId, email);
}

/**
 * Registers the customer behind an email, or updates the one already registered (an addition to the
 * specification, so an API client can create the user it then votes for). Fields left out stay as they are.
 */
/** The id of this project's board user with that email, or null. */
export function findUserIdByEmail(db: Db, projectId: string, email: string): string | null {
  return store.findUserRowByEmail(db, projectId, email.trim())?.id ?? null;
}

export function upsertUserByEmail(
  db: Db,
  projectId: string,
  input: UserUpsert,
  origin: {
    /** An import keeps the time a new user was registered where it came from. */
    createdAt?: number;
    /**
     * The email was typed on a keyless surface (public API, board pages, widget, public MCP): a user made
     * for it is unconfirmed until its owner follows the link mailed to it (src/email/confirmation.ts), and
     * an existing user is not confirmed by it. Every other caller is the team's own data: confirmed.
     */
    keyless?: boolean;
  } = {},
): { user: BoardUser; created: boolean } {
  const email = input.email.trim();
  return inTransaction(db, () => {
    const existing = store.findUserRowByEmail(db, projectId, email);
    if (existing) {
      if (origin.keyless !== true) store.markEmailConfirmed(db, projectId, existing.id);
      const user = saveChanges(db, projectId, existing, {
        ...existing,
        name: input.name === undefined ? existing.name : input.name,
        avatar_url: input.avatarUrl === undefined ? existing.avatar_url : input.avatarUrl,
        spend_cents: input.userSpend === undefined ? existing.spend_cents : toCents(input.userSpend),
      });
      return { user, created: false };
    }
    const row: UserRow = {
      id: Bun.randomUUIDv7(),
      email,
      name: input.name ?? null,
      avatar_url: input.avatarUrl ?? null,
      spend_cents: toCents(input.userSpend ?? 0),
      created_at: origin.createdAt ?? Date.now(),
    };
    store.insertUser(db, projectId, row, origin.keyless !== true);
    const user = store.toBoardUser(row);
    recordActivity(db, projectId, {
      action: "created",
      entityType: "user",
      entityId: row.id,
      metadata: { email },
    });
    appendEvent(db, projectId, "user.created", user);
    return { user, created: true };
  });
}
