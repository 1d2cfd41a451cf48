import type { Db } from "../db/connection";
import type { IntegrationKind, StoredConfigs } from "./schema";

export interface IntegrationRow {
  project_id: string;
  kind: IntegrationKind;
  config: string;
  enabled: number;
  created_at: number;
  updated_at: number;
}

export interface Integration<K extends IntegrationKind> {
  kind: K;
  config: StoredConfigs[K];
  enabled: boolean;
  createdAt: number;
  updatedAt: number;
}

export function findIntegration<K extends IntegrationKind>(
  db: Db,
  projectId: string,
  kind: K,
): Integration<K> | null {
  const row = db
    .query<IntegrationRow, [string, string]>(
      "SELECT project_id, kind, config, enabled, created_at, updated_at FROM integrations WHERE project_id = ? AND kind = ?",
    )
    .get(projectId, kind);
  if (!row) return null;
  return {
    kind,
    config: JSON.parse(row.config) as StoredConfigs[K],
    enabled: row.enabled === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The enabled integrations of a project, by kind: what the delivery worker fans events out to. */
export function enabledIntegrations(db: Db, projectId: string): IntegrationRow[] {
  return db
    .query<IntegrationRow, [string]>(
      "SELECT project_id, kind, config, enabled, created_at, updated_at FROM integrations WHERE project_id = ? AND enabled = 1",
    )
    .all(projectId);
}

export function upsertIntegration(
  db: Db,
  projectId: string,
  kind: IntegrationKind,
  config: unknown,
  enabled: boolean,
  now: number,
): void {
  db.query(
    `INSERT INTO integrations (project_id, kind, config, enabled, created_at, updated_at)
     VALUES ($projectId, $kind, $config, $enabled, $now, $now)
     ON CONFLICT (project_id, kind) DO UPDATE SET config = excluded.config, enabled = excluded.enabled,
       updated_at = excluded.updated_at`,
  ).run({ projectId, kind, config: JSON.stringify(config), enabled: enabled ? 1 : 0, now });
}

export function deleteIntegration(db: Db, projectId: string, kind: IntegrationKind): void {
  db.query("DELETE FROM integrations WHERE project_id = ? AND kind = ?").run(projectId, kind);
}

export interface IssueLink {
  provider: "code-host" | "issue-tracker";
  externalId: string;
  url: string;
}

export function findIssueLink(db: Db, postId: string, provider: IssueLink["provider"]): IssueLink | null {
  const row = db
    .query<{ external_id: string; url: string }, [string, string]>(
      "SELECT external_id, url FROM post_issue_links WHERE post_id = ? AND provider = ?",
    )
    .get(postId, provider);
  return row ? { provider, externalId: row.external_id, url: row.url } : null;
}

/** The issues opened for a post on the code host and the issue tracker. */
export function issueLinksOfPost(db: Db, postId: string): IssueLink[] {
  return db
    .query<{ provider: IssueLink["provider"]; external_id: string; url: string }, [string]>(
      "SELECT provider, external_id, url FROM post_issue_links WHERE post_id = ? ORDER BY provider",
    )
    .all(postId)
    .map((row) => ({ provider: row.provider, externalId: row.external_id, url: row.url }));
}

/** The issue links of many posts in one query (a page of posts costs one query, not one per post). */
export function issueLinksOfPosts(db: Db, postIds: readonly string[]): Map<string, IssueLink[]> {
  const byPost = new Map<string, IssueLink[]>(postIds.map((id) => [id, []]));
  if (postIds.length === 0) return byPost;
  const rows = db
    .query<{ post_id: string; provider: IssueLink["provider"]; external_id: string; url: string }, [string]>(
      `SELECT post_id, provider, external_id, url FROM post_issue_links
       WHERE post_id IN (SELECT value FROM json_each(?)) ORDER BY provider`,
    )
    .all(JSON.stringify(postIds));
  for (const row of rows) {
    byPost.get(row.post_id)?.push({ provider: row.provider, url: row.url, externalId: row.external_id });
  }
  return byPost;
}

export function insertIssueLink(db: Db, postId: string, link: IssueLink, now: number): void {
  db.query(
    `INSERT INTO post_issue_links (post_id, provider, external_id, url, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (post_id, provider) DO NOTHING`,
  ).run(postId, link.provider, link.externalId, link.url, now);
}
