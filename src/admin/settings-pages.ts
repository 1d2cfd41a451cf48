import { LIMITS } from "../http/limits";
import { GATED_FROM, planAtLeast } from "../projects/plans";
import { PLANS, type Project } from "../projects/schema";
import type { KeySummary } from "../projects/service";
import { TEAM_ROLES, type TeamMember, type TeamRole } from "../team/schema";
import type { ImportJob } from "../imports/jobs";
import { CSV_COLUMN_LIST, type ImportError, type ImportResult } from "../imports/schema";
import { TEST_EVENT_TYPE } from "../events/catalogue";
import type { DeliveryAttempt, Webhook, WebhookWithDeliveries } from "../webhooks/schema";
import type { TestEventOutcome } from "../webhooks/service";
import { html, type Html } from "../html";
import { plural } from "../plural";
import { type Chrome, formFields, href, layout, dataTable, type TestResult, testResultNote } from "./pages";

/** The labels of the webhook forms' fields: the forms show them, and a refusal names the field by them. */
export const NEW_WEBHOOK_LABELS = {
  url: "URL (https, reachable from the internet)",
  description: "Description (optional)",
} as const;
export const WEBHOOK_LABELS = { url: "URL", description: "Description" } as const;

/**
 * The labels of the other set-up forms' fields, by the fields' names, as for the webhooks': the forms show
 * them, and a refusal names the field by them (labelledMessage in dashboard.ts), not by the API's name.
 */
export const INVITE_LABELS = { email: "Email", role: "Role" } as const;
export const NEW_KEY_LABELS = {
  name: "Name (optional: what uses it, such as “Zapier” or “CI”)",
  kind: "Kind",
} as const;
/** A key's row: its name field sits in the Name column. */
export const KEY_ROW_LABELS = { name: "Name" } as const;
export const SETTINGS_LABELS = {
  name: "Name (shown on the board, the widget and emails)",
  accentColor: "Accent colour",
} as const;
export const LOGO_LABELS = { logo: "A PNG, JPEG, WebP or GIF image, at most 256 KB" } as const;
const IMPORT_FILE_LABEL =
  "A CSV file (title, description, status, votes, tags, author_email, …) or a board export (.json)";
/**
 * The import's one field is its file; the import names the file's text by the API's fields (`csv`, a
 * board export's `data`), which are that same file here.
 */
export const IMPORT_LABELS = {
  file: IMPORT_FILE_LABEL,
  csv: IMPORT_FILE_LABEL,
  data: IMPORT_FILE_LABEL,
} as const;

