import type { Db } from "../db/connection";
import type { KeyKind, Plan, Project } from "./schema";

interface ProjectRow {
  id: string;
  slug: string;
  name: string;
  plan: Plan;
  is_public: number;
  accent_color: string | null;
  logo_updated_at: number | null;
  created_at: number;
}

export interface KeyRow {
  id: string;
  project_id: string;
  kind: KeyKind;
  prefix: string;
  key_hash: Uint8Array;
  /** Optional, given at creation (migration 0021). */
  name: string | null;
  created_at: number;
  revoked_at: number | null;
}

function toProject(row: ProjectRow): Project {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    plan: row.plan,
    isPublic: row.is_public === 1,
    accentColor: row.accent_color,
    logoVersion: row.logo_updated_at,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

export function insertProject(
  db: Db,
  project: Omit<Project, "createdAt" | "accentColor" | "logoVersion">,
  now: number,
): Project {
  db.query(
    "INSERT INTO projects (id, slug, name, plan, is_public, created_at) VALUES ($id, $slug, $name, $plan, $isPublic, $now)",
  ).run({ ...project, isPublic: project.isPublic ? 1 : 0, now });
  return { ...project, accentColor: null, logoVersion: null, createdAt: new Date(now).toISOString() };
}

export function countProjects(db: Db): number {
  return db.query<{ n: number }, []>("SELECT count(*) AS n FROM projects").get()?.n ?? 0;
}

export function findProjectById(db: Db, id: string): Project | null {
  const row = db.query<ProjectRow, [string]>("SELECT * FROM projects WHERE id = ?").get(id);
  return row ? toProject(row) : null;
}

export function findProjectBySlug(db: Db, slug: string): Project | null {
  const row = db.query<ProjectRow, [string]>("SELECT * FROM projects WHERE slug = ?").get(slug);
  return row ? toProject(row) : null;
}

export function listProjects(db: Db): Project[] {
  return db.query<ProjectRow, []>("SELECT * FROM projects ORDER BY created_at, id").all().map(toProject);
}

export function updateProjectPlan(db: Db, id: string, plan: Plan): void {
  db.query("UPDATE projects SET plan = ? WHERE id = ?").run(plan, id);
}

export function listKeyRows(db: Db, projectId: string): KeyRow[] {
  return db
    .query<KeyRow, [string]>("SELECT * FROM api_keys WHERE project_id = ? ORDER BY created_at, id")
    .all(projectId);
}

export function insertKey(db: Db, key: Omit<KeyRow, "revoked_at">): void {
  db.query(
    `INSERT INTO api_keys (id, project_id, kind, prefix, key_hash, name, created_at)
     VALUES ($id, $project_id, $kind, $prefix, $key_hash, $name, $created_at)`,
  ).run(key);
}

/** An active key with its project, in one lookup: this runs on every authenticated request. */
export function findActiveKeyWithProject(db: Db, prefix: string): { key: KeyRow; project: Project } | null {
  const row = db
    .query<
      KeyRow & {
        p_slug: string;
        p_name: string;
        p_plan: Plan;
        p_is_public: number;
        p_accent_color: string | null;
        p_logo_updated_at: number | null;
        p_created_at: number;
      },
      [string]
    >(
      `SELECT k.*, p.slug AS p_slug, p.name AS p_name, p.plan AS p_plan, p.is_public AS p_is_public,
       p.accent_color AS p_accent_color, p.logo_updated_at AS p_logo_updated_at,
       p.created_at AS p_created_at FROM api_keys k JOIN projects p ON p.id = k.project_id
       WHERE k.prefix = ? AND k.revoked_at IS NULL`,
    )
    .get(prefix);
  if (!row) return null;
  const { p_slug, p_name, p_plan, p_is_public, p_accent_color, p_logo_updated_at, p_created_at, ...key } =
    row;
  return {
    key,
    project: toProject({
      id: key.project_id,
      slug: p_slug,
      name: p_name,
      plan: p_plan,
      is_public: p_is_public,
      accent_color: p_accent_color,
      logo_updated_at: p_logo_updated_at,
      created_at: p_created_at,
    }),
  };
}

/** The key with this readable prefix (prefixes are unique), in that project when one is given; active or not. */
export function findKeyByPrefix(db: Db, prefix: string, projectId?: string): KeyRow | null {
  if (projectId === undefined) {
    return db.query<KeyRow, [string]>("SELECT * FROM api_keys WHERE prefix = ?").get(prefix);
  }
  return db
    .query<KeyRow, [string, string]>("SELECT * FROM api_keys WHERE prefix = ? AND project_id = ?")
    .get(prefix, projectId);
}

export function renameKey(db: Db, id: string, name: string | null): void {
  db.query("UPDATE api_keys SET name = ? WHERE id = ?").run(name, id);
}

/** Returns whether an active key with that prefix existed (in that project, when one is given). */
export function revokeKeyByPrefix(db: Db, prefix: string, now: number, projectId?: string): boolean {
  if (projectId === undefined) {
    return (
      db.query("UPDATE api_keys SET revoked_at = ? WHERE prefix = ? AND revoked_at IS NULL").run(now, prefix)
        .changes > 0
    );
  }
  return (
    db
      .query("UPDATE api_keys SET revoked_at = ? WHERE prefix = ? AND project_id = ? AND revoked_at IS NULL")
      .run(now, prefix, projectId).changes > 0
  );
}

export function updateProjectSettings(
  db: Db,
  id: string,
  settings: { name: string; isPublic: boolean; accentColor: string | null },
): void {
  db.query("UPDATE projects SET name = ?, is_public = ?, accent_color = ? WHERE id = ?").run(
    settings.name,
    settings.isPublic ? 1 : 0,
    settings.accentColor,
    id,
  );
}

export function saveLogo(
  db: Db,
  id: string,
  logo: { contentType: string; bytes: Uint8Array },
  now: number,
): void {
  db.query(
    `INSERT INTO project_logos (project_id, content_type, bytes) VALUES (?, ?, ?)
     ON CONFLICT (project_id) DO UPDATE SET content_type = excluded.content_type, bytes = excluded.bytes`,
  ).run(id, logo.contentType, logo.bytes);
  db.query("UPDATE projects SET logo_updated_at = ? WHERE id = ?").run(now, id);
}

export function deleteLogo(db: Db, id: string): void {
  db.query("DELETE FROM project_logos WHERE project_id = ?").run(id);
  db.query("UPDATE projects SET logo_updated_at = NULL WHERE id = ?").run(id);
}

export function findLogo(db: Db, id: string): { contentType: string; bytes: Uint8Array } | null {
  const row = db
    .query<{ content_type: string; bytes: Uint8Array }, [string]>(
      "SELECT content_type, bytes FROM project_logos WHERE project_id = ?",
    )
    .get(id);
  return row ? { contentType: row.content_type, bytes: row.bytes } : null;
}
