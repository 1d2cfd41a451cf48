import type { AppContext } from "../context";
import { secretKeyRoutes } from "../http/routes";
import { dataOf, errorResponses } from "../http/schemas";
import { RoadmapSchema } from "./schema";
import { getRoadmap } from "./service";

export function roadmapRoutes(ctx: AppContext) {
  const { db } = ctx;
  return secretKeyRoutes(ctx, "/api/v1/roadmap", "Roadmap").get(
    "",
    ({ project }) => ({ data: getRoadmap(db, project.id) }),
    {
      response: { 200: dataOf(RoadmapSchema, "Posts grouped by status"), ...errorResponses() },
      detail: {
        summary: "Get the roadmap",
        description:
          "APPROVED, IN_PROGRESS and COMPLETE posts, each group sorted by vote count (ties: newest first).",
      },
    },
  );
}
