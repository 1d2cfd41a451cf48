import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { enforceRateLimit } from "../http/rate-limit";
import { secretKeyRoutes } from "../http/routes";
import { dataOf, errorResponses } from "../http/schemas";
import { GATED_FROM, requirePlan } from "../projects/plans";
import {
  FromTextResultSchema,
  FromTextSchema,
  SimilarPostSchema,
  SimilarQuery,
  SprintPlanRequestSchema,
  SprintPlanResultSchema,
  SummaryRequestSchema,
  SummaryResultSchema,
  TriageResultSchema,
  TriageSchema,
} from "./schema";
import * as ai from "./service";

const GATED =
  " Requires the growth plan or higher (403 PLAN_UPGRADE_REQUIRED); AI requests are rate limited per project.";

/**
 * The AI workflows the specification gates (from-text, triage, summary, sprint plan) check the plan, then
 * draw on the project's AI budget on top of the key's own (docs/ai.md, "Endpoints"): a project below
 * growth is told to upgrade (403), not to wait (429), and its refused requests cost nothing. The services
 * check the plan again for their other callers (MCP). The similar-post search is a posts route of every
 * plan and meters like one, against the key only.
 */
function aiWorkflowRoutes<const Prefix extends string>(ctx: AppContext, prefix: Prefix, tag: string) {
  return secretKeyRoutes(ctx, prefix, tag).onBeforeHandle({ as: "local" }, ({ project, set }) => {
    requirePlan(project, GATED_FROM, "AI features");
    enforceRateLimit(ctx.rateLimits.ai, project.id, set.headers);
  });
}

/**
 * Similar-post search, posts from free text and the AI workflows, over the runtime's AI provider
 * (`ctx.ai`). Building the routes starts nothing.
 */
export function aiRoutes(ctx: AppContext) {
  const similar = secretKeyRoutes(ctx, "/api/v1/posts", "Posts").get(
    "/similar",
    async ({ project, query }) => ({ data: await ai.findSimilarPosts(ctx.ai, project.id, query) }),
    {
      query: SimilarQuery,
      response: {
        200: dataOf(t.Array(SimilarPostSchema), "Posts ranked by similarity, best first"),
        ...errorResponses(400, 502, 503),
      },
      detail: {
        summary: "Find posts similar to a text",
        description:
          "Semantic search over the project's posts. `similarity` is calibrated to 0-1 so that the default " +
          "`threshold` 0.7 is where a post becomes a likely duplicate; `limit` defaults to 5. Every plan.",
      },
    },
  );
  const fromText = aiWorkflowRoutes(ctx, "/api/v1/posts", "Posts").post(
    "/from-text",
    async ({ project, body, status }) =>
      status(201, { data: await ai.createPostFromText(ctx.ai, project.id, body) }),
    {
      body: FromTextSchema,
      response: {
        201: dataOf(FromTextResultSchema, "The created post, or the existing post it duplicates"),
        ...errorResponses(400, 403, 502, 503),
      },
      detail: {
        summary: "Create a post from free text",
        description:
          "Extracts a title, description and tags (among the project's) from raw feedback. When an existing " +
          "post that is not CLOSED or ARCHIVED is at least 0.78 similar (0.7 when the text names every word of its title; 0.82 for a PENDING post without votes; " +
          "not when two posts are within 0.02 of each other), no post is created: `action` is " +
          "`matched_duplicate`, `post` is that post, and the text (with `source` and `source_url`) is kept " +
          "on it as an internal note for the team. Otherwise a PENDING post is created (`action` " +
          "`created`) with `source` and `source_url` in its metadata. `similar_posts` lists posts at least " +
          "0.5 similar either way." +
          GATED,
      },
    },
  );

  const workflows = aiWorkflowRoutes(ctx, "/api/v1/ai", "AI")
    .post(
      "/triage",
      async ({ project, body }) => ({ data: await ai.triageInbox(ctx.ai, project.id, body ?? {}) }),
      {
        body: t.Optional(TriageSchema),
        response: {
          200: dataOf(TriageResultSchema, "One recommendation per post"),
          ...errorResponses(400, 403, 502, 503),
        },
        detail: {
          summary: "Triage the inbox",
          description:
            "Recommends a status, tags, a duplicate (by similarity) and a priority (votes, voters' spend, age) for " +
            "the oldest PENDING posts, up to `limit` (default 20). Changes nothing." +
            GATED,
        },
      },
    )
    .post(
      "/summary",
      async ({ project, body }) => ({ data: await ai.summariseFeedback(ctx.ai, project.id, body ?? {}) }),
      {
        body: t.Optional(SummaryRequestSchema),
        response: {
          200: dataOf(SummaryResultSchema, "Summary of the period"),
          ...errorResponses(400, 403, 502, 503),
        },
        detail: {
          summary: "Summarise feedback",
          description:
            "Stats, themes and highlights of the last week, month or quarter (default week)." + GATED,
        },
      },
    )
    .post(
      "/sprint-plan",
      async ({ project, body }) => ({ data: await ai.planSprint(ctx.ai, project.id, body ?? {}) }),
      {
        body: t.Optional(SprintPlanRequestSchema),
        response: {
          200: dataOf(SprintPlanResultSchema, "The planned posts, in order"),
          ...errorResponses(400, 403, 502),
        },
        detail: {
          summary: "Plan a sprint",
          description:
            "Picks up to `capacity` (default 5) PENDING, APPROVED or IN_PROGRESS posts: `balanced` (default), " +
            "`revenue` (voters' spend first), `popular` (votes) or `quick-wins` (votes per effort). Each item's " +
            "`reason` says why it was picked." +
            GATED,
        },
      },
    );

  return new Elysia().use(similar).use(fromText).use(workflows);
}
