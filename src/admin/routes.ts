import { Elysia, t } from "elysia";
import type { AppContext } from "../context";
import { createComment, listThread } from "../comments/service";
import { ApiError, validationError } from "../http/errors";
import { enforceRateLimit } from "../http/rate-limit";
import { requestInfo, requestUrl } from "../http/request-info";
import { listPosts } from "../posts/listing";
import { isPostStatus, POST_STATUSES } from "../posts/schema";
import { getPost, updatePost } from "../posts/service";
import type { Membership, TeamSession } from "../team/schema";
import { SESSION_TTL_MS } from "../team/schema";
import { acceptInvite, describeInvite, sessionFor, signIn, signOut } from "../team/service";
import type { Html } from "../web/html";
import { ADMIN_CSS, ADMIN_HEADERS, inboxPage, requestPage, setPasswordPage, signInPage } from "./pages";

const COOKIE = "fb_session";

function page(body: Html, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body.value, { status, headers: { ...ADMIN_HEADERS, ...headers } });
}

function redirect(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { location, "cache-control": "no-store", ...headers } });
}

function cookieOf(request: Request): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === COOKIE) return value.join("=") || null;
  }
  return null;
}

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Lax (no cross-site form carries it),
 * Secure when the public URL is https, scoped to /admin.
 */