/** Owners only: the project's team members, inviting and removing them. */
export function membersPage(
  chrome: Chrome,
  view: {
    members: (TeamMember & { role: TeamRole })[];
    /** Invites not accepted yet: whose link still works, until when. */
    invites: { id: string; email: string; role: TeamRole; expiresAt: string }[];
    selfId: string;
    /** A fresh invite's URL, shown once (also emailed when SMTP is configured). */
    inviteUrl: string | null;
    emailed: boolean;
    /** The email of the fresh invite, when it replaced an open invite of theirs (whose link stopped working). */
    replacedFor?: string | null;
  },
): Html {
  const rows = view.members.map(
    (member) =>
      html`<tr>
        <td>${member.name ?? ""}</td>
        <td>${member.email}</td>
        <td>
          <form class="inline" method="post" action="/admin/members/role">
            ${formFields(chrome)}
            <input type="hidden" name="email" value="${member.email}" />
            <select name="role" aria-label="Role of ${member.email}">
              ${TEAM_ROLES.map((role) => html`<option value="${role}" ${role === member.role ? "selected" : ""}>${role}</option>`)}
            </select>
            <button type="submit" aria-label="Change the role of ${member.email}">Change</button>
          </form>
        </td>
        <td>
          ${
            member.id === view.selfId
              ? html`<span class="muted">you</span>`
              : html`<form
                  class="inline"
                  method="post"
                  action="/admin/members/remove"
                  data-confirm="Remove ${member.email} from the team? Their sessions end at once."
                >
                  ${formFields(chrome)}
                  <input type="hidden" name="email" value="${member.email}" />
                  <button class="danger" type="submit" aria-label="Remove ${member.email}">Remove</button>
                </form>`
          }
        </td>
      </tr>`,
  );
  return layout(
    chrome,
    "Members",
    html`<h1>Members of ${chrome.projectName}</h1>
      ${
        // The fresh link goes under the heading, as a new key and a webhook's secret do: under the tables,
        // by the form, it was out of view when the answer opened at the top with a few members or invites.
        view.inviteUrl
          ? html`<p class="notice" role="status">
              ${view.emailed ? "The invite was emailed. " : ""}Their one-time link (valid 24 hours, shown
              once):
              <code class="secret">${view.inviteUrl}</code>
              ${
                view.replacedFor
                  ? html`<span data-replaced
                      >It replaces the earlier invite of ${view.replacedFor}: that link no longer works.</span
                    >`
                  : ""
              }
            </p>`
          : ""
      }
      ${dataTable(["Name", "Email", "Role", { label: "Actions", hidden: true }], rows)}
      ${
        view.invites.length === 0
          ? ""
          : html`<h2>Invited, not joined yet</h2>
              ${dataTable(
                ["Email", "Role", "Link works until (UTC)", { label: "Actions", hidden: true }],
                view.invites.map(
                  (invite) =>
                    html`<tr>
                      <td>${invite.email}</td>
                      <td>${invite.role}</td>
                      <td>${invite.expiresAt.slice(0, 16).replace("T", " ")}</td>
                      <td>
                        <form
                          class="inline"
                          method="post"
                          action="/admin/members/withdraw"
                          data-confirm="Withdraw the invite of ${invite.email}? Its link stops working."
                        >
                          ${formFields(chrome)}
                          <input type="hidden" name="invite" value="${invite.id}" />
                          <button
                            class="danger"
                            type="submit"
                            aria-label="Withdraw the invite of ${invite.email} as ${invite.role}"
                          >
                            Withdraw
                          </button>
                        </form>
                      </td>
                    </tr>`,
                ),
              )}`
      }
      <h2>Invite someone</h2>
      <form method="post" action="/admin/members/invite">
        ${formFields(chrome)}
        <label for="invite-email">${INVITE_LABELS.email}</label
        ><input id="invite-email" name="email" type="email" required />
        <label for="invite-role">${INVITE_LABELS.role}</label>
        <select id="invite-role" name="role">
          ${TEAM_ROLES.map((role) => html`<option value="${role}" ${role === "member" ? "selected" : ""}>${role}</option>`)}
        </select>
        <p class="muted">
          Inviting an email again (to correct the role) replaces its open invite: only the newest link works.
        </p>
        <p><button class="primary" type="submit">Invite</button></p>
      </form>`,
  );
}

/** Owners only: the project's API keys (never the key itself after creation), creating, naming and revoking them. */
export function keysPage(chrome: Chrome, view: { keys: KeySummary[]; createdKey: string | null }): Html {
  const rows = view.keys.map(
    (key) =>
      html`<tr data-key-row="${key.prefix}">
        <td><code>${key.prefix}…</code></td>
        <td>
          <form class="inline" method="post" action="/admin/keys/rename">
            ${formFields(chrome)}
            <input type="hidden" name="prefix" value="${key.prefix}" />
            <input
              name="name"
              type="text"
              maxlength="${LIMITS.apiKeyNameLength}"
              value="${key.name ?? ""}"
              placeholder="no name"
              aria-label="The name of ${key.prefix}…"
              data-key-name
            />
            <button type="submit" aria-label="Save the name of ${key.prefix}…">Save</button>
          </form>
        </td>
        <td>${key.kind}</td>
        <td>${key.createdAt.slice(0, 10)}</td>
        <td>
          ${
            key.revokedAt
              ? html`<span class="muted">revoked ${key.revokedAt.slice(0, 10)}</span>`
              : html`<form
                  class="inline"
                  method="post"
                  action="/admin/keys/revoke"
                  data-confirm="Revoke ${key.name ? `“${key.name}” (${key.prefix}…)` : `${key.prefix}…`}? Everything that uses this key stops working at once."
                >
                  ${formFields(chrome)}
                  <input type="hidden" name="prefix" value="${key.prefix}" />
                  <button class="danger" type="submit" aria-label="Revoke ${key.prefix}">Revoke</button>
                </form>`
          }
        </td>
      </tr>`,
  );
  return layout(
    chrome,
    "API keys",
    html`<h1>API keys of ${chrome.projectName}</h1>
      ${
        view.createdKey
          ? html`<p class="notice" role="status">
              The new key, shown once: <code class="secret" data-key>${view.createdKey}</code>
            </p>`
          : ""
      }
      ${dataTable(["Key", KEY_ROW_LABELS.name, "Kind", "Created", { label: "Actions", hidden: true }], rows)}
      <form method="post" action="/admin/keys">
        ${formFields(chrome)}
        <h2>New key</h2>
        <label for="key-name">${NEW_KEY_LABELS.name}</label
        ><input id="key-name" name="name" type="text" maxlength="${LIMITS.apiKeyNameLength}" />
        <label for="key-kind">${NEW_KEY_LABELS.kind}</label>
        <select id="key-kind" name="kind">
          <option value="secret">secret (full API access)</option>
          <option value="publishable">publishable (the widget)</option>
        </select>
        <p><button class="primary" type="submit">Create key</button></p>
      </form>`,
  );
}

