import { type Db, inTransaction, isBusy } from "../db/connection";
import { statusFlowSince } from "../activity/service";
import type { PostStatus } from "../posts/schema";
import { listTeamPosts, requirePostRow, type TeamPost, toPost } from "../posts/service";
import { type Analytics, PERIOD_DAYS, type Period } from "./schema";
import * as store from "./store";

const DAY_MS = 24 * 60 * 60 * 1000;
const TOP_POSTS = 10;
const TRENDING_TAGS = 10;
const REVENUE_DEMAND_POSTS = 10;

/**
 * Open demand: requests not built yet and not turned down (pending, planned, in progress). Complete,
 * shipped (ARCHIVED) and rejected or merged (CLOSED) requests are demand already answered.
 */
export const OPEN_DEMAND_STATUSES: readonly PostStatus[] = ["PENDING", "APPROVED", "IN_PROGRESS"];

/**
 * Revenue-weighted demand (the dashboard's analytics): open requests with paying voters, by the sum of
 * their voters' current monthly spend. All time, not a period: a vote stands until it is removed, and spend
 * is a board user's current figure, so there is no "spend in the period" to weigh by (docs/reporting.md).
 */
export function revenueWeightedDemand(db: Db, projectId: string): TeamPost[] {
  return listTeamPosts(
    db,
    { projectId, statuses: OPEN_DEMAND_STATUSES, words: [], withRevenue: true },
    "revenue",
    1,
  ).data.slice(0, REVENUE_DEMAND_POSTS);
}

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

/** One day of the dashboard's charts. */
export interface DailyFigures {
  day: string;
  new_posts: number;
  votes: number;
  new_comments: number;
  page_views: number;
}

/**
 * The period's figures per UTC day, oldest first: the same rows as `getAnalytics` counts (so each series
 * sums to its total there), bucketed by the UTC day they fall on.
 */
export function getDailyFigures(db: Db, projectId: string, period: Period = "week", now = Date.now()) {
  const days = PERIOD_DAYS[period];
  const since = now - days * DAY_MS;
  const posts = store.dailyCounts(db, "posts", projectId, since);
  const votes = store.dailyCounts(db, "votes", projectId, since);
  const comments = store.dailyCounts(db, "comments", projectId, since);
  const views = store.dailyPageViews(db, projectId, utcDay(now - (days - 1) * DAY_MS));
  // N × 24 hours span N + 1 UTC days (the first one partly).
  const series: DailyFigures[] = [];
  for (let index = days; index >= 0; index--) {
    const day = utcDay(now - index * DAY_MS);
    series.push({
      day,
      new_posts: posts.get(day) ?? 0,
      votes: votes.get(day) ?? 0,
      new_comments: comments.get(day) ?? 0,
      page_views: views.get(day) ?? 0,
    });
  }
  return { series, statusFlow: statusFlowSince(db, projectId, since) };
}

/** The UTC day a moment falls on, as page views are counted. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Counts one view of a project's public board pages; the public API and the board pages call it. */
export function recordPageView(db: Db, projectId: string, at = Date.now()): void {
  try {
    inTransaction(db, () => store.addPageView(db, projectId, utcDay(at)));
  } catch (error) {
    // Another process is writing (the CLI, a backup): the page is still served, uncounted, rather than
    // refused or held until that write ends (docs/decisions.md, "Durability").
    if (!isBusy(error)) throw error;
  }
}

/** Views from the day of `sinceMs` to today, inclusive (UTC days). */
export function countPageViews(db: Db, projectId: string, sinceMs: number): number {
  return store.sumPageViews(db, projectId, utcDay(sinceMs));
}
