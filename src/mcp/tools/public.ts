import { Type } from "@sinclair/typebox";
import { VISIBLE_STATUSES } from "../../posts/schema";
import { EMAIL_PATTERN } from "../../users/schema";
import {
  PUBLIC_POSTS_DEFAULT_LIMIT,
  PublicCommentSchema,
  PublicPaginationSchema,
  PublicPostSchema,
  PublicVoteSchema,
} from "../../public/schema";
import { boardUrl, commentPublic, listVisiblePosts, submitPublicPost } from "../../public/service";
import { ADDS, boardProject, defineTool, READS, type Tool } from "../tool";
import { defined, Limit, Page, PostId } from "./args";
import { togglePublicVote } from "../../votes/service";
import { LIMITS } from "../../http/limits";

const ProjectSlug = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: LIMITS.slugMaxLength,
    description:
      "The board's slug. Needed in public mode unless the MCP URL carries ?project=<slug>; ignored in admin mode (the key names the project).",
  }),
);

export const submitFeatureRequest = defineTool({
  name: "submit_feature_request",
  title: "Submit a feature request",
  description:
    "Use when a user asks for a feature, reports a missing capability or gives product feedback that belongs on the board. " +
    "Check browse_board first: if the request is already there, upvote_post it instead of submitting a duplicate. " +
    "The request starts PENDING and appears on the board once the team approves it.",
  access: "public",
  annotations: ADDS,
  input: Type.Object(
    {
      title: Type.String({
        minLength: 1,
        maxLength: LIMITS.postTitleLength,
        description: "Short summary of the request",
      }),
      description: Type.Optional(
        Type.String({ maxLength: LIMITS.postDescriptionLength, description: "What the user wants and why" }),
      ),
      email: Type.Optional(
        Type.String({
          maxLength: LIMITS.emailLength,
          pattern: EMAIL_PATTERN,
          error: "must be an email address",
          description:
            "The requester's email, never shown publicly: one new to the board makes them the request's author, who hears back; one a board user already has is not used (nothing proves who owns it)",
        }),
      ),
      source: Type.Optional(
        Type.String({
          maxLength: LIMITS.requestSourceLength,
          description:
            "Where the request came from, such as 'claude-code' (stored in private metadata.source)",
        }),
      ),
      project_slug: ProjectSlug,
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      post: PublicPostSchema,
      boardUrl: Type.String(),
      message: Type.String(),
    },
    { additionalProperties: false },
  ),
  run(session, args) {
    const project = boardProject(session, args.project_slug);
    const post = submitPublicPost(
      session.ctx.db,
      project,
      {
        title: args.title,
        ...(args.description !== undefined ? { description: args.description } : {}),
        ...(args.email !== undefined ? { email: args.email } : {}),
        ...(args.source !== undefined ? { metadata: { source: args.source } } : {}),
      },
      // With a secret key the email is the team's data; in public mode it is typed by anyone
      // (docs/payments-and-email.md, "Confirming an email").
      session.adminProject === null ? "keyless" : "team",
    );
    return {
      post,
      boardUrl: boardUrl(session.ctx.config.publicUrl, project.slug),
      message: "Submitted. It is PENDING and will be listed on the board once the team approves it.",
    };
  },
});

export const browseBoard = defineTool({
  name: "browse_board",
  title: "Browse the feature board",
  description:
    "Use to see what has already been requested, planned or shipped, most-voted first, before submitting or voting; " +
    "narrow with `q` (words in title or description) or `status`. pagination.totalPages tells whether more pages follow (`page`).",
  access: "public",
  annotations: READS,
  input: Type.Object(
    {
      project_slug: ProjectSlug,
      q: Type.Optional(
        Type.String({ maxLength: LIMITS.searchLength, description: "Words that must appear in the post" }),
      ),
      status: Type.Optional(Type.Union(VISIBLE_STATUSES.map((status) => Type.Literal(status)))),
      page: Type.Optional(Page),
      limit: Type.Optional(Limit(100, PUBLIC_POSTS_DEFAULT_LIMIT)),
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      posts: Type.Array(PublicPostSchema),
      boardUrl: Type.String(),
      projectSlug: Type.String(),
      pagination: PublicPaginationSchema,
    },
    { additionalProperties: false },
  ),
  run(session, args) {
    const project = boardProject(session, args.project_slug);
    // The public API's listing (GET /api/public/boards/{slug}/posts), paged the same way.
    const list = listVisiblePosts(session.ctx.db, project.id, {
      sort: "votes",
      ...defined({ q: args.q, status: args.status, page: args.page, limit: args.limit }),
    });
    return {
      posts: list.data,
      boardUrl: boardUrl(session.ctx.config.publicUrl, project.slug),
      projectSlug: project.slug,
      pagination: list.pagination,
    };
  },
});

export const upvotePost = defineTool({
  name: "upvote_post",
  title: "Upvote a post (toggle)",
  description:
    "Use when the user wants a feature that is already on the board (found with browse_board): adds their vote, or " +
    "removes it when they had already voted. The result says whether the vote is now there.",
  access: "public",
  // Toggling: a second identical call removes the vote the first one cast.
  annotations: { ...ADDS, destructiveHint: true },
  input: Type.Object(
    {
      post_id: PostId,
      anonymous_id: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: LIMITS.anonymousIdLength,
          description:
            "A stable id of the person voting; the vote is theirs and only this id removes it. Without it, featureboard mcp (stdio) fills in one derived from this machine and user, and the hosted server one it derives from this connection's address (shared by everyone behind that address)",
        }),
      ),
      project_slug: ProjectSlug,
    },
    { additionalProperties: false },
  ),
  output: PublicVoteSchema,
  run(session, args) {
    const project = boardProject(session, args.project_slug);
    // The decisions give `anonymous_id` as optional, as VoteShip's tool has it: without one, the vote is the
    // connection's, an id only this installation can compute from the client address (docs/mcp.md).
    const anonymousId = args.anonymous_id ?? session.defaultAnonymousId;
    return togglePublicVote(session.ctx.db, project.id, args.post_id, { anonymousId });
  },
});

export const addPublicComment = defineTool({
  name: "add_public_comment",
  title: "Comment on a post",
  description:
    "Use to add the user's use case, context or a question to an existing post; the comment is public on the board.",
  access: "public",
  annotations: ADDS,
  input: Type.Object(
    {
      post_id: PostId,
      body: Type.String({
        minLength: 1,
        maxLength: LIMITS.commentLength,
        description: `The comment, 1 to ${LIMITS.commentLength} characters`,
      }),
      author_name: Type.String({
        minLength: 1,
        maxLength: LIMITS.personNameLength,
        description: "Name shown with the comment",
      }),
      project_slug: ProjectSlug,
    },
    { additionalProperties: false },
  ),
  output: Type.Object({ comment: PublicCommentSchema }, { additionalProperties: false }),
  run(session, args) {
    const project = boardProject(session, args.project_slug);
    return {
      comment: commentPublic(session.ctx.db, project.id, args.post_id, {
        body: args.body,
        authorName: args.author_name,
      }),
    };
  },
});

export const PUBLIC_TOOLS: Tool[] = [submitFeatureRequest, browseBoard, upvotePost, addPublicComment];
