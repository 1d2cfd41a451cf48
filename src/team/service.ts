import { randomToken } from "../random";
import type { ActivitySource } from "../activity/schema";
import { actAs, recordActivity, sourceOf } from "../activity/service";
import { type Db, inTransaction, isBusy, whenWritesOpen } from "../db/connection";
import { iso, isoOrNull } from "../db/time";
import { ApiError, validationError } from "../http/errors";
import { findProjectById, requireProjectBySlug } from "../projects/service";
import { isEmailAddress } from "../users/schema";
import {
  type ActiveSession,
  ENDED_SESSIONS_KEPT_MS,
  INVITE_TTL_MS,
  type Membership,
  NO_CLIENT,
  SESSION_TOUCH_MS,
  type SignInClient,
  type SignInEvent,
  type SignInKind,
  SIGN_IN_LINK_TTL_MS,
  SIGN_INS_KEPT,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  SESSION_TTL_MS,
  type TeamMember,
  type TeamRole,
  type TeamSession,
  USER_AGENT_KEPT,
} from "./schema";
import * as store from "./store";

/** Tokens travel in links and cookies; only their SHA-256 is stored, so a copy of the database opens nothing. */
function newToken(): string {
  return randomToken(32, "base64url");
}

function tokenHash(token: string): Uint8Array {
  return new Bun.CryptoHasher("sha256").update(token).digest();
}

/** An invite's id as listOpenInvites and its activity entries name it: its token's SHA-256 in hex (opens nothing). */
function inviteIdOf(hash: Uint8Array): string {
  return Buffer.from(hash).toString("hex");
}

function cleanEmail(email: string): string {
  const trimmed = email.trim();
  if (!isEmailAddress(trimmed) || trimmed.length > 320)
    throw validationError("email", "must be an email address");
  return trimmed;
}

