import { LIMITS } from "../http/limits";
import type { ActivityEntry } from "../activity/schema";
import type { InboxComment, ThreadComment } from "../comments/schema";
import { type PostStatus, type PostWithTags, STATUS_LABELS } from "../posts/schema";
import type { TeamPost } from "../posts/service";
import type { SimilarPost } from "../ai/similarity";
import type { Tag } from "../tags/schema";
import type { Voter } from "../votes/schema";
import type { BoardUser } from "../users/schema";
import { html, type Html } from "../html";
import {
  type Chrome,
  dataTable,
  formFields,
  href,
  layout,
  money,
  pager,
  pastTheEnd,
  submittedBy,
  teamMemberOf,
} from "./pages";
import { plural } from "../plural";

/**
 * The labels of the request page's forms, by the fields' names: the forms show them, and a refusal names
 * the field by them (labelledMessage in dashboard.ts), not by the API's name (`body` for "Write").
 */
export const COMMENT_LABELS = { body: "Write" } as const;
export const VOTE_LABELS = { email: "Add a vote for a customer (their email)" } as const;
export const STATUS_FORM_LABELS = { status: "Status", message: "Message to subscribers (optional)" } as const;
export const POST_EDIT_LABELS = { title: "Title", description: "Description", tagIds: "Tags" } as const;
/** The requests table's "Set the selected to" (a refused status is only one the page never offered). */
export const BULK_STATUS_LABELS = { status: "Set the selected to" } as const;

function statusBadge(status: PostStatus): Html {
  return html`<span class="badge muted" data-status="${status}">${STATUS_LABELS[status]}</span>`;
}

function day(iso: string): string {
  return iso.slice(0, 10);
}

function percent(similarity: number): string {
  return `${Math.round(similarity * 100)}%`;
}

function requestLink(chrome: Chrome, post: { id: string; title: string }): Html {
  return html`<a href="${href(chrome, `/admin/posts/${post.id}`)}">${post.title}</a>`;
}

export interface PendingRequest {
  post: PostWithTags;
  /** The most similar existing request, when one is likely a duplicate. */
  duplicateOf: SimilarPost | null;
  /** The board user who asked, when known. */
  author: BoardUser | null;
}

