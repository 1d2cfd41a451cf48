import type { Db } from "../db/connection";
import { iso } from "../db/time";
import { formatCents } from "./money";
import type { BoardUser } from "./schema";

export interface UserRow {
  id: string;
  email: string | null;
  name: string | null;
  avatar_url: string | null;
  spend_cents: number;
  created_at: number;
}

const COLUMNS = "id, email, name, avatar_url, spend_cents, created_at";

export function toBoardUser(row: UserRow): BoardUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    avatarUrl: row.avatar_url,
    userSpend: formatCents(row.spend_cents),
    createdAt: iso(row.created_at),
  };
}

export function findUserRow(db: Db, projectId: string, userId: string): UserRow | null {
  return db
    .query<UserRow, [string, string]>(`SELECT ${COLUMNS} FROM board_users WHERE project_id = ? AND id = ?`)
    .get(projectId, userId);
}

export function findUserRowByEmail(db: Db, projectId: string, email: string): UserRow | null {
  return db
    .query<UserRow, [string, string]>(
      `SELECT ${COLUMNS} FROM board_users WHERE project_id = ? AND email = ? COLLATE NOCASE`,
    )
    .get(projectId, email);
}

export function insertUser(db: Db, projectId: string, row: UserRow, emailConfirmed = true): void {
  db.query(
    `INSERT INTO board_users (id, project_id, email, name, avatar_url, spend_cents, created_at, updated_at,
       email_confirmed)
     VALUES ($id, $projectId, $email, $name, $avatar_url, $spend_cents, $created_at, $created_at, $confirmed)`,
  ).run({ ...row, projectId, confirmed: emailConfirmed ? 1 : 0 });
}

/** Marks the user's email confirmed when it has exactly this address (a later change of it is not). */
export function confirmEmail(db: Db, projectId: string, userId: string, email: string): boolean {
  return (
    db
      .query(
        `UPDATE board_users SET email_confirmed = 1
         WHERE project_id = ? AND id = ? AND email = ? COLLATE NOCASE AND email_confirmed = 0`,
      )
      .run(projectId, userId, email).changes > 0
  );
}

/** The team set this user's email: it is confirmed, whatever it was before. */
export function markEmailConfirmed(db: Db, projectId: string, userId: string): void {
  db.query(
    "UPDATE board_users SET email_confirmed = 1 WHERE project_id = ? AND id = ? AND email_confirmed = 0",
  ).run(projectId, userId);
}

export function updateUserRow(db: Db, projectId: string, row: UserRow, now: number): void {
  db.query(
    `UPDATE board_users SET email = $email, name = $name, avatar_url = $avatar_url, spend_cents = $spend_cents,
     updated_at = $now WHERE project_id = $projectId AND id = $id`,
  ).run({
    id: row.id,
    email: row.email,
    name: row.name,
    avatar_url: row.avatar_url,
    spend_cents: row.spend_cents,
    projectId,
    now,
  });
}

export function listUserRows(db: Db, projectId: string, limit: number, offset: number): UserRow[] {
  return db
    .query<UserRow, [string, number, number]>(
      `SELECT ${COLUMNS} FROM board_users WHERE project_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?`,
    )
    .all(projectId, limit, offset);
}

export function countUsers(db: Db, projectId: string): number {
  return (
    db
      .query<{ n: number }, [string]>("SELECT count(*) AS n FROM board_users WHERE project_id = ?")
      .get(projectId)?.n ?? 0
  );
}
