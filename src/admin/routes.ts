import { Elysia } from "elysia";
import { actAs, activityOfPost } from "../activity/service";
import { DEFAULT_THRESHOLD, RELATED_THRESHOLD, similarRequests } from "../ai/service";
import type { SimilarPost } from "../ai/similarity";
import { CommentCreateSchema } from "../comments/schema";
import { createComment, listThread, newBoardComments } from "../comments/service";
import type { AppContext } from "../context";
import { ApiError, validationError } from "../http/errors";
import { LIMITS } from "../http/limits";
import { MAX_PAGE } from "../http/paging";
import { enforceRateLimit } from "../http/rate-limit";
import { requestInfo, requestUrl } from "../http/request-info";
import { requireValid } from "../http/validation-message";
import { describeError } from "../log";
import { listPosts } from "../posts/listing";
import { isPostStatus, POST_STATUSES, PostUpdateSchema, type PostStatus } from "../posts/schema";
import {
  bulkUpdatePosts,
  countByStatus,
  getPost,
  listTeamPosts,
  mergePosts,
  searchWords,
  TEAM_PAGE_SIZE,
  type TeamSort,
  updatePost,
} from "../posts/service";
import type { KeyKind } from "../projects/schema";
import { createKey, listKeys, revokeProjectKey } from "../projects/service";
import { listTags } from "../tags/service";
import { isTeamRole, SESSION_TTL_MS, type TeamSession } from "../team/schema";
import {
  acceptInvite,
  changePassword,
  createSignInLink,
  describeInvite,
  inviteMember,
  listMembers,
  removeMember,
  requireRole,
  sessionFor,
  signIn,
  signOut,
  useSignInLink,
} from "../team/service";
import { castVoteForEmail, listVoters } from "../votes/service";
import type { Html } from "../web/html";
import {
  accountPage,
  ADMIN_CSS,
  ADMIN_HEADERS,
  type Chrome,
  errorPage,
  href,
  type Section,
  setPasswordPage,
  signInPage,
  useLinkPage,
} from "./pages";
import { type Caller, callerIn, csrfRefused, formOf, sessionCookie, sessionTokenOf } from "./session";
import { keysPage, membersPage } from "./settings-pages";
import {
  inboxPage,
  type PendingRequest,
  type RequestsQuery,
  requestPage,
  requestsPage,
} from "./triage-pages";

/** How many pending requests and board comments the inbox lists (and counts in the navigation). */
const INBOX_LIMIT = 50;

/** Confirmations shown after a change and its redirect: fixed texts, so a link cannot put words on the page. */
const NOTICES: Record<string, string> = {
  status: "Status changed.",
  saved: "Changes saved.",
  merged: "Merged: the votes, comments and subscribers moved.",
  reply: "Official reply posted.",
  note: "Internal note added.",
  vote: "Vote added.",
  bulk: "Statuses changed.",
  password: "Password changed; your other sessions were signed out.",
  removed: "Member removed.",
  revoked: "Key revoked.",
};

function page(body: Html, status = 200, headers: Record<string, string | number> = {}): Response {
  const all = new Headers(ADMIN_HEADERS);
  for (const [name, value] of Object.entries(headers)) all.set(name, String(value));
  return new Response(body.value, { status, headers: all });
}

function redirect(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { location, "cache-control": "no-store", ...headers } });
}

function withNotice(location: string, notice: keyof typeof NOTICES): string {
  return `${location}${location.includes("?") ? "&" : "?"}done=${notice}`;
}

function toSort(value: string | null): TeamSort {
  return value === "revenue" || value === "newest" ? value : "votes";
}

function toPage(value: string | null): number {
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1;
}

/**
 * The team dashboard at /admin (docs/dashboard.md): a surface over the same services as the API, with
 * sessions in an HttpOnly cookie and a CSRF token in every form that changes something. Every change runs
 * as the signed-in member (activity `actAs`), so its activity entries name them.
 */
