import { html, type Html } from "../web/html";

/** The dashboard runs no inline script and loads nothing from elsewhere, like the board pages. */
export const ADMIN_HEADERS: Record<string, string> = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy":
    "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "cache-control": "no-store",
};

export const ADMIN_CSS = `body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1f2430;background:#f6f7fb}
header{display:flex;gap:16px;align-items:center;padding:12px 24px;background:#1f2430;color:#fff}
header a{color:#fff}main{max-width:960px;margin:24px auto;padding:0 24px}
form.inline{display:inline}label{display:block;margin:12px 0 4px}input,textarea,select{padding:8px;font:inherit;width:100%;max-width:560px}input[type=checkbox]{width:auto}.note{background:#fff8e6}
button{padding:6px 14px;font:inherit;cursor:pointer;border-radius:6px;border:1px solid #9aa3b5;background:#fff}
button.primary{background:#4f46e5;color:#fff;border-color:#4f46e5}
.card{background:#fff;border:1px solid #e2e5ee;border-radius:8px;padding:12px 16px;margin:8px 0}
.error{color:#b42318}.spacer{flex:1}ul.inbox{list-style:none;padding:0}.count{background:#4f46e5;color:#fff;border-radius:10px;padding:0 8px;font-size:13px}`;

export function shell(title: string, body: Html, nav: Html | null = null): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · featureboard</title>
        <link rel="stylesheet" href="/admin/assets/admin.css" />
      </head>
      <body>
        <header><strong>featureboard</strong>${nav}</header>
        <main>${body}</main>
      </body>
    </html>`;
}

export function signInPage(error: string | null, email = ""): Html {
  return shell(
    "Sign in",
    html`<h1>Sign in to the team dashboard</h1>
      ${error ? html`<p class="error" role="alert">${error}</p>` : ""}
      <form method="post" action="/admin/login">
        <label for="email">Email</label
        ><input id="email" name="email" type="email" required value="${email}" autocomplete="username" />
        <label for="password">Password</label
        ><input id="password" name="password" type="password" required autocomplete="current-password" />
        <p><button class="primary" type="submit">Sign in</button></p>
      </form>
      <p>
        No account yet? An owner invites you; the first owner is invited with
        <code>featureboard team invite --email you@example.com</code>.
      </p>`,
  );
}

export function setPasswordPage(
  token: string,
  invite: { email: string; projectName: string; role: string },
  error: string | null,
): Html {
  return shell(
    "Set your password",
    html`<h1>Join ${invite.projectName}</h1>
      <p>
        You were invited as <strong>${invite.role}</strong> with ${invite.email}. Choose a password to sign
        in.
      </p>
      ${error ? html`<p class="error" role="alert">${error}</p>` : ""}
      <form method="post" action="/admin/invite/${token}">
        <label for="name">Your name (shown on official replies)</label
        ><input id="name" name="name" autocomplete="name" />
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

export interface InboxPost {
  id: string;
  title: string;
  description: string | null;
  createdAt: string;
}

export function inboxPage(view: {
  memberName: string;
  projectName: string;
  projectSlug: string;
  csrfToken: string;
  pending: InboxPost[];
}): Html {
  const nav = html`<span>${view.projectName}</span>
    <a href="/admin"
      >Inbox <span class="count" aria-label="${view.pending.length} pending">${view.pending.length}</span></a
    >
    <span class="spacer"></span><span>${view.memberName}</span>
    <form class="inline" method="post" action="/admin/logout">
      <input type="hidden" name="csrf" value="${view.csrfToken}" /><button type="submit">Sign out</button>
    </form>`;
  const items = view.pending.map(
    (post) =>
      html`<li class="card" data-post-id="${post.id}">
        <h2><a href="/admin/posts/${post.id}?project=${view.projectSlug}">${post.title}</a></h2>
        ${post.description ? html`<p>${post.description}</p>` : ""}
        <form class="inline" method="post" action="/admin/posts/${post.id}/status">
          <input type="hidden" name="csrf" value="${view.csrfToken}" /><input
            type="hidden"
            name="project"
            value="${view.projectSlug}"
          />
          <button class="primary" name="status" value="APPROVED" type="submit">Approve</button>
          <button name="status" value="CLOSED" type="submit">Reject</button>
        </form>
      </li>`,
  );
  return shell(
    "Inbox",
    html`<h1>Inbox</h1>
      ${
        view.pending.length === 0
          ? html`<p>Nothing waiting: every request has been triaged.</p>`
          : html`<ul class="inbox">
              ${items}
            </ul>`
      }`,
    nav,
  );
}

export interface RequestComment {
  id: string;
  body: string;
  authorName: string | null;
  isInternalNote: boolean;
  isTeamReply: boolean;
  createdAt: string;
}

export function requestPage(view: {
  memberName: string;
  projectName: string;
  projectSlug: string;
  csrfToken: string;
  statuses: readonly string[];
  post: { id: string; title: string; description: string | null; status: string; voteCount: number };
  comments: RequestComment[];
}): Html {
  const { post } = view;
  const nav = html`<span>${view.projectName}</span><a href="/admin?project=${view.projectSlug}">Inbox</a>
    <span class="spacer"></span><span>${view.memberName}</span>`;
  const hidden = html`<input type="hidden" name="csrf" value="${view.csrfToken}" /><input
      type="hidden"
      name="project"
      value="${view.projectSlug}"
    />`;
  const comments = view.comments.map(
    (comment) =>
      html`<li class="card${comment.isInternalNote ? " note" : ""}">
        <p>
          <strong>${comment.authorName || "Anonymous"}</strong>
          ${comment.isInternalNote ? html`<span class="count">Internal note</span>` : comment.isTeamReply ? html`<span class="count">Team</span>` : ""}
        </p>
        <p>${comment.body}</p>
      </li>`,
  );
  return shell(
    post.title,
    html`<h1>${post.title}</h1>
      <p>${post.voteCount} votes · status <strong data-status="${post.status}">${post.status}</strong></p>
      ${post.description ? html`<p>${post.description}</p>` : ""}
      <form method="post" action="/admin/posts/${post.id}/status">
        ${hidden}
        <label for="status">Status</label>
        <select id="status" name="status">
          ${view.statuses.map((status) => html`<option value="${status}" ${status === post.status ? "selected" : ""}>${status}</option>`)}
        </select>
        <label><input type="checkbox" name="notify" value="true" /> Notify subscribers by email</label>
        <p><button class="primary" type="submit">Change status</button></p>
      </form>
      <h2>Comments</h2>
      <ul class="inbox">
        ${comments}
      </ul>
      <form method="post" action="/admin/posts/${post.id}/comments">
        ${hidden} <label for="body">Write</label><textarea id="body" name="body" required rows="4"></textarea>
        <p>
          <button class="primary" name="kind" value="reply" type="submit">Post official reply</button>
          <button name="kind" value="note" type="submit">Add internal note</button>
        </p>
      </form>`,
    nav,
  );
}
