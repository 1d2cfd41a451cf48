import type { ActivityEntry } from "../activity/schema";
import { isPostStatus, STATUS_LABELS } from "../posts/schema";
import { deviceName } from "../team/device";
import type { ActiveSession, SignInEvent, SignInKind, TeamRole } from "../team/schema";
import { hasRole } from "../team/service";
import { formatMoney } from "../users/money";
import type { BoardUser } from "../users/schema";
import { html, type Html, type HtmlValue } from "../html";
import adminCss from "./admin.css" with { type: "text" };

export const ADMIN_CSS = adminCss;

/** The dashboard runs no inline script and loads nothing from elsewhere, like the board pages. */
export const ADMIN_HEADERS: Record<string, string> = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy":
    "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "cache-control": "no-store",
};

export type Section =
  | "inbox"
  | "requests"
  | "roadmap"
  | "releases"
  | "activity"
  | "analytics"
  | "ai"
  | "webhooks"
  | "import"
  | "settings"
  | "tags"
  | "integrations"
  | "members"
  | "keys"
  | "account"
  | "none";

/** What every signed-in page shows around its content: who, which project, the counts, the CSRF token. */
export interface Chrome {
  memberName: string;
  projectName: string;
  projectSlug: string;
  role: TeamRole;
  csrfToken: string;
  pendingCount: number;
  newCommentCount: number;
  projects: { slug: string; name: string }[];
  section: Section;
  /** A one-line confirmation of the change that led here (after a redirect). */
  notice: string | null;
}

/** A link inside the dashboard, in the caller's project. */
export function href(chrome: Pick<Chrome, "projectSlug">, path: string, query: Record<string, string> = {}) {
  const params = new URLSearchParams({ project: chrome.projectSlug, ...query });
  return `${path}?${params.toString()}`;
}

/**
 * The screen each section's pages belong to, with the least role that opens it (the routes' requireRole):
 * where the project switcher lands in the chosen project. A page about one record (a request, a webhook
 * endpoint, an import job, a release) lands on its screen's list, the record being the old project's.
 * The switch route (routes.ts, `switchProject`) opens only a path of this table, so its `to` cannot send
 * anyone elsewhere (docs/dashboard.md, "Navigation").
 */
export const SCREEN_HOMES: Record<Section, { path: string; least: TeamRole } | null> = {
  inbox: { path: "/admin", least: "member" },
  requests: { path: "/admin/requests", least: "member" },
  roadmap: { path: "/admin/roadmap", least: "member" },
  releases: { path: "/admin/releases", least: "admin" },
  activity: { path: "/admin/activity", least: "member" },
  analytics: { path: "/admin/analytics", least: "member" },
  ai: { path: "/admin/ai", least: "admin" },
  webhooks: { path: "/admin/webhooks", least: "admin" },
  import: { path: "/admin/import", least: "admin" },
  settings: { path: "/admin/settings", least: "admin" },
  tags: { path: "/admin/tags", least: "admin" },
  integrations: { path: "/admin/integrations", least: "admin" },
  members: { path: "/admin/members", least: "owner" },
  keys: { path: "/admin/keys", least: "owner" },
  account: { path: "/admin/account", least: "member" },
  none: null,
};

/** The hidden fields every changing form carries: the CSRF token and the project it works on. */
export function formFields(chrome: Pick<Chrome, "csrfToken" | "projectSlug">): Html {
  // `once`: this form's own id, so sending it again (a reload of the page its answer rendered, Back and
  // Send) does not make the change twice (dashboard.ts, `change`).
  return html`<input type="hidden" name="csrf" value="${chrome.csrfToken}" /><input
      type="hidden"
      name="project"
      value="${chrome.projectSlug}"
    /><input type="hidden" name="once" value="${crypto.randomUUID()}" />`;
}

