import { EMAIL_CONFIRMATION_NOTE } from "../email/message";
import { LIMITS } from "../http/limits";
import type { PostStatus } from "../posts/schema";
import { STATUS_LABELS, VISIBLE_STATUSES, type VisibleStatus } from "../posts/schema";
import { escapeXml, html, type Html, raw } from "../html";
import { type BoardRef, boardPath, shell } from "./layout";
import { renderMarkdown } from "./markdown";
import { plural } from "../plural";

/**
 * What a customer reads for each status a public page can show. Listings and the roadmap show the visible
 * statuses; a closed or archived post keeps its page (the public API still answers it), so links live on.
 */
export type ShownStatus = Exclude<PostStatus, "PENDING">;

export interface TagView {
  id: string;
  label: string;
}

export interface PostView {
  id: string;
  title: string;
  description: string | null;
  status: ShownStatus;
  voteCount: number;
  createdAt: string;
  tags: TagView[];
  /** Public comments only; 0 where a view does not show counts. */
  commentCount: number;
}

export interface CommentView {
  id: string;
  body: string;
  authorName: string | null;
  isTeamReply: boolean;
  createdAt: string;
}

export interface ReleaseView {
  id: string;
  title: string;
  /** A version label such as v2.3. */
  label: string | null;
  content: string | null;
  publishedAt: string;
  updatedAt: string;
  /** The requests it shipped, linked from the changelog. */
  shipped: { id: string; title: string }[];
}

export interface PageInfo {
  page: number;
  totalPages: number;
  total: number;
}

export type BoardSort = "votes" | "new";

/** The board's query string, already cleaned: what the filters show and what the pager keeps. */
export interface BoardQuery {
  sort: BoardSort;
  status: VisibleStatus | null;
  tagId: string | null;
  q: string;
  page: number;
}

export interface BoardPageView {
  board: BoardRef;
  posts: PostView[];
  tags: TagView[];
  query: BoardQuery;
  pages: PageInfo;
}

export interface PostPageView {
  board: BoardRef;
  post: PostView;
  /** The request this one was merged into, when it is public. */
  mergedInto: { id: string; title: string } | null;
  /** The published release that shipped it. */
  shippedIn: { id: string; title: string; label: string | null; publishedAt: string } | null;
  comments: CommentView[];
  commentPages: PageInfo;
}

export interface RoadmapColumn {
  status: VisibleStatus;
  posts: PostView[];
  /** Posts in the column beyond those shown. */
  more: number;
}

export interface RoadmapPageView {
  board: BoardRef;
  columns: RoadmapColumn[];
}

export interface ChangelogPageView {
  board: BoardRef;
  releases: ReleaseView[];
  pages: PageInfo;
}

const EXCERPT_LENGTH = 240;

