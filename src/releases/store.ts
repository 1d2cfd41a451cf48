import type { Db } from "../db/connection";
import { iso, isoOrNull } from "../db/time";
import type { Release } from "./schema";

export interface ReleaseRow {
  id: string;
  project_id: string;
  title: string;
  content: string | null;
  label: string | null;
  is_draft: 0 | 1;
  published_at: number | null;
  created_at: number;
  updated_at: number;
}

const COLUMNS = "id, project_id, title, content, label, is_draft, published_at, created_at, updated_at";

export function toRelease(row: ReleaseRow, postIds: string[]): Release {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    label: row.label,
    isDraft: row.is_draft === 1,
    publishedAt: isoOrNull(row.published_at),
    postIds,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export function findReleaseRow(db: Db, projectId: string, releaseId: string): ReleaseRow | null {
  return db
    .query<ReleaseRow, [string, string]>(`SELECT ${COLUMNS} FROM releases WHERE project_id = ? AND id = ?`)
    .get(projectId, releaseId);
}

export function insertRelease(db: Db, row: ReleaseRow): void {
  db.query(
    `INSERT INTO releases (${COLUMNS}) VALUES ($id, $project_id, $title, $content, $label, $is_draft,
     $published_at, $created_at, $updated_at)`,
  ).run({ ...row });
}

export function updateReleaseRow(db: Db, row: ReleaseRow): void {
  db.query(
    `UPDATE releases SET title = $title, content = $content, label = $label, is_draft = $is_draft,
     published_at = $published_at, updated_at = $updated_at WHERE project_id = $project_id AND id = $id`,
  ).run({
    id: row.id,
    project_id: row.project_id,
    title: row.title,
    content: row.content,
    label: row.label,
    is_draft: row.is_draft,
    published_at: row.published_at,
    updated_at: row.updated_at,
  });
}

export function deleteReleaseRow(db: Db, projectId: string, releaseId: string): void {
  db.query("DELETE FROM releases WHERE project_id = ? AND id = ?").run(projectId, releaseId);
}

export function countPublished(db: Db, projectId: string): number {
  return (
    db
      .query<{ n: number }, [string]>(
        "SELECT count(*) AS n FROM releases WHERE project_id = ? AND is_draft = 0",
      )
      .get(projectId)?.n ?? 0
  );
}

export function listPublishedRows(db: Db, projectId: string, limit: number, offset: number): ReleaseRow[] {
  return db
    .query<ReleaseRow, [string, number, number]>(
      `SELECT ${COLUMNS} FROM releases WHERE project_id = ? AND is_draft = 0
       ORDER BY published_at DESC, id DESC LIMIT ? OFFSET ?`,
    )
    .all(projectId, limit, offset);
}

/** Every release of a project, drafts included, oldest first (the export). */
export function listAllRows(db: Db, projectId: string): ReleaseRow[] {
  return db
    .query<ReleaseRow, [string]>(
      `SELECT ${COLUMNS} FROM releases WHERE project_id = ? ORDER BY created_at, id`,
    )
    .all(projectId);
}

// ---- shipped posts ----

export function postIdsOf(db: Db, releaseIds: readonly string[]): Map<string, string[]> {
  const byRelease = new Map<string, string[]>(releaseIds.map((id) => [id, []]));
  if (releaseIds.length === 0) return byRelease;
  const rows = db
    .query<{ release_id: string; post_id: string }, [string]>(
      `SELECT release_id, post_id FROM release_posts
       WHERE release_id IN (SELECT value FROM json_each(?)) ORDER BY post_id`,
    )
    .all(JSON.stringify(releaseIds));
  for (const row of rows) byRelease.get(row.release_id)?.push(row.post_id);
  return byRelease;
}

export function replaceReleasePosts(db: Db, releaseId: string, postIds: readonly string[]): void {
  db.query("DELETE FROM release_posts WHERE release_id = ?").run(releaseId);
  const insert = db.query("INSERT OR IGNORE INTO release_posts (release_id, post_id) VALUES (?, ?)");
  for (const postId of postIds) insert.run(releaseId, postId);
}

/** Posts of the project whose `releaseId` names this release. */
export function postsCarrying(db: Db, projectId: string, releaseId: string): string[] {
  return db
    .query<{ id: string }, [string, string]>("SELECT id FROM posts WHERE project_id = ? AND release_id = ?")
    .all(projectId, releaseId)
    .map((row) => row.id);
}

/** The ids among `postIds` that are posts of this project. */
export function existingPostIds(db: Db, projectId: string, postIds: readonly string[]): Set<string> {
  const rows = db
    .query<{ id: string }, [string, string]>(
      "SELECT id FROM posts WHERE project_id = ? AND id IN (SELECT value FROM json_each(?))",
    )
    .all(projectId, JSON.stringify(postIds));
  return new Set(rows.map((row) => row.id));
}
