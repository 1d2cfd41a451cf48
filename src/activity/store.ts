import type { Db } from "../db/connection";

export interface ActivityInput {
  action: string;
  entityType: string;
  entityId: string | null;
  metadata?: Record<string, unknown> | null;
}

/** Records an audit entry; call it inside the transaction of the change it describes. */
export function recordActivity(db: Db, projectId: string, entry: ActivityInput): void {
  db.query(
    `INSERT INTO activity (id, project_id, action, entity_type, entity_id, metadata, created_at)
     VALUES ($id, $projectId, $action, $entityType, $entityId, $metadata, $now)`,
  ).run({
    id: Bun.randomUUIDv7(),
    projectId,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId,
    metadata: entry.metadata ? JSON.stringify(entry.metadata) : null,
    now: Date.now(),
  });
}
