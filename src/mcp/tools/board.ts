import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { CommentSchema } from "../../comments/schema";
import * as comments from "../../comments/service";
import { bodyError } from "../../http/errors";
import { PaginationSchema, pageRequest } from "../../http/paging";
import { SuccessSchema } from "../../http/schemas";
import { TagSchema } from "../../tags/schema";
import * as tags from "../../tags/service";
import { MAX_SPEND } from "../../users/money";
import { BoardUserSchema, Email, USERS_DEFAULT_LIMIT } from "../../users/schema";
import * as users from "../../users/service";
import { VoteSchema } from "../../votes/schema";
import * as votes from "../../votes/service";
import { ADDS, adminProject, defineTool, READS, REMOVES, type Tool, UPDATES } from "../tool";
import { Args, defined, Id, Limit, Page, PostId } from "./args";
import { LIMITS } from "../../http/limits";

const AnonymousId = Type.String({
  minLength: 1,
  maxLength: LIMITS.anonymousIdLength,
  description: "A voter without an account",
});

export const addVoteTool = defineTool({
  name: "add_vote",
  title: "Add a vote for a customer",
  description:
    "Use to record that a customer wants a post, for example after a sales call or a support ticket: give the board " +
    "user (list_users) so their spend counts, or an anonymous id. One vote per voter per post (a second is DUPLICATE_VOTE).",
  access: "admin",
  annotations: ADDS,
  input: Args({
    post_id: PostId,
    board_user_id: Type.Optional(Id("A board user of the project (list_users)")),
    anonymous_id: Type.Optional(AnonymousId),
  }),
  output: t.Object({ vote: VoteSchema }),
  run(session, args) {
    const input = defined({ boardUserId: args.board_user_id, anonymousId: args.anonymous_id });
    return { vote: votes.castVote(session.ctx.db, adminProject(session).id, args.post_id, input) };
  },
});

export const getVotersTool = defineTool({
  name: "get_voters",
  title: "List a post's voters",
  description:
    "Use to see who wants a post (names and emails of board users, anonymous ids), for example to follow up with them.",
  access: "admin",
  annotations: READS,
  input: Args({ post_id: PostId }),
  output: t.Object({ votes: t.Array(VoteSchema) }),
  run: (session, args) => ({
    votes: votes.listVotes(session.ctx.db, adminProject(session).id, args.post_id),
  }),
});

export const addCommentTool = defineTool({
  name: "add_comment",
  title: "Comment on a post as the team",
  description:
    "Use to answer customers on a post (public) or to leave the team a private note (is_internal_note=true), such as " +
    "triage reasoning or an estimate.",
  access: "admin",
  annotations: ADDS,
  input: Args({
    post_id: PostId,
    body: Type.String({
      minLength: 1,
      maxLength: LIMITS.commentLength,
      description: `1 to ${LIMITS.commentLength} characters`,
    }),
    author_name: Type.Optional(Type.String({ maxLength: LIMITS.personNameLength })),
    is_internal_note: Type.Optional(
      Type.Boolean({ description: "Visible to the team only (default false)" }),
    ),
  }),
  output: t.Object({ comment: CommentSchema }),
  run(session, args) {
    const input = defined({
      body: args.body,
      authorName: args.author_name,
      isInternalNote: args.is_internal_note,
    }) as comments.CommentInput;
    return { comment: comments.createComment(session.ctx.db, adminProject(session).id, args.post_id, input) };
  },
});

/**
 * Which comments `internal` asks for. An agent reads a flag named `internal` as a boolean, so true and false
 * are taken besides the REST query's strings "true" and "all" (docs/mcp.md).
 */
function commentFilter(internal: boolean | "true" | "all" | undefined) {
  if (internal === "all") return "all";
  return internal === true || internal === "true" ? "internal" : "public";
}

export const getCommentsTool = defineTool({
  name: "get_comments",
  title: "List a post's comments",
  description:
    "Use to read the discussion on a post. Public comments by default; internal=true for the team's notes only, " +
    "internal='all' for both.",
  access: "admin",
  annotations: READS,
  input: Args({
    post_id: PostId,
    internal: Type.Optional(
      Type.Union([Type.Boolean(), Type.Literal("true"), Type.Literal("all")], {
        description:
          'true (or "true"): the team\'s internal notes only; "all": every comment; false or omitted: public comments',
        error: 'must be true, false or the string "all"',
      }),
    ),
  }),
  output: t.Object({ comments: t.Array(CommentSchema) }),
  run(session, args) {
    const filter = commentFilter(args.internal);
    return {
      comments: comments.listComments(session.ctx.db, adminProject(session).id, args.post_id, filter),
    };
  },
});