function sessionCookie(ctx: AppContext, token: string, maxAgeSeconds: number): string {
  const secure = ctx.config.publicUrl.startsWith("https://") ? "; Secure" : "";
  return `${COOKIE}=${token}; Path=/admin; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

/** A form field as text (forms post application/x-www-form-urlencoded). */
function field(body: unknown, name: string): string {
  if (typeof body !== "object" || body === null || !(name in body)) return "";
  const value: unknown = Reflect.get(body, name);
  return typeof value === "string" ? value : "";
}

function csrfRefused(): ApiError {
  return new ApiError(
    "VALIDATION_ERROR",
    "The form's CSRF token is missing or wrong",
    "Reload the page and submit the form again.",
  );
}

/** The project a dashboard request works on: `?project=` / the form's `project`, else the first membership. */
function projectOf(session: TeamSession, slug: string): Membership | null {
  if (slug === "") return session.memberships[0] ?? null;
  return session.memberships.find((membership) => membership.projectSlug === slug) ?? null;
}

/**
 * The team dashboard at /admin (docs/dashboard.md): a surface over the same services as the API, with
 * sessions in an HttpOnly cookie and a CSRF token in every form that changes something.
 */
export function adminRoutes(ctx: AppContext) {
  const { db } = ctx;
  const currentSession = (request: Request) => {
    const token = cookieOf(request);
    return token === null ? null : sessionFor(db, token);
  };
  const meterSignIn = (request: Request, email: string, headers: Record<string, string | number>) => {
    enforceRateLimit(ctx.rateLimits.signIn, `ip:${requestInfo(request).clientIp}`, headers);
    enforceRateLimit(ctx.rateLimits.signIn, `account:${email.trim().toLowerCase()}`, headers);
  };

  return new Elysia({ name: "admin", detail: { hide: true } })
    .get(
      "/admin/assets/admin.css",
      () => new Response(ADMIN_CSS, { headers: { "content-type": "text/css; charset=utf-8" } }),
    )
    .get("/admin/login", () => page(signInPage(null)))
    .post(
      "/admin/login",
      async ({ request, body, set }) => {
        const email = field(body, "email");
        try {
          meterSignIn(request, email, set.headers);
          const { sessionToken } = await signIn(db, { email, password: field(body, "password") });
          return redirect("/admin", {
            "set-cookie": sessionCookie(ctx, sessionToken, SESSION_TTL_MS / 1000),
          });
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          return page(signInPage(error.message, email), error.status, error.headers);
        }
      },
      { parse: "urlencoded", body: t.Unknown() },
    )
    .get("/admin/invite/:token", ({ params }) => {
      try {
        return page(setPasswordPage(params.token, describeInvite(db, params.token), null));
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        return page(signInPage(error.message), error.status);
      }
    })
    .post(
      "/admin/invite/:token",
      async ({ params, body }) => {
        try {
          const { sessionToken } = await acceptInvite(db, params.token, {
            password: field(body, "password"),
            name: field(body, "name"),
          });
          return redirect("/admin", {
            "set-cookie": sessionCookie(ctx, sessionToken, SESSION_TTL_MS / 1000),
          });
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          if (error.code === "INVITE_INVALID") return page(signInPage(error.message), error.status);
          return page(
            setPasswordPage(params.token, describeInvite(db, params.token), error.message),
            error.status,
          );
        }
      },
      { parse: "urlencoded", body: t.Unknown() },
    )
    .post(
      "/admin/logout",
      ({ request, body }) => {
        const session = currentSession(request);
        const token = cookieOf(request);
        if (session && token && field(body, "csrf") === session.csrfToken) signOut(db, token);
        return redirect("/admin/login", { "set-cookie": sessionCookie(ctx, "", 0) });
      },
      { parse: "urlencoded", body: t.Unknown() },
    )
    .get("/admin", ({ request }) => {
      const session = currentSession(request);
      if (!session) return redirect("/admin/login");
      const membership = projectOf(session, requestUrl(request).searchParams.get("project") ?? "");
      if (!membership) return page(signInPage("You are not a member of that project."), 403);
      const pending = listPosts(db, membership.projectId, {
        status: "PENDING",
        sort: "date",
        limit: 100,
      }).data;
      return page(
        inboxPage({
          memberName: session.member.name ?? session.member.email,
          projectName: membership.projectName,
          projectSlug: membership.projectSlug,
          csrfToken: session.csrfToken,
          pending,
        }),
      );
    })
    .get("/admin/posts/:postId", ({ request, params }) => {
      const session = currentSession(request);
      if (!session) return redirect("/admin/login");
      const membership = projectOf(session, requestUrl(request).searchParams.get("project") ?? "");
      if (!membership) return page(signInPage("You are not a member of that project."), 403);
      const post = getPost(db, membership.projectId, params.postId);
      return page(
        requestPage({
          memberName: session.member.name ?? session.member.email,
          projectName: membership.projectName,
          projectSlug: membership.projectSlug,
          csrfToken: session.csrfToken,
          statuses: POST_STATUSES,
          post,
          comments: listThread(db, membership.projectId, post.id, "all"),
        }),
      );
    })
    .post(
      "/admin/posts/:postId/status",
      ({ request, params, body }) => {
        const session = currentSession(request);
        if (!session) return redirect("/admin/login");
        if (field(body, "csrf") !== session.csrfToken) throw csrfRefused();
        const membership = projectOf(session, field(body, "project"));
        if (!membership) return page(signInPage("You are not a member of that project."), 403);
        const status = field(body, "status");
        if (!isPostStatus(status))
          throw validationError("status", `must be one of ${POST_STATUSES.join(", ")}`);
        updatePost(db, membership.projectId, params.postId, {
          status,
          notify: field(body, "notify") === "true",
        });
        return redirect(`/admin?project=${encodeURIComponent(membership.projectSlug)}`);
      },
      { parse: "urlencoded", body: t.Unknown() },
    )
    .post(
      "/admin/posts/:postId/comments",
      ({ request, params, body }) => {
        const session = currentSession(request);
        if (!session) return redirect("/admin/login");
        if (field(body, "csrf") !== session.csrfToken) throw csrfRefused();
        const membership = projectOf(session, field(body, "project"));
        if (!membership) return page(signInPage("You are not a member of that project."), 403);
        // An official reply shows on the public board with the member's name and a Team badge; a note never does.
        createComment(db, membership.projectId, params.postId, {
          body: field(body, "body"),
          authorName: session.member.name ?? session.member.email,
          isInternalNote: field(body, "kind") === "note",
          teamMemberId: session.member.id,
        });
        return redirect(
          `/admin/posts/${encodeURIComponent(params.postId)}?project=${encodeURIComponent(membership.projectSlug)}`,
        );
      },
      { parse: "urlencoded", body: t.Unknown() },
    );
}
