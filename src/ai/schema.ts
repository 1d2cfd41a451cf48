import { type Static, t } from "elysia";
import { PostSchema, PostStatusSchema } from "../posts/schema";
import { BodyInteger, Enum, Id, IntegerParam } from "../http/schemas";
import { LIMITS } from "../http/limits";

/** Similar posts returned when `limit` is left out. */
export const DEFAULT_SIMILAR_LIMIT = 5;

export const SimilarQuery = t.Object({
  query: t.String({
    minLength: 1,
    maxLength: LIMITS.similarQueryLength,
    description: "Text to compare posts with",
  }),
  threshold: t.Optional(
    t.Number({
      minimum: 0,
      maximum: 1,
      title: "threshold",
      description: "Minimum similarity (0-1); default 0.7",
    }),
  ),
  limit: t.Optional(
    IntegerParam("limit", {
      minimum: 1,
      maximum: LIMITS.similarPosts,
      description: `Posts to return, 1 to ${LIMITS.similarPosts} (default ${DEFAULT_SIMILAR_LIMIT})`,
      serviceDefault: DEFAULT_SIMILAR_LIMIT,
    }),
  ),
});
export type SimilarInput = Static<typeof SimilarQuery>;

export const SimilarPostSchema = t.Object(
  {
    id: Id,
    title: t.String(),
    similarity: t.Number({
      minimum: 0,
      maximum: 1,
      description: "Calibrated: 0.7 and above is a likely duplicate",
    }),
    voteCount: t.Integer(),
    status: PostStatusSchema,
  },
  { title: "SimilarPost" },
);

export const FromTextSchema = t.Object({
  text: t.String({
    minLength: 1,
    maxLength: LIMITS.feedbackTextLength,
    description: "Raw feedback from any source",
  }),
  source: t.Optional(
    t.String({
      maxLength: LIMITS.feedbackSourceLength,
      description: "Origin label, kept in metadata.source",
    }),
  ),
  source_url: t.Optional(
    t.String({
      maxLength: LIMITS.urlLength,
      description: "Link to the original, kept in metadata.source_url",
    }),
  ),
});
export type FromTextInput = Static<typeof FromTextSchema>;

/**
 * Present only when the words came from another provider than the configured one: `local` when the
 * configured server could not write them (no chat model, a refused request). docs/ai.md.
 */
const WrittenBy = t.Optional(
  t.Literal("local", {
    description:
      "Only when the configured provider's server could not write the words (no chat model): the local logic did",
  }),
);

export const FromTextResultSchema = t.Object({
  provider: WrittenBy,
  action: Enum(["created", "matched_duplicate"] as const),
  post: PostSchema,
  similar_posts: t.Array(SimilarPostSchema),
});

export const TriageSchema = t.Object({
  limit: t.Optional(
    BodyInteger({ minimum: 1, maximum: LIMITS.triagePosts, description: "Posts to triage, default 20" }),
  ),
});
export type TriageInput = Static<typeof TriageSchema>;

export const PRIORITIES = ["high", "medium", "low"] as const;

export const TriageResultSchema = t.Object({
  provider: WrittenBy,
  triaged: t.Integer(),
  recommendations: t.Array(
    t.Object({
      postId: Id,
      title: t.String(),
      suggested_status: PostStatusSchema,
      suggested_tags: t.Array(t.String()),
      duplicate_of: t.Nullable(Id),
      priority: Enum(PRIORITIES),
      reason: t.String(),
    }),
  ),
});

export const PERIODS = ["week", "month", "quarter"] as const;
export const SummaryRequestSchema = t.Object({
  period: t.Optional(Enum(PERIODS, { description: "Default week" })),
});
export type SummaryRequest = Static<typeof SummaryRequestSchema>;

export const SummaryResultSchema = t.Object({
  provider: WrittenBy,
  summary: t.String(),
  highlights: t.Array(t.String()),
  top_themes: t.Array(t.String()),
  stats: t.Object({
    period: Enum(PERIODS),
    new_posts: t.Integer(),
    total_votes: t.Integer(),
    new_comments: t.Integer(),
    status_changes: t.Integer(),
    completed: t.Integer(),
  }),
});

export const STRATEGIES = ["balanced", "revenue", "popular", "quick-wins"] as const;
export type Strategy = (typeof STRATEGIES)[number];
export const SprintPlanRequestSchema = t.Object({
  capacity: t.Optional(
    BodyInteger({ minimum: 1, maximum: LIMITS.sprintCapacity, description: "Posts to plan, default 5" }),
  ),
  strategy: t.Optional(Enum(STRATEGIES, { description: "Default balanced" })),
});
export type SprintPlanRequest = Static<typeof SprintPlanRequestSchema>;

export const SprintPlanResultSchema = t.Object({
  strategy: Enum(STRATEGIES),
  items: t.Array(t.Object({ postId: Id, title: t.String(), voteCount: t.Integer(), reason: t.String() })),
  summary: t.String(),
});