/**
 * The events an endpoint receives: every event, or those ticked. Ticking an event unticks "Every event"
 * (dashboard.js, `data-unticks`); without the script, the events ticked win (settings-routes.ts, eventsOf).
 */
function eventChoices(selected: readonly string[], eventTypes: readonly string[]): Html {
  return html`<fieldset>
    <legend>Events</legend>
    <label class="check"
      ><input
        type="checkbox"
        id="events-every"
        name="events"
        value="*"
        ${selected.includes("*") ? "checked" : ""}
      />
      Every event (<code>*</code>)</label
    >
    <p class="muted">Or only these:</p>
    ${eventTypes.map(
      (type) =>
        html`<label class="check"
          ><input
            type="checkbox"
            name="events"
            value="${type}"
            data-unticks="events-every"
            ${selected.includes(type) ? "checked" : ""}
          />
          <code>${type}</code></label
        >`,
    )}
  </fieldset>`;
}

/** Admins and owners: the project's webhook endpoints, and a new one (its secret shown once). */
/** The webhooks list's column headings, also each cell's name where a phone stacks the rows (dataTable). */
const WEBHOOK_COLUMNS = {
  url: "URL",
  description: "Description",
  events: "Events",
  state: "State",
} as const;

export function webhooksPage(
  chrome: Chrome,
  view: {
    webhooks: Webhook[];
    eventTypes: readonly string[];
    created: { id: string; secret: string } | null;
  },
): Html {
  return layout(
    chrome,
    "Webhooks",
    html`<h1>Webhooks</h1>
      ${
        view.created
          ? html`<p class="notice" role="status">
              Endpoint created. Its signing secret, shown once:
              <code class="secret" data-secret>${view.created.secret}</code>
              <a href="${href(chrome, `/admin/webhooks/${view.created.id}`)}">Open the endpoint</a>
            </p>`
          : ""
      }
      ${
        view.webhooks.length === 0
          ? html`<p>No endpoints yet.</p>`
          : html`${dataTable(
              [
                WEBHOOK_COLUMNS.url,
                WEBHOOK_COLUMNS.description,
                WEBHOOK_COLUMNS.events,
                WEBHOOK_COLUMNS.state,
              ],
              view.webhooks.map(
                (webhook) =>
                  html`<tr data-webhook="${webhook.id}">
                    <td class="entry-title">
                      <a href="${href(chrome, `/admin/webhooks/${webhook.id}`)}">${webhook.url}</a>
                    </td>
                    <td class="sentence" data-webhook-description data-label="${WEBHOOK_COLUMNS.description}">
                      ${webhook.description ?? html`<span class="muted">none</span>`}
                    </td>
                    <td data-label="${WEBHOOK_COLUMNS.events}">${webhook.events.join(", ")}</td>
                    <td data-label="${WEBHOOK_COLUMNS.state}">
                      ${
                        webhook.enabled
                          ? "enabled"
                          : html`disabled${webhook.disabledReason ? html` (${webhook.disabledReason})` : ""}`
                      }
                    </td>
                  </tr>`,
              ),
              // On a phone each endpoint is an entry: a scrolled table hid its description, events and state.
              { stacked: true },
            )}`
      }
      <h2>Add an endpoint</h2>
      <form method="post" action="/admin/webhooks">
        ${formFields(chrome)}
        <label for="webhook-url">${NEW_WEBHOOK_LABELS.url}</label
        ><input id="webhook-url" name="url" type="text" required maxlength="${LIMITS.urlLength}" />
        <label for="webhook-description">${NEW_WEBHOOK_LABELS.description}</label
        ><input
          id="webhook-description"
          name="description"
          type="text"
          maxlength="${LIMITS.webhookDescriptionLength}"
        />
        ${
          // Every event at first, so the form as it comes is accepted; ticking an event unticks it, and an
          // event ticked beside it wins (a "*" left ticked used to send every event).
          eventChoices(["*"], view.eventTypes)
        }
        <p><button class="primary" type="submit">Add endpoint</button></p>
      </form>`,
  );
}

