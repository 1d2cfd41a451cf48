import { recordActivity } from "../activity/service";
import { type Db, inTransaction } from "../db/connection";
import { appendEvent } from "../events/outbox";
import { ApiError, notFound, validationError } from "../http/errors";
import { DEFAULT_TAG_THEME, type Tag, type TagCreate, type TagUpdate } from "./schema";
import * as store from "./store";

export { findTagByLabel, listTags, requestCountsByTag } from "./store";

export function requireTag(db: Db, projectId: string, tagId: string): Tag {
  const tag = store.findTag(db, projectId, tagId);
  if (!tag) throw notFound("TAG_NOT_FOUND");
  return tag;
}

function cleanLabel(label: string): string {
  const trimmed = label.trim();
  if (trimmed === "") throw validationError("label", "must not be blank");
  return trimmed;
}

function ensureLabelFree(db: Db, projectId: string, label: string, exceptId?: string): void {
  const existing = store.findTagByLabel(db, projectId, label);
  if (existing && existing.id !== exceptId) {
    throw new ApiError(
      "TAG_ALREADY_EXISTS",
      `A tag labelled '${existing.label}' already exists in this project`,
      `Use the existing tag (id ${existing.id}) or choose another label.`,
    );
  }
}

export function createTag(
  db: Db,
  projectId: string,
  input: TagCreate,
  /** An import keeps the time the tag was created where it came from. */
  origin: { createdAt?: number } = {},
): Tag {
  const label = cleanLabel(input.label);
  return inTransaction(db, () => {
    ensureLabelFree(db, projectId, label);
    const tag = store.insertTag(
      db,
      projectId,
      { id: Bun.randomUUIDv7(), label, theme: input.theme ?? DEFAULT_TAG_THEME },
      origin.createdAt ?? Date.now(),
    );
    recordActivity(db, projectId, {
      action: "created",
      entityType: "tag",
      entityId: tag.id,
      metadata: { label },
    });
    appendEvent(db, projectId, "tag.created", tag);
    return tag;
  });
}

export function updateTag(db: Db, projectId: string, tagId: string, patch: TagUpdate): Tag {
  const label = patch.label === undefined ? undefined : cleanLabel(patch.label);
  return inTransaction(db, () => {
    const current = requireTag(db, projectId, tagId);
    if (label !== undefined) ensureLabelFree(db, projectId, label, tagId);
    const updated: Tag = { ...current, label: label ?? current.label, theme: patch.theme ?? current.theme };
    store.updateTag(db, projectId, updated, Date.now());
    recordActivity(db, projectId, {
      action: "updated",
      entityType: "tag",
      entityId: tagId,
      metadata: { changes: Object.keys(patch) },
    });
    appendEvent(db, projectId, "tag.updated", updated);
    return updated;
  });
}

export function deleteTag(db: Db, projectId: string, tagId: string): void {
  inTransaction(db, () => {
    const tag = requireTag(db, projectId, tagId);
    store.deleteTag(db, projectId, tagId);
    recordActivity(db, projectId, {
      action: "deleted",
      entityType: "tag",
      entityId: tagId,
      metadata: { label: tag.label },
    });
    appendEvent(db, projectId, "tag.deleted", tag);
  });
}
