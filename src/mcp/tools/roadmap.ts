import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { ActivityEntrySchema } from "../../activity/schema";
import { listActivity } from "../../activity/service";
import { AnalyticsSchema, PERIODS } from "../../analytics/schema";
import { getAnalytics } from "../../analytics/service";
import { PaginationSchema } from "../../http/paging";
import { ReleaseSchema } from "../../releases/schema";
import { createRelease, listPublishedReleases } from "../../releases/service";
import { RoadmapSchema } from "../../roadmap/schema";
import { getRoadmap } from "../../roadmap/service";
import { ADDS, adminProject, defineTool, READS, type Tool } from "../tool";
import { Args, defined, Id, Limit, Page } from "./args";
import { LIMITS } from "../../http/limits";

const Period = Type.Union(
  PERIODS.map((period) => Type.Literal(period)),
  { description: "week (default, last 7 days), month (30) or quarter (90)" },
);

export const getRoadmapTool = defineTool({
  name: "get_roadmap",
  title: "Get the roadmap",
  description:
    "Use to see what is planned (APPROVED), being built (IN_PROGRESS) and done (COMPLETE), each column by votes, for " +
    "example to answer 'is X planned?' or before planning a sprint.",
  access: "admin",
  annotations: READS,
  input: Args({}),
  output: RoadmapSchema,
  run: (session) => getRoadmap(session.ctx.db, adminProject(session).id),
});

export const getAnalyticsTool = defineTool({
  name: "get_analytics",
  title: "Get board analytics",
  description:
    "Use for numbers about the board over a period: new posts, votes, comments, page views, the most voted posts and " +
    "trending tags, for example for a weekly report.",
  access: "admin",
  annotations: READS,
  input: Args({ period: Type.Optional(Period) }),
  output: AnalyticsSchema,
  run: (session, args) => getAnalytics(session.ctx.db, adminProject(session).id, args.period ?? "week"),
});

export const getActivityTool = defineTool({
  name: "get_activity",
  title: "Get the activity log",
  description:
    "Use to find out what changed recently and who or what changed it (the audit log, newest first), optionally for " +
    "one entity type such as post, tag or release.",
  access: "admin",
  annotations: READS,
  input: Args({
    page: Type.Optional(Page),
    limit: Type.Optional(Limit(100, 50)),
    entity_type: Type.Optional(
      Type.String({ minLength: 1, maxLength: LIMITS.entityTypeLength, description: "post, tag, release…" }),
    ),
  }),
  output: t.Object({ entries: t.Array(ActivityEntrySchema), pagination: PaginationSchema }),
  run(session, args) {
    const query = defined({ page: args.page, limit: args.limit, entityType: args.entity_type });
    const list = listActivity(session.ctx.db, adminProject(session).id, query);
    return { entries: list.data, pagination: list.pagination };
  },
});

export const listReleasesTool = defineTool({
  name: "list_releases",
  title: "List changelog releases",
  description:
    "Use to read the published changelog, newest first, for example before writing the next release notes.",
  access: "admin",
  annotations: READS,
  input: Args({ page: Type.Optional(Page), limit: Type.Optional(Limit(100, 20)) }),
  output: t.Object({ releases: t.Array(ReleaseSchema), pagination: PaginationSchema }),
  run(session, args) {
    const list = listPublishedReleases(session.ctx.db, adminProject(session).id, args);
    return { releases: list.data, pagination: list.pagination };
  },
});

export const createReleaseTool = defineTool({
  name: "create_release",
  title: "Create a changelog release",
  description:
    "Use to write release notes: a draft by default (is_draft true); is_draft false publishes at once, and the posts in " +
    "post_ids are then marked shipped (ARCHIVED with this release); email_subscribers true also emails each shipped " +
    "post's subscribers, as the dashboard's Publish does.",
  access: "admin",
  annotations: ADDS,
  input: Args({
    title: Type.String({ minLength: 1, maxLength: LIMITS.releaseTitleLength }),
    content: Type.Optional(
      Type.String({ maxLength: LIMITS.releaseContentLength, description: "Markdown release notes" }),
    ),
    is_draft: Type.Optional(Type.Boolean({ description: "Default true; false publishes now" })),
    label: Type.Optional(
      Type.String({ maxLength: LIMITS.releaseLabelLength, description: "Version label, such as v2.3" }),
    ),
    post_ids: Type.Optional(
      Type.Array(Id("A post this release ships"), { maxItems: LIMITS.releasePosts, uniqueItems: true }),
    ),
    email_subscribers: Type.Optional(
      Type.Boolean({
        description:
          "Default false. When the release is published now, email the subscribers of each post it ships (one email per post)",
      }),
    ),
  }),
  output: t.Object({ release: ReleaseSchema }),
  run(session, args) {
    const input = defined({
      title: args.title,
      content: args.content,
      isDraft: args.is_draft,
      label: args.label,
      postIds: args.post_ids,
    }) as Parameters<typeof createRelease>[2];
    const publish = { emailSubscribers: args.email_subscribers === true };
    return { release: createRelease(session.ctx.db, adminProject(session).id, input, {}, publish) };
  },
});

export const ROADMAP_TOOLS: Tool[] = [
  getRoadmapTool,
  getAnalyticsTool,
  getActivityTool,
  listReleasesTool,
  createReleaseTool,
];
