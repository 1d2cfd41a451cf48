import { inTransaction, type Db } from "../db/connection";

/** The UTC day a moment falls on, as page views are counted. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Counts one view of a project's public board pages; the public API and the board pages call it. */
export function recordPageView(db: Db, projectId: string, at = Date.now()): void {
  inTransaction(db, () =>
    db
      .query(
        `INSERT INTO page_views (project_id, day, views) VALUES (?, ?, 1)
         ON CONFLICT (project_id, day) DO UPDATE SET views = views + 1`,
      )
      .run(projectId, utcDay(at)),
  );
}

/** Views from the day of `sinceMs` to today, inclusive (UTC days). */
export function countPageViews(db: Db, projectId: string, sinceMs: number): number {
  return (
    db
      .query<{ n: number }, [string, string]>(
        "SELECT coalesce(sum(views), 0) AS n FROM page_views WHERE project_id = ? AND day >= ?",
      )
      .get(projectId, utcDay(sinceMs))?.n ?? 0
  );
}
