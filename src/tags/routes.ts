import { t } from "elysia";
import type { AppContext } from "../context";
import { secretKeyRoutes } from "../http/routes";
import { dataOf, errorResponses, SuccessSchema } from "../http/schemas";
import { TagCreateSchema, TagParams, TagSchema, TagUpdateSchema } from "./schema";
import * as tags from "./service";

export function tagRoutes(ctx: AppContext) {
  const { db } = ctx;
  return secretKeyRoutes(ctx, "/api/v1/tags", "Tags")
    .get("", ({ project }) => ({ data: tags.listTags(db, project.id) }), {
      response: { 200: dataOf(t.Array(TagSchema), "The tags"), ...errorResponses() },
      detail: { summary: "List tags", description: "Every tag of the project, ordered by label." },
    })
    .post("", ({ project, body, status }) => status(201, { data: tags.createTag(db, project.id, body) }), {
      body: TagCreateSchema,
      response: { 201: dataOf(TagSchema, "The created tag"), ...errorResponses(400, 409) },
      detail: {
        summary: "Create a tag",
        description: "`theme` defaults to #6366f1. Labels are unique per project.",
      },
    })
    .patch(
      "/:tagId",
      ({ project, params, body }) => ({ data: tags.updateTag(db, project.id, params.tagId, body) }),
      {
        params: TagParams,
        body: TagUpdateSchema,
        response: { 200: dataOf(TagSchema, "The updated tag"), ...errorResponses(400, 404, 409) },
        detail: { summary: "Update a tag" },
      },
    )
    .delete(
      "/:tagId",
      ({ project, params }) => {
        tags.deleteTag(db, project.id, params.tagId);
        return { success: true };
      },
      {
        params: TagParams,
        response: { 200: SuccessSchema, ...errorResponses(404) },
        detail: { summary: "Delete a tag", description: "Removes the tag from every post it was on." },
      },
    );
}
