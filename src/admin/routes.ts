import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { boardRoutes } from "./board-routes";
import { dashboardKit } from "./dashboard";
import { integrationRoutes } from "./integration-routes";
import { settingsRoutes } from "./settings-routes";
import { ADMIN_CSS } from "./pages";
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
  return new Elysia({ name: "admin", detail: { hide: true } })
    .get(
      "/admin/assets/admin.css",
      () => new Response(ADMIN_CSS, { headers: { "content-type": "text/css; charset=utf-8" } }),
    )
    .use(signInRoutes(kit))
    .use(triageRoutes(kit))
    .use(requestRoutes(kit))
    .use(boardRoutes(kit))
    .use(settingsRoutes(kit))
    .use(tagRoutes(kit))
    .use(integrationRoutes(kit));
}
