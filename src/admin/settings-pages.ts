import type { KeySummary } from "../projects/service";
import { TEAM_ROLES, type TeamMember, type TeamRole } from "../team/schema";
import { html, type Html } from "../web/html";
import { type Chrome, formFields, layout } from "./pages";

/** Owners only: the project's team members, inviting and removing them. */
export function membersPage(
  chrome: Chrome,
  view: {
    members: (TeamMember & { role: TeamRole })[];
    selfId: string;
    /** A fresh invite's URL, shown once (also emailed when SMTP is configured). */
    inviteUrl: string | null;
    emailed: boolean;
  },
): Html {
  const rows = view.members.map(
    (member) =>
      html`<tr>
        <td>${member.name ?? ""}</td>
        <td>${member.email}</td>
        <td>${member.role}</td>
        <td>
          ${
            member.id === view.selfId
              ? html`<span class="muted">you</span>`
              : html`<form class="inline" method="post" action="/admin/members/remove">
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
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col"><span class="skip">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            ${rows}
          </tbody>
        </table>
      </div>
      <h2>Invite someone</h2>
      ${
        view.inviteUrl
          ? html`<p class="notice" role="status">
              ${view.emailed ? "The invite was emailed. " : ""}Their one-time link (valid 24 hours, shown
              once):
              <code class="secret">${view.inviteUrl}</code>
            </p>`
          : ""
      }
      <form method="post" action="/admin/members/invite">
        ${formFields(chrome)}
        <label for="invite-email">Email</label><input id="invite-email" name="email" type="email" required />
        <label for="invite-role">Role</label>
        <select id="invite-role" name="role">
          ${TEAM_ROLES.map((role) => html`<option value="${role}" ${role === "member" ? "selected" : ""}>${role}</option>`)}
        </select>
        <p><button class="primary" type="submit">Invite</button></p>
      </form>`,
  );
}

/** Owners only: the project's API keys (never the key itself after creation), creating and revoking them. */
export function keysPage(chrome: Chrome, view: { keys: KeySummary[]; createdKey: string | null }): Html {
  const rows = view.keys.map(
    (key) =>
      html`<tr>
        <td><code>${key.prefix}…</code></td>
        <td>${key.kind}</td>
        <td>${key.createdAt.slice(0, 10)}</td>
        <td>
          ${
            key.revokedAt
              ? html`<span class="muted">revoked ${key.revokedAt.slice(0, 10)}</span>`
              : html`<form class="inline" method="post" action="/admin/keys/revoke">
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
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Kind</th>
              <th scope="col">Created</th>
              <th scope="col"><span class="skip">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            ${rows}
          </tbody>
        </table>
      </div>
      <form method="post" action="/admin/keys">
        ${formFields(chrome)}
        <label for="key-kind">New key</label>
        <select id="key-kind" name="kind">
          <option value="secret">secret (full API access)</option>
          <option value="publishable">publishable (the widget)</option>
        </select>
        <p><button class="primary" type="submit">Create key</button></p>
      </form>`,
  );
}
