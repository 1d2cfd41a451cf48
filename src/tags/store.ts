import type { Db } from "../db/connection";
import { iso } from "../db/time";
import type { Tag } from "./schema";

interface TagRow {
  id: string;
  label: string;
  theme: string;
  created_at: number;
}

const COLUMNS = "id, label, theme, created_at";

function toTag(row: TagRow): Tag {
  return { id: row.id, label: row.label, theme: row.theme, createdAt: iso(row.created_at) };
}

export function listTags(db: Db, projectId: string): Tag[] {
  return db
    .query<TagRow, [string]>(
      `SELECT ${COLUMNS} FROM tags WHERE project_id = ? ORDER BY label COLLATE NOCASE, id`,
    )
    .all(projectId)
    .map(toTag);
}

/** How many requests of the project carry each tag (a tag no request carries is absent). */
export function requestCountsByTag(db: Db, projectId: string): Map<string, number> {
  const rows = db
    .query<{ tag_id: string; n: number }, [string]>(
      `SELECT pt.tag_id, count(*) AS n FROM tags t JOIN post_tags pt ON pt.tag_id = t.id
        WHERE t.project_id = ? GROUP BY pt.tag_id`,
    )
    .all(projectId);
  return new Map(rows.map((row) => [row.tag_id, row.n]));
}

export function findTag(db: Db, projectId: string, tagId: string): Tag | null {
  const row = db
    .query<TagRow, [string, string]>(`SELECT ${COLUMNS} FROM tags WHERE project_id = ? AND id = ?`)
    .get(projectId, tagId);
  return row ? toTag(row) : null;
}

/** Labels are unique per project regardless of case. */
export function findTagByLabel(db: Db, projectId: string, label: string): Tag | null {
  const row = db
    .query<TagRow, [string, string]>(
      `SELECT ${COLUMNS} FROM tags WHERE project_id = ? AND label = ? COLLATE NOCASE`,
    )
    .get(projectId, label);
  return row ? toTag(row) : null;
}

export function insertTag(
  db: Db,
  projectId: string,
  tag: { id: string; label: string; theme: string },
  now: number,
): Tag {
  db.query(
    "INSERT INTO tags (id, project_id, label, theme, created_at, updated_at) VALUES ($id, $projectId, $label, $theme, $now, $now)",
  ).run({ ...tag, projectId, now });
  return { ...tag, createdAt: iso(now) };
}

export function updateTag(db: Db, projectId: string, tag: Tag, now: number): void {
  db.query(
    "UPDATE tags SET label = $label, theme = $theme, updated_at = $now WHERE project_id = $projectId AND id = $id",
  ).run({ id: tag.id, label: tag.label, theme: tag.theme, projectId, now });
}

export function deleteTag(db: Db, projectId: string, tagId: string): void {
  db.query("DELETE FROM tags WHERE project_id = ? AND id = ?").run(projectId, tagId);
}
