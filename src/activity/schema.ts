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
] as const;
