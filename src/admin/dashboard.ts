import { actAs } from "../activity/service";
import { newBoardComments } from "../comments/service";
import type { AppContext } from "../context";
import { ApiError, type ApiErrorOptions, type ErrorCode, validationError } from "../http/errors";
import { enforceRateLimit } from "../http/rate-limit";
import { requestInfo, requestUrl } from "../http/request-info";
import { MAX_PAGE } from "../http/paging";
import { countByStatus } from "../posts/service";
import { SESSION_TTL_MS, type TeamSession } from "../team/schema";
import { sessionFor } from "../team/service";
import type { Html } from "../html";
import { ADMIN_HEADERS, type Chrome, errorPage, href, type Section, signInPage } from "./pages";
import { type Caller, callerIn, csrfRefused, field, formOf, sessionCookie, sessionTokenOf } from "./session";

/** How many pending requests and board comments the inbox lists (and counts in the navigation). */
export const INBOX_LIMIT = 50;

/** Confirmations shown after a change and its redirect: fixed texts, so a link cannot put words on the page. */
export const NOTICES: Record<string, string> = {
  status: "Status changed.",
  saved: "Changes saved.",
  merged: "Merged: the votes, comments and subscribers moved.",
  reply: "Official reply posted.",
  note: "Internal note added.",
  vote: "Vote added.",
  bulk: "Statuses changed.",
  password: "Password changed; your other sessions were signed out.",
  sessionSignedOut: "Session signed out: its next request goes to the sign-in page.",
  otherSessionsSignedOut: "Your other sessions were signed out: only this one is still signed in.",
  removed: "Member removed.",
  steppedDown:
    "Your role was changed: the Members and API keys screens are for owners, so they are no longer offered to you.",
  withdrawn: "Invite withdrawn: its link no longer works.",
  inviteUnchanged:
    "You were already on this project's team: the invite changed nothing and your role stays as it was. An owner changes roles on the Members screen.",
  revoked: "Key revoked.",
  integrationRemoved: "Integration removed: its settings are deleted.",
  draft: "Release saved as a draft.",
  replayed: "Delivery queued again: the receiver gets the same webhook-id.",
  deleted: "Deleted.",
  unchanged: "Nothing changed: it was already so.",
  tagCreated: "Tag created.",
  tagDeleted: "Tag deleted: no request carries it any more.",
  commentEdited: "Correction saved. Nobody was emailed again.",
  commentDeleted: "Comment deleted.",
  voteRemoved: "Vote removed.",
  customerSaved: "Customer saved: their spend counts in the voters' revenue of every request they voted for.",
  requestCreated: "Request created.",
  requestDeleted: "Request deleted.",
  emailed: "Test email sent: check your inbox.",
  published: "Release published: its requests are archived and listed on the public changelog.",
  /** On the sign-in page, after a form sent once the session had ended (`signedOutForm`). */
  signedOut: "You were signed out; your change was not saved. Sign in and send it again.",
};

/**
 * A refusal worded for the dashboard's reader (naming requests by their titles, not their ids), shown as it
 * is: no "correct the form" hint after a form with nothing to correct. `reopen` is a page to open afresh;
 * `options` keep what the API would answer besides (a Retry-After).
 */
export class DashboardRefusal extends ApiError {
  constructor(
    code: ErrorCode,
    message: string,
    hint: string,
    readonly reopen: string | null = null,
    options: ApiErrorOptions = {},
  ) {
    super(code, message, hint, options);
  }
}

/** What the dashboard calls the things an id names, for the API's "not found" refusals. */
const MISSING_THINGS: Partial<Record<ErrorCode, string>> = {
  POST_NOT_FOUND: "request",
  TAG_NOT_FOUND: "tag",
  USER_NOT_FOUND: "board user",
  RELEASE_NOT_FOUND: "release",
  WEBHOOK_NOT_FOUND: "webhook endpoint",
  COMMENT_NOT_FOUND: "comment",
  VOTE_NOT_FOUND: "vote",
  IMPORT_NOT_FOUND: "import",
};