/**
 * What the endpoint's page says after "Send a test event", from its one attempt (docs/dashboard.md,
 * Webhooks): the answer and how long it took, or why it failed; else why there is no attempt yet. A test
 * still queued is no failure (its row shows the result later); one not sent is.
 */
export function testEventResult(outcome: TestEventOutcome): TestResult {
  const { attempt } = outcome;
  if (attempt === null) {
    return outcome.queued
      ? {
          ok: true,
          message:
            "Test event queued: it was not tried within the delivery's time-out (this endpoint's other deliveries " +
            "may be taking the worker's turns). Its row under Deliveries shows the result once it is; reload the page.",
        }
      : {
          ok: false,
          message:
            "Test event not sent: the endpoint was turned off before it was tried; the reason shows under its address.",
        };
  }
  if (attempt.state === "delivered") {
    return {
      ok: true,
      message: `Test event sent: the endpoint answered HTTP ${attempt.statusCode ?? "2xx"} in ${duration(attempt.durationMs)}.`,
    };
  }
  const reason = attempt.error ?? "no answer";
  // Bun names a refused or dropped connection by its code and a generic question; the history keeps it whole.
  const inWords = NETWORK_ERRORS.find(([code]) => reason.startsWith(`${code}:`))?.[1] ?? reason;
  return {
    ok: false,
    message:
      `Test event failed after ${duration(attempt.durationMs)}: ${inWords}. ` +
      "A test is not retried: correct the endpoint and send another.",
  };
}

/** A duration in milliseconds, its number and unit kept on one line by a no-break space ("2 ms", never "2" then "ms"). */
export function duration(ms: number): string {
  return `${ms}\u00a0ms`;
}

const NETWORK_ERRORS: readonly (readonly [string, string])[] = [
  ["ECONNREFUSED", "connection refused (nothing listens at that address and port)"],
  ["ECONNRESET", "the connection was reset before an answer came"],
];

/** The delivery history's column headings, also each cell's name where a phone stacks the rows (dataTable). */
const DELIVERY_COLUMNS = {
  when: "When (UTC)",
  event: "Event",
  attempt: "Attempt",
  result: "Result",
} as const;

/** A stored time to the second, in UTC (said in the column's heading): a receiver's log is read against it. */
function second(at: string): Html {
  return html`<time datetime="${at}">${at.slice(0, 19).replace("T", " ")}</time>`;
}

/**
 * An attempt's outcome in words. The API's `pending` is an attempt that failed with a retry due
 * (docs/webhooks.md): shown as "pending · HTTP 500" it read as an answer still awaited, so it says that it
 * failed and when it is tried again.
 */
function deliveryResult(delivery: DeliveryAttempt): Html {
  const answer = `${delivery.statusCode === null ? "" : ` · HTTP ${delivery.statusCode}`} · ${duration(delivery.durationMs)}`;
  if (delivery.state !== "pending") return html`${delivery.state}${answer}`;
  return html`failed${answer}${
    delivery.nextAttemptAt === null
      ? ""
      : html`<br /><span data-next-attempt>Next try at ${second(delivery.nextAttemptAt)}</span>`
  }`;
}

