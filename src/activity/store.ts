import type { Db } from "../db/connection";
import { iso } from "../db/time";
import type { ActivityEntry } from "./schema";

export interface ActivityInput {
  action: string;
  entityType: string;
  entityId: string | null;
  metadata?: Record<string, unknown> | null;
}

/**
 * Records an audit entry; call it inside the transaction of the change it describes. A change made from
 * the dashboard names its team member in the entry's metadata (`teamMember: {id, name}`).
 */
export function recordActivity(db: Db, projectId: string, entry: ActivityInput): void {
  const member = db.actingMember;
  const metadata = member
    ? { ...entry.metadata, teamMember: { id: member.id, name: member.name } }
    : entry.metadata;
  db.query(
    `INSERT INTO activity (id, project_id, action, entity_type, entity_id, metadata, created_at)
     VALUES ($id, $projectId, $action, $entityType, $entityId, $metadata, $now)`,
  ).run({
    id: Bun.randomUUIDv7(),
    projectId,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId,
    metadata: metadata ? JSON.stringify(metadata) : null,
    now: Date.now(),
  });
}

interface ActivityRow {
  id: string;
  action: string;
  entity_type: string;
  entity_id: string | null;
  metadata: string | null;
  created_at: number;
}

function toEntry(row: ActivityRow): ActivityEntry {
  return {
    id: row.id,
    action: row.action,
    entityType: row.entity_type,
    entityId: row.entity_id,
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
    createdAt: iso(row.created_at),
  };
}

/** Which entries a listing shows: of one entity type, and/or made by one team member from the dashboard. */
export interface ActivityFilter {
  entityType?: string | undefined;
  teamMemberId?: string | undefined;
  /** Leave out entries with this action (the dashboard's one line per merge). */
  exceptAction?: string | undefined;
  /** Leave out entries of these entity types (what a role may not see). */
  exceptEntityTypes?: readonly string[] | undefined;
}

function filterOf(projectId: string, filter: ActivityFilter) {
  const clauses = ["project_id = ?"];
  const params = [projectId];
  if (filter.entityType !== undefined) {
    clauses.push("entity_type = ?");
    params.push(filter.entityType);
  }
  if (filter.teamMemberId !== undefined) {
    clauses.push("json_extract(metadata, '$.teamMember.id') = ?");
    params.push(filter.teamMemberId);
  }
  if (filter.exceptAction !== undefined) {
    clauses.push("action <> ?");
    params.push(filter.exceptAction);
  }
  if (filter.exceptEntityTypes !== undefined && filter.exceptEntityTypes.length > 0) {
    clauses.push(`entity_type NOT IN (${filter.exceptEntityTypes.map(() => "?").join(", ")})`);
    params.push(...filter.exceptEntityTypes);
  }
  return { sql: clauses.join(" AND "), params };
}

export function countActivity(db: Db, projectId: string, filter: ActivityFilter = {}): number {
  const { sql, params } = filterOf(projectId, filter);
  return (
    db.query<{ n: number }, string[]>(`SELECT count(*) AS n FROM activity WHERE ${sql}`).get(...params)?.n ??
    0
  );
}

/** Newest first; ids are time-ordered, so they break ties within a millisecond. */
export function listActivity(
  db: Db,
  projectId: string,
  filter: ActivityFilter,
  limit: number,
  offset: number,
): ActivityEntry[] {
  const { sql, params } = filterOf(projectId, filter);
  return db
    .query<ActivityRow, (string | number)[]>(
      `SELECT id, action, entity_type, entity_id, metadata, created_at FROM activity WHERE ${sql}
       ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    )
    .all(...params, limit, offset)
    .map(toEntry);
}

/** The entries of one post and of its votes and comments, newest first (index activity_of_post). */
export function activityOfPost(db: Db, projectId: string, postId: string, limit: number): ActivityEntry[] {
  return db
    .query<ActivityRow, [string, string, number]>(
      `SELECT id, action, entity_type, entity_id, metadata, created_at FROM activity
        WHERE project_id = ? AND coalesce(json_extract(metadata, '$.postId'), entity_id) = ?
        ORDER BY created_at DESC LIMIT ?`,
    )
    .all(projectId, postId, limit)
    .map(toEntry);
}

/** Status changes since a time, counted per (from, to) pair: how requests flowed through the statuses. */
export function statusFlowSince(
  db: Db,
  projectId: string,
  since: number,
): { from: string; to: string; count: number }[] {
  return db
    .query<{ from_status: string; to_status: string; n: number }, [string, number]>(
      `SELECT json_extract(metadata, '$.from') AS from_status, json_extract(metadata, '$.to') AS to_status,
              count(*) AS n
         FROM activity
        WHERE project_id = ? AND entity_type = 'post' AND action = 'status_changed' AND created_at >= ?
        GROUP BY from_status, to_status ORDER BY n DESC`,
    )
    .all(projectId, since)
    .map((row) => ({ from: row.from_status, to: row.to_status, count: row.n }));
}
