import type { ThreadComment } from "../comments/schema";
import { LIMITS } from "../http/limits";
import { type PostStatus, type PostWithTags, STATUS_LABELS } from "../posts/schema";
import type { Tag } from "../tags/schema";
import type { BoardUser } from "../users/schema";
import { html, type Html } from "../html";
import { type Chrome, formFields, href, layout, money } from "./pages";

/**
 * The labels of this file's forms, by the fields' names: the forms show them, and a refusal names the field
 * by them (labelledMessage in dashboard.ts), not by the API's name (`userSpend` for "Monthly spend …").
 */
export const COMMENT_EDIT_LABELS = { body: "Text" } as const;
export const CUSTOMER_LABELS = {
  name: "Name",
  userSpend: "Monthly spend (in the payments account's currency, such as 49.90)",
} as const;
export const NEW_REQUEST_LABELS = {
  title: "Title",
  description: "Description",
  status: "Status",
  tagIds: "Tags",
  email: "Their email: they are the request's author and get its updates",
} as const;

function backToRequest(chrome: Chrome, post: { id: string; title: string }): Html {
  return html`<p><a href="${href(chrome, `/admin/posts/${post.id}`)}">← ${post.title}</a></p>`;
}

/** Correcting an official reply or an internal note (a typo in a reply already emailed). */
export function commentEditPage(chrome: Chrome, view: { post: PostWithTags; comment: ThreadComment }): Html {
  const { post, comment } = view;
  const kind = comment.isInternalNote ? "internal note" : comment.isTeamReply ? "official reply" : "comment";
  return layout(
    chrome,
    `Edit the ${kind}`,
    html`${backToRequest(chrome, post)}
      <h1>Edit the ${kind}</h1>
      <p class="muted">
        By ${comment.authorName || "Anonymous"} on ${comment.createdAt.slice(0, 10)}, on “${post.title}”.
        ${
          comment.isInternalNote
            ? "Only the team sees it."
            : "The board shows the corrected text at once. Nobody is emailed again: subscribers keep the email of the first text."
        }
      </p>
      <form method="post" action="/admin/posts/${post.id}/comments/${comment.id}">
        ${formFields(chrome)}
        <label for="comment-body">${COMMENT_EDIT_LABELS.body}</label
        ><textarea id="comment-body" name="body" required rows="6" maxlength="${LIMITS.commentLength}">
${comment.body}</textarea>
        <p><button class="primary" type="submit">Save the correction</button></p>
      </form>`,
  );
}

/**
 * A board user's name and monthly spend, corrected by the team (a customer added by their email has a
 * spend of 0); `post` is the request the member came from, and goes back to.
 */
export function customerPage(
  chrome: Chrome,
  view: { user: BoardUser; post: { id: string; title: string } | null },
): Html {
  const { user, post } = view;
  const who = user.name ?? user.email ?? "A board user";
  return layout(
    chrome,
    who,
    html`${post ? backToRequest(chrome, post) : ""}
      <h1>${who}</h1>
      <p class="muted">
        ${user.email ?? "No email"} · a board user since ${user.createdAt.slice(0, 10)} · spends
        ${money(user.userSpend)} a month
      </p>
      <form method="post" action="/admin/users/${user.id}">
        ${formFields(chrome)} ${post ? html`<input type="hidden" name="post" value="${post.id}" />` : ""}
        <label for="user-name">${CUSTOMER_LABELS.name}</label
        ><input
          id="user-name"
          name="name"
          type="text"
          maxlength="${LIMITS.personNameLength}"
          value="${user.name ?? ""}"
        />
        <label for="user-spend">${CUSTOMER_LABELS.userSpend}</label
        ><input
          id="user-spend"
          name="userSpend"
          type="number"
          required
          min="0"
          step="0.01"
          value="${user.userSpend}"
        />
        <p class="muted">
          Every request this customer voted for counts it in its voters' revenue. With payments connected
          (Integrations), each sync sets the spend again from the customer's subscriptions.
        </p>
        <p><button class="primary" type="submit">Save</button></p>
      </form>`,
  );
}

/** The statuses a request filed by the team may start in. */
const STARTING_STATUSES: readonly PostStatus[] = ["PENDING", "APPROVED", "IN_PROGRESS", "COMPLETE"];

/** A request filed by the team for a customer (a sales call): the customer is its author, and may vote. */
export function newRequestPage(chrome: Chrome, view: { tags: Tag[] }): Html {
  return layout(
    chrome,
    "New request",
    html`<p><a href="${href(chrome, "/admin/requests")}">← Requests</a></p>
      <h1>New request</h1>
      <form method="post" action="/admin/requests/new">
        ${formFields(chrome)}
        <label for="new-title">${NEW_REQUEST_LABELS.title}</label
        ><input id="new-title" name="title" type="text" required maxlength="${LIMITS.postTitleLength}" />
        <label for="new-description">${NEW_REQUEST_LABELS.description}</label
        ><textarea id="new-description" name="description" rows="5"></textarea>
        <label for="new-status">${NEW_REQUEST_LABELS.status}</label>
        <select id="new-status" name="status">
          ${STARTING_STATUSES.map((status) => html`<option value="${status}">${STATUS_LABELS[status]}</option>`)}
        </select>
        <p class="muted">
          Pending: only the team sees it, in the inbox. Planned and after: it is on the board.
        </p>
        ${
          view.tags.length === 0
            ? ""
            : html`<fieldset>
                <legend>${NEW_REQUEST_LABELS.tagIds}</legend>
                ${view.tags.map(
                  (tag) =>
                    html`<label class="check"
                      ><input type="checkbox" name="tagIds" value="${tag.id}" /> ${tag.label}</label
                    >`,
                )}
              </fieldset>`
        }
        <fieldset>
          <legend>For a customer (optional)</legend>
          <label for="new-email">${NEW_REQUEST_LABELS.email}</label
          ><input id="new-email" name="email" type="email" />
          <label class="check"><input type="checkbox" name="vote" value="true" /> Add their vote</label>
        </fieldset>
        <p><button class="primary" type="submit">Create the request</button></p>
      </form>`,
  );
}
