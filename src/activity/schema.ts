import { type Static, t } from "elysia";
import { pageQuery, PaginationSchema } from "../http/paging";
import { DateTime, Id } from "../http/schemas";
import { LIMITS } from "../http/limits";

export const ActivityEntrySchema = t.Object(
  {
    id: Id,
    action: t.String(),
    entityType: t.String(),
    entityId: t.Nullable(t.String()),
    metadata: t.Nullable(t.Record(t.String(), t.Unknown())),
    createdAt: DateTime,
  },
  { title: "ActivityEntry" },
);
export type ActivityEntry = Static<typeof ActivityEntrySchema>;

export const ACTIVITY_DEFAULT_LIMIT = 50;
/** The specification leaves the maximum open; 100 matches every other listing. */
export const ACTIVITY_MAX_LIMIT = 100;

export const ListActivityQuery = t.Object({
  ...pageQuery(ACTIVITY_MAX_LIMIT, ACTIVITY_DEFAULT_LIMIT),
  entityType: t.Optional(
    t.String({
      minLength: 1,
      maxLength: LIMITS.entityTypeLength,
      description: "Only entries about this kind of entity: post, tag, release…",
    }),
  ),
});
export type ListActivityQueryInput = Static<typeof ListActivityQuery>;

export const ActivityListSchema = t.Object(
  { data: t.Array(ActivityEntrySchema), pagination: PaginationSchema },
  { description: "A page of the audit log, newest first" },
);

/**
 * Who may reach the project and how it looks: API keys, team members, invites and the project's settings
 * (docs/dashboard.md, "Activity"). Their entries are written with no webhook event (the event catalogue is
 * the specification's), and the dashboard's Activity screen shows them to admins and owners only.
 */
export const TEAM_ACCESS_ENTITY_TYPES = ["api_key", "member", "invite", "project"] as const;

/**
 * Where a change that names no team member came from, as `metadata.source`: a visitor on the public board,
 * or the command line (`featureboard keys|team|project …`). A change with neither is the API's.
 */
export type ActivitySource = "public" | "cli";

/** The entity types activity entries name (the dashboard's filter offers them). */
export const ACTIVITY_ENTITY_TYPES = [
  "post",
  "vote",
  "comment",
  "tag",
  "user",
  "release",
  "webhook",
  "integration",
  "import",
  ...TEAM_ACCESS_ENTITY_TYPES,
] as const;