export function inboxPage(
  chrome: Chrome,
  view: {
    pending: PendingRequest[];
    comments: InboxComment[];
    /** When the member opened the inbox before this visit: comments after it are new to them. */
    seenBefore: number;
    similarNote: string | null;
  },
): Html {
  // Where focus lands once this card leaves the inbox: the card after it, else the one before.
  const nextOf = (index: number) => (view.pending[index + 1] ?? view.pending[index - 1])?.post.id ?? "";
  const pending = view.pending.map(
    ({ post, duplicateOf, author }, index) =>
      html`<li class="card" id="card-${post.id}" tabindex="-1" data-post-id="${post.id}">
        <h2>${requestLink(chrome, post)}</h2>
        ${post.description ? html`<p class="user-text">${post.description}</p>` : ""}
        <p class="muted">${submittedBy(author)}</p>
        <p class="muted">Submitted ${day(post.createdAt)} · ${plural(post.voteCount, "vote")}</p>
        <form class="inline" method="post" action="/admin/posts/${post.id}/status">
          ${formFields(chrome)}
          <input type="hidden" name="back" value="inbox" />
          <input type="hidden" name="next" value="${nextOf(index)}" />
          <button class="primary" name="status" value="APPROVED" type="submit">Approve</button>
          <button
            name="status"
            value="CLOSED"
            type="submit"
            data-confirm="Reject “${post.title}”? It is closed and never shows on the board."
          >
            Reject
          </button>
        </form>
        ${
          duplicateOf
            ? html`<form
                class="inline"
                method="post"
                action="/admin/posts/${post.id}/merge"
                data-confirm="Merge this request into “${duplicateOf.title}”? Its votes and comments move there and it closes."
              >
                ${formFields(chrome)}
                <input type="hidden" name="into" value="${duplicateOf.id}" />
                <input type="hidden" name="back" value="inbox" />
                <input type="hidden" name="next" value="${nextOf(index)}" />
                <button type="submit">
                  Merge into “${duplicateOf.title}” (${STATUS_LABELS[duplicateOf.status]},
                  ${percent(duplicateOf.similarity)} alike)
                </button>
              </form>`
            : ""
        }
      </li>`,
  );
  const unseen = view.comments.filter((comment) => Date.parse(comment.createdAt) > view.seenBefore).length;
  const comments = view.comments.map(
    (comment) =>
      html`<li class="card">
        <p>
          ${Date.parse(comment.createdAt) > view.seenBefore ? html`<span class="badge">new</span>` : ""}
          <strong>${comment.authorName || "Anonymous"}</strong> on
          ${requestLink(chrome, { id: comment.postId, title: comment.postTitle })}
          <span class="muted">${day(comment.createdAt)}</span>
        </p>
        <p class="user-text">${comment.body}</p>
      </li>`,
  );
  return layout(
    chrome,
    "Inbox",
    html`<h1>Inbox</h1>
      <h2>Waiting for review <span class="badge">${chrome.pendingCount}</span></h2>
      ${
        // The inbox lists the newest INBOX_LIMIT; the heading counts them all, and the rest are a link away.
        chrome.pendingCount > view.pending.length
          ? html`<p data-more-pending>
              The newest ${view.pending.length} of ${chrome.pendingCount} are shown here;
              <a href="${href(chrome, "/admin/requests", { status: "PENDING", sort: "newest" })}"
                >all ${chrome.pendingCount} pending requests are in the requests table</a
              >.
            </p>`
          : ""
      }
      ${view.similarNote ? html`<p class="muted">${view.similarNote}</p>` : ""}
      ${
        view.pending.length === 0
          ? html`<p>Nothing waiting: every request has been triaged.</p>`
          : html`<ul class="cards">
              ${pending}
            </ul>`
      }
      <h2>Comments from the board this week <span class="badge">${unseen} new</span></h2>
      ${
        view.comments.length === 0
          ? html`<p>No comments from the board this week.</p>`
          : html`<ul class="cards">
              ${comments}
            </ul>`
      }`,
  );
}

export interface RequestsQuery {
  q: string;
  status: PostStatus | "";
  tagId: string;
  withRevenue: boolean;
  sort: "votes" | "revenue" | "newest";
  page: number;
}

/**
 * Closing is how a request is turned down (Reject in the inbox, which asks first): choosing Closed for the
 * selected requests asks too (docs/dashboard.md).
 */
const CLOSE_SELECTED_QUESTION = "Close the selected requests? They leave the board and its roadmap.";

/** The requests table's query as link parameters (its pages, and where a bulk change returns to). */
export function requestsParams(query: RequestsQuery, page = query.page): Record<string, string> {
  return {
    q: query.q,
    status: query.status,
    tag: query.tagId,
    revenue: query.withRevenue ? "1" : "",
    sort: query.sort,
    page: String(page),
  };
}

