import type { Db } from "../db/connection";
import { iso, isoOrNull } from "../db/time";
import { maskSecret } from "../http/secrets";
import type { PaymentsConfig, SyncResult } from "./schema";

export interface PaymentsRow {
  project_id: string;
  api_key: string;
  enabled: number;
  created_at: number;
  updated_at: number;
  last_sync_at: number | null;
  last_sync_result: string | null;
}

export function toPaymentsConfig(row: PaymentsRow): PaymentsConfig {
  return {
    provider: "stripe",
    apiKey: maskSecret(row.api_key),
    enabled: row.enabled === 1,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    lastSyncAt: isoOrNull(row.last_sync_at),
    lastSync: row.last_sync_result === null ? null : (JSON.parse(row.last_sync_result) as SyncResult),
  };
}

export function findPaymentsRow(db: Db, projectId: string): PaymentsRow | null {
  return db
    .query<PaymentsRow, [string]>("SELECT * FROM payment_integrations WHERE project_id = ?")
    .get(projectId);
}

export function savePaymentsRow(db: Db, row: PaymentsRow): void {
  db.query(
    `INSERT INTO payment_integrations (project_id, api_key, enabled, created_at, updated_at)
     VALUES ($project_id, $api_key, $enabled, $created_at, $updated_at)
     ON CONFLICT (project_id) DO UPDATE SET api_key = $api_key, enabled = $enabled, updated_at = $updated_at`,
  ).run({
    project_id: row.project_id,
    api_key: row.api_key,
    enabled: row.enabled,
    created_at: row.created_at,
    updated_at: row.updated_at,
  });
}

export function deletePaymentsRow(db: Db, projectId: string): boolean {
  db.query("DELETE FROM payment_synced_users WHERE project_id = ?").run(projectId);
  return db.query("DELETE FROM payment_integrations WHERE project_id = ?").run(projectId).changes > 0;
}

export function recordSync(db: Db, projectId: string, result: SyncResult, now: number): void {
  db.query("UPDATE payment_integrations SET last_sync_at = ?, last_sync_result = ? WHERE project_id = ?").run(
    now,
    JSON.stringify(result),
    projectId,
  );
}

/** Projects whose daily sync should run. */
export function enabledProjectIds(db: Db): string[] {
  return db
    .query<{ project_id: string }, []>("SELECT project_id FROM payment_integrations WHERE enabled = 1")
    .all()
    .map((row) => row.project_id);
}

export function syncedUserIds(db: Db, projectId: string): Set<string> {
  return new Set(
    db
      .query<{ board_user_id: string }, [string]>(
        "SELECT board_user_id FROM payment_synced_users WHERE project_id = ?",
      )
      .all(projectId)
      .map((row) => row.board_user_id),
  );
}

export function markSynced(db: Db, projectId: string, userId: string, now: number): void {
  db.query(
    `INSERT INTO payment_synced_users (project_id, board_user_id, synced_at) VALUES (?, ?, ?)
     ON CONFLICT (project_id, board_user_id) DO UPDATE SET synced_at = excluded.synced_at`,
  ).run(projectId, userId, now);
}

export function unmarkSynced(db: Db, projectId: string, userId: string): void {
  db.query("DELETE FROM payment_synced_users WHERE project_id = ? AND board_user_id = ?").run(
    projectId,
    userId,
  );
}
