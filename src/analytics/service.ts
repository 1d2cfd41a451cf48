import { type Db, inTransaction } from "../db/connection";
import { requirePostRow, toPost } from "../posts/service";
import { type Analytics, PERIOD_DAYS, type Period } from "./schema";
import * as store from "./store";

const DAY_MS = 24 * 60 * 60 * 1000;
const TOP_POSTS = 10;
const TRENDING_TAGS = 10;

/**
 * Figures for the last 7, 30 or 90 days before `now`. Posts, votes and comments count from exactly
 * N × 24 hours ago; page views are kept per UTC day, so they count the N UTC days ending today.
 */
export function getAnalytics(
  db: Db,
  projectId: string,
  period: Period = "week",
  now = Date.now(),
): Analytics {
  const days = PERIOD_DAYS[period];
  const since = now - days * DAY_MS;
  return {
    period,
    stats: {
      new_posts: store.countPostsSince(db, projectId, since),
      total_votes: store.countVotesSince(db, projectId, since),
      new_comments: store.countCommentsSince(db, projectId, since),
      page_views: countPageViews(db, projectId, now - (days - 1) * DAY_MS),
    },
    top_posts: store
      .topVotedPostIds(db, projectId, since, TOP_POSTS)
      .map((postId) => toPost(requirePostRow(db, projectId, postId))),
    trending_tags: store.trendingTags(db, projectId, since, TRENDING_TAGS),
  };
}

/** The UTC day a moment falls on, as page views are counted. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Counts one view of a project's public board pages; the public API and the board pages call it. */
export function recordPageView(db: Db, projectId: string, at = Date.now()): void {
  inTransaction(db, () => store.addPageView(db, projectId, utcDay(at)));
}

/** Views from the day of `sinceMs` to today, inclusive (UTC days). */
export function countPageViews(db: Db, projectId: string, sinceMs: number): number {
  return store.sumPageViews(db, projectId, utcDay(sinceMs));
}