export function requestsPage(
  chrome: Chrome,
  view: {
    query: RequestsQuery;
    statuses: readonly PostStatus[];
    tags: Tag[];
    posts: TeamPost[];
    total: number;
    pageSize: number;
  },
): Html {
  const { query } = view;
  const pages = Math.max(1, Math.ceil(view.total / view.pageSize));
  const pageLink = (page: number) => href(chrome, "/admin/requests", requestsParams(query, page));
  const rows = view.posts.map(
    (post) =>
      html`<tr>
        <td><input type="checkbox" name="ids" value="${post.id}" aria-label="Select ${post.title}" /></td>
        <td>
          ${requestLink(chrome, post)}${post.mergedIntoId ? html` <span class="muted">(merged)</span>` : ""}
        </td>
        <td>${statusBadge(post.status)}</td>
        <td class="number">${post.voteCount}</td>
        <td class="number">${money(post.voterSpend)}</td>
        <td>${post.tags.map((tag) => tag.label).join(", ")}</td>
        <td>${day(post.createdAt)}</td>
      </tr>`,
  );
  return layout(
    chrome,
    "Requests",
    html`<h1>Requests</h1>
      <form method="get" action="/admin/requests" class="filters" role="search">
        <input type="hidden" name="project" value="${chrome.projectSlug}" />
        <div><label for="q">Search</label><input id="q" name="q" type="search" value="${query.q}" /></div>
        <div>
          <label for="filter-status">Status</label>
          <select id="filter-status" name="status">
            <option value="">Any</option>
            ${view.statuses.map(
              (status) =>
                html`<option value="${status}" ${status === query.status ? "selected" : ""}>
                  ${STATUS_LABELS[status]}
                </option>`,
            )}
          </select>
        </div>
        <div>
          <label for="filter-tag">Tag</label>
          <select id="filter-tag" name="tag">
            <option value="">Any</option>
            ${view.tags.map(
              (tag) =>
                html`<option value="${tag.id}" ${tag.id === query.tagId ? "selected" : ""}>
                  ${tag.label}
                </option>`,
            )}
          </select>
        </div>
        <div>
          <label class="check"
            ><input type="checkbox" name="revenue" value="1" ${query.withRevenue ? "checked" : ""} /> Has
            revenue</label
          >
        </div>
        <div>
          <label for="sort">Sort by</label>
          <select id="sort" name="sort">
            <option value="votes" ${query.sort === "votes" ? "selected" : ""}>Votes</option>
            <option value="revenue" ${query.sort === "revenue" ? "selected" : ""}>
              Revenue of the voters
            </option>
            <option value="newest" ${query.sort === "newest" ? "selected" : ""}>Newest</option>
          </select>
        </div>
        <div><button type="submit">Apply</button></div>
      </form>
      <p>
        <a href="${href(chrome, "/admin/requests/new")}">New request</a> (for a customer, from a call or an
        email)
      </p>
      ${
        query.page > pages
          ? pastTheEnd(query.page, pages, pageLink)
          : html`<form method="post" action="/admin/requests/status">
                ${formFields(chrome)}
                <input
                  type="hidden"
                  name="list"
                  value="${new URLSearchParams(requestsParams(query)).toString()}"
                />
                <div class="toolbar">
                  <span>${plural(view.total, "request")}</span>
                  <label for="bulk-status" class="check">${BULK_STATUS_LABELS.status}</label>
                  <select id="bulk-status" name="status">
                    ${view.statuses.map(
                      (status) =>
                        html`<option
                          value="${status}"
                          ${status === "CLOSED" ? html`data-confirm="${CLOSE_SELECTED_QUESTION}"` : ""}
                        >
                          ${STATUS_LABELS[status]}
                        </option>`,
                    )}
                  </select>
                  <button type="submit">Change status</button>
                </div>
                ${dataTable([{ label: "Select", hidden: true }, "Request", "Status", { label: "Votes", numeric: true }, { label: "Revenue", numeric: true }, "Tags", "Created"], rows)}
              </form>
              ${pager(query.page, pages, pageLink)}`
      }`,
  );
}

/** What a request page's history says of an entry: the action in words, by whom. */
function activityLine(entry: ActivityEntry): string {
  const member = teamMemberOf(entry);
  const moved = (metadata: Record<string, unknown> | null) =>
    typeof metadata?.movedVotes === "number" ? ` (${plural(metadata.movedVotes, "vote")} moved)` : "";
  const what =
    entry.action === "merged"
      ? `merged into another request${moved(entry.metadata)}`
      : entry.action === "merge_received"
        ? `another request merged into this one${moved(entry.metadata)}`
        : `${entry.entityType} ${entry.action.replaceAll("_", " ")}`;
  return `${what}${member ? ` by ${member}` : ""}`;
}

