import { Elysia } from "elysia";
import { ApiError } from "../http/errors";
import { requireValid } from "../http/validation-message";
import { TagCreateSchema, TagUpdateSchema } from "../tags/schema";
import { createTag, deleteTag, listTags, requestCountsByTag, requireTag, updateTag } from "../tags/service";
import { requireRole } from "../team/service";
import { type DashboardKit, DashboardRefusal, withNotice } from "./dashboard";
import { href } from "./pages";
import type { Caller } from "./session";
import { colourInputValue, TAG_LABELS, tagsPage } from "./tag-pages";

/**
 * The Tags screen (docs/dashboard.md): admins and owners make, rename, recolour and delete tags through the
 * tags service, as `POST/PATCH/DELETE /api/v1/tags` do; every role puts tags on requests.
 */
export function tagRoutes(kit: DashboardKit) {
  const { db, act, view, change } = kit;
  const MANAGING = "Managing tags";
  const tagsPath = (caller: Caller) => href({ projectSlug: caller.membership.projectSlug }, "/admin/tags");
  /** A label another tag has: said with the tags' labels, not the API's ids. */
  const labelTaken = (error: unknown, label: string): unknown =>
    error instanceof ApiError && error.code === "TAG_ALREADY_EXISTS"
      ? new DashboardRefusal(
          error.code,
          `Another tag is labelled “${label.trim()}” already`,
          "Labels are unique in a project, whatever their case: choose another label, or use that tag.",
        )
      : error;
  return new Elysia({ name: "admin.tags", detail: { hide: true } })
    .get(
      "/admin/tags",
      view("tags", (caller, chrome) => {
        requireRole(caller.membership, "admin", MANAGING);
        const { projectId } = caller.membership;
        return tagsPage(chrome, {
          tags: listTags(db, projectId),
          requestCounts: requestCountsByTag(db, projectId),
        });
      }),
    )
    .post(
      "/admin/tags",
      change(
        "tags",
        (caller, form) => {
          requireRole(caller.membership, "admin", MANAGING);
          const input = requireValid(
            TagCreateSchema,
            { label: form.get("label") ?? "", theme: form.get("theme") ?? "" },
            "body",
          );
          try {
            act(caller, () => createTag(db, caller.membership.projectId, input));
          } catch (error) {
            throw labelTaken(error, input.label);
          }
          return withNotice(tagsPath(caller), "tagCreated");
        },
        () => TAG_LABELS,
      ),
      { parse: "text" },
    )
    .post(
      "/admin/tags/:tagId",
      change(
        "tags",
        (caller, form, params) => {
          requireRole(caller.membership, "admin", MANAGING);
          const { projectId } = caller.membership;
          const tag = requireTag(db, projectId, params.tagId ?? "");
          const label = form.get("label") ?? "";
          const theme = form.get("theme") ?? "";
          // Only what the member changed: the row's form sends both fields, and a colour input shows `#abc`
          // as `#aabbcc`, which is the same colour.
          const changed = {
            ...(label.trim() !== tag.label ? { label } : {}),
            ...(theme.toLowerCase() !== colourInputValue(tag.theme) ? { theme } : {}),
          };
          if (Object.keys(changed).length === 0) return withNotice(tagsPath(caller), "unchanged");
          const patch = requireValid(TagUpdateSchema, changed, "body");
          try {
            act(caller, () => updateTag(db, projectId, tag.id, patch));
          } catch (error) {
            throw labelTaken(error, label);
          }
          return withNotice(tagsPath(caller), "saved");
        },
        () => TAG_LABELS,
      ),
      { parse: "text" },
    )
    .post(
      "/admin/tags/:tagId/delete",
      change("tags", (caller, _form, params) => {
        requireRole(caller.membership, "admin", MANAGING);
        act(caller, () => deleteTag(db, caller.membership.projectId, params.tagId ?? ""));
        return withNotice(tagsPath(caller), "tagDeleted");
      }),
      { parse: "text" },
    );
}
