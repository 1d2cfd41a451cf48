import { Elysia } from "elysia";
import { recordPageView } from "../analytics/service";
import type { AppContext } from "../context";
import { requestPath } from "../http/request-info";
import { keylessRoutes } from "../http/routes";
import { errorResponses } from "../http/schemas";
import { validationError } from "../http/errors";
import {
  BoardParams,
  BoardPostParams,
  ChangelogQuery,
  PublicBoardSchema,
  PublicChangelogSchema,
  PublicCommentBodySchema,
  PublicCommentSchema,
  PublicPostDetailSchema,
  PublicPostListSchema,
  PublicPostSchema,
  PublicPostsQuery,
  PublicRoadmapSchema,
  PublicSubmitSchema,
  PublicUnvoteBodySchema,
  PublicVoteBodySchema,
  PublicVoteSchema,
  publicDataOf,
} from "./schema";
import * as board from "./service";
import * as votes from "../votes/service";

export const PUBLIC_PREFIX = "/api/public";
const PUBLISHABLE_KEY_HEADER = "x-publishable-key";

const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
  "access-control-allow-headers": "Content-Type, X-Publishable-Key, X-Request-Id",
  "access-control-expose-headers": "RateLimit, RateLimit-Policy, Retry-After, X-Request-Id",
  "access-control-max-age": "86400",
};

/**
 * The public API is called from any web page (the widget, a customer's own site), so it answers CORS
 * preflights and allows every origin: it needs no cookies and no key, and sends nothing private.
 * Every request is metered per IP by the keyless limiter (src/http/rate-limit.ts), with or without an
 * Authorization header, which the public API ignores.
 */
function publicPlumbing() {
  return new Elysia({ name: "public.plumbing" }).onRequest(({ request, set }) => {
    if (!requestPath(request).startsWith(`${PUBLIC_PREFIX}/`)) return;
    Object.assign(set.headers, CORS_HEADERS);
    if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: CORS_HEADERS });
  });
}

const publishableKeyNote =
  "The board is addressed by its slug; the widget may also send `X-Publishable-Key: pk_…`. A private board answers 403 BOARD_NOT_PUBLIC.";

/**
 * Every public route may answer: 400 (bad input, or a slug that is not the publishable key's project), 401
 * (an `X-Publishable-Key` that is not an active publishable key), 403 (private board), 404 and 429 (the
 * per-IP limit).
 */
const publicErrors = errorResponses(400, 401, 403, 404, 429);

/**
 * The `X-Publishable-Key` header as the OpenAPI document's parameter (every public route reads it; the
 * widget's route requires it), so generated clients can send it. Documentation only: the handlers read it.
 */
function publishableKeyParameter(required: boolean) {
  return {
    name: "X-Publishable-Key",
    in: "header" as const,
    required,
    description: "The project's publishable key, pk_… (never a secret key in a web page)",
    schema: { type: "string" as const, pattern: "^pk_" },
  };
}