export function requestPage(
  chrome: Chrome,
  view: {
    statuses: readonly PostStatus[];
    post: PostWithTags;
    /** The board user who asked, when known. */
    author: BoardUser | null;
    mergedInto: { id: string; title: string } | null;
    tags: Tag[];
    similar: SimilarPost[];
    similarNote: string | null;
    voters: Voter[];
    /** The voters' summed monthly spend ("23093.90"). */
    votersSpend: string;
    comments: ThreadComment[];
    activity: ActivityEntry[];
  },
): Html {
  const { post } = view;
  const requestPath = `/admin/posts/${post.id}`;
  const postTags = new Set(post.tags.map((tag) => tag.id));
  const visible = post.status === "APPROVED" || post.status === "IN_PROGRESS" || post.status === "COMPLETE";
  const similar = view.similar.map(
    (other) =>
      html`<li class="card">
        <h3>${requestLink(chrome, other)}</h3>
        <p class="muted">
          ${percent(other.similarity)} alike · ${plural(other.voteCount, "vote")} ·
          ${STATUS_LABELS[other.status]}
        </p>
        <form
          class="inline"
          method="post"
          action="/admin/posts/${other.id}/merge"
          data-confirm="Merge “${other.title}” into this request? Its votes and comments move here and it closes."
        >
          ${formFields(chrome)}
          <input type="hidden" name="into" value="${post.id}" />
          <button type="submit" aria-label="Merge “${other.title}” into this request">Merge here</button>
        </form>
        <form
          class="inline"
          method="post"
          action="/admin/posts/${post.id}/merge"
          data-confirm="Merge this request into “${other.title}”? Its votes and comments move there and it closes."
        >
          ${formFields(chrome)}
          <input type="hidden" name="into" value="${other.id}" />
          <button type="submit" aria-label="Merge this request into “${other.title}”">
            Merge into that one
          </button>
        </form>
      </li>`,
  );
  const voters = view.voters.map((vote) => {
    const voter = vote.boardUserName ?? vote.boardUserEmail ?? "Anonymous";
    return html`<tr>
      <td>${voter}</td>
      <td>${vote.boardUserEmail ?? ""}</td>
      <td class="number">${vote.userSpend === null ? "—" : money(vote.userSpend)}</td>
      <td>${day(vote.createdAt)}</td>
      <td>
        ${
          vote.boardUserId === null
            ? ""
            : html`<a
                href="${href(chrome, `/admin/users/${vote.boardUserId}`, { post: post.id })}"
                aria-label="Edit ${voter}'s name and monthly spend"
                >Edit</a
              >`
        }
        <form
          class="inline"
          method="post"
          action="${requestPath}/votes/${vote.id}/delete"
          data-confirm="Remove ${voter}'s vote? The request then counts ${plural(post.voteCount - 1, "vote")}."
        >
          ${formFields(chrome)}
          <button type="submit" aria-label="Remove ${voter}'s vote">Remove</button>
        </form>
      </td>
    </tr>`;
  });
  const comments = view.comments.map((comment) => {
    const kind = comment.isInternalNote ? "note" : comment.isTeamReply ? "official reply" : "comment";
    // Leaving the board, an official reply's email stays sent; a note never left the team.
    const deleteQuestion = comment.isInternalNote
      ? "Delete this internal note? It cannot be undone."
      : `Delete this ${kind}? It leaves the board at once${comment.isTeamReply ? " (the email already sent stays sent)" : ""}; it cannot be undone.`;
    return html`<li class="card${comment.isInternalNote ? " note" : ""}" data-comment-id="${comment.id}">
      <p>
        <strong>${comment.authorName || "Anonymous"}</strong>
        ${
          comment.isInternalNote
            ? html`<span class="badge muted">Internal note</span>`
            : comment.isTeamReply
              ? html`<span class="badge">Team</span>`
              : ""
        }
        <span class="muted">${day(comment.createdAt)}</span>
      </p>
      <p class="user-text">${comment.body}</p>
      <div class="actions">
        ${
          // The team's own words are corrected here; a board user's comment carries their name, so it is
          // deleted (spam, abuse), not rewritten (docs/dashboard.md).
          comment.isTeamReply || comment.isInternalNote
            ? html`<a
                href="${href(chrome, `${requestPath}/comments/${comment.id}`)}"
                aria-label="Edit this ${kind}"
                >Edit</a
              >`
            : ""
        }
        <form
          class="inline"
          method="post"
          action="${requestPath}/comments/${comment.id}/delete"
          data-confirm="${deleteQuestion}"
        >
          ${formFields(chrome)}
          <button type="submit" aria-label="Delete this ${kind}">Delete</button>
        </form>
      </div>
    </li>`;
  });
  const main = html`<h1>${post.title}</h1>
    <p>
      ${statusBadge(post.status)} ${plural(post.voteCount, "vote")}
      ${visible ? html`· <a href="/b/${chrome.projectSlug}/posts/${post.id}">View on the board</a>` : ""}
    </p>
    <p class="muted">${submittedBy(view.author)} · ${day(post.createdAt)}</p>
    ${view.mergedInto ? html`<p class="notice">Merged into ${requestLink(chrome, view.mergedInto)}.</p>` : ""}
    ${post.description ? html`<p class="user-text">${post.description}</p>` : ""}
    <h2>Comments</h2>
    <ul class="cards">
      ${comments}
    </ul>
    <form method="post" action="/admin/posts/${post.id}/comments">
      ${formFields(chrome)}
      <label for="body">${COMMENT_LABELS.body}</label
      ><textarea id="body" name="body" required rows="4"></textarea>
      ${
        // A merged request is closed and its votes moved: replies and votes belong on the one it went into.
        view.mergedInto
          ? html`<p>
              <button class="primary" name="kind" value="note" type="submit">Add internal note</button>
              <span class="muted">Replies go on ${requestLink(chrome, view.mergedInto)}.</span>
            </p>`
          : html`<p>
              <button class="primary" name="kind" value="reply" type="submit">Post official reply</button>
              <button name="kind" value="note" type="submit">Add internal note</button>
            </p>`
      }
    </form>
    <h2>Voters</h2>
    ${
      view.voters.length === 0
        ? html`<p>No votes yet.</p>`
        : html`<p data-voters-revenue>
              Revenue of the voters: <strong>${money(view.votersSpend)}</strong> a month
            </p>
            ${dataTable(["Voter", "Email", { label: "Monthly spend", numeric: true }, "Voted", { label: "Actions", hidden: true }], voters)}`
    }
    ${
      view.mergedInto
        ? html`<p class="muted">Votes for this request go on ${requestLink(chrome, view.mergedInto)}.</p>`
        : html`<form method="post" action="/admin/posts/${post.id}/votes">
            ${formFields(chrome)}
            <label for="vote-email">${VOTE_LABELS.email}</label
            ><input id="vote-email" name="email" type="email" required />
            <p><button type="submit">Add vote</button></p>
          </form>`
    }
    <h2>Activity</h2>
    <ul class="cards">
      ${view.activity.map(
        (entry) =>
          html`<li>
            <span class="muted">${entry.createdAt.slice(0, 16).replace("T", " ")}</span>
            ${activityLine(entry)}
          </li>`,
      )}
    </ul>`;
  const side = html`<h2>Status</h2>
    <form method="post" action="/admin/posts/${post.id}/status">
      ${formFields(chrome)}
      <label for="status">${STATUS_FORM_LABELS.status}</label>
      <select id="status" name="status">
        ${view.statuses.map(
          (status) =>
            html`<option
              value="${status}"
              ${status === post.status ? "selected" : ""}
              ${
                status === "CLOSED" && post.status !== "CLOSED"
                  ? html`data-confirm="Close “${post.title}”? It leaves the board and its roadmap."`
                  : ""
              }
            >
              ${STATUS_LABELS[status]}
            </option>`,
        )}
      </select>
      <label class="check"
        ><input type="checkbox" name="notify" value="true" /> Notify subscribers by email</label
      >
      <label for="status-message">${STATUS_FORM_LABELS.message}</label
      ><textarea
        id="status-message"
        name="message"
        rows="3"
        maxlength="${LIMITS.commentLength}"
        aria-describedby="status-message-hint"
      ></textarea>
      <p class="muted" id="status-message-hint">
        Posted as an official reply on the request, which emails its subscribers as every official reply does;
        with “Notify” ticked, the status email carries it (one email each).
      </p>
      <p><button class="primary" type="submit">Change status</button></p>
    </form>
    <h2>Edit</h2>
    <form method="post" action="/admin/posts/${post.id}/edit">
      ${formFields(chrome)}
      <label for="title">${POST_EDIT_LABELS.title}</label
      ><input
        id="title"
        name="title"
        type="text"
        required
        maxlength="${LIMITS.postTitleLength}"
        value="${post.title}"
      />
      <label for="description">${POST_EDIT_LABELS.description}</label
      ><textarea id="description" name="description" rows="5">${post.description ?? ""}</textarea>
      <fieldset>
        <legend>${POST_EDIT_LABELS.tagIds}</legend>
        ${view.tags.length === 0 ? html`<p class="muted">No tags in this project yet.</p>` : ""}
        ${chrome.role === "member" ? "" : html`<p><a href="${href(chrome, "/admin/tags")}">Manage tags</a></p>`}
        ${view.tags.map(
          (tag) =>
            html`<label class="check"
              ><input
                type="checkbox"
                name="tagIds"
                value="${tag.id}"
                ${postTags.has(tag.id) ? "checked" : ""}
              />
              ${tag.label}</label
            >`,
        )}
      </fieldset>
      <p><button class="primary" type="submit">Save</button></p>
    </form>
    <h2>Similar requests</h2>
    ${view.similarNote ? html`<p class="muted">${view.similarNote}</p>` : ""}
    ${view.similar.length === 0 && !view.similarNote ? html`<p>None found.</p>` : ""}
    <ul class="cards">
      ${similar}
    </ul>
    <h2>Issue links</h2>
    ${
      post.issueLinks.length === 0
        ? html`<p class="muted">No linked issues.</p>`
        : html`<ul>
            ${post.issueLinks.map((link) =>
              /^https?:\/\//.test(link.url)
                ? html`<li>
                    <a href="${link.url}" rel="noreferrer">${link.provider} #${link.externalId}</a>
                  </li>`
                : html`<li>${link.provider} #${link.externalId}</li>`,
            )}
          </ul>`
    }
    ${
      // Deleting is for spam: it takes the votes, comments and subscribers with it, for good. Members reject
      // (Closed) instead (docs/dashboard.md).
      chrome.role === "member"
        ? ""
        : html`<h2>Delete</h2>
            <form
              method="post"
              action="${requestPath}/delete"
              data-confirm="Delete “${post.title}” for good? Its ${plural(post.voteCount, "vote")}, comments and subscribers go with it. This cannot be undone."
            >
              ${formFields(chrome)}
              <p class="muted">For spam. To turn a request down, set its status to Closed instead.</p>
              <p><button class="danger" type="submit">Delete the request</button></p>
            </form>`
    }`;
  return layout(
    chrome,
    post.title,
    html`<div class="columns">
      <div>${main}</div>
      <aside>${side}</aside>
    </div>`,
  );
}
