import { LIMITS } from "../http/limits";
import type { ActivityEntry } from "../activity/schema";
import type { Analytics, Period } from "../analytics/schema";
import type { DailyFigures } from "../analytics/service";
import type { TeamPost } from "../posts/service";
import { type PostStatus, type PostWithTags, STATUS_LABELS } from "../posts/schema";
import type { Release } from "../releases/schema";
import type { Roadmap } from "../roadmap/schema";
import type { TeamMember, TeamRole } from "../team/schema";
import { html, type Html, raw } from "../html";
import {
  type Chrome,
  dataTable,
  formFields,
  href,
  layout,
  money,
  pager,
  pastTheEnd,
  statusLabel,
} from "./pages";
import { type ActivityNames, activitySentence } from "./activity-lines";
import { plural } from "../plural";

const COLUMNS: { status: PostStatus; key: keyof Roadmap; label: string }[] = [
  { status: "APPROVED", key: "approved", label: STATUS_LABELS.APPROVED },
  { status: "IN_PROGRESS", key: "in_progress", label: STATUS_LABELS.IN_PROGRESS },
  { status: "COMPLETE", key: "complete", label: STATUS_LABELS.COMPLETE },
];

/**
 * The roadmap editor: three columns; a card moves by its "Move to" form (keyboard, no script needed) or by
 * dragging it onto another column (the drop submits the same form).
 */
export function roadmapPage(chrome: Chrome, roadmap: Roadmap): Html {
  const moveTargets: { status: PostStatus; label: string }[] = [
    ...COLUMNS,
    { status: "CLOSED", label: "Closed" },
  ];
  // Focus lands back on the moved card (it is a focusable target); moved off the roadmap (Closed), on the
  // card after it in its column, else the one before.
  const card = (post: PostWithTags, index: number, column: PostWithTags[]) =>
    html`<li class="card" id="card-${post.id}" tabindex="-1" draggable="true" data-post-id="${post.id}">
      <h3><a href="${href(chrome, `/admin/posts/${post.id}`)}">${post.title}</a></h3>
      <p class="muted">${plural(post.voteCount, "vote")}</p>
      <form method="post" action="/admin/posts/${post.id}/status" data-move>
        ${formFields(chrome)}
        <input type="hidden" name="back" value="roadmap" />
        <input type="hidden" name="next" value="${(column[index + 1] ?? column[index - 1])?.id ?? ""}" />
        <label class="check"
          >Move to
          <select name="status" aria-label="Move “${post.title}” to">
            ${moveTargets.map(
              (target) =>
                html`<option value="${target.status}" ${target.status === post.status ? "selected" : ""}>
                  ${target.label}
                </option>`,
            )}
          </select></label
        >
        <label class="check"><input type="checkbox" name="notify" value="true" /> Notify</label>
        <button type="submit">Move</button>
      </form>
    </li>`;
  return layout(
    chrome,
    "Roadmap",
    html`<h1>Roadmap</h1>
      <p class="muted">
        Drag a card to another column, or pick where it goes and press Move. Every move is a status change:
        the activity log, webhooks and (when asked) subscriber emails follow.
      </p>
      <label class="check"
        ><input type="checkbox" data-notify-moves /> Notify subscribers when I drag a card</label
      >
      <div class="roadmap" data-roadmap>
        ${COLUMNS.map(
          (column) =>
            html`<section
              class="roadmap-column"
              data-column="${column.status}"
              aria-labelledby="col-${column.status}"
            >
              <h2 id="col-${column.status}">
                ${column.label} <span class="badge muted">${roadmap[column.key].length}</span>
              </h2>
              <ul class="cards">
                ${roadmap[column.key].map(card)}
              </ul>
            </section>`,
        )}
      </div>`,
  );
}

/**
 * Whether publishing emails the subscribers (author, voters, commenters) of each request it ships. Ticked
 * by default: telling the people who asked is why a request is shipped on the board (docs/dashboard.md).
 */
function emailSubscribersChoice(id: string, label: string): Html {
  return html`<label class="check" for="${id}"
    ><input id="${id}" type="checkbox" name="emailSubscribers" value="yes" checked /> ${label}</label
  >`;
}

