import type { AppContext } from "../context";
import { secretKeyRoutes } from "../http/routes";
import { dataOf, errorResponses } from "../http/schemas";
import { AnalyticsQuery, AnalyticsSchema } from "./schema";
import { getAnalytics } from "./service";

export function analyticsRoutes(ctx: AppContext) {
  const { db } = ctx;
  return secretKeyRoutes(ctx, "/api/v1/analytics", "Analytics").get(
    "",
    ({ project, query }) => ({ data: getAnalytics(db, project.id, query.period) }),
    {
      query: AnalyticsQuery,
      response: { 200: dataOf(AnalyticsSchema, "The period's figures"), ...errorResponses(400) },
      detail: {
        summary: "Board analytics",
        description:
          "New posts, votes cast, new comments and board page views over the last 7 (`week`), 30 (`month`) or " +
          "90 (`quarter`) days, the posts with the most votes in the period and the tags of the period's new posts.",
      },
    },
  );
}
