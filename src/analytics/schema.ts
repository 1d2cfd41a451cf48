import { type Static, t } from "elysia";
import { Enum } from "../http/schemas";
import { PostSchema } from "../posts/schema";

export const PERIODS = ["week", "month", "quarter"] as const;
export type Period = (typeof PERIODS)[number];
/** Each period is the last N days, counted back from the moment of the request. */
export const PERIOD_DAYS: Record<Period, number> = { week: 7, month: 30, quarter: 90 };

export const AnalyticsQuery = t.Object({
  period: t.Optional(
    Enum(PERIODS, { description: "`week` (default, last 7 days), `month` (30) or `quarter` (90)" }),
  ),
});

export const AnalyticsSchema = t.Object(
  {
    period: Enum(PERIODS),
    stats: t.Object({
      new_posts: t.Integer({ description: "Posts created in the period" }),
      total_votes: t.Integer({ description: "Votes cast in the period" }),
      new_comments: t.Integer({ description: "Comments written in the period, internal notes included" }),
      page_views: t.Integer({ description: "Public board page views on the period's UTC days" }),
    }),
    top_posts: t.Array(PostSchema, { description: "Up to 10 posts with the most votes cast in the period" }),
    trending_tags: t.Array(t.Object({ label: t.String(), post_count: t.Integer() }), {
      description: "Up to 10 tags by the number of posts created in the period that carry them",
    }),
  },
  { title: "Analytics" },
);
export type Analytics = Static<typeof AnalyticsSchema>;
