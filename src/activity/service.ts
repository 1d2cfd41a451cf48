import type { ActingMember, Db } from "../db/connection";
import { pagination, pageRequest } from "../http/paging";
import {
  ACTIVITY_DEFAULT_LIMIT,
  type ActivitySource,
  type ListActivityQueryInput,
  TEAM_ACCESS_ENTITY_TYPES,
} from "./schema";
import * as store from "./store";

export { recordActivity, type ActivityInput } from "./store";
/** The activity of one request (the dashboard's request page). */
export { activityOfPost } from "./store";
/** How requests moved between statuses over a period (the dashboard's analytics). */
export { statusFlowSince } from "./store";
/** Every activity entry of a project, unpaged (the lossless export reads it). */
export { listActivity as listActivityRows } from "./store";

/**
 * The audit log, newest first, optionally of one entity type; the dashboard also filters by the team
 * member who made the changes.
 */
export function listActivity(
  db: Db,
  projectId: string,
  query: ListActivityQueryInput & {
    teamMemberId?: string | undefined;
    /**
     * The dashboard's Activity screen: a merge writes `merged` on one request and `merge_received` on the
     * other (docs/reporting.md); the list shows the first only, so each merge is one line. The request
     * page's own history keeps both.
     */
    oneLinePerMerge?: boolean;
    /**
     * The Activity screen of a member-role team member: no keys, members, invites or project settings
     * (TEAM_ACCESS_ENTITY_TYPES), which only admins and owners see (docs/dashboard.md).
     */
    withoutTeamAccess?: boolean;
  },
) {
  const page = pageRequest(query, ACTIVITY_DEFAULT_LIMIT);
  const filter = {
    entityType: query.entityType,
    teamMemberId: query.teamMemberId,
    exceptAction: query.oneLinePerMerge ? "merge_received" : undefined,
    exceptEntityTypes: query.withoutTeamAccess ? TEAM_ACCESS_ENTITY_TYPES : undefined,
  };
  return {
    data: store.listActivity(db, projectId, filter, page.limit, page.offset),
    pagination: pagination(page, store.countActivity(db, projectId, filter)),
  };
}

/**
 * Runs a change on behalf of a team member (the dashboard): every activity entry it records names them.
 * The change must be synchronous, as every service write is.
 */
export function actAs<T>(db: Db, member: ActingMember, change: () => T): T {
  const previous = db.actingMember;
  db.actingMember = member;
  try {
    return change();
  } finally {
    db.actingMember = previous;
  }
}

/**
 * For a change that waits before it writes (a URL's DNS check, a call to a chat tool or the payment
 * processor): call it before the first `await`, and run the writes after it through the function it answers,
 * so they name the member who was acting when the change began (`actAs`), or nobody. The member is never
 * left set across an await, where another request's change could run.
 */
export function keepActingMember(db: Db): <T>(write: () => T) => T {
  const member = db.actingMember;
  return (write) => (member ? actAs(db, member, write) : write());
}

/**
 * The `metadata.source` of an entry a change records: "cli" from the command line; nothing from the
 * dashboard (its entries name the team member, `actAs`) or the API (docs/dashboard.md, "Activity").
 */
export function sourceOf(source: ActivitySource | null): { source?: ActivitySource } {
  return source === null ? {} : { source };
}
