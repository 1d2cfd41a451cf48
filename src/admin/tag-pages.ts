import { LIMITS } from "../http/limits";
import { DEFAULT_TAG_THEME, type Tag } from "../tags/schema";
import { html, type Html } from "../html";
import { plural } from "../plural";
import { type Chrome, dataTable, formFields, href, layout } from "./pages";

/**
 * The labels of a tag's fields: the new tag's form shows them, each row's fields are named after them
 * ("Label of “Bugs”"), and a refusal names the field by them (labelledMessage in dashboard.ts).
 */
export const TAG_LABELS = { label: "Label", theme: "Colour" } as const;

/**
 * A tag's colour as a colour input can show it: `#rrggbb` in lower case. The API also takes `#rgb`, which a
 * colour input does not (it would show, and send back, black).
 */
export function colourInputValue(theme: string): string {
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(theme);
  const long = short ? `#${short[1]!.repeat(2)}${short[2]!.repeat(2)}${short[3]!.repeat(2)}` : theme;
  return long.toLowerCase();
}

/** What deleting a tag does, said before it is done (the "are you sure?" of dashboard.js). */
function deleteQuestion(tag: Tag, requests: number): string {
  const carried =
    requests === 0
      ? "No request carries it."
      : `It is taken off the ${plural(requests, "request")} that carry it; the requests stay.`;
  return `Delete the tag “${tag.label}”? ${carried}`;
}

/** Admins and owners: the project's tags, with how many requests carry each (docs/dashboard.md, Tags). */
export function tagsPage(chrome: Chrome, view: { tags: Tag[]; requestCounts: Map<string, number> }): Html {
  const rows = view.tags.map((tag) => {
    const requests = view.requestCounts.get(tag.id) ?? 0;
    return html`<tr>
      <td>
        <form class="inline" method="post" action="/admin/tags/${tag.id}">
          ${formFields(chrome)}
          <input
            name="label"
            type="text"
            required
            maxlength="${LIMITS.tagLabelLength}"
            value="${tag.label}"
            aria-label="${TAG_LABELS.label} of “${tag.label}”"
          />
          <input
            name="theme"
            type="color"
            value="${colourInputValue(tag.theme)}"
            aria-label="${TAG_LABELS.theme} of “${tag.label}”"
          />
          <button type="submit" aria-label="Save “${tag.label}”">Save</button>
        </form>
      </td>
      <td class="number">
        <a
          href="${href(chrome, "/admin/requests", { tag: tag.id })}"
          aria-label="Requests tagged “${tag.label}”"
          >${requests}</a
        >
      </td>
      <td>
        <form
          class="inline"
          method="post"
          action="/admin/tags/${tag.id}/delete"
          data-confirm="${deleteQuestion(tag, requests)}"
        >
          ${formFields(chrome)}
          <button class="danger" type="submit" aria-label="Delete “${tag.label}”">Delete</button>
        </form>
      </td>
    </tr>`;
  });
  return layout(
    chrome,
    "Tags",
    html`<h1>Tags</h1>
      <p class="muted">
        Every role tags requests on the request page; admins and owners make, rename, recolour and delete the
        tags here. A rename or a new colour shows wherever the tag is, on the board too.
      </p>
      <h2>New tag</h2>
      <form method="post" action="/admin/tags">
        ${formFields(chrome)}
        <label for="tag-label">${TAG_LABELS.label}</label
        ><input id="tag-label" name="label" type="text" required maxlength="${LIMITS.tagLabelLength}" />
        <label for="tag-theme">${TAG_LABELS.theme}</label
        ><input id="tag-theme" name="theme" type="color" value="${DEFAULT_TAG_THEME}" />
        <p><button class="primary" type="submit">Create tag</button></p>
      </form>
      <h2>${plural(view.tags.length, "tag")}</h2>
      ${
        view.tags.length === 0
          ? html`<p>No tags yet.</p>`
          : dataTable(
              ["Label and colour", { label: "Requests", numeric: true }, { label: "Delete", hidden: true }],
              rows,
            )
      }`,
  );
}
