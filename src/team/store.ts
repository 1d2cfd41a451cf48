import type { Db } from "../db/connection";
import { iso } from "../db/time";
import type { Membership, SignInClient, SignInEvent, SignInKind, TeamMember, TeamRole } from "./schema";

interface MemberRow {
  id: string;
  email: string;
  name: string | null;
  password_hash: string | null;
  created_at: number;
  updated_at: number;
}

function toMember(row: MemberRow): TeamMember {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    hasPassword: row.password_hash !== null,
    createdAt: iso(row.created_at),
  };
}

export function findMemberByEmail(
  db: Db,
  email: string,
): (TeamMember & { passwordHash: string | null }) | null {
  const row = db.query<MemberRow, [string]>("SELECT * FROM team_members WHERE email = ?").get(email);
  return row ? { ...toMember(row), passwordHash: row.password_hash } : null;
}

export function findMember(db: Db, memberId: string): TeamMember | null {
  const row = db.query<MemberRow, [string]>("SELECT * FROM team_members WHERE id = ?").get(memberId);
  return row ? toMember(row) : null;
}

export function insertMember(
  db: Db,
  member: { id: string; email: string; name: string | null },
  now: number,
): void {
  db.query(
    "INSERT INTO team_members (id, email, name, password_hash, created_at, updated_at) VALUES (?, ?, ?, NULL, ?, ?)",
  ).run(member.id, member.email, member.name, now, now);
}

export function setPasswordHash(db: Db, memberId: string, hash: string, now: number): void {
  db.query("UPDATE team_members SET password_hash = ?, updated_at = ? WHERE id = ?").run(hash, now, memberId);
}

export function upsertMembership(
  db: Db,
  memberId: string,
  projectId: string,
  role: TeamRole,
  now: number,
): void {
  db.query(
    `INSERT INTO team_memberships (member_id, project_id, role, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (member_id, project_id) DO UPDATE SET role = excluded.role`,
  ).run(memberId, projectId, role, now);
}

export function deleteMembership(db: Db, memberId: string, projectId: string): boolean {
  return (
    db.query("DELETE FROM team_memberships WHERE member_id = ? AND project_id = ?").run(memberId, projectId)
      .changes > 0
  );
}

export function membershipsOf(db: Db, memberId: string): Membership[] {
  return db
    .query<
      { project_id: string; slug: string; name: string; role: TeamRole; inbox_seen_at: number },
      [string]
    >(
      `SELECT m.project_id, p.slug, p.name, m.role, m.inbox_seen_at
         FROM team_memberships m JOIN projects p ON p.id = m.project_id
        WHERE m.member_id = ? ORDER BY p.created_at, p.id`,
    )
    .all(memberId)
    .map((row) => ({
      projectId: row.project_id,
      projectSlug: row.slug,
      projectName: row.name,
      role: row.role,
      inboxSeenAt: row.inbox_seen_at,
    }));
}

export function setInboxSeen(db: Db, memberId: string, projectId: string, now: number): void {
  db.query("UPDATE team_memberships SET inbox_seen_at = ? WHERE member_id = ? AND project_id = ?").run(
    now,
    memberId,
    projectId,
  );
}

export function membersOfProject(db: Db, projectId: string): (TeamMember & { role: TeamRole })[] {
  return db
    .query<MemberRow & { role: TeamRole }, [string]>(
      `SELECT t.*, m.role FROM team_members t JOIN team_memberships m ON m.member_id = t.id
        WHERE m.project_id = ? ORDER BY t.created_at, t.id`,
    )
    .all(projectId)
    .map((row) => ({ ...toMember(row), role: row.role }));
}

export function insertInvite(
  db: Db,
  invite: { tokenHash: Uint8Array; email: string; projectId: string; role: TeamRole; expiresAt: number },
  now: number,
): void {
  db.query(
    "INSERT INTO team_invites (token_hash, email, project_id, role, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
  ).run(invite.tokenHash, invite.email, invite.projectId, invite.role, now, invite.expiresAt);
}

export interface InviteRow {
  email: string;
  project_id: string;
  role: TeamRole;
  expires_at: number;
  used_at: number | null;
}

export function findInvite(db: Db, tokenHash: Uint8Array): InviteRow | null {
  return db
    .query<InviteRow, [Uint8Array]>(
      "SELECT email, project_id, role, expires_at, used_at FROM team_invites WHERE token_hash = ?",
    )
    .get(tokenHash);
}

/**
 * The project's invites that can still be accepted, newest first. An invite's `id` is its token's hash in
 * hex: it names the row (Withdraw on the Members screen) and, being a hash, opens nothing.
 */