/**
 * The labels of the release editor's fields: the editor shows them, and a refusal names the field by them
 * (labelledMessage in dashboard.ts), not by the API's name (`content` for "Notes (markdown)").
 */
export const RELEASE_LABELS = {
  title: "Title",
  label: "Version label (optional)",
  content: "Notes (markdown)",
  postIds: "Requests it ships (published releases archive them, as the API does)",
} as const;

/**
 * The release editor: a new release (`release` null), or one to change. A draft is saved as a draft or
 * published; a published release is saved as it is (the API's PATCH can unpublish it).
 */
function releaseForm(
  chrome: Chrome,
  candidates: PostWithTags[],
  release: (Release & { shipsPosts: PostWithTags[] }) | null,
): Html {
  const shipped = new Set(release?.postIds ?? []);
  // The requests it ships already are offered even when no longer planned (archived with it).
  const offered = [
    ...candidates,
    ...(release?.shipsPosts ?? []).filter((post) => !candidates.some((other) => other.id === post.id)),
  ];
  const action = release ? `/admin/releases/${release.id}` : "/admin/releases";
  return html`<form method="post" action="${action}">
    ${formFields(chrome)}
    <label for="release-title">${RELEASE_LABELS.title}</label
    ><input
      id="release-title"
      name="title"
      type="text"
      required
      maxlength="${LIMITS.releaseTitleLength}"
      value="${release?.title ?? ""}"
    />
    <label for="release-label">${RELEASE_LABELS.label}</label
    ><input
      id="release-label"
      name="label"
      type="text"
      maxlength="${LIMITS.releaseLabelLength}"
      value="${release?.label ?? ""}"
    />
    <label for="release-content">${RELEASE_LABELS.content}</label
    ><textarea id="release-content" name="content" rows="10" data-preview-source>
${release?.content ?? ""}</textarea>
    <h3>Preview</h3>
    <div class="card markdown" data-preview aria-live="polite"></div>
    <fieldset>
      <legend>${RELEASE_LABELS.postIds}</legend>
      ${offered.length === 0 ? html`<p class="muted">No planned, in-progress or complete requests.</p>` : ""}
      ${offered.map(
        (post) =>
          html`<label class="check"
            ><input
              type="checkbox"
              name="postIds"
              value="${post.id}"
              ${shipped.has(post.id) ? "checked" : ""}
            />
            ${post.title}
            <span class="muted"
              >(${STATUS_LABELS[post.status]}, ${plural(post.voteCount, "vote")})</span
            ></label
          >`,
      )}
    </fieldset>
    ${emailSubscribersChoice("release-email", "Email the subscribers of the shipped requests")}
    <p>
      ${
        release && !release.isDraft
          ? html`<button class="primary" name="publish" value="yes" type="submit">Save</button>`
          : html`<button name="publish" value="no" type="submit">Save draft</button>
              <button
                class="primary"
                name="publish"
                value="yes"
                type="submit"
                data-confirm="Publish this release? It goes on the public changelog, its requests are archived and, when ticked, their subscribers are emailed."
              >
                Publish
              </button>`
      }
    </p>
  </form>`;
}

/** One release to change or delete. */
export function releaseEditPage(
  chrome: Chrome,
  view: { release: Release & { shipsPosts: PostWithTags[] }; candidates: PostWithTags[] },
): Html {
  const { release } = view;
  return layout(
    chrome,
    `Edit ${release.title}`,
    html`<p><a href="${href(chrome, "/admin/releases")}">← Changelog</a></p>
      <h1>Edit “${release.title}”</h1>
      <p class="muted">
        ${release.isDraft ? "Draft" : `Published ${release.publishedAt?.slice(0, 10) ?? ""}, on the public changelog`}
      </p>
      ${releaseForm(chrome, view.candidates, release)}
      <form
        method="post"
        action="/admin/releases/${release.id}/delete"
        data-confirm="Delete “${release.title}”?${release.isDraft ? "" : " It leaves the public changelog."} Its requests stay as they are."
      >
        ${formFields(chrome)}<button class="danger" type="submit">Delete the release</button>
      </form>`,
  );
}

