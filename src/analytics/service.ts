import type { Db } from "../db/connection";
import { requirePostRow } from "../posts/service";
import { toPost } from "../posts/store";
import { countPageViews } from "./page-views";
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
