import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import {
  FromTextResultSchema,
  PERIODS,
  SimilarPostSchema,
  SprintPlanResultSchema,
  STRATEGIES,
  SummaryResultSchema,
  TriageResultSchema,
} from "../../ai/schema";
import * as ai from "../../ai/service";
import { enforceRateLimit } from "../../http/rate-limit";
import { LIMITS } from "../../http/limits";
import { GATED_FROM, requirePlan } from "../../projects/plans";
import type { Project } from "../../projects/schema";
import { adminProject, ADDS, defineTool, type McpSession, READS, type Tool } from "../tool";
import { Args, defined } from "./args";

/** Arguments the prompts (src/mcp/prompts.ts) pass on to these tools, checked there by the same schema. */
export const TriageLimit = Type.Integer({
  minimum: 1,
  maximum: LIMITS.triagePosts,
  description: "Default 20",
});
export const SprintCapacity = Type.Integer({
  minimum: 1,
  maximum: LIMITS.sprintCapacity,
  description: "Default 5",
});
export const SprintStrategy = Type.Union(STRATEGIES.map((strategy) => Type.Literal(strategy)));

/**
 * AI tools draw on the project's AI budget (docs/decisions.md, "Rate limits"), as the REST AI routes and
 * the dashboard do, once the plan allows them: a project below growth is told to upgrade, never to wait,
 * and its refused calls cost nothing.
 */
function aiProject(session: McpSession): Project {
  const project = adminProject(session);
  requirePlan(project, GATED_FROM, "AI features");
  enforceRateLimit(session.ctx.rateLimits.ai, project.id, {});
  return project;
}

/** AI tools may call the configured model provider, which can be an outside service. */
const AI_READS = { ...READS, openWorldHint: true };
const AI_ADDS = { ...ADDS, openWorldHint: true };
const GATED = " Needs the growth plan or higher (PLAN_UPGRADE_REQUIRED otherwise).";

export const searchSimilarTool = defineTool({
  name: "search_similar",
  title: "Search similar posts",
  description:
    "Use before creating a post, or when a user describes a need, to find existing posts that mean the same thing even " +
    "when worded differently. similarity is calibrated: 0.7 and above is a likely duplicate. Every plan.",
  access: "admin",
  annotations: AI_READS,
  input: Args({
    query: Type.String({
      minLength: 1,
      maxLength: LIMITS.similarQueryLength,
      description: "The text to compare posts with",
    }),
    threshold: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1, description: "Minimum similarity, default 0.7" }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: LIMITS.similarPosts, description: "Default 5" }),
    ),
  }),
  output: t.Object({ posts: t.Array(SimilarPostSchema) }),
  async run(session, args) {
    const input = { query: args.query, ...defined({ threshold: args.threshold, limit: args.limit }) };
    // A posts search of every plan, metered like the REST route: against the key only (docs/ai.md).
    const found = await ai.findSimilarPosts(session.ctx.ai, adminProject(session).id, input);
    return { posts: found };
  },
});

export const submitFeedbackTool = defineTool({
  name: "submit_feedback",
  title: "File raw feedback",
  description:
    "Use with raw customer text (an email, a chat message, a call note): extracts a post, and when an existing post " +
    "already asks for it (similarity ≥ 0.7) matches it instead of creating a duplicate, keeping the text as an " +
    "internal note on that post so the team can read it." +
    GATED,
  access: "admin",
  annotations: AI_ADDS,
  input: Args({
    text: Type.String({
      minLength: 1,
      maxLength: LIMITS.feedbackTextLength,
      description: "The feedback as received",
    }),
    source: Type.Optional(
      Type.String({
        maxLength: LIMITS.feedbackSourceLength,
        description: "Origin label, such as 'intercom'",
      }),
    ),
    source_url: Type.Optional(
      Type.String({ maxLength: LIMITS.urlLength, description: "Link to the original" }),
    ),
  }),
  output: FromTextResultSchema,
  async run(session, args) {
    const input = { text: args.text, ...defined({ source: args.source, source_url: args.source_url }) };
    const result = await ai.createPostFromText(session.ctx.ai, aiProject(session).id, input);
    return result;
  },
});

export const triageInboxTool = defineTool({
  name: "triage_inbox",
  title: "Triage the inbox",
  description:
    "Use to work through PENDING posts: a recommendation per post (status, tags, duplicate_of, priority, reason); " +
    "duplicate_of is set only for a close duplicate, and a merely related post is named in the reason. " +
    "It changes nothing; apply the decisions with update_post, bulk_update_posts or merge_posts." +
    GATED,
  access: "admin",
  annotations: AI_READS,
  input: Args({
    limit: Type.Optional(TriageLimit),
  }),
  output: TriageResultSchema,
  run: async (session, args) => ai.triageInbox(session.ctx.ai, aiProject(session).id, defined(args)),
});

export const getSummaryTool = defineTool({
  name: "get_summary",
  title: "Summarise recent feedback",
  description:
    "Use for a written digest of what customers asked for over a period: summary, highlights, top themes and figures." +
    GATED,
  access: "admin",
  annotations: AI_READS,
  input: Args({
    period: Type.Optional(
      Type.Union(
        PERIODS.map((period) => Type.Literal(period)),
        { description: "Default week" },
      ),
    ),
  }),
  output: SummaryResultSchema,
  run: async (session, args) => ai.summariseFeedback(session.ctx.ai, aiProject(session).id, defined(args)),
});

export const planSprintTool = defineTool({
  name: "plan_sprint",
  title: "Propose a sprint plan",
  description:
    "Use to choose what to build next: picks `capacity` posts by strategy (balanced, revenue, popular, quick-wins) with " +
    "a reason each. It changes nothing; move the chosen posts with update_post." +
    GATED,
  access: "admin",
  annotations: AI_READS,
  input: Args({
    capacity: Type.Optional(SprintCapacity),
    strategy: Type.Optional(SprintStrategy),
  }),
  output: SprintPlanResultSchema,
  run: async (session, args) => ai.planSprint(session.ctx.ai, aiProject(session).id, defined(args)),
});

export const AI_TOOLS: Tool[] = [
  searchSimilarTool,
  submitFeedbackTool,
  triageInboxTool,
  getSummaryTool,
  planSprintTool,
];