/**
 * A "not found" answer in the dashboard's words: the API's hint speaks of an API key, which a team member
 * signed in to the dashboard does not use.
 */
function missingThing(error: ApiError, chrome: Chrome): { message: string; hint: string } | null {
  const thing = MISSING_THINGS[error.code];
  if (!thing) return null;
  return {
    message: `There is no such ${thing} in ${chrome.projectName}`,
    hint: `It may have been deleted, or the link belongs to another project. Look for it from the dashboard's screens.`,
  };
}

/** A form's field names (as the API calls them) to the labels its page shows them with. */
export type FieldLabels = Readonly<Record<string, string>>;

/**
 * A refused field named by the label the member saw ("Incoming-webhook URL"), not by the API's name
 * (`webhookUrl`): the services' message (`validationError`, src/http/errors.ts) stays as the API answers
 * it, and only the dashboard's page translates. A field the form's labels do not know keeps the message.
 */
export function labelledMessage(message: string, labels: FieldLabels): string {
  const refused = /^Invalid '([^']+)'(?: in [a-z]+)?: /.exec(message);
  const name = refused?.[1];
  if (!refused || name === undefined || !Object.hasOwn(labels, name)) return message;
  return `Invalid “${labels[name]}”: ${message.slice(refused[0].length)}`;
}

export function page(body: Html, status = 200, headers: Record<string, string | number> = {}): Response {
  const all = new Headers(ADMIN_HEADERS);
  for (const [name, value] of Object.entries(headers)) all.set(name, String(value));
  return new Response(body.value, { status, headers: all });
}

export function redirect(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { location, "cache-control": "no-store", ...headers } });
}

/** A signed-out request for a dashboard page or download: the sign-in page, then back to `url`. */
export function signInFirst(url: URL): Response {
  return redirect(`/admin/login?next=${encodeURIComponent(url.pathname + url.search)}`);
}

/**
 * Where to go after signing in: the dashboard page asked for when signed out (`next`), if it is one of the
 * dashboard's own paths; anything else (another site, a header injection) goes to the inbox.
 */
