import { type Static, t } from "elysia";
import { LimitParam, PageParam, PaginationSchema } from "../http/paging";
import { DateTime, DateTimeInput, Enum, Id } from "../http/schemas";
import { TagSchema } from "../tags/schema";
import { LIMITS } from "../http/limits";

export const POST_STATUSES = [
  "PENDING",
  "APPROVED",
  "IN_PROGRESS",
  "COMPLETE",
  "CLOSED",
  "ARCHIVED",
] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/** What people read for each status, on the board and in the dashboard alike (APPROVED is "Planned"). */
export const STATUS_LABELS: Record<PostStatus, string> = {
  PENDING: "Pending",
  APPROVED: "Planned",
  IN_PROGRESS: "In progress",
  COMPLETE: "Complete",
  CLOSED: "Closed",
  ARCHIVED: "Archived",
};

export function isPostStatus(status: string): status is PostStatus {
  return (POST_STATUSES as readonly string[]).includes(status);
}

/** The statuses a public board lists (and lets the public vote and comment on). */
export const VISIBLE_STATUSES = ["APPROVED", "IN_PROGRESS", "COMPLETE"] as const;
export type VisibleStatus = (typeof VISIBLE_STATUSES)[number];

export function isVisibleStatus(status: string): status is VisibleStatus {
  return (VISIBLE_STATUSES as readonly string[]).includes(status);
}
export const PostStatusSchema = Enum(POST_STATUSES);

/** Private context for the team: never in public responses; a write replaces it; null clears it. */
export const MetadataSchema = t.Nullable(
  t.Record(t.String(), t.Unknown(), { description: "Free-form private object; replaced whole on write" }),
);
export type Metadata = Static<typeof MetadataSchema>;

const Title = t.String({ minLength: 1, maxLength: LIMITS.postTitleLength });
const Description = t.Nullable(t.String({ maxLength: LIMITS.postDescriptionLength }));
const TagIds = t.Array(Id, {
  maxItems: LIMITS.tagsPerPost,
  uniqueItems: true,
  description: `Up to ${LIMITS.tagsPerPost} distinct tag ids`,
});

export const PostSchema = t.Object(
  {
    id: Id,
    projectId: Id,
    title: t.String(),
    description: t.Nullable(t.String()),
    status: PostStatusSchema,
    voteCount: t.Integer(),
    metadata: MetadataSchema,
    createdAt: DateTime,
    updatedAt: DateTime,
    releaseId: t.Nullable(
      t.String({ description: "The release that shipped it; cleared when it leaves ARCHIVED" }),
    ),
    mergedIntoId: t.Nullable(t.String({ description: "Set when the post was merged into another" })),
    createdByBoardUserId: t.Nullable(t.String()),
  },
  { title: "Post" },
);
export type Post = Static<typeof PostSchema>;

/** An issue opened for the post on the code host or the issue tracker (docs/integrations.md). */
export const IssueLinkSchema = t.Object(
  {
    provider: Enum(["code-host", "issue-tracker"]),
    url: t.String({ description: "The issue's page" }),
    externalId: t.String({ description: "The issue's number (code host) or id (issue tracker)" }),
  },
  { title: "IssueLink" },
);
export type IssueLink = Static<typeof IssueLinkSchema>;
const IssueLinks = t.Array(IssueLinkSchema, {
  description: "Issues opened for the post by the code-host and issue-tracker integrations; never public",
});

export const PostWithTagsSchema = t.Object(
  { ...PostSchema.properties, tags: t.Array(TagSchema), issueLinks: IssueLinks },
  { title: "PostWithTags" },
);
export type PostWithTags = Static<typeof PostWithTagsSchema>;

export const PostCreateSchema = t.Object({
  title: Title,
  description: t.Optional(Description),
  status: t.Optional(PostStatusSchema),
  tagIds: t.Optional(TagIds),
  metadata: t.Optional(MetadataSchema),
  createdByBoardUserId: t.Optional(Id),
});
export type PostCreate = Static<typeof PostCreateSchema>;

const editableFields = {
  title: t.Optional(Title),
  description: t.Optional(Description),
  status: t.Optional(PostStatusSchema),
  tagIds: t.Optional(TagIds),
  metadata: t.Optional(MetadataSchema),
  notify: t.Optional(
    t.Boolean({ description: "Email the post's subscribers when the status actually changes" }),
  ),
};

export const PostUpdateSchema = t.Object(editableFields, { minProperties: 1 });
export type PostUpdate = Static<typeof PostUpdateSchema>;

export const PostParams = t.Object({ postId: Id });

/** Posts per page when `limit` is left out, and tombstones per page of GET /posts/deleted. */
export const POSTS_DEFAULT_LIMIT = 50;
export const DELETED_DEFAULT_LIMIT = 100;

export const ListPostsQuery = t.Object({
  status: t.Optional(PostStatusSchema),
  sort: t.Optional(
    Enum(["votes", "date"], { description: "`votes` (default) or `date`; cursor mode needs `date`" }),
  ),
  page: t.Optional(PageParam),
  limit: t.Optional(LimitParam(100, POSTS_DEFAULT_LIMIT)),
  cursor: t.Optional(
    t.String({
      maxLength: LIMITS.cursorLength,
      description: "Empty string starts a cursor scan; then pass nextCursor",
    }),
  ),
  updated_since: t.Optional(DateTimeInput("Inclusive lower bound on updatedAt")),
});
export type ListPostsQueryInput = Static<typeof ListPostsQuery>;

export const PostListSchema = t.Object(
  { data: t.Array(PostWithTagsSchema), pagination: PaginationSchema },
  { description: "A page of posts" },
);

/** One item of a bulk update, checked item by item so that a bad item fails alone (docs/decisions.md). */
export const BulkItemSchema = t.Object(
  { id: Id, ...editableFields },
  { additionalProperties: false, title: "BulkUpdateItem" },
);
export type BulkItem = Static<typeof BulkItemSchema>;

export const BulkUpdateSchema = t.Object({
  items: t.Array(
    t.Record(t.String(), t.Unknown(), {
      description:
        "A post id (`id`) with any PATCH /posts/{postId} fields; an item that breaks a field rule " +
        "becomes that item's error result, the others are applied",
    }),
    { minItems: 1, maxItems: LIMITS.bulkItems, description: `1 to ${LIMITS.bulkItems} items` },
  ),
});
export type BulkUpdate = Static<typeof BulkUpdateSchema>;

export const BulkResultSchema = t.Object({
  index: t.Integer(),
  id: t.Nullable(t.String()),
  status: Enum(["updated", "unchanged", "error"]),
  data: t.Optional(PostSchema),
  error: t.Optional(t.Object({ error_code: t.String(), message: t.String() })),
});
export type BulkResult = Static<typeof BulkResultSchema>;

export const MergeSchema = t.Object({ intoPostId: Id });

export const MergeResultSchema = t.Object({
  post: PostSchema,
  into: PostSchema,
  movedVotes: t.Integer({ description: "Votes moved to the target" }),
  droppedDuplicateVotes: t.Integer({ description: "Votes of voters who had already voted on the target" }),
  movedComments: t.Integer(),
});

export const DeletedQuery = t.Object({
  since: t.Optional(t.String({ format: "date-time", description: "Inclusive lower bound on deletedAt" })),
  limit: t.Optional(LimitParam(1000, DELETED_DEFAULT_LIMIT)),
});

export const TombstoneSchema = t.Object({ id: Id, deletedAt: DateTime });
