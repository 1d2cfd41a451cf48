import { recordActivity } from "../activity/service";
import { type Db, inTransaction } from "../db/connection";
import { appendEvent } from "../events/outbox";
import { notFound, validationError } from "../http/errors";
import { pagination, pageRequest } from "../http/paging";
import { updatePost } from "../posts/service";
import { type Release, type ReleaseCreate, type ReleaseUpdate, RELEASES_DEFAULT_LIMIT } from "./schema";
import * as store from "./store";
import type { ReleaseRow } from "./store";

/** Where a release comes from when it is not made now: an import keeps the exported times. */
export interface ReleaseOrigin {
  createdAt?: number;
  updatedAt?: number;
  publishedAt?: number | null;
  /**
   * Restored from an export: the release was published elsewhere, so creating it ships no posts (they
   * arrive with their own status and releaseId) and announces nothing.
   */
  restored?: boolean;
}

function requireReleaseRow(db: Db, projectId: string, releaseId: string): ReleaseRow {
  const row = store.findReleaseRow(db, projectId, releaseId);
  if (!row) throw notFound("RELEASE_NOT_FOUND");
  return row;
}

function withPostIds(db: Db, rows: ReleaseRow[]): Release[] {
  const postIds = store.postIdsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => store.toRelease(row, postIds.get(row.id) ?? []));
}

/** A release, draft or published. */
export function getRelease(db: Db, projectId: string, releaseId: string): Release {
  return withPostIds(db, [requireReleaseRow(db, projectId, releaseId)])[0]!;
}

/** The release a post shipped in, if it is published (a draft's posts have shipped nowhere yet). */
export function publishedRelease(
  db: Db,
  projectId: string,
  releaseId: string,
): { id: string; title: string; label: string | null; publishedAt: string } | null {
  const row = store.findReleaseRow(db, projectId, releaseId);
  if (!row || row.is_draft === 1 || row.published_at === null) return null;
  return {
    id: row.id,
    title: row.title,
    label: row.label,
    publishedAt: new Date(row.published_at).toISOString(),
  };
}

/** The changelog: published releases, newest publication first (drafts never appear). */
export function listPublishedReleases(db: Db, projectId: string, query: { page?: number; limit?: number }) {
  const page = pageRequest(query, RELEASES_DEFAULT_LIMIT);
  return {
    data: withPostIds(db, store.listPublishedRows(db, projectId, page.limit, page.offset)),
    pagination: pagination(page, store.countPublished(db, projectId)),
  };
}

/** Every release, drafts included, oldest first: what an export carries. */
export function listAllReleases(db: Db, projectId: string): Release[] {
  return withPostIds(db, store.listAllRows(db, projectId));
}

function cleanTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed === "") throw validationError("title", "must not be blank");
  return trimmed;
}

function requirePosts(db: Db, projectId: string, postIds: readonly string[]): void {
  if (postIds.length === 0) return;
  const found = store.existingPostIds(db, projectId, postIds);
  if (postIds.some((id) => !found.has(id))) throw notFound("POST_NOT_FOUND");
}

/**
 * How a publication tells people. The dashboard asks to email the subscribers of the requests it ships;
 * the REST API keeps the specification's fields, so its publications email nobody (docs/reporting.md).
 */
export interface PublishOptions {
  emailSubscribers?: boolean;
}

/**
 * A published release ships its posts: each becomes ARCHIVED with `releaseId` set, through the posts
 * service, so every post that changes gets its own activity and events. With `emailSubscribers`, each
 * post whose status changes emails its subscribers once, in this transaction, naming the release.
 */
function shipPosts(
  db: Db,
  projectId: string,
  release: Pick<ReleaseRow, "id" | "title" | "label">,
  postIds: readonly string[],
  publish: PublishOptions,
): void {
  for (const postId of postIds) {
    updatePost(
      db,
      projectId,
      postId,
      { status: "ARCHIVED", notify: publish.emailSubscribers === true },
      { releaseId: release.id, statusEmail: { shippedIn: { title: release.title, label: release.label } } },
    );
  }
}

/** Posts no longer listed by the release stop naming it; their status stays as it is. */
function unlinkPosts(db: Db, projectId: string, releaseId: string, keep: ReadonlySet<string>): void {
  for (const postId of store.postsCarrying(db, projectId, releaseId)) {
    if (!keep.has(postId)) updatePost(db, projectId, postId, {}, { releaseId: null });
  }
}

/** A publication: one activity entry (with what else the same change did) and one `release.published`. */
function announce(db: Db, projectId: string, release: Release, changes: string[] = []): void {
  recordActivity(db, projectId, {
    action: "published",
    entityType: "release",
    entityId: release.id,
    metadata: { title: release.title, label: release.label, changes },
  });
  appendEvent(db, projectId, "release.published", release);
}

