import { type Static, t, type TSchema } from "elysia";
import { pageQuery, PaginationSchema } from "../http/paging";
import { DateTime, Enum, Id } from "../http/schemas";
import { MetadataSchema, PostStatusSchema, VISIBLE_STATUSES } from "../posts/schema";
import { Email } from "../users/schema";
import { RELEASES_DEFAULT_LIMIT } from "../releases/schema";
import { LIMITS } from "../http/limits";

/**
 * The public API's own shapes. They list only what anyone may see: no `metadata`, no internal notes, no
 * emails, no spend. Every object here, nested ones included, is `additionalProperties: false`: Elysia's
 * `normalize: false` alone rejects unknown fields at the top level only, so a field riding along inside
 * `{data: …}` would pass. With the strict schemas a response carrying any field not listed here fails
 * closed (500) instead of leaking: these schemas make a leak impossible, not a filter applied later.
 */

const STRICT = { additionalProperties: false } as const;

/** `dataOf` for public responses: the envelope refuses unknown fields too. */
export function publicDataOf<T extends TSchema>(schema: T, description = "Success") {
  return t.Object({ data: schema }, { description, ...STRICT });
}

/** The pagination of a public page (offset paging only), refusing unknown fields. */
export const PublicPaginationSchema = t.Object(
  {
    page: PaginationSchema.properties.page,
    limit: PaginationSchema.properties.limit,
    total: PaginationSchema.properties.total,
    totalPages: PaginationSchema.properties.totalPages,
  },
  STRICT,
);

/** The statuses a public board lists; PENDING (not yet moderated), CLOSED and ARCHIVED are not listed. */

export const PublicTagSchema = t.Object(
  { id: Id, label: t.String(), theme: t.String() },
  { title: "PublicTag", ...STRICT },
);