export function publicRoutes(ctx: AppContext) {
  const { db, config } = ctx;
  const projectOf = (request: Request, slug?: string) =>
    board.resolvePublicProject(db, { slug, publishableKey: request.headers.get(PUBLISHABLE_KEY_HEADER) });

  return new Elysia().use(publicPlumbing()).use(
    keylessRoutes(PUBLIC_PREFIX, "Public")
      .guard({ detail: { parameters: [publishableKeyParameter(false)] } })
      .post(
        "/posts",
        ({ request, body, status }) => {
          const project = projectOf(request, body.projectSlug);
          return status(201, { data: board.submitPublicPost(db, project, body) });
        },
        {
          body: PublicSubmitSchema,
          response: {
            201: publicDataOf(PublicPostSchema, "The submitted post, PENDING"),
            ...publicErrors,
          },
          detail: {
            summary: "Submit a feature request",
            description:
              "No key. The post starts PENDING and is listed only once the team approves it. `metadata` is stored as private " +
              "context and never shown publicly; `email` links the post to a board user and is never shown either. " +
              "`projectSlug` may be replaced by the header `X-Publishable-Key: pk_…`.",
          },
        },
      )
      .get(
        "/widget",
        ({ request }) => {
          const publishableKey = request.headers.get(PUBLISHABLE_KEY_HEADER);
          if (!publishableKey) throw validationError("X-Publishable-Key", "is required");
          const project = board.resolvePublicProject(db, { publishableKey });
          return { data: board.getBoard(db, project, config.publicUrl) };
        },
        {
          response: {
            200: publicDataOf(PublicBoardSchema, "The widget's board"),
            ...errorResponses(400, 401, 403, 429),
          },
          detail: {
            parameters: [publishableKeyParameter(true)],
            summary: "Find the widget's board",
            description:
              "The board of the publishable key sent as `X-Publishable-Key: pk_…`: what the embeddable widget starts " +
              "from, since it knows only its key. Not a page view. A private board answers 403 BOARD_NOT_PUBLIC.",
          },
        },
      )
      .get(
        "/boards/:slug",
        ({ request, params }) => {
          const project = projectOf(request, params.slug);
          recordPageView(db, project.id);
          return { data: board.getBoard(db, project, config.publicUrl) };
        },
        {
          params: BoardParams,
          response: { 200: publicDataOf(PublicBoardSchema, "The board"), ...publicErrors },
          detail: {
            summary: "Get a public board",
            description: `Name, board page URL and post counts; counts as a page view. ${publishableKeyNote}`,
          },
        },
      )
      .get(
        "/boards/:slug/posts",
        ({ request, params, query }) => board.listVisiblePosts(db, projectOf(request, params.slug).id, query),
        {
          params: BoardParams,
          query: PublicPostsQuery,
          response: { 200: PublicPostListSchema, ...publicErrors },
          detail: {
            summary: "List a board's posts",
            description:
              "Approved, in-progress and complete posts (never PENDING): `sort=votes` (default) or `date`, `status`, " +
              `\`q\` (every word must appear in title or description), \`page\`, \`limit\` (default 20). ${publishableKeyNote}`,
          },
        },
      )
      .get(
        "/boards/:slug/posts/:postId",
        ({ request, params }) => ({
          data: board.getPublicPost(db, projectOf(request, params.slug).id, params.postId),
        }),
        {
          params: BoardPostParams,
          response: {
            200: publicDataOf(PublicPostDetailSchema, "The post with its public comments"),
            ...publicErrors,
          },
          detail: {
            summary: "Get a post with its public comments",
            description: "Internal notes are never included. A PENDING post answers 404.",
          },
        },
      )
      .post(
        "/boards/:slug/posts/:postId/vote",
        ({ request, params, body, status }) => {
          const project = projectOf(request, params.slug);
          const outcome = votes.castPublicVote(db, project.id, params.postId, body);
          return status(outcome.alreadyVoted ? 200 : 201, { data: outcome.vote });
        },
        {
          params: BoardPostParams,
          body: PublicVoteBodySchema,
          response: {
            200: publicDataOf(PublicVoteSchema, "Already voted: nothing changed"),
            201: publicDataOf(PublicVoteSchema, "The vote was cast"),
            ...publicErrors,
          },
          detail: {
            summary: "Vote on a post",
            description:
              "Idempotent per `anonymousId`: the first vote answers 201, voting again with the same `anonymousId` answers 200 " +
              "and changes nothing. `email` links the vote to a new board user only when no board user has that email yet; " +
              "it never casts or finds another voter's vote, and the answer is the same whether or not its user voted. " +
              "Posts the board does not list (PENDING, CLOSED, ARCHIVED) answer 404 POST_NOT_FOUND.",
          },
        },
      )
      .delete(
        "/boards/:slug/posts/:postId/vote",
        ({ request, params, body }) => ({
          data: votes.removePublicVote(db, projectOf(request, params.slug).id, params.postId, body),
        }),
        {
          params: BoardPostParams,
          body: PublicUnvoteBodySchema,
          response: {
            200: publicDataOf(PublicVoteSchema, "The vote is gone"),
            ...publicErrors,
          },
          detail: {
            summary: "Remove a vote",
            description:
              "Removes the vote cast with this `anonymousId`, and only that one (`email` is ignored); none is not an error.",
          },
        },
      )
      .post(
        "/boards/:slug/posts/:postId/comments",
        ({ request, params, body, status }) =>
          status(201, {
            data: board.commentPublic(db, projectOf(request, params.slug).id, params.postId, body),
          }),
        {
          params: BoardPostParams,
          body: PublicCommentBodySchema,
          response: {
            201: publicDataOf(PublicCommentSchema, "The comment"),
            ...publicErrors,
          },
          detail: {
            summary: "Comment on a post",
            description:
              "Public comments only; 1 to 5000 characters. Posts the board does not list answer 404 POST_NOT_FOUND.",
          },
        },
      )
      .get(
        "/boards/:slug/roadmap",
        ({ request, params }) => ({ data: board.getPublicRoadmap(db, projectOf(request, params.slug).id) }),
        {
          params: BoardParams,
          response: {
            200: publicDataOf(PublicRoadmapSchema, "Posts by roadmap column"),
            ...publicErrors,
          },
          detail: {
            summary: "Get a board's roadmap",
            description:
              "Approved, in-progress and complete posts, each column by votes (up to 100 per column).",
          },
        },
      )
      .get(
        "/boards/:slug/changelog",
        ({ request, params, query }) =>
          board.getPublicChangelog(db, projectOf(request, params.slug).id, query),
        {
          params: BoardParams,
          query: ChangelogQuery,
          response: { 200: PublicChangelogSchema, ...publicErrors },
          detail: {
            summary: "Get a board's changelog",
            description:
              "Published releases, newest first (drafts never appear); `page`, `limit` (default 20).",
          },
        },
      ),
  );
}