/** `withScript`: the dashboard's script (signed-in pages); deferred, so after every script a page's body loads. */
function document(title: string, header: Html, body: Html, withScript = false): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · featureboard</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="/admin/assets/admin.css" />
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header>${header}</header>
        <main id="main">${body}</main>
        ${withScript ? html`<script src="/admin/assets/dashboard.js" defer></script>` : ""}
      </body>
    </html>`;
}

/** A section's screen, as SCREEN_HOMES has it: the one place its path and its least role are written. */
type Screen = Exclude<Section, "none" | "account">;

function pathOf(section: Screen): string {
  return SCREEN_HOMES[section]!.path;
}

/** Whether the member's role opens the section's screen (the routes refuse it otherwise). */
function opens(chrome: Chrome, section: Screen): boolean {
  return hasRole(chrome, SCREEN_HOMES[section]!.least);
}

function navLink(chrome: Chrome, section: Screen, label: Html | string): Html {
  return html`<a
    href="${href(chrome, pathOf(section))}"
    ${chrome.section === section ? html`aria-current="page"` : ""}
    >${label}</a
  >`;
}

/**
 * The project's set-up screens, grouped under Settings as Canny and Featurebase group theirs: the header
 * offers Settings once, and each of these screens lists them all (`settingsNav`). With each in the header,
 * an owner's fourteen links wrapped onto a second line of a 1366 px screen (docs/dashboard.md, "Screens").
 */
const SETTINGS_SCREENS: readonly { section: Screen; label: string }[] = [
  { section: "settings", label: "General" },
  { section: "tags", label: "Tags" },
  { section: "members", label: "Members" },
  { section: "keys", label: "API keys" },
  { section: "webhooks", label: "Webhooks" },
  { section: "integrations", label: "Integrations" },
  { section: "import", label: "Import" },
];

function settingsScreens(chrome: Chrome) {
  return SETTINGS_SCREENS.filter((screen) => opens(chrome, screen.section));
}

function inSettings(chrome: Chrome): boolean {
  return SETTINGS_SCREENS.some((screen) => screen.section === chrome.section);
}

/**
 * Above the content of a set-up screen: every set-up screen the member may open, this one marked. On a page
 * inside a screen (`inside`: one webhook endpoint's), its tab is marked as the section the page is in
 * (`aria-current="true"`), as Settings is in the header, not as the page itself: its tab leads elsewhere,
 * to the screen's list.
 */
function settingsNav(chrome: Chrome, inside: boolean): Html {
  return html`<nav aria-label="Settings" class="subnav">
    ${settingsScreens(chrome).map((screen) =>
      inside && screen.section === chrome.section
        ? html`<a href="${href(chrome, pathOf(screen.section))}" aria-current="true">${screen.label}</a>`
        : navLink(chrome, screen.section, screen.label),
    )}
  </nav>`;
}

/**
 * A signed-in page: navigation with counts, the project switcher, the member and sign-out. `inside`: the
 * page is one of a set-up screen's own pages, not the screen (settingsNav).
 */
export function layout(chrome: Chrome, title: string, body: Html, inside = false): Html {
  // Settings is the page itself on General, and the section the page is in on the other set-up screens.
  const settingsCurrent =
    chrome.section === "settings"
      ? html`aria-current="page"`
      : inSettings(chrome)
        ? html`aria-current="true"`
        : "";
  const header = html`<strong>featureboard</strong>
    <nav aria-label="Dashboard" class="nav">
      ${navLink(
        chrome,
        "inbox",
        // No badge when nothing waits: a zero reads as something to look at.
        chrome.pendingCount + chrome.newCommentCount === 0
          ? "Inbox"
          : html`Inbox
              <span
                class="badge"
                aria-label="${chrome.pendingCount} pending, ${chrome.newCommentCount} new comments"
                >${chrome.pendingCount + chrome.newCommentCount}</span
              >`,
      )}
      ${navLink(chrome, "requests", "Requests")} ${navLink(chrome, "roadmap", "Roadmap")}
      ${opens(chrome, "releases") ? navLink(chrome, "releases", "Changelog") : ""}
      ${navLink(chrome, "analytics", "Analytics")} ${opens(chrome, "ai") ? navLink(chrome, "ai", "AI") : ""}
      ${navLink(chrome, "activity", "Activity")}
      ${
        opens(chrome, "settings")
          ? html`<a href="${href(chrome, pathOf("settings"))}" ${settingsCurrent}>Settings</a>`
          : ""
      }
      <a href="/b/${chrome.projectSlug}">Public board</a>
    </nav>
    ${
      chrome.projects.length > 1
        ? html`<form method="get" action="/admin/switch" class="inline project">
            <input type="hidden" name="to" value="${SCREEN_HOMES[chrome.section]?.path ?? "/admin"}" />
            <label class="switcher"
              >Project
              <select name="project">
                ${chrome.projects.map(
                  (project) =>
                    html`<option
                      value="${project.slug}"
                      ${project.slug === chrome.projectSlug ? "selected" : ""}
                    >
                      ${project.name}
                    </option>`,
                )}
              </select></label
            >
            <button type="submit">Switch</button>
          </form>`
        : html`<span class="project">${chrome.projectName}</span>`
    }
    <a
      class="account"
      href="${href(chrome, "/admin/account")}"
      title="${chrome.memberName}"
      ${chrome.section === "account" ? html`aria-current="page"` : ""}
      >${chrome.memberName}</a
    >
    <form class="inline" method="post" action="/admin/logout">
      <input type="hidden" name="csrf" value="${chrome.csrfToken}" /><button type="submit">Sign out</button>
    </form>`;
  const notice = chrome.notice ? html`<p class="notice" role="status">${chrome.notice}</p>` : "";
  const subnav = opens(chrome, "settings") && inSettings(chrome) ? settingsNav(chrome, inside) : "";
  return document(title, header, html`${subnav}${notice}${body}`, true);
}

/** A page before sign-in (sign-in, invite, link): no navigation. */
export function plainPage(title: string, body: Html): Html {
  return document(title, html`<strong>featureboard</strong>`, body);
}

/**
 * The screen a section's pages belong to, as the header and the Settings tabs call it (the General tab's
 * own title is "Settings"): an error page's title names it, so a refused form on the Tags tab reads
 * "Error · Tags" in the browser's tab and history, not a bare "Error" found on every screen.
 */
const SCREEN_NAMES: Record<Section, string | null> = {
  inbox: "Inbox",
  requests: "Requests",
  roadmap: "Roadmap",
  releases: "Changelog",
  activity: "Activity",
  analytics: "Analytics",
  ai: "AI",
  webhooks: "Webhooks",
  import: "Import",
  settings: "Settings",
  tags: "Tags",
  integrations: "Integrations",
  members: "Members",
  keys: "API keys",
  account: "Your account",
  none: null,
};

/**
 * `back`: the page a refused form was on (dashboard.js goes back in history, keeping what was typed).
 * `reopen`: a page to open afresh instead (a form already sent: its page shown again takes a new change).
 */
export function errorPage(
  chrome: Chrome | null,
  message: string,
  hint: string,
  back: string | null = null,
  reopen: string | null = null,
): Html {
  const link = reopen
    ? html`<a href="${reopen}">Open the page again</a>`
    : back
      ? html`<a href="${back}" data-back>Back to the form</a>`
      : html`<a href="${chrome ? href(chrome, "/admin") : "/admin"}">Back to the dashboard</a>`;
  const body = html`<h1>That did not work</h1>
    <p class="error" role="alert">${message}</p>
    <p>${hint}</p>
    <p>${link}</p>`;
  if (!chrome) return plainPage("Error", body);
  const screen = SCREEN_NAMES[chrome.section];
  return layout(chrome, screen === null ? "Error" : `Error · ${screen}`, body);
}

export function signInPage(view: {
  error: string | null;
  email?: string;
  notice?: string | null;
  /** The dashboard page to open once signed in (dashboard.ts, `afterSignIn`). */
  next?: string;
  emailLinks: boolean;
}): Html {
  return plainPage(
    "Sign in",
    html`<h1>Sign in to the team dashboard</h1>
      ${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : ""}
      ${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ""}
      <form method="post" action="/admin/login">
        <input type="hidden" name="next" value="${view.next ?? "/admin"}" />
        <label for="email">Email</label
        ><input
          id="email"
          name="email"
          type="email"
          required
          value="${view.email ?? ""}"
          autocomplete="username"
        />
        <label for="password">Password</label
        ><input id="password" name="password" type="password" required autocomplete="current-password" />
        <p><button class="primary" type="submit">Sign in</button></p>
      </form>
      ${
        view.emailLinks
          ? html`<h2>Or sign in by email</h2>
              <form method="post" action="/admin/login/link">
                <label for="link-email">Email</label
                ><input id="link-email" name="email" type="email" required autocomplete="username" />
                <p><button type="submit">Email me a sign-in link</button></p>
              </form>`
          : ""
      }
      <p class="muted">
        No account yet? An owner invites you; the first owner is invited with
        <code>featureboard team invite --email you@example.com</code>.
      </p>`,
  );
}

/** The page a sign-in link opens: one button, so a mail scanner fetching the link signs nobody in. */
export function useLinkPage(token: string): Html {
  return plainPage(
    "Sign in",
    html`<h1>Sign in to the team dashboard</h1>
      <form method="post" action="/admin/login/link/${token}">
        <p><button class="primary" type="submit">Sign in</button></p>
      </form>`,
  );
}

/**
 * The invite page. An email new to the dashboard chooses a password here; an email that already has an
 * account joins signed in as it (team/service acceptInvite), with one button, or is asked to sign in first.
 */
export function setPasswordPage(
  token: string,
  invite: { email: string; projectName: string; role: string; accountId: string | null },
  error: string | null,
  signedInMemberId: string | null = null,
): Html {
  if (invite.accountId !== null) {
    const signedInAsIt = invite.accountId === signedInMemberId;
    return plainPage(
      `Join ${invite.projectName}`,
      html`<h1>Join ${invite.projectName}</h1>
        <p>
          You were invited as <strong>${invite.role}</strong> with ${invite.email}, which already has an
          account.
        </p>
        ${error ? html`<p class="error" role="alert">${error}</p>` : ""}
        ${
          signedInAsIt
            ? html`<form method="post" action="/admin/invite/${token}">
                <p><button class="primary" type="submit">Join ${invite.projectName}</button></p>
              </form>`
            : html`<p>
                <a href="/admin/login?next=${encodeURIComponent(`/admin/invite/${token}`)}">Sign in</a> with
                that account (its password, or an email sign-in link), and you come back here to join.
              </p>`
        }`,
    );
  }
  return plainPage(
    "Set your password",
    html`<h1>Join ${invite.projectName}</h1>
      <p>
        You were invited as <strong>${invite.role}</strong> with ${invite.email}. Choose a password to sign
        in.
      </p>
      ${error ? html`<p class="error" role="alert">${error}</p>` : ""}
      <form method="post" action="/admin/invite/${token}">
        <label for="name">Your name (shown on official replies)</label
        ><input id="name" name="name" type="text" autocomplete="name" />
        <label for="password">Password (at least 10 characters)</label>
        <input
          id="password"
          name="password"
          type="password"
          required
          minlength="10"
          autocomplete="new-password"
        />
        <p><button class="primary" type="submit">Set password and sign in</button></p>
      </form>`,
  );
}

/**
 * A stored time as the account page shows it: to the minute, in UTC, as the activity log's times are, and
 * as there UTC is said once, in the column's heading ("When (UTC)"), not after every time.
 */
function minute(at: string): Html {
  return html`<time datetime="${at}">${at.slice(0, 16).replace("T", " ")}</time>`;
}

/** The account page's column headings, also each cell's name where a phone stacks the rows (dataTable). */
const ACCOUNT_COLUMNS = {
  device: "Device",
  ip: "IP address",
  signedIn: "Signed in (UTC)",
  lastUsed: "Last used (UTC)",
  when: "When (UTC)",
  how: "How",
} as const;

/**
 * The labels of the password form's fields: the form shows them, and a refusal names the field by them
 * (labelledMessage in dashboard.ts), not by the service's `currentPassword`. The service checks the new
 * password as it checks every password, by the name `password`: here that is the new one.
 */
const NEW_PASSWORD_LABEL = "New password (at least 10 characters)";
export const PASSWORD_LABELS = {
  currentPassword: "Current password",
  newPassword: NEW_PASSWORD_LABEL,
  password: NEW_PASSWORD_LABEL,
} as const;

/** How a sign-in was made, as the history names it. */
const SIGN_IN_LABELS: Record<SignInKind, string> = {
  password: "Password",
  link: "Email sign-in link",
  invite: "Invite accepted",
  failed: "Wrong password",
};

/** A device as read from its User-Agent (team/device.ts); the agent as sent is its tooltip. */
function device(userAgent: string): Html {
  return html`<span title="${userAgent}">${deviceName(userAgent)}</span>`;
}

function sessionRow(chrome: Chrome, session: ActiveSession): Html {
  const name = deviceName(session.userAgent);
  return html`<tr ${session.current ? html`aria-current="true"` : ""}>
    <td class="entry-title">
      ${device(session.userAgent)}${session.current ? html` <span class="badge">This session</span>` : ""}
    </td>
    <td data-label="${ACCOUNT_COLUMNS.ip}">${session.ip}</td>
    <td class="when" data-label="${ACCOUNT_COLUMNS.signedIn}">${minute(session.signedInAt)}</td>
    ${
      // "Now" needs no time zone: stacked on a phone it reads "Last used: Now".
      session.current
        ? html`<td class="when" data-label="Last used">Now</td>`
        : html`<td class="when" data-label="${ACCOUNT_COLUMNS.lastUsed}">
            ${session.lastUsedAt === null ? "unknown" : minute(session.lastUsedAt)}
          </td>`
    }
    <td>
      ${
        session.current
          ? ""
          : html`<form class="inline" method="post" action="/admin/account/sessions/sign-out">
              ${formFields(chrome)}<input type="hidden" name="session" value="${session.id}" /><button
                type="submit"
                aria-label="Sign out ${name} (${session.ip})"
              >
                Sign out
              </button>
            </form>`
      }
    </td>
  </tr>`;
}

export function accountPage(
  chrome: Chrome,
  view: {
    email: string;
    error: string | null;
    sessions: ActiveSession[];
    signIns: SignInEvent[];
    failedSignIns: SignInEvent[];
  },
): Html {
  const others = view.sessions.filter((session) => !session.current).length;
  // This session first: the one the member knows, the others read against it.
  const sessions = [...view.sessions].sort((a, b) => Number(b.current) - Number(a.current));
  return layout(
    chrome,
    "Your account",
    html`<h1>Your account</h1>
      <p>Signed in as ${chrome.memberName} (${view.email}), ${chrome.role} of ${chrome.projectName}.</p>
      <h2 id="sessions">Where you are signed in</h2>
      <p class="muted">
        Each browser you signed in with, until you sign out there or 14 days pass. “Last used” is to the
        minute at best. Signing a session out here sends its next request to the sign-in page.
      </p>
      <section aria-labelledby="sessions">
        ${dataTable(
          [
            ACCOUNT_COLUMNS.device,
            ACCOUNT_COLUMNS.ip,
            ACCOUNT_COLUMNS.signedIn,
            ACCOUNT_COLUMNS.lastUsed,
            { label: "Actions", hidden: true },
          ],
          sessions.map((session) => sessionRow(chrome, session)),
          { stacked: true },
        )}
      </section>
      ${
        others > 0
          ? html`<form method="post" action="/admin/account/sessions/sign-out-others">
              ${formFields(chrome)}
              <p><button type="submit">Sign out all other sessions</button></p>
            </form>`
          : html`<p class="muted">You are signed in nowhere else.</p>`
      }
      <h2 id="sign-ins">Recent sign-ins</h2>
      <p class="muted">
        Not you? Sign that session out above and change your password below: changing it signs out every other
        session.
      </p>
      <section aria-labelledby="sign-ins">
        ${
          view.signIns.length === 0
            ? html`<p class="muted">No sign-in recorded yet.</p>`
            : dataTable(
                [ACCOUNT_COLUMNS.when, ACCOUNT_COLUMNS.how, ACCOUNT_COLUMNS.device, ACCOUNT_COLUMNS.ip],
                view.signIns.map(
                  (event) =>
                    html`<tr>
                      <td class="when" data-label="${ACCOUNT_COLUMNS.when}">${minute(event.at)}</td>
                      <td data-label="${ACCOUNT_COLUMNS.how}">${SIGN_IN_LABELS[event.kind]}</td>
                      <td data-label="${ACCOUNT_COLUMNS.device}">${device(event.userAgent)}</td>
                      <td data-label="${ACCOUNT_COLUMNS.ip}">${event.ip}</td>
                    </tr>`,
                ),
                { stacked: true },
              )
        }
      </section>
      <h2 id="failed-sign-ins">Failed sign-in attempts</h2>
      <section aria-labelledby="failed-sign-ins">
        ${
          // Said in words when there are none: a bare "None." under the heading read as a list left empty.
          view.failedSignIns.length === 0
            ? html`<p class="muted">
                No failed sign-in attempts: nobody gave a wrong password for ${view.email}.
              </p>`
            : html`<p class="muted">Wrong passwords given for ${view.email}, newest first.</p>
                ${dataTable(
                  [ACCOUNT_COLUMNS.when, ACCOUNT_COLUMNS.device, ACCOUNT_COLUMNS.ip],
                  view.failedSignIns.map(
                    (event) =>
                      html`<tr>
                        <td class="when" data-label="${ACCOUNT_COLUMNS.when}">${minute(event.at)}</td>
                        <td data-label="${ACCOUNT_COLUMNS.device}">${device(event.userAgent)}</td>
                        <td data-label="${ACCOUNT_COLUMNS.ip}">${event.ip}</td>
                      </tr>`,
                  ),
                  { stacked: true },
                )}`
        }
      </section>
      <h2>Change your password</h2>
      ${view.error ? html`<p class="error" role="alert" id="password-error">${view.error}</p>` : ""}
      <form method="post" action="/admin/account/password">
        ${formFields(chrome)}
        <label for="current">${PASSWORD_LABELS.currentPassword}</label
        ><input
          id="current"
          name="currentPassword"
          type="password"
          required
          autocomplete="current-password"
          ${
            // The refused form comes back at the foot of a page its sessions and sign-ins make long: the
            // page opens at the field to type again (a password field is never brought back, so both are
            // empty and the first is where to start), its error just above it, instead of at the top with
            // the error out of view.
            view.error ? html`autofocus aria-describedby="password-error"` : ""
          }
        />
        <label for="new">${PASSWORD_LABELS.newPassword}</label
        ><input
          id="new"
          name="newPassword"
          type="password"
          required
          minlength="10"
          autocomplete="new-password"
          ${view.error ? html`aria-describedby="password-error"` : ""}
        />
        <p><button class="primary" type="submit">Change password</button></p>
        <p class="muted">Changing it signs you out everywhere else.</p>
      </form>`,
  );
}

/**
 * A monthly spend as the services give it ("23044.00", currency units to the cent) as the dashboard shows
 * it (formatMoney: "$23,044", "$49.90"). Read on the digits, so no binary fraction shows.
 */
export function money(amount: string): string {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(amount);
  if (!match) return amount;
  const [, sign, whole, fraction = ""] = match;
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  return formatMoney(sign === "-" ? -cents : cents);
}

/**
 * Who asked for a request, for the inbox card and the request page: "Submitted by Ada (ada@example.com) ·
 * $49.90/month", or "Submitted anonymously" when no board user is its author.
 */
export function submittedBy(author: Pick<BoardUser, "name" | "email" | "userSpend"> | null): Html {
  if (!author) return html`<span data-author>Submitted anonymously</span>`;
  const who =
    author.name && author.email
      ? `${author.name} (${author.email})`
      : (author.name ?? author.email ?? "a board user without a name or email");
  return html`<span data-author>Submitted by ${who} · ${money(author.userSpend)}/month</span>`;
}

/** A status as the dashboard shows it; an activity entry's status is any string, shown as it is if unknown. */
export function statusLabel(status: string): string {
  return isPostStatus(status) ? STATUS_LABELS[status] : status;
}

/** The team member an activity entry names (a change made from the dashboard), or null. */
export function teamMemberOf(entry: ActivityEntry): string | null {
  const member = entry.metadata?.teamMember;
  if (typeof member === "object" && member !== null && "name" in member && typeof member.name === "string") {
    return member.name;
  }
  return null;
}

/**
 * A listing's page links: "Page 2 of 5" between the previous and next pages (`words`: what they are
 * called on this listing).
 */
export function pager(
  page: number,
  pages: number,
  link: (page: number) => string,
  words: { previous: string; next: string } = { previous: "Previous", next: "Next" },
): Html {
  return html`<nav aria-label="Pages" class="toolbar">
    ${page > 1 ? html`<a href="${link(page - 1)}" rel="prev">${words.previous}</a>` : ""}
    <span>Page ${page} of ${pages}</span>
    ${page < pages ? html`<a href="${link(page + 1)}" rel="next">${words.next}</a>` : ""}
  </nav>`;
}

/**
 * A page past a listing's last (an old link, a change that shortened the list): said so, with the way back,
 * instead of "Page 2 of 1" over an empty table.
 */
export function pastTheEnd(page: number, pages: number, link: (page: number) => string): Html {
  return html`<p class="notice" role="status">
    Page ${page} is past the end: the list has ${pages === 1 ? "one page" : `${pages} pages`} now.
    <a href="${link(pages)}">Go to ${pages === 1 ? "the list" : `page ${pages}`}</a>
  </p>`;
}

/** A column of a dashboard table: its heading, right-aligned numbers, or a heading only screen readers read. */
/** What a test just run (a webhook's test event, an integration's Send a test) says, and whether it worked. */
export interface TestResult {
  ok: boolean;
  message: string;
}

/**
 * A test's result, drawn beside the button that ran it: a success as the green notice, a failure in the
 * dashboard's error style and announced (`role="alert"`). A failure drawn as the green notice read as a
 * success (docs/dashboard.md, "A test's result").
 */
export function testResultNote(result: TestResult | null): Html | "" {
  if (result === null) return "";
  return result.ok
    ? html`<p class="notice" role="status" data-test-result>${result.message}</p>`
    : html`<p class="error failed" role="alert" data-test-result>${result.message}</p>`;
}

export type Column = string | { label: string; numeric?: boolean; hidden?: boolean };

/**
 * The dashboard's one table: scrolls sideways on small screens, headings scoped for screen readers.
 * `stacked`: on a phone each row reads as an entry of its own, its cells one under the other, each
 * named by its `data-label` (admin.css, `.stacked`): a table whose last column holds what matters (a
 * session's Sign out, a delivery's result and Replay) showed the first two columns and hid the rest in a
 * box scrolled sideways.
 */
export function dataTable(
  columns: readonly Column[],
  rows: HtmlValue,
  options: { stacked?: boolean } = {},
): Html {
  const heading = (column: Column) => {
    if (typeof column === "string") return html`<th scope="col">${column}</th>`;
    const label = column.hidden ? html`<span class="skip">${column.label}</span>` : column.label;
    return html`<th scope="col" ${column.numeric ? html`class="number"` : ""}>${label}</th>`;
  };
  return html`<div class="table-wrap${options.stacked ? " stacked" : ""}">
    <table>
      <thead>
        <tr>
          ${columns.map(heading)}
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
  </div>`;
}
