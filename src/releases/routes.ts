import type { AppContext } from "../context";
import { secretKeyRoutes } from "../http/routes";
import { dataOf, errorResponses, SuccessSchema } from "../http/schemas";
import {
  ListReleasesQuery,
  ReleaseCreateSchema,
  ReleaseListSchema,
  ReleaseParams,
  ReleaseSchema,
  ReleaseUpdateSchema,
} from "./schema";
import * as releases from "./service";

export function releaseRoutes(ctx: AppContext) {
  const { db } = ctx;
  return secretKeyRoutes(ctx, "/api/v1/releases", "Releases")
    .get("", ({ project, query }) => releases.listPublishedReleases(db, project.id, query), {
      query: ListReleasesQuery,
      response: { 200: ReleaseListSchema, ...errorResponses(400) },
      detail: {
        summary: "List published releases",
        description:
          "The changelog: published releases only, newest publication first. `limit` 1 to 100, default 20.",
      },
    })
    .post(
      "",
      ({ project, body, status }) => status(201, { data: releases.createRelease(db, project.id, body) }),
      {
        body: ReleaseCreateSchema,
        response: { 201: dataOf(ReleaseSchema, "The created release"), ...errorResponses(400, 404) },
        detail: {
          summary: "Create a release",
          description:
            "A draft unless `isDraft` is false, which publishes at once. `postIds` links the posts it ships: " +
            "publishing moves them to ARCHIVED with `releaseId` set.",
        },
      },
    )
    .get(
      "/:releaseId",
      ({ project, params }) => ({ data: releases.getRelease(db, project.id, params.releaseId) }),
      {
        params: ReleaseParams,
        response: { 200: dataOf(ReleaseSchema, "The release, draft or published"), ...errorResponses(404) },
        detail: { summary: "Get a release" },
      },
    )
    .patch(
      "/:releaseId",
      ({ project, params, body }) => ({
        data: releases.updateRelease(db, project.id, params.releaseId, body),
      }),
      {
        params: ReleaseParams,
        body: ReleaseUpdateSchema,
        response: { 200: dataOf(ReleaseSchema, "The updated release"), ...errorResponses(400, 404) },
        detail: {
          summary: "Update a release",
          description:
            "`isDraft: false` publishes (sets `publishedAt`, archives the linked posts, fires `release.published`); " +
            "`isDraft: true` unpublishes (clears `publishedAt`). `postIds` replaces the linked posts.",
        },
      },
    )
    .delete(
      "/:releaseId",
      ({ project, params }) => {
        releases.deleteRelease(db, project.id, params.releaseId);
        return { success: true };
      },
      {
        params: ReleaseParams,
        response: { 200: SuccessSchema, ...errorResponses(404) },
        detail: {
          summary: "Delete a release",
          description: "Posts it shipped stay ARCHIVED and no longer name it.",
        },
      },
    );
}
