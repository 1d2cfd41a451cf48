import type { Db } from "../db/connection";
import { iso } from "../db/time";
import type { ExportComment, ExportVote } from "./schema";

// ---- the id mapping of board-export imports ----

export type MappedEntity = "tag" | "user" | "post" | "vote" | "comment" | "release";

export function mappedId(db: Db, projectId: string, entity: MappedEntity, sourceId: string): string | null {
  return (
    db
      .query<{ target_id: string }, [string, string, string]>(
        "SELECT target_id FROM import_mappings WHERE project_id = ? AND entity_type = ? AND source_id = ?",
      )
      .get(projectId, entity, sourceId)?.target_id ?? null
  );
}

export function rememberMapping(
  db: Db,
  projectId: string,
  entity: MappedEntity,
  sourceId: string,
  targetId: string,
): void {
  db.query(
    "INSERT INTO import_mappings (project_id, entity_type, source_id, target_id) VALUES (?, ?, ?, ?)",
  ).run(projectId, entity, sourceId, targetId);
}

const TABLES: Record<MappedEntity, string> = {
  tag: "tags",
  user: "board_users",
  post: "posts",
  vote: "votes",
  comment: "comments",
  release: "releases",
};

/** Whether this project holds an entity with this very id (an export re-imported where it came from). */
export function entityExists(db: Db, projectId: string, entity: MappedEntity, id: string): boolean {
  return (
    db
      .query<{ found: number }, [string, string]>(
        `SELECT 1 AS found FROM ${TABLES[entity]} WHERE project_id = ? AND id = ?`,
      )
      .get(projectId, id) !== null
  );
}

/** Links an imported post to the post it had been merged into, once both exist. */
export function setMergedInto(db: Db, projectId: string, postId: string, intoId: string): void {
  db.query("UPDATE posts SET merged_into_id = ? WHERE project_id = ? AND id = ?").run(
    intoId,
    projectId,
    postId,
  );
}

// ---- the source ids of csv rows (docs/export-format.md, "CSV rows") ----

/** Where a row came from: only csv rows carry a source id today. */
export type RowSource = "csv";

/** The post a row with this source id was imported as, if it is still on the board. */
export function importedPostOf(
  db: Db,
  projectId: string,
  source: RowSource,
  sourceId: string,
): string | null {
  return (
    db
      .query<{ post_id: string }, [string, string, string]>(
        "SELECT post_id FROM import_sources WHERE project_id = ? AND source = ? AND source_id = ?",
      )
      .get(projectId, source, sourceId)?.post_id ?? null
  );
}

/**
 * Remembers the post a row's source id was imported as; false when the id is taken already (another import
 * of the same file got there first), which the primary key decides, not an earlier read.
 */
export function rememberImportedPost(
  db: Db,
  projectId: string,
  source: RowSource,
  sourceId: string,
  postId: string,
): boolean {
  return (
    db
      .query(
        `INSERT INTO import_sources (project_id, source, source_id, post_id) VALUES (?, ?, ?, ?)
         ON CONFLICT DO NOTHING`,
      )
      .run(projectId, source, sourceId, postId).changes === 1
  );
}

// ---- reads for the export ----

export function allVotes(db: Db, projectId: string): ExportVote[] {
  return db
    .query<
      {
        id: string;
        post_id: string;
        board_user_id: string | null;
        anonymous_id: string | null;
        created_at: number;
      },
      [string]
    >(
      `SELECT id, post_id, board_user_id, anonymous_id, created_at FROM votes WHERE project_id = ?
       ORDER BY created_at, id`,
    )
    .all(projectId)
    .map((row) => ({
      id: row.id,
      postId: row.post_id,
      boardUserId: row.board_user_id,
      anonymousId: row.anonymous_id,
      createdAt: iso(row.created_at),
    }));
}

export function allComments(db: Db, projectId: string): ExportComment[] {
  return db
    .query<
      {
        id: string;
        post_id: string;
        body: string;
        author_name: string | null;
        is_internal: number;
        board_user_id: string | null;
        anonymous_id: string | null;
        created_at: number;
      },
      [string]
    >(
      `SELECT id, post_id, body, author_name, is_internal, board_user_id, anonymous_id, created_at FROM comments
       WHERE project_id = ? ORDER BY created_at, id`,
    )
    .all(projectId)
    .map((row) => ({
      id: row.id,
      postId: row.post_id,
      body: row.body,
      authorName: row.author_name,
      isInternalNote: row.is_internal === 1,
      boardUserId: row.board_user_id,
      anonymousId: row.anonymous_id,
      createdAt: iso(row.created_at),
    }));
}

/** Restores the release an imported post named, as it was exported (the post is ARCHIVED already). */
export function setPostRelease(db: Db, projectId: string, postId: string, releaseId: string): void {
  db.query("UPDATE posts SET release_id = ? WHERE project_id = ? AND id = ? AND status = 'ARCHIVED'").run(
    releaseId,
    projectId,
    postId,
  );
}