export const PublicPostSchema = t.Object(
  {
    id: Id,
    title: t.String(),
    description: t.Nullable(t.String()),
    status: PostStatusSchema,
    voteCount: t.Integer(),
    tags: t.Array(PublicTagSchema),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { title: "PublicPost", ...STRICT },
);
export type PublicPost = Static<typeof PublicPostSchema>;

export const PublicCommentSchema = t.Object(
  {
    id: Id,
    postId: Id,
    body: t.String(),
    authorName: t.Nullable(t.String()),
    isTeamReply: t.Boolean({ description: "An official reply from the team" }),
    createdAt: DateTime,
  },
  { title: "PublicComment", ...STRICT },
);
export type PublicComment = Static<typeof PublicCommentSchema>;

export const PublicPostDetailSchema = t.Object(
  {
    ...PublicPostSchema.properties,
    comments: t.Array(PublicCommentSchema),
    mergedInto: t.Nullable(
      t.Object(
        { id: Id, title: t.String() },
        {
          description: "The request this one was merged into (its votes and comments moved there)",
          ...STRICT,
        },
      ),
    ),
    shippedIn: t.Nullable(
      t.Object(
        {
          id: Id,
          title: t.String(),
          label: t.Nullable(t.String({ description: "Version label, such as v2.3" })),
          publishedAt: DateTime,
        },
        { description: "The published release that shipped this request (it is then ARCHIVED)", ...STRICT },
      ),
    ),
  },
  { title: "PublicPostDetail", ...STRICT },
);
export type PublicPostDetail = Static<typeof PublicPostDetailSchema>;

export const PublicBoardSchema = t.Object(
  {
    slug: t.String(),
    name: t.String(),
    boardUrl: t.String({ description: "The board page: {public_url}/b/{slug}" }),
    accentColor: t.Nullable(
      t.String({ description: "The board's accent colour (#rrggbb), or null for the default" }),
    ),
    logoUrl: t.Nullable(t.String({ description: "The board's logo image, or null" })),
    counts: t.Object(
      {
        posts: t.Integer({ description: "Visible posts (approved, in progress, complete)" }),
        approved: t.Integer(),
        in_progress: t.Integer(),
        complete: t.Integer(),
      },
      STRICT,
    ),
  },
  { title: "PublicBoard", ...STRICT },
);
export type PublicBoard = Static<typeof PublicBoardSchema>;

export const PublicRoadmapSchema = t.Object(
  {
    approved: t.Array(PublicPostSchema),
    in_progress: t.Array(PublicPostSchema),
    complete: t.Array(PublicPostSchema),
  },
  { title: "PublicRoadmap", ...STRICT },
);
export type PublicRoadmap = Static<typeof PublicRoadmapSchema>;

export const PublicReleaseSchema = t.Object(
  {
    id: Id,
    title: t.String(),
    content: t.Nullable(t.String({ description: "Markdown release notes" })),
    label: t.Nullable(t.String({ description: "Version label, such as v2.3" })),
    publishedAt: DateTime,
    postIds: t.Array(Id, { description: "The posts this release shipped" }),
  },
  { title: "PublicRelease", ...STRICT },
);
export type PublicRelease = Static<typeof PublicReleaseSchema>;

export const PublicChangelogSchema = t.Object(
  { data: t.Array(PublicReleaseSchema), pagination: PublicPaginationSchema },
  { description: "Published releases, newest first", ...STRICT },
);

export const ChangelogQuery = t.Object(pageQuery(100, RELEASES_DEFAULT_LIMIT));

export const PublicPostListSchema = t.Object(
  { data: t.Array(PublicPostSchema), pagination: PublicPaginationSchema },
  { description: "A page of the board's visible posts", ...STRICT },
);

export const PublicVoteSchema = t.Object(
  {
    postId: Id,
    voted: t.Boolean({ description: "Whether this voter now has a vote on the post" }),
    voteCount: t.Integer(),
  },
  { title: "PublicVote", ...STRICT },
);
export type PublicVote = Static<typeof PublicVoteSchema>;

// ---- inputs ----

const AnonymousId = t.String({
  minLength: 1,
  maxLength: LIMITS.anonymousIdLength,
  description: "A stable id of the visitor's browser or device",
});
const PersonName = t.String({ maxLength: LIMITS.personNameLength });

export const PublicSubmitSchema = t.Object({
  projectSlug: t.Optional(
    t.String({
      minLength: 1,
      maxLength: LIMITS.slugMaxLength,
      description: "Required unless X-Publishable-Key is sent",
    }),
  ),
  title: t.String({ minLength: 1, maxLength: LIMITS.postTitleLength }),
  description: t.Optional(t.Nullable(t.String({ maxLength: LIMITS.postDescriptionLength }))),
  metadata: t.Optional(MetadataSchema),
  email: t.Optional(Email),
  name: t.Optional(PersonName),
});
export type PublicSubmit = Static<typeof PublicSubmitSchema>;

export const PublicVoteBodySchema = t.Object({
  anonymousId: AnonymousId,
  email: t.Optional(Email),
  name: t.Optional(PersonName),
});
export type PublicVoteBody = Static<typeof PublicVoteBodySchema>;

export const PublicUnvoteBodySchema = t.Object({ anonymousId: AnonymousId, email: t.Optional(Email) });
export type PublicUnvoteBody = Static<typeof PublicUnvoteBodySchema>;

export const PublicCommentBodySchema = t.Object({
  body: t.String({ minLength: 1, maxLength: LIMITS.commentLength }),
  authorName: t.Optional(PersonName),
  anonymousId: t.Optional(AnonymousId),
});
export type PublicCommentBody = Static<typeof PublicCommentBodySchema>;

/** Listed posts per page of the public API when `limit` is left out. */
export const PUBLIC_POSTS_DEFAULT_LIMIT = 20;

export const PublicPostsQuery = t.Object({
  status: t.Optional(Enum(VISIBLE_STATUSES, { description: "One of the visible statuses" })),
  sort: t.Optional(Enum(["votes", "date"], { description: "`votes` (default) or `date`" })),
  q: t.Optional(
    t.String({
      maxLength: LIMITS.searchLength,
      description: "Words that must appear in title or description",
    }),
  ),
  ...pageQuery(100, PUBLIC_POSTS_DEFAULT_LIMIT),
});
export type PublicPostsQueryInput = Static<typeof PublicPostsQuery>;

const Slug = t.String({ minLength: 1, maxLength: LIMITS.slugMaxLength });
export const BoardParams = t.Object({ slug: Slug });
export const BoardPostParams = t.Object({ slug: Slug, postId: Id });