function excerpt(text: string | null): string {
  if (!text) return "";
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH - 1).trimEnd()}…` : flat;
}

// Built on first use: the first Intl formatter loads ICU data (~15 ms), which no request but a page needs.
let dateFormat: Intl.DateTimeFormat | undefined;
function formatDate(iso: string): string {
  dateFormat ??= new Intl.DateTimeFormat("en", {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
  return dateFormat.format(new Date(iso));
}

function date(iso: string): Html {
  return html`<time datetime="${iso}">${formatDate(iso)}</time>`;
}

function statusBadge(status: ShownStatus): Html {
  return html`<span class="status status-${status.toLowerCase().replace("_", "-")}"
    >${STATUS_LABELS[status]}</span
  >`;
}

function tagList(tags: TagView[]): Html {
  return html`${tags.map((tag) => html`<span class="tag" dir="auto">${tag.label}</span>`)}`;
}

/** Whether the public may vote and comment: the public API refuses both on posts the board does not list. */
function acceptsWrites(post: PostView): boolean {
  return (VISIBLE_STATUSES as readonly string[]).includes(post.status);
}

/**
 * Disabled until the board script runs: without script the page is for reading. A closed or archived post's
 * button has no `data-post`, so the script leaves it disabled.
 */
function voteButton(post: PostView): Html {
  // The visible count is a bare number; screen readers hear it with its word ("1 vote"), which board.js
  // rewrites with the count after a vote. One sr-only span: two would be read with a space between them.
  const count = (action: Html) =>
    html`<span class="arrow" aria-hidden="true">▲</span
      ><span class="count" aria-hidden="true">${post.voteCount}</span
      ><span class="sr-only"
        ><span class="count-words">${plural(post.voteCount, "vote")}</span>. ${action}</span
      >`;
  if (!acceptsWrites(post)) {
    return html`<button class="vote" type="button" aria-pressed="false" disabled>
      ${count(html`Voting is closed for “<bdi>${post.title}</bdi>”`)}
    </button>`;
  }
  return html`<button class="vote" type="button" data-post="${post.id}" aria-pressed="false" disabled>
    ${count(html`Vote for “<bdi>${post.title}</bdi>”`)}
  </button>`;
}

function postUrl(board: BoardRef, postId: string): string {
  return boardPath(board.slug, `/posts/${encodeURIComponent(postId)}`);
}

/** Past the last page there is nothing to page from: the page says so instead (`pastTheLastPage`). */
function pager(pages: PageInfo, hrefFor: (page: number) => string): Html {
  if (pages.totalPages <= 1 || pages.page > pages.totalPages) return html``;
  const previous = pages.page > 1 ? html`<a rel="prev" href="${hrefFor(pages.page - 1)}">← Previous</a>` : "";
  const next =
    pages.page < pages.totalPages ? html`<a rel="next" href="${hrefFor(pages.page + 1)}">Next →</a>` : "";
  return html`<nav class="pager" aria-label="Pages">
    ${previous}<span>Page ${pages.page} of ${pages.totalPages}</span>${next}
  </nav>`;
}

/** What a page number past the last page shows (an old link, a typed URL), on every paged page. */
function pastTheLastPage(firstPage: string): Html {
  return html`This page is past the last one: <a href="${firstPage}">back to the first page</a>.`;
}

/** Removed by the board script once it runs (a `<noscript>` is not shown where script is merely blocked). */
const SCRIPT_NOTE = html`<p class="note script-note">
  Voting, commenting and submitting need JavaScript; reading does not.