export function openInvites(
  db: Db,
  projectId: string,
  now: number,
): { id: string; email: string; role: TeamRole; createdAt: number; expiresAt: number }[] {
  return db
    .query<
      { id: string; email: string; role: TeamRole; created_at: number; expires_at: number },
      [string, number]
    >(
      `SELECT lower(hex(token_hash)) AS id, email, role, created_at, expires_at FROM team_invites
        WHERE project_id = ? AND used_at IS NULL AND expires_at > ? ORDER BY created_at DESC`,
    )
    .all(projectId, now)
    .map((row) => ({
      id: row.id,
      email: row.email,
      role: row.role,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    }));
}

/** Ends one open invite of the project at `now` (its link stops working); its email, or null if none. */
export function expireInvite(
  db: Db,
  projectId: string,
  tokenHash: Uint8Array,
  now: number,
): { email: string; role: TeamRole } | null {
  return db
    .query<{ email: string; role: TeamRole }, [number, string, Uint8Array, number]>(
      `UPDATE team_invites SET expires_at = ?
        WHERE project_id = ? AND token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING email, role`,
    )
    .get(now, projectId, tokenHash, now);
}

/** Ends the open invites of `email` to the project at `now` (their links stop working); how many there were. */
export function expireInvites(db: Db, projectId: string, email: string, now: number): number {
  return db
    .query(
      "UPDATE team_invites SET expires_at = ? WHERE project_id = ? AND email = ? AND used_at IS NULL AND expires_at > ?",
    )
    .run(now, projectId, email, now).changes;
}

/** Marks the invite used; false when it was used already (two tabs, a replayed link). */
export function useInvite(db: Db, tokenHash: Uint8Array, now: number): boolean {
  return (
    db
      .query("UPDATE team_invites SET used_at = ? WHERE token_hash = ? AND used_at IS NULL")
      .run(now, tokenHash).changes === 1
  );
}