export function releasesPage(
  chrome: Chrome,
  view: { releases: Release[]; candidates: PostWithTags[]; titles: Map<string, string> },
): Html {
  const releases = view.releases.map(
    (release) =>
      html`<li class="card">
        <h3>
          ${release.title} ${release.label ? html`<span class="badge muted">${release.label}</span>` : ""}
        </h3>
        <p class="muted">
          ${release.isDraft ? "Draft" : `Published ${release.publishedAt?.slice(0, 10) ?? ""}`} · ships
          ${plural(release.postIds.length, "request")}
        </p>
        ${
          release.postIds.length > 0
            ? html`<ul>
                ${release.postIds.map(
                  (id) =>
                    html`<li>
                      <a href="${href(chrome, `/admin/posts/${id}`)}">${view.titles.get(id) ?? id}</a>
                    </li>`,
                )}
              </ul>`
            : ""
        }
        ${
          release.isDraft
            ? html`<form
                class="inline"
                method="post"
                action="/admin/releases/${release.id}/publish"
                data-confirm="Publish “${release.title}”? It goes on the public changelog, its requests are archived and, when ticked, their subscribers are emailed."
              >
                ${formFields(chrome)}
                ${emailSubscribersChoice(`publish-email-${release.id}`, "Email the subscribers of its requests")}
                <button class="primary" type="submit">Publish</button>
              </form>`
            : html`<a href="/b/${chrome.projectSlug}/changelog#release-${release.id}"
                >On the public changelog</a
              >`
        }
        <a href="${href(chrome, `/admin/releases/${release.id}`)}" aria-label="Edit ${release.title}">Edit</a>
      </li>`,
  );
  return layout(
    chrome,
    "Changelog",
    html`<h1>Changelog</h1>
      <div class="columns">
        <div>
          <h2>Write a release</h2>
          ${releaseForm(chrome, view.candidates, null)}
        </div>
        <div>
          <h2>Releases</h2>
          ${
            view.releases.length === 0
              ? html`<p>No releases yet.</p>`
              : html`<ul class="cards">
                  ${releases}
                </ul>`
          }
        </div>
      </div>`,
  );
}

export function activityPage(
  chrome: Chrome,
  view: {
    entries: ActivityEntry[];
    names: ActivityNames;
    entityTypes: readonly string[];
    members: (TeamMember & { role: TeamRole })[];
    entityType: string;
    teamMemberId: string;
    page: number;
    totalPages: number;
  },
): Html {
  const link = (page: number) =>
    href(chrome, "/admin/activity", {
      entityType: view.entityType,
      member: view.teamMemberId,
      page: String(page),
    });
  return layout(
    chrome,
    "Activity",
    html`<h1>Activity</h1>
      <form method="get" action="/admin/activity" class="filters">
        <input type="hidden" name="project" value="${chrome.projectSlug}" />
        <div>
          <label for="entity-type">Entity</label>
          <select id="entity-type" name="entityType">
            <option value="">Any</option>
            ${view.entityTypes.map(
              (type) =>
                html`<option value="${type}" ${type === view.entityType ? "selected" : ""}>${type}</option>`,
            )}
          </select>
        </div>
        <div>
          <label for="member">Team member</label>
          <select id="member" name="member">
            <option value="">Anyone</option>
            ${view.members.map(
              (member) =>
                html`<option value="${member.id}" ${member.id === view.teamMemberId ? "selected" : ""}>
                  ${member.name ?? member.email}
                </option>`,
            )}
          </select>
        </div>
        <div><button type="submit">Apply</button></div>
      </form>
      ${
        view.page > view.totalPages
          ? pastTheEnd(view.page, view.totalPages, link)
          : html`${dataTable(
              ["When (UTC)", "What happened"],
              view.entries.map(
                (entry) =>
                  html`<tr>
                    <td class="when">${entry.createdAt.slice(0, 16).replace("T", " ")}</td>
                    <td class="sentence">${activitySentence(chrome, entry, view.names)}</td>
                  </tr>`,
              ),
            )}
            ${pager(view.page, view.totalPages, link, { previous: "Newer", next: "Older" })}`
      }`,
  );
}

