import { Elysia } from "elysia";
import { listActivity } from "../activity/service";
import { ACTIVITY_ENTITY_TYPES, TEAM_ACCESS_ENTITY_TYPES } from "../activity/schema";
import { requireValid } from "../http/validation-message";
import { getPost, listTeamPosts, publicTitlesOf, teamTitlesOf } from "../posts/service";
import { ReleaseCreateSchema, ReleaseUpdateSchema } from "../releases/schema";
import {
  createRelease,
  deleteRelease,
  getRelease,
  listAllReleases,
  updateRelease,
} from "../releases/service";
import { getRoadmap } from "../roadmap/service";
import { hasRole, listMembers, requireRole } from "../team/service";
import { renderMarkdown } from "../web/markdown";
import uplotCss from "uplot/dist/uPlot.min.css" with { type: "text" };
import uplotScript from "uplot/dist/uPlot.iife.min.js" with { type: "text" };
import { PERIODS } from "../analytics/schema";
import { getAnalytics, getDailyFigures, revenueWeightedDemand } from "../analytics/service";
import dashboardScript from "./assets/dashboard.client.js" with { type: "text" };
import { postIdsOf } from "./activity-lines";
import {
  activityPage,
  analyticsPage,
  RELEASE_LABELS,
  releaseEditPage,
  releasesPage,
  roadmapPage,
} from "./board-pages";
import { type DashboardKit, toPage, withNotice } from "./dashboard";
import { href } from "./pages";
import { callerIn, csrfRefused, formOf } from "./session";

