import { Elysia } from "elysia";
import { ApiError } from "../http/errors";
import { describeError } from "../log";
import { requestUrl } from "../http/request-info";
import {
  acceptInvite,
  accountActivity,
  changePassword,
  createSignInLink,
  describeInvite,
  signIn,
  signOut,
  signOutOtherSessions,
  signOutSession,
  useSignInLink,
} from "../team/service";
import {
  afterSignIn,
  type DashboardKit,
  DashboardRefusal,
  labelledMessage,
  NOTICES,
  page,
  redirect,
  signedOutForm,
  withNotice,
} from "./dashboard";
import { accountPage, type Chrome, href, PASSWORD_LABELS, setPasswordPage, useLinkPage } from "./pages";
import { type Caller, callerIn, csrfRefused, formOf, sessionTokenOf, signInClientOf } from "./session";

/** Signing in (password, invite, email link) and out, and the member's own account. */
export function signInRoutes(kit: DashboardKit) {
  const {
    ctx,
    db,
    cookie,
    signedInCookie,
    sessionOf,
    meterSignIn,
    signInView,
    chromeOf,
    failure,
    view,
    change,
  } = kit;
  /** "Your account" of the caller: only their own sessions and sign-ins (team/service accountActivity). */
  const account = (caller: Caller, chrome: Chrome, error: string | null) =>
    accountPage(chrome, {
      email: caller.session.member.email,
      error,
      ...accountActivity(db, caller.session.member.id, caller.session.sessionId),
    });
  /**
   * The cookie of a new sign-in. A session the browser held before (signed in again, or an invite accepted
   * while signed in) ends: its cookie is replaced, so nobody holds it, and Your account would list it as
   * a browser signed in elsewhere.
   */
  const signedInAs = (request: Request, sessionToken: string) => {
    const replaced = sessionTokenOf(request);
    if (replaced !== null) signOut(db, replaced);
    return { "set-cookie": signedInCookie(sessionToken) };
  };
  const accountPath = (caller: Caller) =>
    href({ projectSlug: caller.membership.projectSlug }, "/admin/account");
  return new Elysia({ name: "admin.sign-in", detail: { hide: true } })
    .get("/admin/login", ({ request }) => {
      const query = requestUrl(request).searchParams;
      // Only the notice of a form sent signed out (dashboard.ts, `signedOutForm`).
      const notice = query.get("done") === "signedOut" ? NOTICES.signedOut! : null;
      return page(signInView(null, "", notice, afterSignIn(query.get("next"))));
    })
    .post(
      "/admin/login",
      async ({ request, set, body }) => {
        let email = "";
        let next = "/admin";
        try {
          const form = formOf(request, body);
          email = form.get("email") ?? "";
          next = afterSignIn(form.get("next"));
          meterSignIn(request, email, set.headers);
          const { sessionToken } = await signIn(db, {
            email,
            password: form.get("password") ?? "",
            client: signInClientOf(request),
          });
          return redirect(next, signedInAs(request, sessionToken));
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          return page(signInView(error.message, email, null, next), error.status, {
            ...set.headers,
            ...error.headers,
          });
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
            // Not awaited: the answer would take the mail server's time for a member's email only, and
            // its timing would tell who is a member.
            void ctx.mail
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
    .post("/admin/login/link/:token", ({ params, request }) => {
      try {
        const { sessionToken } = useSignInLink(db, params.token, signInClientOf(request));
        return redirect("/admin", signedInAs(request, sessionToken));
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        return page(signInView(error.message), error.status);
      }
    })
    .get("/admin/invite/:token", ({ params, request }) => {
      try {
        const signedIn = sessionOf(request)?.member.id ?? null;
        return page(setPasswordPage(params.token, describeInvite(db, params.token), null, signedIn));
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
          const { sessionToken, alreadyMember } = await acceptInvite(db, params.token, {
            password: form.get("password") ?? "",
            name: form.get("name") ?? "",
            // An email that already has an account joins only signed in as it (team/service acceptInvite).
            signedInMemberId: sessionOf(request)?.member.id ?? null,
            client: signInClientOf(request),
          });
          // An invite to a team the member is on already changes no role: the inbox says so.
          const landing = alreadyMember
            ? withNotice(href({ projectSlug: alreadyMember.projectSlug }, "/admin"), "inviteUnchanged")
            : "/admin";
          return redirect(landing, signedInAs(request, sessionToken));
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          if (error.code === "INVITE_INVALID") return page(signInView(error.message), error.status);
          return page(
            setPasswordPage(
              params.token,
              describeInvite(db, params.token),
              error.message,
              sessionOf(request)?.member.id ?? null,
            ),
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
      view("account", (caller, chrome) => account(caller, chrome, null)),
    )
    .post(
      "/admin/account/sessions/sign-out",
      change("account", (caller, form) => {
        const outcome = signOutSession(
          db,
          caller.session.member.id,
          form.get("session") ?? "",
          caller.session.sessionId,
        );
        if (outcome === "current") {
          throw new DashboardRefusal(
            "VALIDATION_ERROR",
            "That is the session you are using: nothing was signed out",
            "To end this session, use Sign out at the top of the page.",
            accountPath(caller),
          );
        }
        if (outcome === "none") {
          // Another member's session, or one that ended meanwhile: the same answer, naming no one.
          throw new DashboardRefusal(
            "VALIDATION_ERROR",
            "That is none of your signed-in sessions: nothing was signed out",
            "It may have ended already. Open Your account again to see where you are signed in.",
            accountPath(caller),
          );
        }
        return withNotice(accountPath(caller), "sessionSignedOut");
      }),
      { parse: "text" },
    )
    .post(
      "/admin/account/sessions/sign-out-others",
      change("account", (caller) => {
        const ended = signOutOtherSessions(db, caller.session.member.id, caller.session.sessionId);
        return withNotice(accountPath(caller), ended === 0 ? "unchanged" : "otherSessionsSignedOut");
      }),
      { parse: "text" },
    )
    .post(
      "/admin/account/password",
      async (context) => {
        const session = sessionOf(context.request);
        const token = sessionTokenOf(context.request);
        if (!session || !token) return signedOutForm(context.request);
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
              client: signInClientOf(context.request),
            });
            return redirect(withNotice(href(chrome, "/admin/account"), "password"), {
              "set-cookie": signedInCookie(sessionToken),
            });
          } catch (error) {
            if (!(error instanceof ApiError) || error.status !== 400) throw error;
            // Named by the form's labels ("Current password"), not the service's `currentPassword`.
            return page(account(caller, chrome, labelledMessage(error.message, PASSWORD_LABELS)), 400);
          }
        } catch (error) {
          return failure(error, chrome);
        }
      },
      { parse: "text" },
    );
}