export function createRelease(
  db: Db,
  projectId: string,
  input: ReleaseCreate,
  origin: ReleaseOrigin = {},
  publish: PublishOptions = {},
): Release {
  const title = cleanTitle(input.title);
  const postIds = input.postIds ?? [];
  return inTransaction(db, () => {
    requirePosts(db, projectId, postIds);
    const now = Date.now();
    const isDraft = input.isDraft ?? true;
    const createdAt = origin.createdAt ?? now;
    const row: ReleaseRow = {
      id: Bun.randomUUIDv7(),
      project_id: projectId,
      title,
      content: input.content ?? null,
      label: input.label ?? null,
      is_draft: isDraft ? 1 : 0,
      published_at: isDraft ? null : (origin.publishedAt ?? now),
      created_at: createdAt,
      updated_at: origin.updatedAt ?? createdAt,
    };
    store.insertRelease(db, row);
    store.replaceReleasePosts(db, row.id, postIds);
    recordActivity(db, projectId, {
      action: "created",
      entityType: "release",
      entityId: row.id,
      metadata: { title, isDraft },
    });
    if (!isDraft && !origin.restored) {
      shipPosts(db, projectId, row, postIds, publish);
      announce(db, projectId, getRelease(db, projectId, row.id));
    }
    return getRelease(db, projectId, row.id);
  });
}

/**
 * Applies a PATCH. `isDraft: false` on a draft publishes it (sets `publishedAt`, ships its posts, fires
 * `release.published` once); `isDraft: true` on a published release unpublishes it (clears
 * `publishedAt`; posts it shipped stay ARCHIVED). Republishing fires the event again: it is a new publication.
 */
export function updateRelease(
  db: Db,
  projectId: string,
  releaseId: string,
  patch: ReleaseUpdate,
  publish: PublishOptions = {},
): Release {
  const title = patch.title === undefined ? undefined : cleanTitle(patch.title);
  return inTransaction(db, () => {
    const before = requireReleaseRow(db, projectId, releaseId);
    const beforePostIds = store.postIdsOf(db, [releaseId]).get(releaseId) ?? [];
    if (patch.postIds !== undefined) requirePosts(db, projectId, patch.postIds);
    const now = Date.now();
    const after: ReleaseRow = {
      ...before,
      title: title ?? before.title,
      content: patch.content === undefined ? before.content : patch.content,
      label: patch.label === undefined ? before.label : patch.label,
    };
    const publishes = patch.isDraft === false && before.is_draft === 1;
    const unpublishes = patch.isDraft === true && before.is_draft === 0;
    if (publishes) Object.assign(after, { is_draft: 0, published_at: now });
    if (unpublishes) Object.assign(after, { is_draft: 1, published_at: null });

    const changes: string[] = (["title", "content", "label"] as const).filter(
      (field) => after[field] !== before[field],
    );
    if (publishes || unpublishes) changes.push("isDraft");
    const postIds = patch.postIds ?? beforePostIds;
    const postIdsChanged =
      patch.postIds !== undefined &&
      (postIds.length !== beforePostIds.length || postIds.some((id) => !beforePostIds.includes(id)));
    if (postIdsChanged) changes.push("postIds");
    if (changes.length === 0) return getRelease(db, projectId, releaseId);

    after.updated_at = now;
    store.updateReleaseRow(db, after);
    if (postIdsChanged) {
      store.replaceReleasePosts(db, releaseId, postIds);
      unlinkPosts(db, projectId, releaseId, new Set(postIds));
    }
    if (!publishes) {
      recordActivity(db, projectId, {
        action: unpublishes ? "unpublished" : "updated",
        entityType: "release",
        entityId: releaseId,
        metadata: { changes },
      });
    }
    // Publication ships every linked post; on a release already published, only the posts just added
    // (a shipped post later moved out of ARCHIVED is not pulled back by an edit of the release).
    if (publishes) shipPosts(db, projectId, after, postIds, publish);
    else if (after.is_draft === 0 && postIdsChanged) {
      shipPosts(
        db,
        projectId,
        after,
        postIds.filter((id) => !beforePostIds.includes(id)),
        publish,
      );
    }
    const release = getRelease(db, projectId, releaseId);
    if (publishes) announce(db, projectId, release, changes);
    return release;
  });
}

/** Deletes a release; the posts it shipped stay ARCHIVED but no longer name it. */
export function deleteRelease(db: Db, projectId: string, releaseId: string): void {
  inTransaction(db, () => {
    const row = requireReleaseRow(db, projectId, releaseId);
    unlinkPosts(db, projectId, releaseId, new Set());
    store.deleteReleaseRow(db, projectId, releaseId);
    recordActivity(db, projectId, {
      action: "deleted",
      entityType: "release",
      entityId: releaseId,
      metadata: { title: row.title },
    });
  });
}