export function afterSignIn(next: string | null | undefined): string {
  return next && /^\/admin([/?#][^\s\\]*)?$/.test(next) ? next : "/admin";
}

/** The dashboard page a form was sent from (its Referer, when it is one of this site's /admin pages). */
function formPageOf(request: Request): string | null {
  const referer = request.headers.get("referer");
  if (!referer) return null;
  try {
    const from = new URL(referer);
    const here = new URL(request.url);
    return from.host === here.host && from.pathname.startsWith("/admin") ? from.pathname + from.search : null;
  } catch {
    return null;
  }
}

/**
 * The answer to a form sent after its session ended (expired, signed out elsewhere): nothing is changed
 * (the form's CSRF token was the ended session's), and the sign-in page says so, then opens the page the
 * form was on (its Referer, only when it is one of this site's /admin pages: never another site).
 */
export function signedOutForm(request: Request): Response {
  const query = new URLSearchParams({ done: "signedOut" });
  const from = formPageOf(request);
  if (from !== null) query.set("next", afterSignIn(from));
  return redirect(`/admin/login?${query.toString()}`);
}

export function withNotice(location: string, notice: keyof typeof NOTICES): string {
  return `${location}${location.includes("?") ? "&" : "?"}done=${notice}`;
}

/**
 * A redirect that lands on a card (`#card-<id>`, a focusable target): after Move on the roadmap or Approve
 * and Reject in the inbox, keyboard focus stays where the member was instead of going back to the top of
 * the page. An id that is not one (an edited form) is left out.
 */
export function toCard(location: string, cardId: string | null): string {
  return cardId && /^[\w-]{1,64}$/.test(cardId) ? `${location}#card-${cardId}` : location;
}

/** A `page` query parameter: a whole number from 1 to MAX_PAGE, else the first page. */
export function toPage(value: string | null): number {
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1;
}

/**
 * What every dashboard route is built from (docs/dashboard.md): the session behind the cookie, the caller's
 * project and role, the page chrome, and the two shapes of route, a page (`view`) and a form that changes
 * something (`change`: signed in, the session's CSRF token, a project the member belongs to). Each change
 * runs as the member (`act`), so its activity entries name them.
 */
export function dashboardKit(ctx: AppContext) {
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
  const signInView = (error: string | null, email = "", notice: string | null = null, next = "/admin") =>
    signInPage({ error, email, notice, next, emailLinks: ctx.mail.canSend });

  const chromeOf = (caller: Caller, section: Section, notice: string | null): Chrome => ({
    memberName: caller.actor.name,
    projectName: caller.membership.projectName,
    projectSlug: caller.membership.projectSlug,
    role: caller.membership.role,
    csrfToken: caller.session.csrfToken,
    pendingCount: countByStatus(db, caller.membership.projectId).PENDING,
    // New to this member: written since they last opened the inbox (docs/dashboard.md).
    newCommentCount: newBoardComments(
      db,
      caller.membership.projectId,
      INBOX_LIMIT,
      caller.membership.inboxSeenAt,
    ).length,
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
  /** Where a form sends the member back to: the screen it was on (`back`), else the given page. */
  const backTo = (caller: Caller, back: string | null, otherwise: string) => {
    const project = { projectSlug: caller.membership.projectSlug };
    if (back === "inbox") return href(project, "/admin");
    if (back === "roadmap") return href(project, "/admin/roadmap");
    return otherwise;
  };

  /**
   * The `once` ids of forms whose change was made (or is being made): a form sent again is answered with a
   * page saying so, not with the change made twice: a reload of a page a change rendered (a new key, a
   * rotated secret) would otherwise make another key, rotate again. A failed change frees its id, so the
   * member can correct the form and send it. Bounded: the oldest ids go first.
   */
  const sentForms = new Set<string>();
  const SENT_FORMS_KEPT = 10_000;
  /**
   * The shape of the ids the dashboard gives its forms (a UUID, pages.ts), with room to spare. Anything else
   * is refused and never kept: up to 10,000 ids of any length would let one member pin memory at will.
   */
  const FORM_ID = /^[A-Za-z0-9-]{1,64}$/;
  const claimForm = (once: string): boolean => {
    if (sentForms.has(once)) return false;
    sentForms.add(once);
    if (sentForms.size > SENT_FORMS_KEPT) sentForms.delete(sentForms.values().next().value ?? once);
    return true;
  };
  /** Runs a form's change once per `once` id (forms without one, such as scripts' requests, always run). */
  const onceOnly = async (
    once: string,
    chrome: Chrome,
    request: Request,
    run: () => Promise<string | Html> | string | Html,
  ): Promise<Response> => {
    if (once !== "" && !FORM_ID.test(once)) {
      throw new DashboardRefusal(
        "VALIDATION_ERROR",
        "This form could not be read: nothing was changed",
        "Open the page again and fill in the form there.",
        formPageOf(request) ?? href(chrome, "/admin"),
      );
    }
    if (once !== "" && !claimForm(once)) {
      return page(
        errorPage(
          chrome,
          "This form was already sent: nothing was changed again",
          "The first send went through. To make another change, open the page again and fill in the form there.",
          null,
          formPageOf(request) ?? href(chrome, "/admin"),
        ),
        409,
      );
    }
    try {
      const outcome = await run();
      return typeof outcome === "string" ? redirect(outcome) : page(outcome);
    } catch (error) {
      sentForms.delete(once);
      throw error;
    }
  };

  /**
   * An ApiError becomes a page saying what went wrong, with the status the API would answer. After a form
   * (`request`), the page links back to the dashboard page the form was on, where the browser still has
   * what was typed, and a refused field is explained in the dashboard's terms, not the API document's. A
   * refusal already worded for the dashboard (`DashboardRefusal`) is shown as it is. `labels`: the form's
   * (labelledMessage).
   */
  const failure = (
    error: unknown,
    chrome: Chrome | null,
    request?: Request,
    labels: FieldLabels = {},
  ): Response => {
    if (!(error instanceof ApiError)) throw error;
    const back = request ? formPageOf(request) : null;
    if (error instanceof DashboardRefusal) {
      return page(
        errorPage(chrome, error.message, error.hint, back, error.reopen),
        error.status,
        error.headers,
      );
    }
    const missing = chrome ? missingThing(error, chrome) : null;
    if (missing) return page(errorPage(chrome, missing.message, missing.hint), error.status, error.headers);
    const hint =
      back && error.code === "VALIDATION_ERROR" ? "Go back, correct the form and send it again." : error.hint;
    const message =
      error.code === "VALIDATION_ERROR" ? labelledMessage(error.message, labels) : error.message;
    return page(errorPage(chrome, message, hint, back), error.status, error.headers);
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
      const url = requestUrl(request);
      if (!session) return signInFirst(url);
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
   * Answers a redirect (a location) or a page. `labelsOf`: the labels of the form's fields, for a refusal.
   */
  const change =
    (
      section: Section,
      handle: (
        caller: Caller,
        form: URLSearchParams,
        params: Record<string, string>,
      ) => Promise<string | Html> | string | Html,
      labelsOf: (caller: Caller, params: Record<string, string>) => FieldLabels = () => ({}),
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
      if (!session) return signedOutForm(request);
      let chrome: Chrome | null = null;
      let sender: Caller | null = null;
      try {
        const form = formOf(request, body);
        if (form.get("csrf") !== session.csrfToken) throw csrfRefused();
        const caller = callerIn(session, form.get("project") ?? "");
        sender = caller;
        chrome = chromeOf(caller, section, null);
        return await onceOnly(form.get("once") ?? "", chrome, request, () => handle(caller, form, params));
      } catch (error) {
        // The labels only when refused: a form sent without a fault reads none.
        return failure(error, chrome, request, sender ? labelsOf(sender, params) : {});
      }
    };

  /**
   * A form with a file (multipart/form-data, `parse: "formdata"`): as `change`, with the CSRF token and the
   * project read from the parsed multipart fields, and the file named `fileField` handed over. `labels`:
   * the form's, for a refusal (labelledMessage).
   */
  const upload =
    (
      section: Section,
      fileField: string,
      handle: (caller: Caller, file: Blob, chrome: Chrome) => Promise<string | Html>,
      labels: FieldLabels = {},
    ) =>
    async ({ request, body }: { request: Request; body: unknown }) => {
      const session = sessionOf(request);
      if (!session) return signedOutForm(request);
      let chrome: Chrome | null = null;
      try {
        if (field(body, "csrf") !== session.csrfToken) throw csrfRefused();
        const caller = callerIn(session, field(body, "project"));
        chrome = chromeOf(caller, section, null);
        const file = Reflect.get(Object(body), fileField);
        if (!(file instanceof Blob)) throw validationError(fileField, "choose a file");
        const pageChrome = chrome;
        return await onceOnly(field(body, "once"), chrome, request, () => handle(caller, file, pageChrome));
      } catch (error) {
        return failure(error, chrome, request, labels);
      }
    };

  return {
    ctx,
    db,
    cookie,
    signedInCookie,
    sessionOf,
    meterSignIn,
    signInView,
    chromeOf,
    act,
    requestPath,
    inboxPath,
    backTo,
    failure,
    view,
    change,
    upload,
  };
}

export type DashboardKit = ReturnType<typeof dashboardKit>;