export function adminRoutes(ctx: AppContext) {
  const { db } = ctx;
  const cookie = (token: string, maxAgeSeconds: number) =>
    sessionCookie(ctx.config.publicUrl, token, maxAgeSeconds);
  const signedInCookie = (token: string) => cookie(token, SESSION_TTL_MS / 1000);
  const sessionOf = (request: Request): TeamSession | null => {
    const token = sessionTokenOf(request);
    return token === null ? null : sessionFor(db, token);
  };
  const meterSignIn = (request: Request, email: string, headers: Record<string, string | number>) => {
    enforceRateLimit(ctx.rateLimits.signIn, `ip:${requestInfo(request).clientIp}`, headers);
    enforceRateLimit(ctx.rateLimits.signIn, `account:${email.trim().toLowerCase()}`, headers);
  };
  const signInView = (error: string | null, email = "", notice: string | null = null) =>
    signInPage({ error, email, notice, emailLinks: ctx.mail.canSend });

  const chromeOf = (caller: Caller, section: Section, notice: string | null): Chrome => ({
    memberName: caller.actor.name,
    projectName: caller.membership.projectName,
    projectSlug: caller.membership.projectSlug,
    role: caller.membership.role,
    csrfToken: caller.session.csrfToken,
    pendingCount: countByStatus(db, caller.membership.projectId).PENDING,
    newCommentCount: newBoardComments(db, caller.membership.projectId, INBOX_LIMIT).length,
    projects: caller.session.memberships.map((membership) => ({
      slug: membership.projectSlug,
      name: membership.projectName,
    })),
    section,
    notice,
  });
  const act = <T>(caller: Caller, change: () => T): T => actAs(db, caller.actor, change);
  const requestPath = (caller: Caller, postId: string) =>
    href({ projectSlug: caller.membership.projectSlug }, `/admin/posts/${postId}`);
  const inboxPath = (caller: Caller) => href({ projectSlug: caller.membership.projectSlug }, "/admin");

  /** An ApiError becomes a page saying what went wrong, with the status the API would answer. */
  const failure = (error: unknown, chrome: Chrome | null): Response => {
    if (!(error instanceof ApiError)) throw error;
    return page(errorPage(chrome, error.message, error.hint), error.status, error.headers);
  };

  /** A page for a signed-in member of the project in `?project=` (else their first one). */
  const view =
    (
      section: Section,
      render: (
        caller: Caller,
        chrome: Chrome,
        url: URL,
        params: Record<string, string>,
      ) => Promise<Html> | Html,
    ) =>
    async ({ request, params }: { request: Request; params: Record<string, string> }) => {
      const session = sessionOf(request);
      if (!session) return redirect("/admin/login");
      const url = requestUrl(request);
      let chrome: Chrome | null = null;
      try {
        const caller = callerIn(session, url.searchParams.get("project") ?? "");
        const done = url.searchParams.get("done") ?? "";
        chrome = chromeOf(caller, section, NOTICES[done] ?? null);
        return page(await render(caller, chrome, url, params));
      } catch (error) {
        return failure(error, chrome);
      }
    };

  /**
   * A form that changes something: signed in, the session's CSRF token, a project the member belongs to.
   * Answers a redirect (a location) or a page.
   */
  const change =
    (
      section: Section,
      handle: (
        caller: Caller,
        form: URLSearchParams,
        params: Record<string, string>,
      ) => Promise<string | Html> | string | Html,
    ) =>
    async ({
      request,
      params,
      body,
    }: {
      request: Request;
      params: Record<string, string>;
      body: unknown;
    }) => {
      const session = sessionOf(request);
      if (!session) return redirect("/admin/login");
      let chrome: Chrome | null = null;
      try {
        const form = formOf(request, body);
        if (form.get("csrf") !== session.csrfToken) throw csrfRefused();
        const caller = callerIn(session, form.get("project") ?? "");
        chrome = chromeOf(caller, section, null);
        const outcome = await handle(caller, form, params);
        return typeof outcome === "string" ? redirect(outcome) : page(outcome);
      } catch (error) {
        return failure(error, chrome);
      }
    };

  /** Suggestions from the similarity index; a plan or provider refusal becomes a note, not a broken page. */
  const similarOrNote = async (
    find: () => Promise<SimilarPost[]>,
  ): Promise<{ similar: SimilarPost[]; note: string | null }> => {
    try {
      return { similar: await find(), note: null };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return { similar: [], note: `Similar requests are not available: ${error.message}` };
    }
  };

  const sendInvite = async (caller: Caller, email: string, url: string): Promise<boolean> => {
    if (!ctx.mail.canSend) return false;
    try {
      await ctx.mail.sendNow({
        to: email,
        subject: `You are invited to ${caller.membership.projectName} on featureboard`,
        text: `${caller.actor.name} invited you to the team of ${caller.membership.projectName}.\n\nSet your password and sign in (the link works once, within 24 hours):\n${url}\n`,
      });
      return true;
    } catch (error) {
      ctx.log.warn("invite email failed", describeError(error));
      return false;
    }
  };

  return (
    new Elysia({ name: "admin", detail: { hide: true } })
      .get(
        "/admin/assets/admin.css",
        () => new Response(ADMIN_CSS, { headers: { "content-type": "text/css; charset=utf-8" } }),
      )

      // ---- signing in and out ----
      .get("/admin/login", () => page(signInView(null)))
      .post(
        "/admin/login",
        async ({ request, set, body }) => {
          let email = "";
          try {
            const form = formOf(request, body);
            email = form.get("email") ?? "";
            meterSignIn(request, email, set.headers);
            const { sessionToken } = await signIn(db, { email, password: form.get("password") ?? "" });
            return redirect("/admin", { "set-cookie": signedInCookie(sessionToken) });
          } catch (error) {
            if (!(error instanceof ApiError)) throw error;
            return page(signInView(error.message, email), error.status, { ...set.headers, ...error.headers });
          }
        },
        { parse: "text" },
      )
      .post(
        "/admin/login/link",
        async ({ request, set, body }) => {
          try {
            const email = formOf(request, body).get("email") ?? "";
            meterSignIn(request, email, set.headers);
            const link = ctx.mail.canSend ? createSignInLink(db, email) : null;
            if (link) {
              await ctx.mail
                .sendNow({
                  to: link.email,
                  subject: "Your featureboard sign-in link",
                  text: `Sign in to the featureboard team dashboard (the link works once, within 15 minutes):\n${ctx.config.publicUrl}/admin/login/link/${link.token}\n\nIf you did not ask for it, ignore this mail.\n`,
                })
                .catch((error: unknown) => ctx.log.warn("sign-in link email failed", describeError(error)));
            }
            // The same answer whether or not the email is a member's, so the form reveals no one.
            return page(
              signInView(null, "", "If that email belongs to a team member, a sign-in link is on its way."),
            );
          } catch (error) {
            if (!(error instanceof ApiError)) throw error;
            return page(signInView(error.message), error.status, { ...set.headers, ...error.headers });
          }
        },
        { parse: "text" },
      )
      .get("/admin/login/link/:token", ({ params }) => page(useLinkPage(params.token)))
      .post("/admin/login/link/:token", ({ params }) => {
        try {
          const { sessionToken } = useSignInLink(db, params.token);
          return redirect("/admin", { "set-cookie": signedInCookie(sessionToken) });
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          return page(signInView(error.message), error.status);
        }
      })
      .get("/admin/invite/:token", ({ params }) => {
        try {
          return page(setPasswordPage(params.token, describeInvite(db, params.token), null));
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          return page(signInView(error.message), error.status);
        }
      })
      .post(
        "/admin/invite/:token",
        async ({ params, request, body }) => {
          try {
            const form = formOf(request, body);
            const { sessionToken } = await acceptInvite(db, params.token, {
              password: form.get("password") ?? "",
              name: form.get("name") ?? "",
            });
            return redirect("/admin", { "set-cookie": signedInCookie(sessionToken) });
          } catch (error) {
            if (!(error instanceof ApiError)) throw error;
            if (error.code === "INVITE_INVALID") return page(signInView(error.message), error.status);
            return page(
              setPasswordPage(params.token, describeInvite(db, params.token), error.message),
              error.status,
            );
          }
        },
        { parse: "text" },
      )
      .post(
        "/admin/logout",
        ({ request, body }) => {
          const session = sessionOf(request);
          const token = sessionTokenOf(request);
          let form = new URLSearchParams();
          try {
            form = formOf(request, body);
          } catch {
            // Not a form: signing out still clears the cookie, it just revokes nothing.
          }
          if (session && token && form.get("csrf") === session.csrfToken) signOut(db, token);
          return redirect("/admin/login", { "set-cookie": cookie("", 0) });
        },
        { parse: "text" },
      )
      .get(
        "/admin/account",
        view("account", (caller, chrome) =>
          accountPage(chrome, { email: caller.session.member.email, error: null }),
        ),
      )
      .post(
        "/admin/account/password",
        async (context) => {
          const session = sessionOf(context.request);
          const token = sessionTokenOf(context.request);
          if (!session || !token) return redirect("/admin/login");
          let chrome: Chrome | null = null;
          try {
            const form = formOf(context.request, context.body);
            if (form.get("csrf") !== session.csrfToken) throw csrfRefused();
            const caller = callerIn(session, form.get("project") ?? "");
            chrome = chromeOf(caller, "account", null);
            try {
              const { sessionToken } = await changePassword(db, session.member.id, {
                currentPassword: form.get("currentPassword") ?? "",
                newPassword: form.get("newPassword") ?? "",
              });
              return redirect(withNotice(href(chrome, "/admin/account"), "password"), {
                "set-cookie": signedInCookie(sessionToken),
              });
            } catch (error) {
              if (!(error instanceof ApiError) || error.status !== 400) throw error;
              return page(accountPage(chrome, { email: session.member.email, error: error.message }), 400);
            }
          } catch (error) {
            return failure(error, chrome);
          }
        },
        { parse: "text" },
      )

      // ---- triage ----
      .get(
        "/admin",
        view("inbox", async (caller, chrome) => {
          const { projectId } = caller.membership;
          const posts = listPosts(db, projectId, {
            status: "PENDING",
            sort: "date",
            limit: INBOX_LIMIT,
          }).data;
          let similarNote: string | null = null;
          const pending: PendingRequest[] = [];
          for (const post of posts) {
            const found = await similarOrNote(() =>
              similarRequests(ctx.ai, projectId, post.id, { threshold: DEFAULT_THRESHOLD, limit: 1 }),
            );
            similarNote ??= found.note;
            pending.push({ post, duplicateOf: found.similar[0] ?? null });
          }
          return inboxPage(chrome, {
            pending,
            comments: newBoardComments(db, projectId, INBOX_LIMIT),
            similarNote,
          });
        }),
      )
      .get(
        "/admin/requests",
        view("requests", (caller, chrome, url) => {
          const { projectId } = caller.membership;
          const search = url.searchParams;
          const status = search.get("status") ?? "";
          const tags = listTags(db, projectId);
          const tagId = search.get("tag") ?? "";
          const query: RequestsQuery = {
            q: search.get("q") ?? "",
            status: isPostStatus(status) ? status : "",
            tagId: tags.some((tag) => tag.id === tagId) ? tagId : "",
            withRevenue: search.get("revenue") === "1",
            sort: toSort(search.get("sort")),
            page: toPage(search.get("page")),
          };
          const list = listTeamPosts(
            db,
            {
              projectId,
              statuses: query.status === "" ? [] : [query.status],
              words: searchWords(query.q),
              tagId: query.tagId === "" ? undefined : query.tagId,
              withRevenue: query.withRevenue,
            },
            query.sort,
            query.page,
          );
          return requestsPage(chrome, {
            query,
            statuses: POST_STATUSES,
            tags,
            posts: list.data,
            total: list.total,
            pageSize: TEAM_PAGE_SIZE,
          });
        }),
      )
      .post(
        "/admin/requests/status",
        change("requests", (caller, form) => {
          const status = statusOf(form);
          const ids = form.getAll("ids");
          if (ids.length === 0) throw validationError("ids", "select at least one request");
          if (ids.length > LIMITS.bulkItems)
            throw validationError("ids", `select at most ${LIMITS.bulkItems}`);
          const results = act(caller, () =>
            bulkUpdatePosts(
              db,
              caller.membership.projectId,
              ids.map((id) => ({ id, status })),
            ),
          );
          const failed = results.find((result) => result.status === "error");
          if (failed?.error)
            throw new ApiError("VALIDATION_ERROR", failed.error.message, "The other requests were changed.");
          return withNotice(href({ projectSlug: caller.membership.projectSlug }, "/admin/requests"), "bulk");
        }),
        { parse: "text" },
      )
      .get(
        "/admin/posts/:postId",
        view("requests", async (caller, chrome, _url, params) => {
          const { projectId } = caller.membership;
          const post = getPost(db, projectId, params.postId ?? "");
          const mergedInto = post.mergedIntoId ? getPost(db, projectId, post.mergedIntoId) : null;
          const found = post.mergedIntoId
            ? { similar: [], note: null }
            : await similarOrNote(() =>
                similarRequests(ctx.ai, projectId, post.id, { threshold: RELATED_THRESHOLD, limit: 5 }),
              );
          return requestPage(chrome, {
            statuses: POST_STATUSES,
            post,
            mergedInto,
            tags: listTags(db, projectId),
            similar: found.similar,
            similarNote: found.note,
            voters: listVoters(db, projectId, post.id),
            comments: listThread(db, projectId, post.id, "all"),
            activity: activityOfPost(db, projectId, post.id, 50),
          });
        }),
      )
      .post(
        "/admin/posts/:postId/status",
        change("requests", (caller, form, params) => {
          const postId = params.postId ?? "";
          const status = statusOf(form);
          act(caller, () =>
            updatePost(db, caller.membership.projectId, postId, {
              status,
              notify: form.get("notify") === "true",
            }),
          );
          return withNotice(
            form.get("back") === "inbox" ? inboxPath(caller) : requestPath(caller, postId),
            "status",
          );
        }),
        { parse: "text" },
      )
      .post(
        "/admin/posts/:postId/edit",
        change("requests", (caller, form, params) => {
          const postId = params.postId ?? "";
          const description = form.get("description") ?? "";
          const patch = requireValid(
            PostUpdateSchema,
            {
              title: form.get("title") ?? "",
              description: description.trim() === "" ? null : description,
              tagIds: form.getAll("tagIds"),
            },
            "body",
          );
          act(caller, () => updatePost(db, caller.membership.projectId, postId, patch));
          return withNotice(requestPath(caller, postId), "saved");
        }),
        { parse: "text" },
      )
      .post(
        "/admin/posts/:postId/merge",
        change("requests", (caller, form, params) => {
          const into = form.get("into") ?? "";
          act(caller, () => mergePosts(db, caller.membership.projectId, params.postId ?? "", into));
          return withNotice(
            form.get("back") === "inbox" ? inboxPath(caller) : requestPath(caller, into),
            "merged",
          );
        }),
        { parse: "text" },
      )
      .post(
        "/admin/posts/:postId/comments",
        change("requests", (caller, form, params) => {
          const postId = params.postId ?? "";
          const isInternalNote = form.get("kind") === "note";
          const { body } = requireValid(CommentCreateSchema, { body: form.get("body") ?? "" }, "body");
          // An official reply shows on the public board with the member's name and a Team badge; a note never does.
          act(caller, () =>
            createComment(db, caller.membership.projectId, postId, {
              body,
              authorName: caller.actor.name,
              isInternalNote,
              teamMemberId: caller.actor.id,
            }),
          );
          return withNotice(requestPath(caller, postId), isInternalNote ? "note" : "reply");
        }),
        { parse: "text" },
      )
      .post(
        "/admin/posts/:postId/votes",
        change("requests", (caller, form, params) => {
          const postId = params.postId ?? "";
          act(caller, () =>
            castVoteForEmail(db, caller.membership.projectId, postId, form.get("email") ?? ""),
          );
          return withNotice(requestPath(caller, postId), "vote");
        }),
        { parse: "text" },
      )

      // ---- owners: members and keys ----
      .get(
        "/admin/members",
        view("members", (caller, chrome) => {
          requireRole(caller.membership, "owner", "Managing members");
          return membersPage(chrome, {
            members: listMembers(db, caller.membership.projectSlug),
            selfId: caller.actor.id,
            inviteUrl: null,
            emailed: false,
          });
        }),
      )
      .post(
        "/admin/members/invite",
        change("members", async (caller, form) => {
          requireRole(caller.membership, "owner", "Managing members");
          const role = form.get("role") ?? "member";
          if (!isTeamRole(role)) throw validationError("role", "must be owner, admin or member");
          const email = form.get("email") ?? "";
          const { token } = inviteMember(db, { email, role, projectSlug: caller.membership.projectSlug });
          const url = `${ctx.config.publicUrl}/admin/invite/${token}`;
          const emailed = await sendInvite(caller, email.trim(), url);
          return membersPage(chromeOf(caller, "members", null), {
            members: listMembers(db, caller.membership.projectSlug),
            selfId: caller.actor.id,
            inviteUrl: url,
            emailed,
          });
        }),
        { parse: "text" },
      )
      .post(
        "/admin/members/remove",
        change("members", (caller, form) => {
          requireRole(caller.membership, "owner", "Managing members");
          const email = form.get("email") ?? "";
          if (email.trim().toLowerCase() === caller.session.member.email.toLowerCase()) {
            throw validationError("email", "you cannot remove yourself; another owner can");
          }
          removeMember(db, caller.membership.projectSlug, email);
          return withNotice(
            href({ projectSlug: caller.membership.projectSlug }, "/admin/members"),
            "removed",
          );
        }),
        { parse: "text" },
      )
      .get(
        "/admin/keys",
        view("keys", (caller, chrome) => {
          requireRole(caller.membership, "owner", "Managing API keys");
          return keysPage(chrome, { keys: listKeys(db, caller.membership.projectSlug), createdKey: null });
        }),
      )
      .post(
        "/admin/keys",
        change("keys", (caller, form) => {
          requireRole(caller.membership, "owner", "Managing API keys");
          const kind = form.get("kind");
          if (kind !== "secret" && kind !== "publishable")
            throw validationError("kind", "must be secret or publishable");
          const keyKind: KeyKind = kind;
          const key = createKey(db, caller.membership.projectSlug, keyKind);
          return keysPage(chromeOf(caller, "keys", null), {
            keys: listKeys(db, caller.membership.projectSlug),
            createdKey: key,
          });
        }),
        { parse: "text" },
      )
      .post(
        "/admin/keys/revoke",
        change("keys", (caller, form) => {
          requireRole(caller.membership, "owner", "Managing API keys");
          if (!revokeProjectKey(db, caller.membership.projectSlug, form.get("prefix") ?? "")) {
            throw validationError("prefix", "no active key of this project has that prefix");
          }
          return withNotice(href({ projectSlug: caller.membership.projectSlug }, "/admin/keys"), "revoked");
        }),
        { parse: "text" },
      )
  );
}

function statusOf(form: URLSearchParams): PostStatus {
  const status = form.get("status") ?? "";
  if (!isPostStatus(status)) throw validationError("status", `must be one of ${POST_STATUSES.join(", ")}`);
  return status;
}