/** One endpoint: its settings, its secret (rotate), and its delivery history with replay and a test event. */
export function webhookPage(
  chrome: Chrome,
  view: {
    webhook: WebhookWithDeliveries;
    eventTypes: readonly string[];
    newSecret: string | null;
    /** What "Send a test event" just did, shown under its button. */
    testResult: TestResult | null;
  },
): Html {
  const { webhook } = view;
  const base = `/admin/webhooks/${webhook.id}`;
  /** Deliveries whose latest attempt has a row already: only that row offers the replay. */
  const shown = new Set<string>();
  return layout(
    chrome,
    "Webhook",
    html`<h1 class="address">${webhook.url}</h1>
      <p>
        ${
          webhook.enabled
            ? html`<span class="badge">enabled</span>`
            : html`<span class="badge muted">disabled</span> ${webhook.disabledReason ?? ""}`
        }
      </p>
      ${
        view.newSecret
          ? html`<p class="notice" role="status">
              The new signing secret, shown once. For 24 hours every delivery is signed with the old one too,
              so receivers keep verifying while they change to it:
              <code class="secret" data-secret>${view.newSecret}</code>
            </p>`
          : ""
      }
      <div class="columns">
        <div>
          <h2>Deliveries</h2>
          <form class="toolbar" method="post" action="${base}/test">
            ${formFields(chrome)}
            <button type="submit">Send a test event</button>
            <small class="muted hint"
              >One <code>${TEST_EVENT_TYPE}</code> event to this endpoint
              only${webhook.enabled ? "" : ", though it is disabled"}, signed like every delivery and tried
              once; the page waits for its answer.</small
            >
          </form>
          ${testResultNote(view.testResult)}
          ${
            webhook.recentDeliveries.length === 0
              ? html`<p>No deliveries yet.</p>`
              : html`${dataTable(
                  [
                    DELIVERY_COLUMNS.when,
                    DELIVERY_COLUMNS.event,
                    { label: DELIVERY_COLUMNS.attempt, numeric: true },
                    DELIVERY_COLUMNS.result,
                    { label: "Actions", hidden: true },
                  ],
                  webhook.recentDeliveries.map((delivery) => {
                    // Newest first: a delivery's first row is its latest attempt, the one a replay follows.
                    const latest = !shown.has(delivery.webhookId);
                    shown.add(delivery.webhookId);
                    return html`<tr data-delivery="${delivery.webhookId}">
                      <td class="when" data-label="${DELIVERY_COLUMNS.when}">
                        ${second(delivery.attemptedAt)}
                      </td>
                      <td class="entry-title">
                        <code>${delivery.eventType}</code><br /><small class="muted delivery-id"
                          >${delivery.webhookId}</small
                        >
                      </td>
                      <td class="number" data-label="${DELIVERY_COLUMNS.attempt}">${delivery.attempt}</td>
                      <td data-label="${DELIVERY_COLUMNS.result}">
                        ${deliveryResult(delivery)}
                        ${delivery.error ? html`<br /><span class="error">${delivery.error}</span>` : ""}
                      </td>
                      <td>
                        ${
                          !latest
                            ? ""
                            : delivery.state === "pending"
                              ? html`<span class="muted">queued</span>`
                              : html`<form class="inline" method="post" action="${base}/replay">
                                  ${formFields(chrome)}
                                  <input type="hidden" name="deliveryId" value="${delivery.webhookId}" />
                                  <button type="submit" aria-label="Replay ${delivery.webhookId}">
                                    Replay
                                  </button>
                                </form>`
                        }
                      </td>
                    </tr>`;
                  }),
                  { stacked: true },
                )}`
          }
        </div>
        <aside>
          <h2>Settings</h2>
          <form method="post" action="${base}/edit">
            ${formFields(chrome)}
            <label for="webhook-url">${WEBHOOK_LABELS.url}</label
            ><input id="webhook-url" name="url" type="text" required value="${webhook.url}" />
            <label for="webhook-description">${WEBHOOK_LABELS.description}</label
            ><input
              id="webhook-description"
              name="description"
              type="text"
              value="${webhook.description ?? ""}"
            />
            <label class="check"
              ><input type="checkbox" name="enabled" value="true" ${webhook.enabled ? "checked" : ""} />
              Enabled</label
            >
            ${eventChoices(webhook.events, view.eventTypes)}
            <p><button class="primary" type="submit">Save</button></p>
          </form>
          <form
            method="post"
            action="${base}/rotate"
            data-confirm="Rotate the signing secret? Deliveries are signed with both for 24 hours; receivers must change to the new one before then."
          >
            ${formFields(chrome)}<button type="submit">Rotate the signing secret</button>
          </form>
          <form
            method="post"
            action="${base}/delete"
            data-confirm="Delete this endpoint and its delivery history?"
          >
            ${formFields(chrome)}<button class="danger" type="submit">Delete the endpoint</button>
          </form>
        </aside>
      </div>`,
    // One endpoint's page, inside the Webhooks screen: its tab leads back to the list.
    true,
  );
}

/**
 * Why a skipped row was skipped, as the API's `errors` say it: a board export's rows are numbered within
 * their list ("posts, row 2"). A count alone left a member guessing what to fix. A CSV's `row` is the
 * 1-based data row (the API's, docs/dashboard.md "Import"), not the line a spreadsheet shows it on (under
 * the header, after any cell holding line breaks), so the file's line the import read it from is said too:
 * "Row 10 (line 11 of the file)". The one wording of the page and of the progress answer dashboard.js
 * lists when a watched job ends (settings-routes.ts).
 */
export function skippedRowLine(error: ImportError): string {
  const where =
    error.entity !== undefined
      ? `${error.entity}, row ${error.row}`
      : error.line !== undefined
        ? `Row ${error.row} (line ${error.line} of the file)`
        : `Row ${error.row}`;
  return `${where}: ${error.message}`;
}