/** The roadmap editor, the changelog editor, analytics and the audit log (docs/dashboard.md). */
export function boardRoutes(kit: DashboardKit) {
  const { db, act, view, change, sessionOf, failure } = kit;
  /** The release editor's fields (board-pages.ts, releaseForm), as the API's body names them. */
  const releaseFields = (form: URLSearchParams) => {
    const text = (name: string) => {
      const value = form.get(name) ?? "";
      return value.trim() === "" ? null : value;
    };
    return {
      title: form.get("title") ?? "",
      label: text("label"),
      content: text("content"),
      isDraft: form.get("publish") !== "yes",
      postIds: form.getAll("postIds"),
    };
  };
  /**
   * "Email the subscribers of the shipped requests", ticked by default (docs/dashboard.md, Changelog): the
   * REST API has no such field, so the dashboard passes it to the releases service beside the body.
   */
  const publishOptions = (form: URLSearchParams) => ({
    emailSubscribers: form.get("emailSubscribers") === "yes",
  });
  /** The requests a release may ship: planned, in progress or complete, by votes. */
  const shipCandidates = (projectId: string) =>
    listTeamPosts(
      db,
      { projectId, statuses: ["APPROVED", "IN_PROGRESS", "COMPLETE"], words: [], withRevenue: false },
      "votes",
      1,
    ).data;
  return new Elysia({ name: "admin.board", detail: { hide: true } })
    .get(
      "/admin/assets/dashboard.js",
      () =>
        new Response(dashboardScript, {
          headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache" },
        }),
    )
    .get(
      "/admin/assets/uplot.js",
      () => new Response(uplotScript, { headers: { "content-type": "text/javascript; charset=utf-8" } }),
    )
    .get(
      "/admin/assets/uplot.css",
      () => new Response(uplotCss, { headers: { "content-type": "text/css; charset=utf-8" } }),
    )
    .get(
      "/admin/analytics",
      view("analytics", (caller, chrome, url) => {
        const { projectId } = caller.membership;
        const requested = url.searchParams.get("period") ?? "";
        const period = PERIODS.find((candidate) => candidate === requested) ?? "month";
        const now = Date.now();
        const daily = getDailyFigures(db, projectId, period, now);
        return analyticsPage(chrome, {
          periods: PERIODS,
          analytics: getAnalytics(db, projectId, period, now),
          series: daily.series,
          statusFlow: daily.statusFlow,
          revenueDemand: revenueWeightedDemand(db, projectId),
        });
      }),
    )
    .get(
      "/admin/roadmap",
      view("roadmap", (caller, chrome) => roadmapPage(chrome, getRoadmap(db, caller.membership.projectId))),
    )
    .get(
      "/admin/releases",
      view("releases", (caller, chrome) => {
        requireRole(caller.membership, "admin", "Writing the changelog");
        const { projectId } = caller.membership;
        const releases = listAllReleases(db, projectId).reverse();
        const candidates = shipCandidates(projectId);
        const titles = publicTitlesOf(
          db,
          projectId,
          releases.flatMap((release) => release.postIds),
        );
        return releasesPage(chrome, { releases, candidates, titles });
      }),
    )
    .post(
      "/admin/releases",
      change(
        "releases",
        (caller, form) => {
          requireRole(caller.membership, "admin", "Writing the changelog");
          const input = requireValid(ReleaseCreateSchema, releaseFields(form), "body");
          act(caller, () => createRelease(db, caller.membership.projectId, input, {}, publishOptions(form)));
          return withNotice(
            href({ projectSlug: caller.membership.projectSlug }, "/admin/releases"),
            input.isDraft ? "draft" : "published",
          );
        },
        () => RELEASE_LABELS,
      ),
      { parse: "text" },
    )
    .get(
      "/admin/releases/:releaseId",
      view("releases", (caller, chrome, _url, params) => {
        requireRole(caller.membership, "admin", "Writing the changelog");
        const { projectId } = caller.membership;
        const release = getRelease(db, projectId, params.releaseId ?? "");
        const shipsPosts = release.postIds.map((postId) => getPost(db, projectId, postId));
        return releaseEditPage(chrome, {
          release: { ...release, shipsPosts },
          candidates: shipCandidates(projectId),
        });
      }),
    )
    .post(
      "/admin/releases/:releaseId",
      change(
        "releases",
        (caller, form, params) => {
          requireRole(caller.membership, "admin", "Writing the changelog");
          const patch = requireValid(ReleaseUpdateSchema, releaseFields(form), "body");
          const release = act(caller, () =>
            updateRelease(
              db,
              caller.membership.projectId,
              params.releaseId ?? "",
              patch,
              publishOptions(form),
            ),
          );
          return withNotice(
            href({ projectSlug: caller.membership.projectSlug }, "/admin/releases"),
            release.isDraft ? "draft" : "saved",
          );
        },
        () => RELEASE_LABELS,
      ),
      { parse: "text" },
    )
    .post(
      "/admin/releases/:releaseId/delete",
      change("releases", (caller, _form, params) => {
        requireRole(caller.membership, "admin", "Writing the changelog");
        act(caller, () => deleteRelease(db, caller.membership.projectId, params.releaseId ?? ""));
        return withNotice(href({ projectSlug: caller.membership.projectSlug }, "/admin/releases"), "deleted");
      }),
      { parse: "text" },
    )
    .post(
      "/admin/releases/:releaseId/publish",
      change("releases", (caller, form, params) => {
        requireRole(caller.membership, "admin", "Writing the changelog");
        act(caller, () =>
          updateRelease(
            db,
            caller.membership.projectId,
            params.releaseId ?? "",
            { isDraft: false },
            publishOptions(form),
          ),
        );
        return withNotice(
          href({ projectSlug: caller.membership.projectSlug }, "/admin/releases"),
          "published",
        );
      }),
      { parse: "text" },
    )
    .post(
      "/admin/releases/preview",
      // A fragment for the editor's live preview: the board's own markdown renderer, escaped by construction.
      ({ request, body }) => {
        const session = sessionOf(request);
        if (!session) return new Response("", { status: 401 });
        try {
          const form = formOf(request, body);
          if (form.get("csrf") !== session.csrfToken) throw csrfRefused();
          callerIn(session, form.get("project") ?? "");
          return new Response(renderMarkdown(form.get("content") ?? "").value, {
            headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
          });
        } catch (error) {
          return failure(error, null);
        }
      },
      { parse: "text" },
    )
    .get(
      "/admin/activity",
      view("activity", (caller, chrome, url) => {
        const { projectId, projectSlug } = caller.membership;
        const search = url.searchParams;
        const entityType = search.get("entityType") ?? "";
        const members = listMembers(db, projectSlug);
        const memberId = search.get("member") ?? "";
        // Keys, members, invites and the project's settings are the admins' and owners' (docs/dashboard.md).
        const seesTeamAccess = hasRole(caller.membership, "admin");
        const entityTypes = seesTeamAccess
          ? ACTIVITY_ENTITY_TYPES
          : ACTIVITY_ENTITY_TYPES.filter(
              (type) => !(TEAM_ACCESS_ENTITY_TYPES as readonly string[]).includes(type),
            );
        const known = (entityTypes as readonly string[]).includes(entityType);
        const teamMemberId = members.some((member) => member.id === memberId) ? memberId : "";
        const page = toPage(search.get("page"));
        const list = listActivity(db, projectId, {
          page,
          limit: 50,
          oneLinePerMerge: true,
          withoutTeamAccess: !seesTeamAccess,
          ...(known ? { entityType } : {}),
          ...(teamMemberId ? { teamMemberId } : {}),
        });
        return activityPage(chrome, {
          entries: list.data,
          names: {
            posts: teamTitlesOf(db, projectId, list.data.flatMap(postIdsOf)),
            releases: list.data.some((entry) => entry.entityType === "release")
              ? new Map(listAllReleases(db, projectId).map((release) => [release.id, release.title]))
              : new Map(),
          },
          entityTypes,
          members,
          entityType: known ? entityType : "",
          teamMemberId,
          page,
          totalPages: Math.max(1, list.pagination.totalPages),
        });
      }),
    );
}
