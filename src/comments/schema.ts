import { type Static, t } from "elysia";
import { DateTime, Enum, Id } from "../http/schemas";
import { LIMITS } from "../http/limits";

const Body = t.String({ minLength: 1, maxLength: LIMITS.commentLength });

export const CommentSchema = t.Object(
  {
    id: Id,
    postId: Id,
    body: t.String(),
    authorName: t.Nullable(t.String()),
    isInternalNote: t.Boolean({ description: "Internal notes are visible only to the team" }),
    createdAt: DateTime,
  },
  { title: "Comment" },
);
export type Comment = Static<typeof CommentSchema>;

export const CommentCreateSchema = t.Object({
  body: Body,
  authorName: t.Optional(t.Nullable(t.String({ maxLength: LIMITS.personNameLength }))),
  isInternalNote: t.Optional(t.Boolean({ default: false })),
});
export type CommentCreate = Static<typeof CommentCreateSchema>;

export const CommentPatchSchema = t.Object(
  { body: t.Optional(Body), isInternalNote: t.Optional(t.Boolean()) },
  { minProperties: 1, description: "At least one property, no others" },
);
export type CommentPatch = Static<typeof CommentPatchSchema>;

export const CommentsQuery = t.Object({
  internal: t.Optional(
    Enum(["true", "all"], { description: "`true`: internal notes only; `all`: both; omitted: public only" }),
  ),
});
export type InternalFilter = "public" | "internal" | "all";

export const CommentParams = t.Object({ postId: Id, commentId: Id });

/**
 * A comment as a thread shows it (the board, the public API, the dashboard): the REST shape of the
 * interface specification plus whether a team member wrote it from the dashboard (docs/dashboard.md).
 */
export interface ThreadComment extends Comment {
  isTeamReply: boolean;
}

/** A comment from the board, with its post's title (the dashboard's inbox). */
export interface InboxComment extends Comment {
  postTitle: string;
}