/**
 * Up to this many skipped rows are listed open, so their reasons show without a click; more are folded
 * under "Skipped rows". dashboard.js reads it from the import card (`data-open-up-to`) for a job that
 * finishes while the page watches.
 */
const SKIPPED_ROWS_SHOWN_OPEN = 10;

function skippedRows(errors: readonly ImportError[]): Html | string {
  if (errors.length === 0) return "";
  return html`<details data-skipped ${errors.length <= SKIPPED_ROWS_SHOWN_OPEN ? "open" : ""}>
    <summary>Skipped rows</summary>
    <ul>
      ${errors.map((error) => html`<li>${skippedRowLine(error)}</li>`)}
    </ul>
  </details>`;
}

/**
 * Of the skipped rows, those whose id was imported before: not errors, so they are counted, not listed
 * (docs/export-format.md). dashboard.js words it the same for a job it watches.
 */
function alreadyImportedNote(count: number | undefined): string {
  return count ? ` (${count} already imported)` : "";
}

/** The file's columns no field is read from: their cells were ignored, which the admin is told. */
function unreadColumnsNote(columns: readonly string[] | undefined): Html | string {
  if (!columns || columns.length === 0) return "";
  return html`<p data-unread-columns>
    Not read: ${plural(columns.length, "column")} (${columns.join(", ")});
    ${columns.length === 1 ? "its" : "their"} cells were ignored. The import reads
    ${CSV_COLUMN_LIST.map((column) => column.name).join(", ")}: rename a column to one of these to import it.
  </p>`;
}

/**
 * The columns a CSV import reads, as the import itself describes them (CSV_COLUMNS, src/imports/schema.ts),
 * and the template CSV built from the same description.
 */
function csvColumns(chrome: Chrome): Html {
  return html`<section class="csv-columns" aria-labelledby="csv-columns">
    <h3 id="csv-columns">Columns of a CSV</h3>
    <p>
      The first row names the columns, in any order and any case; a column not listed here is ignored (the
      import names it). The same columns as <code>POST /api/v1/import</code> reads.
      <a href="${href(chrome, "/admin/import/template")}" download>Download a template</a> (CSV: every column
      and two example rows).
    </p>
    ${dataTable(
      ["Column", "Required", "Accepts"],
      CSV_COLUMN_LIST.map(
        (column) =>
          html`<tr data-column="${column.name}">
            <td><code>${column.name}</code></td>
            <td ${column.required ? html`class="required"` : ""}>
              ${column.required ? "Required" : "Optional"}
            </td>
            <td>${column.accepts}</td>
          </tr>`,
      ),
      { stacked: true },
    )}
  </section>`;
}

/**
 * Admins and owners: import a CSV (with its progress) or a board export, and download the lossless export.
 * A job's status line is the one element whose words the script rewrites as the job runs
 * (dashboard.client.js), so it is the live region (`role="status"`): a screen reader announces its new
 * text, up to the result, and not the whole card again.
 */
export function importPage(
  chrome: Chrome,
  view: { job: ImportJob | null; result: ImportResult | null },
): Html {
  const { job, result } = view;
  const percent = job && job.total > 0 ? Math.floor((job.done / job.total) * 100) : 0;
  return layout(
    chrome,
    "Import and export",
    html`<h1>Import and export</h1>
      ${
        job
          ? html`<section
              class="card"
              data-import="${job.id}"
              data-state="${job.state}"
              data-open-up-to="${SKIPPED_ROWS_SHOWN_OPEN}"
            >
              <h2>Import of ${plural(job.total, "row")}</h2>
              <progress max="${job.total}" value="${job.done}" aria-label="Import progress">
                ${percent}%
              </progress>
              <p data-import-status role="status">
                <span data-percent>${percent}%</span> · ${job.done} of ${job.total} rows · ${job.imported}
                imported, ${job.skipped} skipped${alreadyImportedNote(job.alreadyImported)} · ${job.state}
              </p>
              ${unreadColumnsNote(job.unreadColumns)}
              ${job.failure ? html`<p role="alert" data-import-failure>The import stopped: ${job.failure}</p>` : ""}
              ${skippedRows(job.errors)}
            </section>`
          : ""
      }
      ${
        result
          ? html`<section class="notice" role="status">
              <p>
                Imported ${result.imported}, skipped
                ${result.skipped}${alreadyImportedNote(result.alreadyImported)}.
              </p>
              ${unreadColumnsNote(result.unreadColumns)} ${skippedRows(result.errors)}
            </section>`
          : ""
      }
      <h2>Import</h2>
      <form method="post" action="/admin/import" enctype="multipart/form-data">
        ${formFields(chrome)}
        <label for="import-file">${IMPORT_LABELS.file}</label>
        <input
          id="import-file"
          name="file"
          type="file"
          accept=".csv,.json,text/csv,application/json"
          required
        />
        <p><button class="primary" type="submit">Import</button></p>
      </form>
      ${csvColumns(chrome)}
      <h2>Export</h2>
      <p>
        <a href="/admin/export?project=${chrome.projectSlug}" download>Download the lossless export</a> (JSON,
        the document <code>GET /api/v1/export</code> answers; it imports back as a board export).
      </p>`,
  );
}

