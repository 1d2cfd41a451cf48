import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { PaginationSchema } from "../../http/paging";
import { DateTimeInput, SuccessSchema } from "../../http/schemas";
import { listPosts } from "../../posts/listing";
import {
  type BulkResult,
  BulkResultSchema,
  MergeResultSchema,
  PostSchema,
  PostWithTagsSchema,
} from "../../posts/schema";
import * as posts from "../../posts/service";
import { ApiError } from "../../http/errors";
import { requireValid } from "../../http/validation-message";
import {
  adminProject,
  ADDS,
  defineTool,
  inToolTerms,
  type McpSession,
  READS,
  REMOVES,
  type Tool,
  UPDATES,
} from "../tool";
import { LIMITS } from "../../http/limits";
import {
  Args,
  defined,
  Description,
  Id,
  Limit,
  Metadata,
  Page,
  PostId,
  PostStatus,
  TagIds,
  Title,
} from "./args";

const editable = {
  title: Type.Optional(Title),
  description: Type.Optional(Description),
  status: Type.Optional(PostStatus),
  tag_ids: Type.Optional(TagIds),
  metadata: Type.Optional(Metadata),
  notify: Type.Optional(
    Type.Boolean({
      description: "Email the post's subscribers when the status actually changes (default false)",
    }),
  ),
};

type Editable = { [K in keyof typeof editable]?: unknown };

/** snake_case tool arguments → the REST PATCH body. */
function patchOf(args: Editable) {
  const { tag_ids: tagIds, ...rest } = args;
  return defined({ ...rest, tagIds }) as Parameters<typeof posts.updatePost>[3];
}

/** A bulk item's fields by the REST names the service reports them under. */
const ITEM_FIELDS = new Map([["tagIds", "tag_ids"]]);

/**
 * The fields a bulk item may have, their values unchecked (bulkUpdatePosts checks each item on its own):
 * a REST name such as `tagIds` is not one of them and is refused, as an unknown argument is (docs/mcp.md).
 */
const BulkItemFields = Args(
  Object.fromEntries(["id", ...Object.keys(editable)].map((name) => [name, Type.Optional(Type.Unknown())])),
);

/** A snake_case bulk item → the REST bulk item, its values unchecked. */
function bulkItemOf(item: Record<string, unknown>): Record<string, unknown> {
  const { tag_ids: tagIds, ...rest } = item;
  return tagIds === undefined ? rest : { ...rest, tagIds };
}

/** An item refused for a field the tool does not have: its own error result, as a bad REST item gets. */
function unknownFieldResult(item: Record<string, unknown>, index: number): BulkResult | null {
  try {
    requireValid(BulkItemFields, item, "item");
    return null;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const id = typeof item.id === "string" ? item.id : null;
    return { index, id, status: "error", error: { error_code: error.code, message: error.message } };
  }
}

/**
 * Applies the items whose fields are all the tool's through the service, in order, and answers every
 * item's result at its own index, the refused ones included. Each error reads in the items' own words
 * (`tag_ids`), as a thrown error would.
 */
function bulkUpdate(session: McpSession, items: Record<string, unknown>[]): BulkResult[] {
  const results: BulkResult[] = [];
  const applied: { index: number; item: Record<string, unknown> }[] = [];
  items.forEach((item, index) => {
    const refused = unknownFieldResult(item, index);
    if (refused) results.push(refused);
    else applied.push({ index, item: bulkItemOf(item) });
  });
  const updates = posts.bulkUpdatePosts(
    session.ctx.db,
    adminProject(session).id,
    applied.map(({ item }) => item),
  );
  for (const result of updates) {
    const index = applied[result.index]?.index ?? result.index;
    const error = result.error && {
      ...result.error,
      message: inToolTerms(result.error.message, ITEM_FIELDS),
    };
    results.push({ ...result, index, ...(error ? { error } : {}) });
  }
  return results.sort((first, second) => first.index - second.index);
}

export const listPostsTool = defineTool({
  name: "list_posts",
  title: "List posts",
  description:
    "Use to review the board as the team sees it, with private metadata and every status (PENDING included): most voted " +
    "first by default, or newest first with sort=date. For a full export, pass cursor='' and then each nextCursor.",
  access: "admin",
  annotations: READS,
  input: Args({
    status: Type.Optional(PostStatus),
    sort: Type.Optional(Type.Union([Type.Literal("votes"), Type.Literal("date")])),
    page: Type.Optional(Page),
    limit: Type.Optional(Limit(100, 50)),
    cursor: Type.Optional(
      Type.String({
        maxLength: LIMITS.cursorLength,
        description: "'' starts a cursor scan; then nextCursor",
      }),
    ),
    updated_since: Type.Optional(DateTimeInput("Only posts updated since")),
  }),
  output: t.Object({ posts: t.Array(PostWithTagsSchema), pagination: PaginationSchema }),
  run(session, args) {
    const { updated_since, ...rest } = args;
    const list = listPosts(session.ctx.db, adminProject(session).id, defined({ ...rest, updated_since }));
    return { posts: list.data, pagination: list.pagination };
  },
});

