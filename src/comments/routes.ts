import { t } from "elysia";
import type { AppContext } from "../context";
import { secretKeyRoutes } from "../http/routes";
import { dataOf, errorResponses } from "../http/schemas";
import { PostParams } from "../posts/schema";
import {
  CommentCreateSchema,
  CommentParams,
  CommentPatchSchema,
  CommentSchema,
  CommentsQuery,
} from "./schema";
import * as comments from "./service";

const FILTERS = { true: "internal", all: "all" } as const;

export function commentRoutes(ctx: AppContext) {
  const { db } = ctx;
  return secretKeyRoutes(ctx, "/api/v1/posts/:postId/comments", "Comments")
    .get(
      "",
      ({ project, params, query }) => ({
        data: comments.listComments(
          db,
          project.id,
          params.postId,
          query.internal ? FILTERS[query.internal] : "public",
        ),
      }),
      {
        params: PostParams,
        query: CommentsQuery,
        response: {
          200: dataOf(t.Array(CommentSchema), "Comments, oldest first"),
          ...errorResponses(400, 404),
        },
        detail: {
          summary: "List a post's comments",
          description: "Public comments unless `internal` says otherwise.",
        },
      },
    )
    .post(
      "",
      ({ project, params, body, status }) =>
        status(201, { data: comments.createComment(db, project.id, params.postId, body) }),
      {
        params: PostParams,
        body: CommentCreateSchema,
        response: { 201: dataOf(CommentSchema, "The comment"), ...errorResponses(400, 404) },
        detail: {
          summary: "Comment on a post",
          description: "`isInternalNote: true` makes a note only the team sees.",
        },
      },
    )
    .patch(
      "/:commentId",
      ({ project, params, body }) => ({
        data: comments.updateComment(db, project.id, params.postId, params.commentId, body),
      }),
      {
        params: CommentParams,
        body: CommentPatchSchema,
        response: { 200: dataOf(CommentSchema, "The comment"), ...errorResponses(400, 404) },
        detail: {
          summary: "Edit or hide a comment",
          description:
            "`body` (1 to 5000 characters) and/or `isInternalNote`; no other properties. Sends no email.",
        },
      },
    )
    .delete(
      "/:commentId",
      ({ project, params, status }) => {
        comments.deleteComment(db, project.id, params.postId, params.commentId);
        return status(204, undefined);
      },
      {
        params: CommentParams,
        response: { 204: t.Void({ description: "Deleted; no body" }), ...errorResponses(400, 404) },
        detail: { summary: "Delete a comment" },
      },
    );
}
