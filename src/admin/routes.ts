import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { aiRoutes } from "./ai-routes";
import { boardRoutes } from "./board-routes";
import { hasRole } from "../team/service";
import { type DashboardKit, DashboardRefusal, dashboardKit, redirect, signInFirst } from "./dashboard";
import { requestUrl } from "../http/request-info";
import { integrationRoutes } from "./integration-routes";
import { settingsRoutes } from "./settings-routes";
import { ADMIN_CSS, href, SCREEN_HOMES } from "./pages";
import { callerIn } from "./session";
import { requestRoutes } from "./request-routes";
import { signInRoutes } from "./sign-in-routes";
import { tagRoutes } from "./tag-routes";
import { triageRoutes } from "./triage-routes";

/**
 * The team dashboard at /admin (docs/dashboard.md): a surface over the same services as the API, with
 * sessions in an HttpOnly cookie and a CSRF token in every form that changes something.
 */
export function adminRoutes(ctx: AppContext) {
  const kit = dashboardKit(ctx);
  const notFound = noDashboardPage(kit);
  return new Elysia({ name: "admin", detail: { hide: true } })
    .get(
      "/admin/assets/admin.css",
      () => new Response(ADMIN_CSS, { headers: { "content-type": "text/css; charset=utf-8" } }),
    )
    .use(signInRoutes(kit))
    .use(triageRoutes(kit))
    .use(requestRoutes(kit))
    .use(boardRoutes(kit))
    .use(aiRoutes(kit))
    .use(settingsRoutes(kit))
    .use(tagRoutes(kit))
    .use(integrationRoutes(kit))
    .get("/admin/switch", switchProject(kit))
    .get("/admin/*", ({ request, params }) =>
      // "/admin/" is the inbox with a slash too many; anything else is no dashboard page.
      requestUrl(request).pathname === "/admin/" ? redirect("/admin") : notFound({ request, params }),
    );
}

/**
 * A mistyped dashboard address (/admin/changelog, /admin/request) answers a dashboard page, 404, with the
 * menu and a link back, not the API's JSON refusal that names GET /api/v1/ (docs/dashboard.md).
 */
function noDashboardPage(kit: DashboardKit) {
  return kit.view("none", (_caller, _chrome, url) => {
    throw new DashboardRefusal(
      "ROUTE_NOT_FOUND",
      `There is no dashboard page at ${url.pathname}`,
      "The address may be mistyped or out of date: the dashboard's screens are in the menu above.",
    );
  });
}

/**
 * The header's project switcher: the same screen of the chosen project (`to`, the screen the member was
 * on). Only a path of SCREEN_HOMES (pages.ts) is opened, never the `to` as sent (another site, /admin/../),
 * and only when the member's role in the chosen project opens it; anything else lands on its Inbox.
 */
function switchProject(kit: DashboardKit) {
  return ({ request }: { request: Request }) => {
    const session = kit.sessionOf(request);
    const url = requestUrl(request);
    if (!session) return signInFirst(url);
    try {
      const caller = callerIn(session, url.searchParams.get("project") ?? "");
      const to = url.searchParams.get("to");
      const screen = Object.values(SCREEN_HOMES).find((home) => home !== null && home.path === to);
      const path = screen && hasRole(caller.membership, screen.least) ? screen.path : "/admin";
      return redirect(href({ projectSlug: caller.membership.projectSlug }, path));
    } catch (error) {
      return kit.failure(error, null);
    }
  };
}