function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    throw validationError("password", `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
  }
}

function invalidInvite(): ApiError {
  return new ApiError(
    "INVITE_INVALID",
    "This invite link is unknown, used or expired",
    "Ask an owner for a new invite: featureboard team invite --email you@example.com",
  );
}

function invalidCredentials(): ApiError {
  return new ApiError(
    "INVALID_CREDENTIALS",
    "The email or the password is wrong",
    "Check both and try again; a lost password is reset with featureboard team reset-password --email E.",
  );
}

function signInToAccept(email: string): ApiError {
  return new ApiError(
    "SIGN_IN_REQUIRED",
    `${email} already has an account: sign in with it, then open this invite link again to join`,
    "Sign in with the account's password (or an email sign-in link), then open the invite link again.",
  );
}

function isMemberOf(db: Db, memberId: string, projectId: string): boolean {
  return store.membershipsOf(db, memberId).some((membership) => membership.projectId === projectId);
}

/**
 * An invite for `email` to a project with a role: the URL path to open, valid 24 hours, shown once. It
 * replaces the email's open invites to the project (`replaced`: how many stopped working), so inviting again
 * to correct the role leaves one link, with the role given last (docs/dashboard.md).
 */
export function inviteMember(
  db: Db,
  input: { email: string; role: TeamRole; projectSlug: string; source?: ActivitySource | null },
  now = Date.now(),
): { token: string; expiresAt: number; replaced: number } {
  const email = cleanEmail(input.email);
  const project = requireProjectBySlug(db, input.projectSlug);
  // Accepting it would have given a member a role only changeRole may give (the last owner stepped down),
  // and the account of anyone holding the link a new password.
  const member = store.findMemberByEmail(db, email);
  if (member && isMemberOf(db, member.id, project.id)) {
    throw validationError("email", `is already a member of ${project.name}; change their role instead`);
  }
  const token = newToken();
  const expiresAt = now + INVITE_TTL_MS;
  const hash = tokenHash(token);
  const replaced = inTransaction(db, () => {
    const earlier = store.expireInvites(db, project.id, email, now);
    store.insertInvite(
      db,
      { tokenHash: hash, email, projectId: project.id, role: input.role, expiresAt },
      now,
    );
    recordActivity(db, project.id, {
      action: "created",
      entityType: "invite",
      entityId: inviteIdOf(hash),
      metadata: { email, role: input.role, replaced: earlier, ...sourceOf(input.source ?? null) },
    });
    return earlier;
  });
  return { token, expiresAt, replaced };
}

/**
 * What an invite link offers, before it is accepted (the invite page shows it); `accountId` is the member
 * who already has the invited email, if any: they join signed in, without choosing a password.
 */
export function describeInvite(
  db: Db,
  token: string,
  now = Date.now(),
): { email: string; projectName: string; role: TeamRole; accountId: string | null } {
  const invite = store.findInvite(db, tokenHash(token));
  if (!invite || invite.used_at !== null || invite.expires_at <= now) throw invalidInvite();
  const project = findProjectById(db, invite.project_id);
  if (!project) throw invalidInvite();
  const accountId = store.findMemberByEmail(db, invite.email)?.id ?? null;
  return { email: invite.email, projectName: project.name, role: invite.role, accountId };
}

/** An address is at most 45 characters (IPv6); a proxy's header could carry anything, so it is cut. */
const IP_KEPT = 64;

/** What is kept of a client: bounded, whatever the headers carried. */
function keptClient(client: SignInClient): SignInClient {
  return { ip: client.ip.slice(0, IP_KEPT), userAgent: client.userAgent.slice(0, USER_AGENT_KEPT) };
}

/**
 * A new session of the member, with the client it signed in from; `kind`: how, recorded in the member's
 * sign-in history (null: not a sign-in, a changed password's new session).
 */
function startSession(
  db: Db,
  memberId: string,
  client: SignInClient,
  kind: SignInKind | null,
  now: number,
): { sessionToken: string; csrfToken: string } {
  const sessionToken = newToken();
  const csrfToken = newToken();
  const kept = keptClient(client);
  store.insertSession(
    db,
    {
      // Its own id, not derived from the token: the page and its forms name the session by it.
      id: crypto.randomUUID(),
      tokenHash: tokenHash(sessionToken),
      memberId,
      csrfToken,
      expiresAt: now + SESSION_TTL_MS,
      client: kept,
    },
    now,
  );
  if (kind !== null) store.insertSignIn(db, { memberId, kind, client: kept }, SIGN_INS_KEPT, now);
  // A member who signs in every day ends a session a day: theirs that ended long enough ago go now, and
  // the daily clean-up (team/schedule.ts) takes those of members who no longer sign in.
  store.deleteEndedSessionsOf(db, memberId, now - ENDED_SESSIONS_KEPT_MS);
  return { sessionToken, csrfToken };
}

/**
 * Accepts an invite. An email new to the dashboard becomes a member with the password chosen here, and is
 * signed in. An email that already has an account (a member of another project) joins only while signed
 * in as that account (`signedInMemberId`): the link is shown to whoever invited, so it proves nothing about
 * the account, and must not set its password. A membership that exists keeps its role (only changeRole
 * changes one, with its last-owner rule): `alreadyMember` then says so, with the role kept and the one the
 * invite offered, so the page can tell that the invite changed nothing. An invite works once.
 */
export async function acceptInvite(
  db: Db,
  token: string,
  input: {
    password: string;
    name?: string | undefined;
    signedInMemberId?: string | null | undefined;
    client?: SignInClient | undefined;
  },
  now = Date.now(),
): Promise<{
  sessionToken: string;
  csrfToken: string;
  alreadyMember: { projectSlug: string; role: TeamRole; invitedAs: TeamRole } | null;
}> {
  const invited = describeInvite(db, token, now);
  if (invited.accountId !== null && invited.accountId !== input.signedInMemberId) {
    throw signInToAccept(invited.email);
  }
  let hash: string | null = null;
  if (invited.accountId === null) {
    checkPassword(input.password);
    hash = await Bun.password.hash(input.password, { algorithm: "argon2id" });
  }
  return inTransaction(db, () => {
    const invite = store.findInvite(db, tokenHash(token));
    if (!invite || !store.useInvite(db, tokenHash(token), now)) throw invalidInvite();
    let member = store.findMemberByEmail(db, invite.email);
    if (!member) {
      if (hash === null) throw invalidInvite();
      store.insertMember(
        db,
        { id: Bun.randomUUIDv7(), email: invite.email, name: input.name?.trim() || null },
        now,
      );
      member = store.findMemberByEmail(db, invite.email)!;
      store.setPasswordHash(db, member.id, hash, now);
    } else if (hash !== null) {
      // The account was made while the password was hashed (a second invite accepted at once).
      throw signInToAccept(member.email);
    }
    const present = store
      .membershipsOf(db, member.id)
      .find((membership) => membership.projectId === invite.project_id);
    if (!present) {
      store.upsertMembership(db, member.id, invite.project_id, invite.role, now);
      // Credited to the person who joined: they are the one acting (docs/dashboard.md, "Activity").
      const joined = member;
      actAs(db, { id: joined.id, name: joined.name ?? joined.email }, () =>
        recordActivity(db, invite.project_id, {
          action: "joined",
          entityType: "member",
          entityId: joined.id,
          metadata: { email: joined.email, role: invite.role, invite: inviteIdOf(tokenHash(token)) },
        }),
      );
    }
    const alreadyMember = present
      ? { projectSlug: present.projectSlug, role: present.role, invitedAs: invite.role }
      : null;
    return { ...startSession(db, member.id, input.client ?? NO_CLIENT, "invite", now), alreadyMember };
  });
}

/**
 * A lost password, with no email sign-in link to reach the account (no SMTP): the operator sets a new,
 * random one (shown once) and every session of the member ends. The member signs in with it and changes
 * it under Your account. Null when no member has that email.
 */
export async function resetPassword(db: Db, email: string, now = Date.now()): Promise<string | null> {
  const member = store.findMemberByEmail(db, email.trim());
  if (!member) return null;
  const password = randomToken(15, "base64url");
  const hash = await Bun.password.hash(password, { algorithm: "argon2id" });
  inTransaction(db, () => {
    store.setPasswordHash(db, member.id, hash, now);
    store.revokeSessionsOf(db, member.id, now);
  });
  return password;
}

/**
 * Signs in by password; the caller meters attempts per account and per IP before calling. A wrong password
 * for a member's email is recorded in their sign-in history (`client`: where it came from).
 */
export async function signIn(
  db: Db,
  input: { email: string; password: string; client?: SignInClient | undefined },
  now = Date.now(),
): Promise<{ sessionToken: string; csrfToken: string }> {
  const client = input.client ?? NO_CLIENT;
  const member = store.findMemberByEmail(db, input.email.trim());
  // Verify against a hash even for an unknown email, so the answer time does not say which emails exist.
  const hash = member?.passwordHash ?? (await dummyHash());
  const ok = await Bun.password.verify(input.password.slice(0, PASSWORD_MAX_LENGTH), hash);
  if (!member || member.passwordHash === null || !ok) {
    // A transaction for an unknown email too, though it writes nothing: the answer waits for its commit
    // either way, so a wrong email still takes as long as a wrong password (docs/dashboard.md).
    inTransaction(db, () => {
      if (member)
        store.insertSignIn(
          db,
          { memberId: member.id, kind: "failed", client: keptClient(client) },
          SIGN_INS_KEPT,
          now,
        );
    });
    throw invalidCredentials();
  }
  return inTransaction(db, () => startSession(db, member.id, client, "password", now));
}

let dummy: Promise<string> | null = null;
/** Made on first use: hashing at import would cost every start-up an argon2 round. */
function dummyHash(): Promise<string> {
  dummy ??= Bun.password.hash("not a password of anyone", { algorithm: "argon2id" });
  return dummy;
}

function invalidSignInLink(): ApiError {
  return new ApiError(
    "SIGN_IN_LINK_INVALID",
    "This sign-in link is unknown, used or expired",
    "Ask for a new link on the sign-in page, or sign in with your password.",
  );
}

/**
 * A one-time sign-in link for the member with this email, valid SIGN_IN_LINK_TTL_MS; null for an email
 * that is no member's (the page says the same either way, so it does not reveal who is a member). The
 * caller meters requests and sends the link; only its hash is stored.
 */
export function createSignInLink(
  db: Db,
  email: string,
  now = Date.now(),
): { token: string; email: string } | null {
  const member = store.findMemberByEmail(db, email.trim());
  if (!member) return null;
  const token = newToken();
  inTransaction(db, () =>
    store.insertSignInLink(
      db,
      { tokenHash: tokenHash(token), memberId: member.id, expiresAt: now + SIGN_IN_LINK_TTL_MS },
      now,
    ),
  );
  return { token, email: member.email };
}

/** Signs in with a sign-in link, from `client`; a link works once. */
export function useSignInLink(
  db: Db,
  token: string,
  client: SignInClient,
  now = Date.now(),
): { sessionToken: string; csrfToken: string } {
  return inTransaction(db, () => {
    const memberId = store.useSignInLink(db, tokenHash(token), now);
    if (memberId === null) throw invalidSignInLink();
    return startSession(db, memberId, client, "link", now);
  });
}

/**
 * Changes a member's password after checking the current one, and ends every other session of theirs (a
 * password is changed when it may be known to someone else). Answers the new session's tokens.
 */
export async function changePassword(
  db: Db,
  memberId: string,
  input: { currentPassword: string; newPassword: string; client?: SignInClient | undefined },
  now = Date.now(),
): Promise<{ sessionToken: string; csrfToken: string }> {
  const current = store.findPasswordHash(db, memberId);
  const ok =
    current !== null &&
    (await Bun.password.verify(input.currentPassword.slice(0, PASSWORD_MAX_LENGTH), current));
  if (!ok) throw validationError("currentPassword", "is not your current password");
  checkPassword(input.newPassword);
  const hash = await Bun.password.hash(input.newPassword, { algorithm: "argon2id" });
  return inTransaction(db, () => {
    store.setPasswordHash(db, memberId, hash, now);
    store.revokeSessionsOf(db, memberId, now);
    // The session it replaces, in the same browser: not a sign-in of the history.
    return startSession(db, memberId, input.client ?? NO_CLIENT, null, now);
  });
}

/**
 * What changeRole did: `changed`; `unchanged` (the role was already that); `notMember` (the email is no
 * member of the project: removed meanwhile by another owner); `lastOwner` (refused: the project's last
 * owner cannot step down). Nothing is written but for `changed`; the surface words the others.
 */
export type RoleChange = "changed" | "unchanged" | "notMember" | "lastOwner";

/**
 * Changes a member's role in a project. The last owner cannot step down (someone must be able to manage
 * members and keys: docs/dashboard.md, "Team accounts").
 */
export function changeRole(db: Db, projectSlug: string, email: string, role: TeamRole): RoleChange {
  const project = requireProjectBySlug(db, projectSlug);
  return inTransaction(db, (): RoleChange => {
    const member = store.findMemberByEmail(db, email.trim());
    if (!member) return "notMember";
    const current = store.membersOfProject(db, project.id).find((candidate) => candidate.id === member.id);
    if (!current) return "notMember";
    if (current.role === "owner" && role !== "owner" && store.countOwners(db, project.id) === 1) {
      return "lastOwner";
    }
    if (current.role === role) return "unchanged";
    if (!store.setMembershipRole(db, member.id, project.id, role)) return "notMember";
    recordActivity(db, project.id, {
      action: "role_changed",
      entityType: "member",
      entityId: member.id,
      metadata: { email: member.email, from: current.role, to: role },
    });
    return "changed";
  });
}

/** What each role may do on the dashboard (docs/dashboard.md). */
const ROLE_RANK: Record<TeamRole, number> = { member: 0, admin: 1, owner: 2 };

/** Whether the member's role in the project is `least` or above. */
export function hasRole(membership: Pick<Membership, "role">, least: TeamRole): boolean {
  return ROLE_RANK[membership.role] >= ROLE_RANK[least];
}

/** Refuses a member whose role in the project is below `least` (a `member` managing keys, say). */
export function requireRole(membership: Membership, least: TeamRole, what: string): void {
  if (hasRole(membership, least)) return;
  throw new ApiError(
    "ROLE_NOT_ALLOWED",
    `${what} needs the ${least} role; you are ${membership.role} in ${membership.projectName}`,
    "Ask an owner of the project to do it, or to change your role.",
  );
}

/**
 * The session behind a cookie's token, or null when it is unknown, expired or signed out. Notes it used,
 * at most once per SESSION_TOUCH_MS ("Your account" shows when each session was last used).
 */
export function sessionFor(db: Db, sessionToken: string, now = Date.now()): TeamSession | null {
  const hash = tokenHash(sessionToken);
  const row = store.findLiveSession(db, hash, now);
  if (!row) return null;
  const member = store.findMember(db, row.member_id);
  if (!member) return null;
  if (row.last_used_at === null || now - row.last_used_at >= SESSION_TOUCH_MS) noteUsed(db, hash, now);
  return {
    member,
    memberships: store.membershipsOf(db, member.id),
    csrfToken: row.csrf_token,
    expiresAt: row.expires_at,
    sessionId: row.id,
  };
}

/**
 * Writes a session's "last used". A coarse time is all it is, so it is skipped rather than waited for
 * while writes are held back (src/db/checkpoints.ts) or another process (the CLI, a backup) holds the
 * write lock: a page is never slowed or refused for it. The next request a minute on tries again.
 */
function noteUsed(db: Db, hash: Uint8Array, now: number): void {
  if (whenWritesOpen(db) !== null) return;
  try {
    inTransaction(db, () => store.touchSession(db, hash, now));
  } catch (error) {
    if (!isBusy(error)) throw error;
  }
}

/** How many sign-ins and failed attempts "Your account" shows, each. */
export const SIGN_INS_SHOWN = 10;

/**
 * What "Your account" shows of the member's own sign-ins: their live sessions (`currentSessionId`: the
 * one asking, marked), their newest sign-ins, and the newest wrong passwords given for their email. Only
 * ever the member's own: every query is scoped to `memberId`.
 */
export function accountActivity(
  db: Db,
  memberId: string,
  currentSessionId: string,
  now = Date.now(),
): { sessions: ActiveSession[]; signIns: SignInEvent[]; failedSignIns: SignInEvent[] } {
  return {
    sessions: store.liveSessionsOf(db, memberId, now).map((row) => ({
      id: row.id,
      signedInAt: iso(row.created_at),
      lastUsedAt: isoOrNull(row.last_used_at),
      userAgent: row.user_agent ?? "",
      ip: row.ip ?? "unknown",
      current: row.id === currentSessionId,
    })),
    signIns: store.signInsOf(db, memberId, false, SIGN_INS_SHOWN),
    failedSignIns: store.signInsOf(db, memberId, true, SIGN_INS_SHOWN),
  };
}

/**
 * Signs out one of the member's other sessions, by its id (a lost phone, a shared computer). `current`
 * when the id is the asking session's own (that is Sign out, not this), `none` when the member has no
 * live session with that id (another member's, or ended already): nothing is signed out then.
 */
export function signOutSession(
  db: Db,
  memberId: string,
  sessionId: string,
  currentSessionId: string,
  now = Date.now(),
): "signedOut" | "current" | "none" {
  if (sessionId === currentSessionId) return "current";
  return inTransaction(db, () => store.revokeSessionById(db, memberId, sessionId, currentSessionId, now))
    ? "signedOut"
    : "none";
}

/** Signs out every session of the member but the asking one; how many there were. */
export function signOutOtherSessions(
  db: Db,
  memberId: string,
  currentSessionId: string,
  now = Date.now(),
): number {
  return inTransaction(db, () => store.revokeSessionsBut(db, memberId, currentSessionId, now));
}

export function signOut(db: Db, sessionToken: string, now = Date.now()): void {
  inTransaction(db, () => store.revokeSession(db, tokenHash(sessionToken), now));
}

/** What one clean-up of the team's spent records deleted. */
export interface TeamCleanUp {
  sessions: number;
  invites: number;
  signInLinks: number;
}

/**
 * Deletes every member's sessions that ended (signed out, or expired) more than ENDED_SESSIONS_KEPT_MS
 * ago, and the invites and sign-in links used, withdrawn or expired by `now`: a spent link answers as an
 * unknown one does, so nothing needs its row, and an invite's row is an email address kept for nothing
 * (docs/dashboard.md, "Sessions and forms").
 */
export function deleteSpentTeamRecords(db: Db, now = Date.now()): TeamCleanUp {
  return inTransaction(db, () => ({
    sessions: store.deleteEndedSessions(db, now - ENDED_SESSIONS_KEPT_MS),
    invites: store.deleteSpentInvites(db, now),
    signInLinks: store.deleteSpentSignInLinks(db, now),
  }));
}

/** Ends every session of the member (a lost laptop, a changed password). */
export function signOutEverywhere(db: Db, memberId: string, now = Date.now()): number {
  return inTransaction(db, () => store.revokeSessionsOf(db, memberId, now));
}

export function listMembers(db: Db, projectSlug: string): (TeamMember & { role: TeamRole })[] {
  return store.membersOfProject(db, requireProjectBySlug(db, projectSlug).id);
}

/** The member has opened the project's inbox: board comments until now are no longer new to them. */
export function markInboxSeen(db: Db, memberId: string, projectId: string, now = Date.now()): void {
  inTransaction(db, () => store.setInboxSeen(db, memberId, projectId, now));
}

/** A project's invites not accepted yet and not expired: who may still join with a link, and as what. */
export function listOpenInvites(
  db: Db,
  projectSlug: string,
  now = Date.now(),
): { id: string; email: string; role: TeamRole; createdAt: string; expiresAt: string }[] {
  return store.openInvites(db, requireProjectBySlug(db, projectSlug).id, now).map((invite) => ({
    ...invite,
    createdAt: new Date(invite.createdAt).toISOString(),
    expiresAt: new Date(invite.expiresAt).toISOString(),
  }));
}

/**
 * Withdraws one open invite of the project, by the `id` listOpenInvites gives it (the row an owner clicked);
 * answers its email, or null when there is no such open invite (used, expired or withdrawn meanwhile).
 */
export function withdrawInvite(
  db: Db,
  projectSlug: string,
  inviteId: string,
  now = Date.now(),
): string | null {
  const project = requireProjectBySlug(db, projectSlug);
  if (!/^[0-9a-f]{64}$/.test(inviteId)) return null;
  return inTransaction(db, () => {
    const withdrawn = store.expireInvite(db, project.id, Buffer.from(inviteId, "hex"), now);
    if (withdrawn === null) return null;
    recordInviteWithdrawn(db, project.id, inviteId, withdrawn, null);
    return withdrawn.email;
  });
}

function recordInviteWithdrawn(
  db: Db,
  projectId: string,
  inviteId: string,
  invite: { email: string; role: TeamRole },
  source: ActivitySource | null,
): void {
  recordActivity(db, projectId, {
    action: "withdrawn",
    entityType: "invite",
    entityId: inviteId,
    metadata: { email: invite.email, role: invite.role, ...sourceOf(source) },
  });
}

/**
 * Withdraws the open invite of `email` to the project (`featureboard team withdraw`; an email has one open
 * invite, as a new one replaces it, but every one is withdrawn); false if none.
 */
export function withdrawInvites(
  db: Db,
  projectSlug: string,
  email: string,
  source: ActivitySource | null = null,
  now = Date.now(),
): boolean {
  const project = requireProjectBySlug(db, projectSlug);
  const cleaned = cleanEmail(email);
  return inTransaction(db, () => {
    // One by one, so each invite withdrawn has its own activity entry.
    const open = store.openInvites(db, project.id, now).filter((invite) => invite.email === cleaned);
    for (const invite of open) {
      const withdrawn = store.expireInvite(db, project.id, Buffer.from(invite.id, "hex"), now);
      if (withdrawn) recordInviteWithdrawn(db, project.id, invite.id, withdrawn, source);
    }
    return open.length > 0;
  });
}

/** Removes the member from the project and ends their sessions; false when they were not a member. */
export function removeMember(
  db: Db,
  projectSlug: string,
  email: string,
  source: ActivitySource | null = null,
  now = Date.now(),
): boolean {
  const project = requireProjectBySlug(db, projectSlug);
  return inTransaction(db, () => {
    const member = store.findMemberByEmail(db, email.trim());
    if (!member) return false;
    const role = store.membersOfProject(db, project.id).find((candidate) => candidate.id === member.id)?.role;
    if (role === undefined || !store.deleteMembership(db, member.id, project.id)) return false;
    store.revokeSessionsOf(db, member.id, now);
    recordActivity(db, project.id, {
      action: "removed",
      entityType: "member",
      entityId: member.id,
      metadata: { email: member.email, role, ...sourceOf(source) },
    });
    return true;
  });
}