export const getPostTool = defineTool({
  name: "get_post",
  title: "Get a post",
  description:
    "Use to read one post in full (tags, metadata, status, votes) before changing or discussing it.",
  access: "admin",
  annotations: READS,
  input: Args({ post_id: PostId }),
  output: t.Object({ post: PostWithTagsSchema }),
  run: (session, args) => ({ post: posts.getPost(session.ctx.db, adminProject(session).id, args.post_id) }),
});

export const createPostTool = defineTool({
  name: "create_post",
  title: "Create a post",
  description:
    "Use to add a feature request on the team's behalf with full control (status, tags, private metadata, author). " +
    "For raw customer text prefer submit_feedback, which extracts and de-duplicates; search_similar first avoids duplicates.",
  access: "admin",
  annotations: ADDS,
  input: Args({
    title: Title,
    description: Type.Optional(Description),
    status: Type.Optional(PostStatus),
    tag_ids: Type.Optional(TagIds),
    metadata: Type.Optional(Metadata),
    created_by_board_user_id: Type.Optional(Id("The board user who asked for it (list_users)")),
  }),
  output: t.Object({ post: PostSchema }),
  run(session, args) {
    const { tag_ids: tagIds, created_by_board_user_id: createdByBoardUserId, ...rest } = args;
    const input = defined({ ...rest, tagIds, createdByBoardUserId }) as Parameters<
      typeof posts.createPost
    >[2];
    return { post: posts.createPost(session.ctx.db, adminProject(session).id, input) };
  },
});

export const updatePostTool = defineTool({
  name: "update_post",
  title: "Update a post",
  description:
    "Use to approve, reject, schedule or ship a post (status), retitle it, retag it or replace its private metadata. " +
    "Only the given fields change; notify=true emails subscribers when the status changes.",
  access: "admin",
  annotations: UPDATES,
  input: Args({ post_id: PostId, ...editable }),
  output: t.Object({ post: PostSchema }),
  run(session, args) {
    const { post_id: postId, ...fields } = args;
    return { post: posts.updatePost(session.ctx.db, adminProject(session).id, postId, patchOf(fields)) };
  },
});

export const deletePostTool = defineTool({
  name: "delete_post",
  title: "Delete a post",
  description:
    "Use only to remove spam or a post created by mistake: deletes it permanently with its votes and comments. " +
    "To decline a request use update_post with status CLOSED; for a duplicate use merge_posts.",
  access: "admin",
  annotations: REMOVES,
  input: Args({ post_id: PostId }),
  output: SuccessSchema,
  run(session, args) {
    posts.deletePost(session.ctx.db, adminProject(session).id, args.post_id);
    return { success: true };
  },
});

export const bulkUpdatePostsTool = defineTool({
  name: "bulk_update_posts",
  title: "Update many posts",
  description:
    "Use to apply triage decisions to up to 100 posts at once (statuses, tags). Each item succeeds or fails on its own; " +
    "read each result's status.",
  access: "admin",
  annotations: UPDATES,
  input: Args({
    items: Type.Array(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          "{ id, title?, description?, status?, tag_ids?, metadata?, notify? } as in update_post; an item that " +
          "breaks a rule gets its own error result and the others are applied",
      }),
      { minItems: 1, maxItems: LIMITS.bulkItems },
    ),
  }),
  output: t.Object({ results: t.Array(BulkResultSchema) }),
  run: (session, args) => ({ results: bulkUpdate(session, args.items) }),
});

export const mergePostsTool = defineTool({
  name: "merge_posts",
  title: "Merge a duplicate post",
  description:
    "Use when two posts ask for the same thing: moves votes (once per voter), comments and subscribers from post_id into " +
    "into_post_id and closes post_id. Irreversible.",
  access: "admin",
  annotations: REMOVES,
  input: Args({ post_id: Id("The duplicate, which gets closed"), into_post_id: Id("The post that is kept") }),
  output: MergeResultSchema,
  run: (session, args) =>
    posts.mergePosts(session.ctx.db, adminProject(session).id, args.post_id, args.into_post_id),
});

export const POST_TOOLS: Tool[] = [
  listPostsTool,
  getPostTool,
  createPostTool,
  updatePostTool,
  deletePostTool,
  bulkUpdatePostsTool,
  mergePostsTool,
];