export function analyticsPage(
  chrome: Chrome,
  view: {
    periods: readonly Period[];
    analytics: Analytics;
    series: DailyFigures[];
    statusFlow: { from: string; to: string; count: number }[];
    revenueDemand: TeamPost[];
  },
): Html {
  const { analytics } = view;
  const stat = (key: keyof Analytics["stats"], label: string) =>
    html`<div class="card stat">
      <span class="muted">${label}</span><strong data-stat="${key}">${analytics.stats[key]}</strong>
    </div>`;
  const chartData = {
    days: view.series.map((day) => day.day),
    series: [
      { label: "New requests", values: view.series.map((day) => day.new_posts) },
      { label: "Votes", values: view.series.map((day) => day.votes) },
      { label: "Comments", values: view.series.map((day) => day.new_comments) },
      { label: "Page views", values: view.series.map((day) => day.page_views) },
    ],
  };
  return layout(
    chrome,
    "Analytics",
    html`<h1>Analytics</h1>
      <form method="get" action="/admin/analytics" class="filters">
        <input type="hidden" name="project" value="${chrome.projectSlug}" />
        <div>
          <label for="period">Period</label>
          <select id="period" name="period">
            ${view.periods.map(
              (period) =>
                html`<option value="${period}" ${period === analytics.period ? "selected" : ""}>
                  ${period}
                </option>`,
            )}
          </select>
        </div>
        <div><button type="submit">Show</button></div>
      </form>
      <div class="stats">
        ${stat("new_posts", "New requests")} ${stat("total_votes", "Votes")}
        ${stat("new_comments", "Comments")} ${stat("page_views", "Page views")}
      </div>
      <h2>Over time</h2>
      <div
        class="card chart"
        data-chart="activity"
        role="img"
        aria-label="New requests, votes, comments and page views per day"
      ></div>
      <script type="application/json" id="analytics-data">
        ${raw(JSON.stringify(chartData).replace(/</g, "\\u003c"))}
      </script>
      <details>
        <summary>The numbers per day</summary>
        ${dataTable(
          [
            "Day (UTC)",
            { label: "New requests", numeric: true },
            { label: "Votes", numeric: true },
            { label: "Comments", numeric: true },
            { label: "Page views", numeric: true },
          ],
          view.series.map(
            (day) =>
              html`<tr>
                <td>${day.day}</td>
                <td class="number">${day.new_posts}</td>
                <td class="number">${day.votes}</td>
                <td class="number">${day.new_comments}</td>
                <td class="number">${day.page_views}</td>
              </tr>`,
          ),
        )}
      </details>
      <div class="columns">
        <div>
          <h2>Top requests (votes in the period)</h2>
          <ol>
            ${analytics.top_posts.map(
              (post) =>
                html`<li>
                  <a href="${href(chrome, `/admin/posts/${post.id}`)}">${post.title}</a>
                  <span class="muted">${plural(post.voteCount, "vote")}</span>
                </li>`,
            )}
          </ol>
          <h2 id="revenue-demand">Revenue-weighted demand: open requests, all time</h2>
          <p class="muted">
            Pending, planned and in-progress requests by their voters' monthly spend today; complete, shipped
            and closed ones are left out. Not limited to the period above: a vote counts until it is removed.
          </p>
          ${
            view.revenueDemand.length === 0
              ? html`<p>No open request has a paying voter.</p>`
              : html`<ol aria-labelledby="revenue-demand">
                  ${view.revenueDemand.map(
                    (post) =>
                      html`<li>
                        <a href="${href(chrome, `/admin/posts/${post.id}`)}">${post.title}</a>
                        <span class="badge muted" data-status="${post.status}"
                          >${STATUS_LABELS[post.status]}</span
                        >
                        <span class="muted">${money(post.voterSpend)} a month from its voters</span>
                      </li>`,
                  )}
                </ol>`
          }
        </div>
        <div>
          <h2>Trending tags</h2>
          <ul>
            ${analytics.trending_tags.map((tag) => html`<li>${tag.label} <span class="muted">${tag.post_count} new requests</span></li>`)}
          </ul>
          <h2>Status flow</h2>
          <ul>
            ${view.statusFlow.map((flow) => html`<li>${statusLabel(flow.from)} → ${statusLabel(flow.to)}: ${flow.count}</li>`)}
          </ul>
        </div>
      </div>
      <link rel="stylesheet" href="/admin/assets/uplot.css" />
      <script src="/admin/assets/uplot.js" defer></script>`,
  );
}
