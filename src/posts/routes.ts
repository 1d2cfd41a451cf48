import { t } from "elysia";
import type { AppContext } from "../context";
import { secretKeyRoutes } from "../http/routes";
import { dataOf, errorResponses, SuccessSchema } from "../http/schemas";
import { listPosts } from "./listing";
import {
  BulkResultSchema,
  BulkUpdateSchema,
  DeletedQuery,
  ListPostsQuery,
  MergeResultSchema,
  MergeSchema,
  PostCreateSchema,
  PostListSchema,
  PostParams,
  PostSchema,
  PostUpdateSchema,
  PostWithTagsSchema,
  TombstoneSchema,
} from "./schema";
import * as posts from "./service";

export function postRoutes(ctx: AppContext) {
  const { db } = ctx;
  return secretKeyRoutes(ctx, "/api/v1/posts", "Posts")
    .get("", ({ project, query }) => listPosts(db, project.id, query), {
      query: ListPostsQuery,
      response: { 200: PostListSchema, ...errorResponses(400) },
      detail: {
        summary: "List posts",
        description:
          "Offset mode (default): `page`/`limit`, `sort=votes` (default; ties by creation time then id) or `date`. " +
          "Cursor mode: pass `cursor` (empty to start), then each `nextCursor`; ordered by creation time then id, " +
          "descending; posts created after the first request are excluded; `status` and `updated_since` must not change " +
          "during a scan; `page` and `sort=votes` are refused.",
      },
    })
    .post("", ({ project, body, status }) => status(201, { data: posts.createPost(db, project.id, body) }), {
      body: PostCreateSchema,
      response: { 201: dataOf(PostSchema, "The created post"), ...errorResponses(400, 404) },
      detail: { summary: "Create a post", description: "Status defaults to PENDING." },
    })
    .get("/deleted", ({ project, query }) => ({ data: posts.listDeletedPosts(db, project.id, query) }), {
      query: DeletedQuery,
      response: {
        200: dataOf(t.Array(TombstoneSchema), "Deleted posts, oldest deletion first"),
        ...errorResponses(400),
      },
      detail: {
        summary: "List deleted posts",
        description:
          "Tombstones of deleted posts since `since` (inclusive), so a syncing client sees deletions.",
      },
    })
    .patch("/bulk", ({ project, body }) => ({ data: posts.bulkUpdatePosts(db, project.id, body.items) }), {
      body: BulkUpdateSchema,
      response: {
        200: dataOf(t.Array(BulkResultSchema), "One result per item, in order"),
        ...errorResponses(400),
      },
      detail: {
        summary: "Update up to 100 posts",
        description:
          "Each item is a post id with any PATCH /posts/{postId} fields and is applied atomically on its own; " +
          "a failing item does not undo the others. Results: `updated`, `unchanged` or `error`.",
      },
    })
    .get("/:postId", ({ project, params }) => ({ data: posts.getPost(db, project.id, params.postId) }), {
      params: PostParams,
      response: { 200: dataOf(PostWithTagsSchema, "The post with its tags"), ...errorResponses(404) },
      detail: { summary: "Get a post" },
    })
    .patch(
      "/:postId",
      ({ project, params, body }) => ({ data: posts.updatePost(db, project.id, params.postId, body) }),
      {
        params: PostParams,
        body: PostUpdateSchema,
        response: { 200: dataOf(PostSchema, "The updated post"), ...errorResponses(400, 404) },
        detail: {
          summary: "Update a post",
          description:
            "All fields are applied atomically. At least one field besides `notify` is required. Leaving ARCHIVED " +
            "clears `releaseId`. `notify: true` emails subscribers when the status actually changes.",
        },
      },
    )
    .delete(
      "/:postId",
      ({ project, params }) => {
        posts.deletePost(db, project.id, params.postId);
        return { success: true };
      },
      {
        params: PostParams,
        response: { 200: SuccessSchema, ...errorResponses(404) },
        detail: {
          summary: "Delete a post",
          description: "Permanently deletes the post with its votes, comments and tags.",
        },
      },
    )
    .post(
      "/:postId/merge",
      ({ project, params, body }) => ({
        data: posts.mergePosts(db, project.id, params.postId, body.intoPostId),
      }),
      {
        params: PostParams,
        body: MergeSchema,
        response: {
          200: dataOf(MergeResultSchema, "Both posts after the merge"),
          ...errorResponses(400, 404),
        },
        detail: {
          summary: "Merge a duplicate into another post",
          description:
            "Moves votes (a voter who voted on both keeps one), comments and subscribers into `intoPostId`, " +
            "and closes this post with `mergedIntoId`.",
        },
      },
    );
}