/**
 * The project's plan, read-only (the operator sets it: `featureboard project set-plan`), and what it changes:
 * the AI workflows, requests from pasted text and the payments sync need growth or higher, and nothing
 * else depends on the plan (docs/decisions.md, "Keys, projects, plans"; docs/ai.md, "Endpoints").
 */
function planSection(project: Project): Html {
  const gated = html`the AI screen (triage, summary, sprint plan), requests created from pasted text (<code
      >POST /api/v1/posts/from-text</code
    >
    and its MCP tool) and the payments sync (Sync now and the daily sync)`;
  return html`<section aria-labelledby="plan-title">
    <h2 id="plan-title">Plan</h2>
    <p data-plan="${project.plan}">
      This project is on the <strong>${project.plan}</strong> plan (plans, lowest first: ${PLANS.join(", ")}).
    </p>
    <p data-plan-means>
      ${
        planAtLeast(project.plan, GATED_FROM)
          ? html`Everything works on it, including what needs ${GATED_FROM} or higher: ${gated}.`
          : html`On it ${gated} do not work: they need ${GATED_FROM} or higher. Everything else works on every
            plan.`
      }
    </p>
    <p class="muted">
      The plan is set on the server, not here:
      <code>featureboard project set-plan ${project.slug} <var>plan</var></code
      >.
    </p>
  </section>`;
}

/** Admins and owners: the project's name, visibility and branding, its plan, and the email setup. */
export function projectSettingsPage(
  chrome: Chrome,
  view: { project: Project; boardUrl: string; smtp: boolean; memberEmail: string },
): Html {
  const { project } = view;
  return layout(
    chrome,
    "Settings",
    html`<h1>Settings of ${project.name}</h1>
      <div class="columns">
        <div>
          <h2>Project</h2>
          <form method="post" action="/admin/settings">
            ${formFields(chrome)}
            <label for="project-name">${SETTINGS_LABELS.name}</label
            ><input
              id="project-name"
              name="name"
              type="text"
              required
              maxlength="${LIMITS.projectNameLength}"
              value="${project.name}"
            />
            <label class="check"
              ><input type="checkbox" name="isPublic" value="true" ${project.isPublic ? "checked" : ""} />
              Public board (anyone can read, vote and comment at
              <a href="${view.boardUrl}">${view.boardUrl}</a>)</label
            >
            <label for="accent">${SETTINGS_LABELS.accentColor}</label
            ><input
              id="accent"
              name="accentColor"
              type="color"
              value="${project.accentColor ?? "#3f3fc4"}"
              data-unticks="defaultAccent"
            />
            <label class="check"
              ><input
                type="checkbox"
                name="defaultAccent"
                value="true"
                ${project.accentColor ? "" : "checked"}
              />
              Use the default colour</label
            >
            <p><button class="primary" type="submit">Save</button></p>
          </form>
          ${planSection(project)}
        </div>
        <div>
          <h2>Logo</h2>
          ${
            project.logoVersion
              ? html`<p>
                    <img
                      src="/b/${project.slug}/logo?v=${project.logoVersion}"
                      alt="The current logo"
                      height="48"
                    />
                  </p>
                  <form method="post" action="/admin/settings/logo/remove" data-confirm="Remove the logo?">
                    ${formFields(chrome)}<button class="danger" type="submit">Remove the logo</button>
                  </form>`
              : html`<p class="muted">No logo yet.</p>`
          }
          <form method="post" action="/admin/settings/logo" enctype="multipart/form-data">
            ${formFields(chrome)}
            <label for="logo">${LOGO_LABELS.logo}</label
            ><input
              id="logo"
              name="logo"
              type="file"
              accept="image/png,image/jpeg,image/webp,image/gif"
              required
            />
            <p><button type="submit">Upload logo</button></p>
          </form>
          <h2>Email</h2>
          <p data-smtp="${view.smtp ? "on" : "off"}">
            ${
              view.smtp
                ? "An SMTP server is configured (FEATUREBOARD_SMTP_URL): subscriber mail, invites and sign-in links are sent."
                : "No SMTP server is configured: subscriber mail is kept in the local outbox (mail_outbox) and logged; set FEATUREBOARD_SMTP_URL to send it."
            }
          </p>
          ${
            view.smtp
              ? html`<form method="post" action="/admin/settings/test-email">
                  ${formFields(chrome)}<button type="submit">Send a test email to ${view.memberEmail}</button>
                </form>`
              : ""
          }
        </div>
      </div>`,
  );
}

