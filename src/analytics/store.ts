import type { Db } from "../db/connection";

function countSince(db: Db, table: "posts" | "votes" | "comments", projectId: string, since: number): number {
  return (
    db
      .query<{ n: number }, [string, number]>(
        `SELECT count(*) AS n FROM ${table} WHERE project_id = ? AND created_at >= ?`,
      )
      .get(projectId, since)?.n ?? 0
  );
}

export const countPostsSince = (db: Db, projectId: string, since: number) =>
  countSince(db, "posts", projectId, since);
export const countVotesSince = (db: Db, projectId: string, since: number) =>
  countSince(db, "votes", projectId, since);
export const countCommentsSince = (db: Db, projectId: string, since: number) =>
  countSince(db, "comments", projectId, since);

/** Rows created since `since`, per UTC day (YYYY-MM-DD), for the dashboard's charts. */
export function dailyCounts(
  db: Db,
  table: "posts" | "votes" | "comments",
  projectId: string,
  since: number,
): Map<string, number> {
  const rows = db
    .query<{ day: string; n: number }, [string, number]>(
      `SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day, count(*) AS n FROM ${table}
        WHERE project_id = ? AND created_at >= ? GROUP BY day`,
    )
    .all(projectId, since);
  return new Map(rows.map((row) => [row.day, row.n]));
}

/** Page views per UTC day from `sinceDay` to today. */
export function dailyPageViews(db: Db, projectId: string, sinceDay: string): Map<string, number> {
  const rows = db
    .query<{ day: string; views: number }, [string, string]>(
      "SELECT day, views FROM page_views WHERE project_id = ? AND day >= ?",
    )
    .all(projectId, sinceDay);
  return new Map(rows.map((row) => [row.day, row.views]));
}

/** Ids of the posts with the most votes cast since `since`; ties by overall votes, then newest. */
export function topVotedPostIds(db: Db, projectId: string, since: number, limit: number): string[] {
  return db
    .query<{ id: string }, [string, number, number]>(
      `SELECT p.id FROM votes v JOIN posts p ON p.id = v.post_id
       WHERE v.project_id = ? AND v.created_at >= ?
       GROUP BY p.id ORDER BY count(*) DESC, p.vote_count DESC, p.created_at DESC, p.id DESC LIMIT ?`,
    )
    .all(projectId, since, limit)
    .map((row) => row.id);
}

/** Tags by how many posts created since `since` carry them. */
export function trendingTags(
  db: Db,
  projectId: string,
  since: number,
  limit: number,
): { label: string; post_count: number }[] {
  return db
    .query<{ label: string; post_count: number }, [string, number, number]>(
      `SELECT t.label, count(*) AS post_count FROM posts p
       JOIN post_tags pt ON pt.post_id = p.id JOIN tags t ON t.id = pt.tag_id
       WHERE p.project_id = ? AND p.created_at >= ?
       GROUP BY t.id ORDER BY post_count DESC, t.label COLLATE NOCASE LIMIT ?`,
    )
    .all(projectId, since, limit);
}

/** Adds one view to the project's count for that UTC day. */
export function addPageView(db: Db, projectId: string, day: string): void {
  db.query(
    `INSERT INTO page_views (project_id, day, views) VALUES (?, ?, 1)
     ON CONFLICT (project_id, day) DO UPDATE SET views = views + 1`,
  ).run(projectId, day);
}

/** Views from `sinceDay` to today, inclusive. */
export function sumPageViews(db: Db, projectId: string, sinceDay: string): number {
  return (
    db
      .query<{ n: number }, [string, string]>(
        "SELECT coalesce(sum(views), 0) AS n FROM page_views WHERE project_id = ? AND day >= ?",
      )
      .get(projectId, sinceDay)?.n ?? 0
  );
}