</p>`;

function boardQueryString(query: BoardQuery, page: number): string {
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.status) params.set("status", query.status);
  if (query.tagId) params.set("tag", query.tagId);
  if (query.sort !== "votes") params.set("sort", query.sort);
  if (page > 1) params.set("page", String(page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

function option(value: string, label: string, selected: boolean): Html {
  return html`<option value="${value}" ${selected ? raw(" selected") : ""}>${label}</option>`;
}

function filters(view: BoardPageView): Html {
  const { query } = view;
  return html`<form class="filters" method="get" action="${boardPath(view.board.slug)}" role="search">
    <div class="field">
      <label for="filter-q">Search</label
      ><input id="filter-q" name="q" type="search" value="${query.q}" maxlength="${LIMITS.searchLength}" />
    </div>
    <div class="field">
      <label for="filter-status">Status</label
      ><select id="filter-status" name="status">
        ${option("", "All statuses", query.status === null)}${VISIBLE_STATUSES.map((status) => option(status, STATUS_LABELS[status], query.status === status))}
      </select>
    </div>
    ${
      view.tags.length > 0
        ? html`<div class="field">
            <label for="filter-tag">Tag</label
            ><select id="filter-tag" name="tag">
              ${option("", "All tags", query.tagId === null)}${view.tags.map((tag) => option(tag.id, tag.label, query.tagId === tag.id))}
            </select>
          </div>`
        : ""
    }
    <div class="field">
      <label for="filter-sort">Sort by</label
      ><select id="filter-sort" name="sort">
        ${option("votes", "Most votes", query.sort === "votes")}${option("new", "Newest", query.sort === "new")}
      </select>
    </div>
    <button type="submit">Apply</button>
  </form>`;
}

function postCard(board: BoardRef, post: PostView): Html {
  return html`<li class="post-card">
    ${voteButton(post)}
    <div class="post-body">
      <h2><a href="${postUrl(board, post.id)}" dir="auto">${post.title}</a></h2>
      ${post.description ? html`<p class="excerpt" dir="auto">${excerpt(post.description)}</p>` : ""}
      <p class="meta">
        ${statusBadge(post.status)} ${tagList(post.tags)} ${date(post.createdAt)}
        <a class="comment-total" href="${postUrl(board, post.id)}#comments-heading"
          >${post.commentCount === 1 ? "1 comment" : `${post.commentCount} comments`}</a
        >
      </p>
    </div>
  </li>`;
}

function emptyBoardMessage(view: BoardPageView, filtered: boolean): Html {
  if (view.pages.total > 0)
    return pastTheLastPage(boardPath(view.board.slug, boardQueryString(view.query, 1)));
  return html`${filtered ? "No requests match these filters." : "No requests yet: be the first to submit one."}`;
}

export function boardPage(view: BoardPageView): Html {
  const { board, query } = view;
  const filtered = query.q !== "" || query.status !== null || query.tagId !== null;
  const list =
    view.posts.length > 0
      ? html`<ol class="posts">
          ${view.posts.map((post) => postCard(board, post))}
        </ol>`
      : html`<p class="empty">${emptyBoardMessage(view, filtered)}</p>`;
  return shell({
    title: "Feature requests",
    description: `Feature requests for ${board.name}: vote on what matters to you.`,
    board,
    section: "posts",
    body: html`<h1>Feature requests</h1>
      <p class="lede">
        ${plural(view.pages.total, "request")}${filtered ? (view.pages.total === 1 ? " matches" : " match") : ""}.
        Vote for the ones you need, or <a href="${boardPath(board.slug, "/submit")}">submit your own</a>.
      </p>
      ${filters(view)} ${list}
      ${pager(view.pages, (page) => boardPath(board.slug, boardQueryString(query, page)))} ${SCRIPT_NOTE}`,
  });
}

function commentItem(comment: CommentView): Html {
  return html`<li class="comment${comment.isTeamReply ? " team-reply" : ""}">
    <p class="meta">
      <strong dir="auto">${comment.authorName || "Anonymous"}</strong>
      ${comment.isTeamReply ? html`<span class="team-badge">Team</span>` : ""} ${date(comment.createdAt)}
    </p>
    <p class="comment-body" dir="auto">${comment.body}</p>
  </li>`;
}

export function postPage(view: PostPageView): Html {
  const { board, post } = view;
  const count = view.commentPages.total;
  return shell({
    title: post.title,
    description: excerpt(post.description) || `A feature request for ${board.name}.`,
    board,
    section: "posts",
    body: html`<p class="back"><a href="${boardPath(board.slug)}">← All requests</a></p>
      <article class="post">
        <div class="post-head">
          ${voteButton(post)}
          <div>
            <h1 dir="auto">${post.title}</h1>
            <p class="meta">
              ${
                // An archived request that a release shipped reads as shipped, not as put away.
                view.shippedIn
                  ? html`<span class="status status-complete">Shipped</span>`
                  : statusBadge(post.status)
              }
              ${tagList(post.tags)} ${date(post.createdAt)}
            </p>
          </div>
        </div>
        ${
          view.mergedInto
            ? html`<p class="merged-into">
                Merged into
                <a href="${postUrl(board, view.mergedInto.id)}" dir="auto">${view.mergedInto.title}</a>: vote
                and comment there.
              </p>`
            : ""
        }
        ${
          view.shippedIn
            ? html`<p class="shipped-in">
                Shipped in
                <a href="${boardPath(board.slug, "/changelog")}#release-${view.shippedIn.id}"
                  ><bdi>${view.shippedIn.title}</bdi
                  >${view.shippedIn.label ? html` (<bdi>${view.shippedIn.label}</bdi>)` : ""}</a
                >
                on ${date(view.shippedIn.publishedAt)}.
              </p>`
            : ""
        }
        ${post.description ? html`<div class="description" dir="auto">${post.description}</div>` : ""}
      </article>
      <section class="comments" aria-labelledby="comments-heading">
        <h2 id="comments-heading">Comments <span class="comment-count">(${count})</span></h2>
        <ol
          class="comment-list"
          data-last-page="${view.commentPages.page >= view.commentPages.totalPages ? "true" : "false"}"
          data-last-page-url="${postUrl(board, post.id)}?page=${Math.max(view.commentPages.totalPages, 1)}#comments-heading"
        >
          ${view.comments.map(commentItem)}
        </ol>
        ${count === 0 ? html`<p class="empty no-comments">No comments yet.</p>` : ""}
        ${
          count > 0 && view.comments.length === 0
            ? html`<p class="empty">${pastTheLastPage(`${postUrl(board, post.id)}#comments-heading`)}</p>`
            : ""
        }
        ${pager(view.commentPages, (page) => `${postUrl(board, post.id)}${page > 1 ? `?page=${page}` : ""}`)}
        ${
          acceptsWrites(post)
            ? html`<form class="comment-form" data-form="comment" data-post="${post.id}" method="post">
                <fieldset disabled>
                  <legend>Add a comment</legend>
                  <div class="field">
                    <label for="comment-body">Comment</label
                    ><textarea
                      id="comment-body"
                      name="body"
                      rows="4"
                      required
                      maxlength="${LIMITS.commentLength}"
                    ></textarea>
                  </div>
                  <div class="field">
                    <label for="comment-name">Your name (optional)</label
                    ><input
                      id="comment-name"
                      name="authorName"
                      autocomplete="name"
                      maxlength="${LIMITS.personNameLength}"
                    />
                  </div>
                  <button type="submit">Post comment</button>
                  <p class="form-status" role="status" aria-live="polite"></p>
                </fieldset>
              </form>`
            : html`<p class="empty comments-closed">
                ${
                  view.shippedIn
                    ? "This request has shipped: votes and comments are closed."
                    : `This request is ${STATUS_LABELS[post.status].toLowerCase()}: votes and comments are closed.`
                }
              </p>`
        }
      </section>
      ${SCRIPT_NOTE}`,
  });
}

export function submitPage(board: BoardRef): Html {
  return shell({
    title: "Submit a request",
    description: `Suggest a feature for ${board.name}.`,
    board,
    section: "submit",
    body: html`<h1>Submit a request</h1>
      <p class="lede">
        Tell the team what you need. New requests appear on the board once they have been reviewed.
      </p>
      <form class="submit-form" data-form="submit" method="post">
        <fieldset disabled>
          <div class="field">
            <label for="submit-title">Title</label
            ><input id="submit-title" name="title" required maxlength="${LIMITS.postTitleLength}" />
          </div>
          <div class="field">
            <label for="submit-description">Description (optional)</label
            ><textarea
              id="submit-description"
              name="description"
              rows="6"
              maxlength="${LIMITS.postDescriptionLength}"
            ></textarea>
          </div>
          <div class="field">
            <label for="submit-name">Your name (optional)</label
            ><input id="submit-name" name="name" autocomplete="name" maxlength="${LIMITS.personNameLength}" />
          </div>
          <div class="field">
            <label for="submit-email">Email (optional, to hear about progress)</label
            ><input
              id="submit-email"
              name="email"
              type="email"
              autocomplete="email"
              maxlength="${LIMITS.emailLength}"
              aria-describedby="submit-email-note"
            />
            <p class="note" id="submit-email-note">${EMAIL_CONFIRMATION_NOTE}</p>
          </div>
          <button type="submit">Submit request</button>
          <p class="form-status" role="status" aria-live="polite"></p>
        </fieldset>
      </form>
      ${SCRIPT_NOTE}`,
  });
}

function roadmapColumn(board: BoardRef, column: RoadmapColumn): Html {
  const id = `column-${column.status.toLowerCase()}`;
  return html`<section class="column" aria-labelledby="${id}">
    <h2 id="${id}">
      ${statusBadge(column.status)} <span class="column-count">${column.posts.length + column.more}</span>
    </h2>
    ${
      column.posts.length > 0
        ? html`<ol class="roadmap-list">
            ${column.posts.map(
              (post) =>
                html`<li>
                  <a href="${postUrl(board, post.id)}" dir="auto">${post.title}</a>
                  <p class="meta">
                    <span class="votes">${plural(post.voteCount, "vote")}</span>
                    ${tagList(post.tags)}
                  </p>
                </li>`,
            )}
          </ol>`
        : html`<p class="empty">Nothing here yet.</p>`
    }
    ${column.more > 0 ? html`<p><a href="${boardPath(board.slug, `?status=${column.status}`)}">${column.more} more</a></p>` : ""}
  </section>`;
}

export function roadmapPage(view: RoadmapPageView): Html {
  return shell({
    title: "Roadmap",
    description: `What ${view.board.name} has planned, is building, and has shipped.`,
    board: view.board,
    section: "roadmap",
    body: html`<h1>Roadmap</h1>
      <div class="roadmap">${view.columns.map((column) => roadmapColumn(view.board, column))}</div>`,
  });
}

export function changelogPage(view: ChangelogPageView): Html {
  const { board } = view;
  const feed = boardPath(board.slug, "/changelog.atom");
  return shell({
    title: "Changelog",
    description: `What is new in ${board.name}.`,
    board,
    section: "changelog",
    body: html`<h1>Changelog</h1>
      <p class="lede">What has shipped, newest first. <a href="${feed}">Subscribe to the Atom feed</a>.</p>
      ${
        view.releases.length > 0
          ? view.releases.map(
              (release) =>
                html`<article class="release" id="release-${release.id}">
                  <h2 dir="auto">${release.title}</h2>
                  <p class="meta">
                    ${release.label ? html`<span class="tag" dir="auto">${release.label}</span>` : ""}
                    ${date(release.publishedAt)}
                  </p>
                  <div class="markdown">${release.content ? renderMarkdown(release.content) : ""}</div>
                  ${
                    release.shipped.length > 0
                      ? html`<h3 class="shipped-heading">Shipped requests</h3>
                          <ul class="shipped">
                            ${release.shipped.map(
                              (post) =>
                                html`<li>
                                  <a href="${postUrl(board, post.id)}" dir="auto">${post.title}</a>
                                </li>`,
                            )}
                          </ul>`
                      : ""
                  }
                </article>`,
            )
          : html`<p class="empty">
              ${view.pages.total > 0 ? pastTheLastPage(boardPath(board.slug, "/changelog")) : "Nothing published yet."}
            </p>`
      }
      ${pager(view.pages, (page) => boardPath(board.slug, page > 1 ? `/changelog?page=${page}` : "/changelog"))}`,
  });
}

export function notFoundPage(): Html {
  return shell({
    title: "Page not found",
    body: html`<h1>Page not found</h1>
      <p class="lede">There is no public board or page at this address.</p>`,
  });
}

/** Atom 1.0: absolute ids and links from the service's public URL; entries carry the rendered notes. */
export function changelogFeed(board: BoardRef, releases: ReleaseView[], publicUrl: string): string {
  const page = `${publicUrl}${boardPath(board.slug, "/changelog")}`;
  const updated = releases.reduce(
    (latest, release) => (release.updatedAt > latest ? release.updatedAt : latest),
    releases[0]?.publishedAt ?? new Date(0).toISOString(),
  );
  const entries = releases.map(
    (release) => `<entry>
<title>${escapeXml(release.label ? `${release.label}: ${release.title}` : release.title)}</title>
<id>${escapeXml(`${page}#release-${release.id}`)}</id>
<link rel="alternate" type="text/html" href="${escapeXml(`${page}#release-${release.id}`)}"/>
<published>${release.publishedAt}</published>
<updated>${release.updatedAt > release.publishedAt ? release.updatedAt : release.publishedAt}</updated>
<content type="html">${escapeXml(release.content ? renderMarkdown(release.content).value : "")}</content>
</entry>`,
  );
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<title>${escapeXml(`${board.name} changelog`)}</title>
<id>${escapeXml(page)}</id>
<link rel="self" type="application/atom+xml" href="${escapeXml(`${page}.atom`)}"/>
<link rel="alternate" type="text/html" href="${escapeXml(page)}"/>
<updated>${updated}</updated>
<author><name>${escapeXml(board.name)}</name></author>
${entries.join("\n")}
</feed>
`;
}