/** One field of an integration's form. */
interface IntegrationField {
  name: string;
  label: string;
  type: "text" | "secret" | "checkbox";
  value: string | boolean | null;
  required?: boolean;
}

export interface IntegrationCard {
  kind: string;
  title: string;
  description: string;
  configured: boolean;
  enabled: boolean;
  fields: IntegrationField[];
  /** Shown under the card's description: the last sync of payments. */
  note: string | null;
  /** What "Send a test" (payments: "Sync now") just did, shown under its button. */
  testResult: TestResult | null;
  actions: ("test" | "sync")[];
}

function integrationField(kind: string, field: IntegrationField): Html {
  const id = `${kind}-${field.name}`;
  if (field.type === "checkbox") {
    return html`<label class="check"
      ><input type="checkbox" name="${field.name}" value="true" ${field.value === true ? "checked" : ""} />
      ${field.label}</label
    >`;
  }
  const secret = field.type === "secret";
  // A secret is another service's key, not the member's password: "new-password" keeps the browser from
  // filling the dashboard password in. The other fields keep no autocomplete="off", which made Chromium
  // leave them empty after "Back to the form" (docs/dashboard.md).
  return html`<label for="${id}">${field.label}</label
    ><input
      id="${id}"
      name="${field.name}"
      type="${secret ? "password" : "text"}"
      ${secret ? html`autocomplete="new-password"` : ""}
      ${field.required ? "required" : ""}
      value="${secret ? "" : (field.value ?? "")}"
      placeholder="${secret && typeof field.value === "string" ? `${field.value} (stored)` : ""}"
    />`;
}

/** Admins and owners: chat, code host, issue tracker and payments, each with a test (payments: sync now). */
export function integrationsPage(chrome: Chrome, cards: IntegrationCard[]): Html {
  return layout(
    chrome,
    "Integrations",
    html`<h1>Integrations</h1>
      ${cards.map(
        (card) =>
          html`<section class="card" data-integration="${card.kind}" aria-labelledby="title-${card.kind}">
            <h2 id="title-${card.kind}">
              ${card.title}
              ${
                card.configured
                  ? html`<span class="badge ${card.enabled ? "" : "muted"}"
                      >${card.enabled ? "on" : "off"}</span
                    >`
                  : html`<span class="badge muted">not set up</span>`
              }
            </h2>
            <p class="muted">${card.description}</p>
            ${card.note ? html`<p class="notice" role="status" data-note>${card.note}</p>` : ""}
            <form method="post" action="/admin/integrations/${card.kind}">
              ${formFields(chrome)} ${card.fields.map((field) => integrationField(card.kind, field))}
              <p><button class="primary" type="submit">Save</button></p>
            </form>
            ${
              card.configured
                ? html`<div class="toolbar">
                    ${
                      card.actions.includes("test")
                        ? html`<form
                            class="inline"
                            method="post"
                            action="/admin/integrations/${card.kind}/test"
                          >
                            ${formFields(chrome)}<button type="submit">Send a test</button>
                          </form>`
                        : ""
                    }
                    ${
                      card.actions.includes("sync")
                        ? html`<form
                            class="inline"
                            method="post"
                            action="/admin/integrations/${card.kind}/sync"
                          >
                            ${formFields(chrome)}<button type="submit">Sync now</button>
                          </form>`
                        : ""
                    }
                    <form
                      class="inline"
                      method="post"
                      action="/admin/integrations/${card.kind}/remove"
                      data-confirm="Remove this integration and its settings?"
                    >
                      ${formFields(chrome)}<button class="danger" type="submit">Remove</button>
                    </form>
                  </div>`
                : ""
            }
            ${testResultNote(card.testResult)}
          </section>`,
      )}`,
  );
}
