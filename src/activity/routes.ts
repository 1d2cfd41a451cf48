import type { AppContext } from "../context";
import { secretKeyRoutes } from "../http/routes";
import { errorResponses } from "../http/schemas";
import { ActivityListSchema, ListActivityQuery } from "./schema";
import { listActivity } from "./service";

export function activityRoutes(ctx: AppContext) {
  const { db } = ctx;
  return secretKeyRoutes(ctx, "/api/v1/activity", "Activity").get(
    "",
    ({ project, query }) => listActivity(db, project.id, query),
    {
      query: ListActivityQuery,
      response: { 200: ActivityListSchema, ...errorResponses(400) },
      detail: {
        summary: "The activity (audit) log",
        description:
          "Every change, newest first. `limit` 1 to 100 (default 50); `entityType` keeps one kind of entity " +
          "(post, tag, release, user, vote, comment…, and api_key, member, invite and project: the project's keys, " +
          "team and settings).",
      },
    },
  );
}