export const deleteCommentTool = defineTool({
  name: "delete_comment",
  title: "Delete a comment",
  description: "Use to remove spam or an abusive comment. Permanent.",
  access: "admin",
  annotations: REMOVES,
  input: Args({ post_id: PostId, comment_id: Id("The comment's id (get_comments)") }),
  output: SuccessSchema,
  run(session, args) {
    comments.deleteComment(session.ctx.db, adminProject(session).id, args.post_id, args.comment_id);
    return { success: true };
  },
});

export const listTagsTool = defineTool({
  name: "list_tags",
  title: "List tags",
  description:
    "Use to find tag ids before tagging posts (create_post, update_post) or to see how the board is organised.",
  access: "admin",
  annotations: READS,
  input: Args({}),
  output: t.Object({ tags: t.Array(TagSchema) }),
  run: (session) => ({ tags: tags.listTags(session.ctx.db, adminProject(session).id) }),
});

export const createTagTool = defineTool({
  name: "create_tag",
  title: "Create a tag",
  description:
    "Use when posts need a label that list_tags does not have yet (labels are unique per project).",
  access: "admin",
  annotations: ADDS,
  input: Args({
    label: Type.String({ minLength: 1, maxLength: LIMITS.tagLabelLength }),
    theme: Type.Optional(
      Type.String({
        pattern: "^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$",
        error: "must be a hex colour such as #6366f1",
        description: "Hex colour, default #6366f1",
      }),
    ),
  }),
  output: t.Object({ tag: TagSchema }),
  run: (session, args) => ({
    tag: tags.createTag(session.ctx.db, adminProject(session).id, {
      label: args.label,
      ...(args.theme !== undefined ? { theme: args.theme } : {}),
    }),
  }),
});

export const listUsersTool = defineTool({
  name: "list_users",
  title: "List board users",
  description:
    "Use to find the customers behind votes and posts (id, name, email, monthly spend), for example to add a vote on " +
    "their behalf or to weigh requests by revenue.",
  access: "admin",
  annotations: READS,
  input: Args({ page: Type.Optional(Page), limit: Type.Optional(Limit(100, 50)) }),
  output: t.Object({ users: t.Array(BoardUserSchema), pagination: PaginationSchema }),
  run(session, args) {
    const list = users.listUsers(
      session.ctx.db,
      adminProject(session).id,
      pageRequest(args, USERS_DEFAULT_LIMIT),
    );
    return { users: list.data, pagination: list.pagination };
  },
});

export const updateUserTool = defineTool({
  name: "update_user",
  title: "Update a board user",
  description:
    "Use to correct a customer's name or email, or to set their monthly spend so their votes weigh by revenue.",
  access: "admin",
  annotations: UPDATES,
  input: Args({
    user_id: Id("The board user's id (list_users)"),
    user_spend: Type.Optional(
      Type.Number({ minimum: 0, maximum: MAX_SPEND, description: "Monthly spend, such as 49.9" }),
    ),
    name: Type.Optional(Type.Union([Type.String({ maxLength: LIMITS.personNameLength }), Type.Null()])),
    email: Type.Optional(Type.Union([Email, Type.Null()])),
  }),
  output: t.Object({ user: BoardUserSchema }),
  run(session, args) {
    const patch = defined({ userSpend: args.user_spend, name: args.name, email: args.email });
    if (Object.keys(patch).length === 0) throw bodyError("give at least one of user_spend, name, email");
    return { user: users.updateUser(session.ctx.db, adminProject(session).id, args.user_id, patch) };
  },
});

export const BOARD_TOOLS: Tool[] = [
  addVoteTool,
  getVotersTool,
  addCommentTool,
  getCommentsTool,
  deleteCommentTool,
  listTagsTool,
  createTagTool,
  listUsersTool,
  updateUserTool,
];
