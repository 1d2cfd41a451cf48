import { type Static, t } from "elysia";
import { pageQuery, PaginationSchema } from "../http/paging";
import { DateTime, Id } from "../http/schemas";
import { LIMITS } from "../http/limits";

export const ReleaseSchema = t.Object(
  {
    id: Id,
    title: t.String(),
    content: t.Nullable(t.String({ description: "Markdown" })),
    label: t.Nullable(t.String({ description: "Version label, such as v2.3" })),
    isDraft: t.Boolean(),
    publishedAt: t.Nullable(DateTime),
    postIds: t.Array(Id, { description: "The posts this release ships" }),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { title: "Release" },
);
export type Release = Static<typeof ReleaseSchema>;

const Title = t.String({ minLength: 1, maxLength: LIMITS.releaseTitleLength });
const Content = t.Nullable(t.String({ maxLength: LIMITS.releaseContentLength, description: "Markdown" }));
const Label = t.Nullable(
  t.String({ maxLength: LIMITS.releaseLabelLength, description: "Version label, such as v2.3" }),
);
const PostIds = t.Array(Id, {
  maxItems: LIMITS.releasePosts,
  uniqueItems: true,
  description: "Posts this release ships; publishing archives them with `releaseId` set",
});

export const ReleaseCreateSchema = t.Object({
  title: Title,
  content: t.Optional(Content),
  isDraft: t.Optional(t.Boolean({ description: "Default true; false publishes at once" })),
  label: t.Optional(Label),
  postIds: t.Optional(PostIds),
});
export type ReleaseCreate = Static<typeof ReleaseCreateSchema>;

export const ReleaseUpdateSchema = t.Object(
  {
    title: t.Optional(Title),
    content: t.Optional(Content),
    isDraft: t.Optional(t.Boolean({ description: "false publishes, true unpublishes" })),
    label: t.Optional(Label),
    postIds: t.Optional(PostIds),
  },
  { minProperties: 1 },
);
export type ReleaseUpdate = Static<typeof ReleaseUpdateSchema>;

export const ReleaseParams = t.Object({ releaseId: Id });

export const RELEASES_DEFAULT_LIMIT = 20;
export const ListReleasesQuery = t.Object(pageQuery(100, RELEASES_DEFAULT_LIMIT));

export const ReleaseListSchema = t.Object(
  { data: t.Array(ReleaseSchema), pagination: PaginationSchema },
  { description: "A page of published releases, newest first" },
);