export function insertSession(
  db: Db,
  session: {
    id: string;
    tokenHash: Uint8Array;
    memberId: string;
    csrfToken: string;
    expiresAt: number;
    client: SignInClient;
  },
  now: number,
): void {
  db.query(
    `INSERT INTO team_sessions
       (id, token_hash, member_id, csrf_token, created_at, expires_at, last_used_at, user_agent, ip)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    session.id,
    session.tokenHash,
    session.memberId,
    session.csrfToken,
    now,
    session.expiresAt,
    now,
    session.client.userAgent,
    session.client.ip,
  );
}

export function findLiveSession(
  db: Db,
  tokenHash: Uint8Array,
  now: number,
): {
  id: string;
  member_id: string;
  csrf_token: string;
  expires_at: number;
  last_used_at: number | null;
} | null {
  return db
    .query<
      { id: string; member_id: string; csrf_token: string; expires_at: number; last_used_at: number | null },
      [Uint8Array, number]
    >(
      `SELECT id, member_id, csrf_token, expires_at, last_used_at FROM team_sessions
        WHERE token_hash = ? AND revoked_at IS NULL AND expires_at > ?`,
    )
    .get(tokenHash, now);
}

/** Notes the session used at `now`. */
export function touchSession(db: Db, tokenHash: Uint8Array, now: number): void {
  db.query("UPDATE team_sessions SET last_used_at = ? WHERE token_hash = ?").run(now, tokenHash);
}

/** The member's sessions that are neither signed out nor expired, the most recently used first. */
export function liveSessionsOf(
  db: Db,
  memberId: string,
  now: number,
): {
  id: string;
  created_at: number;
  last_used_at: number | null;
  user_agent: string | null;
  ip: string | null;
}[] {
  return db
    .query<
      {
        id: string;
        created_at: number;
        last_used_at: number | null;
        user_agent: string | null;
        ip: string | null;
      },
      [string, number]
    >(
      `SELECT id, created_at, last_used_at, user_agent, ip FROM team_sessions
        WHERE member_id = ? AND revoked_at IS NULL AND expires_at > ?
        ORDER BY coalesce(last_used_at, created_at) DESC, created_at DESC`,
    )
    .all(memberId, now);
}

/**
 * Signs out one live session of the member by its id, never `keep` (the one asking); false when the member
 * has no such live session (another member's, one already ended, or `keep`).
 */
export function revokeSessionById(db: Db, memberId: string, id: string, keep: string, now: number): boolean {
  return (
    db
      .query(
        `UPDATE team_sessions SET revoked_at = ?
          WHERE id = ? AND member_id = ? AND id <> ? AND revoked_at IS NULL AND expires_at > ?`,
      )
      .run(now, id, memberId, keep, now).changes === 1
  );
}

/** Signs out every live session of the member but `keep`; how many there were. */
export function revokeSessionsBut(db: Db, memberId: string, keep: string, now: number): number {
  return db
    .query(
      `UPDATE team_sessions SET revoked_at = ?
        WHERE member_id = ? AND id <> ? AND revoked_at IS NULL AND expires_at > ?`,
    )
    .run(now, memberId, keep, now).changes;
}

/**
 * Records a sign-in (or a failed attempt) of the member, then deletes the oldest of its kind beyond `kept`:
 * sign-ins and failed attempts are counted apart, so failures never push sign-ins out.
 */
export function insertSignIn(
  db: Db,
  event: { memberId: string; kind: SignInKind; client: SignInClient },
  kept: number,
  now: number,
): void {
  db.query("INSERT INTO team_sign_ins (member_id, kind, at, ip, user_agent) VALUES (?, ?, ?, ?, ?)").run(
    event.memberId,
    event.kind,
    now,
    event.client.ip,
    event.client.userAgent,
  );
  const failed = event.kind === "failed" ? 1 : 0;
  db.query(
    `DELETE FROM team_sign_ins WHERE member_id = ?1 AND (kind = 'failed') = ?2 AND id NOT IN
       (SELECT id FROM team_sign_ins WHERE member_id = ?1 AND (kind = 'failed') = ?2 ORDER BY id DESC LIMIT ?3)`,
  ).run(event.memberId, failed, kept);
}

/** The member's newest sign-ins (`failed`: their failed attempts instead), newest first. */
export function signInsOf(db: Db, memberId: string, failed: boolean, limit: number): SignInEvent[] {
  return db
    .query<{ kind: SignInKind; at: number; ip: string; user_agent: string }, [string, number, number]>(
      `SELECT kind, at, ip, user_agent FROM team_sign_ins
        WHERE member_id = ? AND (kind = 'failed') = ? ORDER BY id DESC LIMIT ?`,
    )
    .all(memberId, failed ? 1 : 0, limit)
    .map((row) => ({ kind: row.kind, at: iso(row.at), ip: row.ip, userAgent: row.user_agent }));
}

/**
 * Deletes the member's sessions that ended (signed out, or expired) before `endedBefore`; how many. Their
 * live sessions, and every other member's, stay.
 */
export function deleteEndedSessionsOf(db: Db, memberId: string, endedBefore: number): number {
  return db
    .query("DELETE FROM team_sessions WHERE member_id = ?1 AND (expires_at < ?2 OR revoked_at < ?2)")
    .run(memberId, endedBefore).changes;
}

/** Deletes every member's sessions that ended (signed out, or expired) before `endedBefore`; how many. */
export function deleteEndedSessions(db: Db, endedBefore: number): number {
  return db.query("DELETE FROM team_sessions WHERE expires_at < ?1 OR revoked_at < ?1").run(endedBefore)
    .changes;
}

/**
 * Deletes invites used, withdrawn or expired before `spentBefore`; how many. Their links already answer as
 * an unknown link does, so the row only kept the email of someone invited (docs/dashboard.md).
 */
export function deleteSpentInvites(db: Db, spentBefore: number): number {
  return db.query("DELETE FROM team_invites WHERE used_at < ?1 OR expires_at < ?1").run(spentBefore).changes;
}

/** Deletes sign-in links used or expired before `spentBefore`; how many. */
export function deleteSpentSignInLinks(db: Db, spentBefore: number): number {
  return db.query("DELETE FROM team_sign_in_links WHERE used_at < ?1 OR expires_at < ?1").run(spentBefore)
    .changes;
}

export function revokeSession(db: Db, tokenHash: Uint8Array, now: number): void {
  db.query("UPDATE team_sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL").run(
    now,
    tokenHash,
  );
}

export function revokeSessionsOf(db: Db, memberId: string, now: number): number {
  return db
    .query("UPDATE team_sessions SET revoked_at = ? WHERE member_id = ? AND revoked_at IS NULL")
    .run(now, memberId).changes;
}

export function insertSignInLink(
  db: Db,
  link: { tokenHash: Uint8Array; memberId: string; expiresAt: number },
  now: number,
): void {
  db.query(
    "INSERT INTO team_sign_in_links (token_hash, member_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
  ).run(link.tokenHash, link.memberId, now, link.expiresAt);
}

/** Marks a live link used and answers its member; null when it is unknown, used or expired. */
export function useSignInLink(db: Db, tokenHash: Uint8Array, now: number): string | null {
  return (
    db
      .query<{ member_id: string }, [number, Uint8Array, number]>(
        `UPDATE team_sign_in_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?
         RETURNING member_id`,
      )
      .get(now, tokenHash, now)?.member_id ?? null
  );
}

export function findPasswordHash(db: Db, memberId: string): string | null {
  return (
    db
      .query<{ password_hash: string | null }, [string]>(
        "SELECT password_hash FROM team_members WHERE id = ?",
      )
      .get(memberId)?.password_hash ?? null
  );
}

export function setMembershipRole(db: Db, memberId: string, projectId: string, role: TeamRole): boolean {
  return (
    db
      .query("UPDATE team_memberships SET role = ? WHERE member_id = ? AND project_id = ?")
      .run(role, memberId, projectId).changes === 1
  );
}

export function countOwners(db: Db, projectId: string): number {
  return (
    db
      .query<{ n: number }, [string]>(
        "SELECT count(*) AS n FROM team_memberships WHERE project_id = ? AND role = 'owner'",
      )
      .get(projectId)?.n ?? 0
  );
}
