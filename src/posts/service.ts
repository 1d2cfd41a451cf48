import { recordActivity } from "../activity/service";
import { embedPost, forgetPost } from "../ai/embeddings";
import { type Db, inTransaction } from "../db/connection";
import {
  keepUnsubscribesThroughMerge,
  queueStatusEmails,
  type StatusChange,
  subscribeToPost,
} from "../email/service";
import { askToFollow, requestEmailConfirmation } from "../email/confirmation";
import { appendEvent } from "../events/outbox";
import { MAX_JSON_DEPTH } from "../http/body";
import { ApiError, BODY_ERROR_PREFIX, bodyError, notFound, validationError } from "../http/errors";
import { requireValid } from "../http/validation-message";
import { issueLinksOfPosts } from "../integrations/service";
import { formatCents } from "../users/money";
import { findUserIdByEmail, requireUserRow, upsertUserByEmail } from "../users/service";
import {
  BulkItemSchema,
  DELETED_DEFAULT_LIMIT,
  isVisibleStatus,
  type VisibleStatus,
  type BulkResult,
  type BulkUpdate,
  type IssueLink,
  type Metadata,
  type Post,
  type PostCreate,
  type PostStatus,
  type PostUpdate,
  type PostWithTags,
} from "./schema";
import * as store from "./store";
import type { PostRow } from "./store";

const MAX_METADATA_BYTES = 64 * 1024;

export function requirePostRow(db: Db, projectId: string, postId: string): PostRow {
  const row = store.findPostRow(db, projectId, postId);
  if (!row) throw notFound("POST_NOT_FOUND");
  return row;
}

/**
 * A post that takes new votes and comments: not one merged into another, whose votes and comments moved to
 * that post (docs/decisions.md, "Posts"). A vote there would count the same voter twice.
 */
export function requireUnmergedPostRow(db: Db, projectId: string, postId: string): PostRow {
  const row = requirePostRow(db, projectId, postId);
  if (row.merged_into_id !== null) {
    throw validationError(
      "postId",
      `this post was merged into ${row.merged_into_id}; vote and comment on that one`,
    );
  }
  return row;
}

/** Posts as GET and lists show them: with their tags and issue links, two queries per page. */
/** The post, or null when this project has no post with that id (callers decide what that answers). */
export function findPostRow(db: Db, projectId: string, postId: string): PostRow | null {
  return store.findPostRow(db, projectId, postId);
}

/**
 * A post the public may act on (vote, comment): a listed one only. Closed, archived and PENDING posts answer
 * 404 POST_NOT_FOUND like an unknown post, so a write reveals nothing about posts the board does not list.
 */
export function requireListedPostRow(db: Db, projectId: string, postId: string): PostRow {
  const row = store.findPostRow(db, projectId, postId);
  if (!row || !isVisibleStatus(row.status)) throw notFound("POST_NOT_FOUND", "board");
  return row;
}

export type { TeamFilter, TeamSort, VisibleFilter, VisibleSort } from "./store";
/** Titles of posts a public page may name (not PENDING): the changelog's shipped requests. */
export { publicTitlesOf, teamTitlesOf } from "./store";
export { listPostRows, recountVotes, tagsOfPosts, toPost, type PostRow } from "./store";

/** One page of a board's visible posts with their tags (public API, board pages, MCP public tools). */
export function listVisiblePostsWithTags(
  db: Db,
  filter: store.VisibleFilter,
  sort: store.VisibleSort,
  limit: number,
  offset: number,
): PostWithTags[] {
  return withTags(db, store.listVisiblePostRows(db, filter, sort, limit, offset));
}

/** A search box's text as the words a listing matches, each on its own (board pages, public API, dashboard). */
export function searchWords(text: string | undefined): string[] {
  return (text ?? "").split(/\s+/).filter((word) => word !== "");
}

/** A request as the dashboard's table lists it: with its tags and its voters' monthly spend. */
export interface TeamPost extends PostWithTags {
  voterSpend: string;
}

export const TEAM_PAGE_SIZE = 50;

/**
 * The team's listing of every request (the dashboard's requests table): any status, searchable, by tag,
 * only those with paying voters, sorted by votes, voters' revenue or newest.
 */
export function listTeamPosts(
  db: Db,
  filter: store.TeamFilter,
  sort: store.TeamSort,
  page: number,
): { data: TeamPost[]; total: number } {
  const rows = store.listTeamPostRows(db, filter, sort, TEAM_PAGE_SIZE, (page - 1) * TEAM_PAGE_SIZE);
  const posts = withTags(db, rows);
  return {
    data: posts.map((post, index) => ({ ...post, voterSpend: formatCents(rows[index]!.revenue_cents) })),
    total: store.countTeamPosts(db, filter),
  };
}

export function countVisiblePosts(db: Db, filter: store.VisibleFilter): number {
  return store.countVisiblePosts(db, filter);
}

export function countByStatus(db: Db, projectId: string): Record<PostStatus, number> {
  return store.countByStatus(db, projectId);
}

export function countVisibleByStatus(db: Db, projectId: string): Record<VisibleStatus, number> {
  return store.countVisibleByStatus(db, projectId);
}

export function withTags(db: Db, rows: PostRow[]): PostWithTags[] {
  const ids = rows.map((row) => row.id);
  const tags = store.tagsOfPosts(db, ids);
  const links = issueLinksOfPosts(db, ids);
  return rows.map((row) => ({
    ...store.toPost(row),
    tags: tags.get(row.id) ?? [],
    issueLinks: links.get(row.id) ?? [],
  }));
}

/** A post as webhook payloads carry it: with its issue links, so a receiver learns them on the next event. */
function eventPost(db: Db, post: Post): Post & { issueLinks: IssueLink[] } {
  return { ...post, issueLinks: issueLinksOfPosts(db, [post.id]).get(post.id) ?? [] };
}

export function getPost(db: Db, projectId: string, postId: string): PostWithTags {
  return withTags(db, [requirePostRow(db, projectId, postId)])[0]!;
}

function cleanTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed === "") throw validationError("title", "must not be blank");
  return trimmed;
}

/**
 * Refuses metadata no surface could hand back: nested deeper than a request body may be (every surface's
 * rule, src/http/body.ts; JSON.stringify of a deep enough value exhausts the stack), or holding a number
 * JSON cannot write (1e400 parses as Infinity and would be stored as null). Walked with a stack of its
 * own, not by recursion.
 */
function checkMetadataValue(metadata: NonNullable<Metadata>): void {
  const pending: { value: unknown; depth: number }[] = [{ value: metadata, depth: 1 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, depth } = next;
    if (typeof value === "number" && !Number.isFinite(value)) {
      throw validationError("metadata", "must hold finite numbers only");
    }
    if (typeof value !== "object" || value === null) continue;
    if (depth > MAX_JSON_DEPTH) {
      throw validationError(
        "metadata",
        `must not nest arrays or objects deeper than ${MAX_JSON_DEPTH} levels`,
      );
    }
    for (const child of Object.values(value)) pending.push({ value: child, depth: depth + 1 });
  }
}

function serializeMetadata(metadata: Metadata): string | null {
  if (metadata === null) return null;
  checkMetadataValue(metadata);
  const json = JSON.stringify(metadata);
  if (json.length > MAX_METADATA_BYTES) throw validationError("metadata", "must be at most 64 KiB as JSON");
  return json;
}

function requireTags(db: Db, projectId: string, tagIds: readonly string[]): void {
  if (tagIds.length === 0) return;
  const found = store.existingTagIds(db, projectId, tagIds);
  if (tagIds.some((id) => !found.has(id))) throw notFound("TAG_NOT_FOUND");
}

/** When a post is not made now: an import keeps the times it had where it came from. */
export interface PostOrigin {
  createdAt?: number;
  updatedAt?: number;
}

export function createPost(db: Db, projectId: string, input: PostCreate, origin: PostOrigin = {}): Post {
  const title = cleanTitle(input.title);
  const metadata = serializeMetadata(input.metadata ?? null);
  const tagIds = input.tagIds ?? [];
  return inTransaction(db, () => {
    requireTags(db, projectId, tagIds);
    const author = input.createdByBoardUserId ?? null;
    if (author !== null) requireUserRow(db, projectId, author);
    const now = origin.createdAt ?? Date.now();
    const row: PostRow = {
      id: Bun.randomUUIDv7(),
      project_id: projectId,
      title,
      description: input.description ?? null,
      status: input.status ?? "PENDING",
      vote_count: 0,
      metadata,
      created_by_board_user_id: author,
      release_id: null,
      merged_into_id: null,
      created_at: now,
      updated_at: origin.updatedAt ?? now,
    };
    store.insertPost(db, row);
    embedPost(db, projectId, row.id);
    store.replacePostTags(db, row.id, tagIds);
    if (author !== null) subscribeToPost(db, row.id, author, now);
    const post = store.toPost(row);
    recordActivity(db, projectId, {
      action: "created",
      entityType: "post",
      entityId: row.id,
      metadata: { title },
    });
    appendEvent(db, projectId, "post.created", { ...post, issueLinks: [] });
    return post;
  });
}

const EDITABLE_FIELDS = ["title", "description", "status", "tagIds", "metadata"] as const;

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  const sorted = [...b].sort();
  return a.length === b.length && [...a].sort().every((id, index) => id === sorted[index]);
}

/**
 * Applies a PATCH to one post inside the caller's transaction: validates everything first, then writes
 * every field at once. Activity and events follow actual changes only: `post.updated` when a field other
 * than status changed, `post.status_changed` when the status did.
 */
function applyUpdate(
  db: Db,
  projectId: string,
  postId: string,
  patch: PostUpdate,
  options: UpdateOptions = {},
): { post: Post; changed: boolean } {
  if (options.releaseId === undefined && !EDITABLE_FIELDS.some((field) => patch[field] !== undefined)) {
    throw bodyError(`needs at least one of ${EDITABLE_FIELDS.join(", ")}; notify alone changes nothing`);
  }
  const before = requirePostRow(db, projectId, postId);
  const after: PostRow = { ...before };
  const changes: string[] = [];

  if (patch.title !== undefined) after.title = cleanTitle(patch.title);
  if (patch.description !== undefined) after.description = patch.description;
  if (patch.metadata !== undefined) after.metadata = serializeMetadata(patch.metadata);
  for (const [field, column] of [
    ["title", "title"],
    ["description", "description"],
    ["metadata", "metadata"],
  ] as const) {
    if (after[column] !== before[column]) changes.push(field);
  }

  let tagsChanged = false;
  if (patch.tagIds !== undefined) {
    requireTags(db, projectId, patch.tagIds);
    tagsChanged = !sameIds(store.tagIdsOfPost(db, postId), patch.tagIds);
    if (tagsChanged) changes.push("tagIds");
  }

  const previousStatus = before.status;
  const statusChanged = patch.status !== undefined && patch.status !== previousStatus;
  if (statusChanged) {
    after.status = patch.status as PostStatus;
    // Leaving ARCHIVED unlinks the post from the release that shipped it.
    if (previousStatus === "ARCHIVED") after.release_id = null;
    // A merged post reopened is a request of its own again (its votes stayed with the other post), so it
    // takes votes and can be merged again (docs/decisions.md, "Posts").
    if (previousStatus === "CLOSED") after.merged_into_id = null;
  }
  // Only an ARCHIVED post carries the release that shipped it.
  if (options.releaseId !== undefined && after.status === "ARCHIVED") after.release_id = options.releaseId;
  if (after.release_id !== before.release_id && !statusChanged) changes.push("releaseId");

  if (changes.length === 0 && !statusChanged) return { post: store.toPost(before), changed: false };

  const now = Date.now();
  after.updated_at = now;
  store.updatePostRow(db, after);
  if (changes.includes("title") || changes.includes("description")) embedPost(db, projectId, postId);
  if (tagsChanged) store.replacePostTags(db, postId, patch.tagIds ?? []);
  const post = store.toPost(after);

  if (changes.length > 0) {
    recordActivity(db, projectId, {
      action: "updated",
      entityType: "post",
      entityId: postId,
      metadata: { changes },
    });
    appendEvent(db, projectId, "post.updated", eventPost(db, post));
  }
  if (statusChanged) {
    recordActivity(db, projectId, {
      action: "status_changed",
      entityType: "post",
      entityId: postId,
      metadata: { from: previousStatus, to: after.status, notify: patch.notify === true },
    });
    appendEvent(db, projectId, "post.status_changed", {
      post: eventPost(db, post),
      previousStatus,
      status: after.status,
    });
    if (patch.notify === true) {
      queueStatusEmails(
        db,
        projectId,
        { post, previousStatus, status: after.status, ...options.statusEmail },
        now,
      );
    }
  }
  return { post, changed: true };
}

/** Internal to featureboard, never from a client: releases set `releaseId` as they archive shipped posts. */
export interface UpdateOptions {
  releaseId?: string | null;
  /**
   * What the status email (`notify: true`) says besides the change: the release that shipped the post, or
   * a team member's message to its subscribers (docs/payments-and-email.md).
   */
  statusEmail?: Pick<StatusChange, "shippedIn" | "message">;
}

export function updatePost(
  db: Db,
  projectId: string,
  postId: string,
  patch: PostUpdate,
  options: UpdateOptions = {},
): Post {
  return inTransaction(db, () => applyUpdate(db, projectId, postId, patch, options).post);
}

function itemId(item: Record<string, unknown>): string | null {
  return typeof item.id === "string" ? item.id : null;
}

/**
 * Each item is checked and applied on its own, in its own transaction: an item that breaks a field rule,
 * names an unknown post or tag, or fails otherwise becomes that item's error; the others are applied.
 */
export function bulkUpdatePosts(db: Db, projectId: string, items: BulkUpdate["items"]): BulkResult[] {
  return items.map((item, index) => {
    try {
      const { id, ...patch } = requireValid(BulkItemSchema, item, "item");
      const { post, changed } = inTransaction(db, () => applyUpdate(db, projectId, id, patch));
      return { index, id, status: changed ? "updated" : "unchanged", data: post };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const id = itemId(item);
      // One item of the body: what refuses a whole body refuses this item.
      const message = error.message.replace(BODY_ERROR_PREFIX, "Invalid item:");
      return { index, id, status: "error", error: { error_code: error.code, message } };
    }
  });
}

export function deletePost(db: Db, projectId: string, postId: string): void {
  inTransaction(db, () => {
    const row = requirePostRow(db, projectId, postId);
    const post = withTags(db, [row])[0]!;
    // Votes, comments, tag links and subscribers go with it (ON DELETE CASCADE); its vector does not.
    forgetPost(db, postId);
    store.deletePostRow(db, projectId, postId);
    store.insertTombstone(db, projectId, postId, Date.now());
    recordActivity(db, projectId, {
      action: "deleted",
      entityType: "post",
      entityId: postId,
      metadata: { title: row.title },
    });
    appendEvent(db, projectId, "post.deleted", post);
  });
}

/**
 * Merges a duplicate into another post (docs/decisions.md, "Posts"): its votes (a voter who voted on both keeps one),
 * comments and subscribers move to the target (less those who unsubscribed from the source), and the source
 * is CLOSED with `mergedIntoId`. Atomic.
 */
export function mergePosts(db: Db, projectId: string, sourceId: string, intoId: string) {
  if (sourceId === intoId) throw validationError("intoPostId", "must be another post than the one merged");
  return inTransaction(db, () => {
    const source = requirePostRow(db, projectId, sourceId);
    const target = requirePostRow(db, projectId, intoId);
    if (source.merged_into_id !== null) {
      throw validationError("postId", `this post was already merged into ${source.merged_into_id}`);
    }
    if (target.merged_into_id !== null) {
      throw validationError(
        "intoPostId",
        `that post was merged into ${target.merged_into_id}; merge into that one`,
      );
    }
    keepUnsubscribesThroughMerge(db, sourceId, intoId, Date.now());
    const moved = store.moveEngagement(db, sourceId, intoId);
    forgetPost(db, sourceId);
    store.updatePostRow(db, {
      ...source,
      status: "CLOSED",
      merged_into_id: intoId,
      release_id: null,
      updated_at: Date.now(),
    });
    const post = store.toPost(requirePostRow(db, projectId, sourceId));
    const into = store.toPost(requirePostRow(db, projectId, intoId));
    recordActivity(db, projectId, {
      action: "merged",
      entityType: "post",
      entityId: sourceId,
      metadata: { intoPostId: intoId, ...moved },
    });
    // The target's own history shows what it received (its votes changed without a vote of its own).
    recordActivity(db, projectId, {
      action: "merge_received",
      entityType: "post",
      entityId: intoId,
      metadata: { fromPostId: sourceId, ...moved },
    });
    appendEvent(db, projectId, "post.merged", {
      post: eventPost(db, post),
      into: eventPost(db, into),
      ...moved,
    });
    return { post, into, ...moved };
  });
}

export function listDeletedPosts(db: Db, projectId: string, query: { since?: string; limit?: number }) {
  const since = query.since === undefined ? 0 : Date.parse(query.since);
  return store.listTombstones(db, projectId, since, query.limit ?? DELETED_DEFAULT_LIMIT);
}

/** A request submitted on the public board (public API, widget, MCP public tools). */
export interface Submission {
  title: string;
  description?: string | null | undefined;
  metadata?: Metadata | undefined;
  email?: string | undefined;
  name?: string | undefined;
}

/**
 * Who submits: "keyless" (public API, board pages, widget, public MCP): a new author's email is unconfirmed
 * and gets its confirmation mail; "team" (MCP with a secret key): the team's own data, confirmed
 * (docs/payments-and-email.md, "Confirming an email").
 */
export type SubmissionCaller = "keyless" | "team";

/**
 * A public submission: always PENDING, so it is listed only once the team approves it. An email new to the
 * project names its author (a board user made for it, subscribed to the request). An email a board user
 * already has is not used, as for public votes (docs/public-api.md): the public API cannot prove who owns
 * it, and a request filed in a big customer's name would weigh their revenue and subscribe them.
 */
export function submitPost(
  db: Db,
  projectId: string,
  input: Submission,
  caller: SubmissionCaller = "keyless",
): Post {
  return inTransaction(db, () => {
    const keyless = caller === "keyless";
    const author =
      input.email === undefined || findUserIdByEmail(db, projectId, input.email) !== null
        ? null
        : upsertUserByEmail(
            db,
            projectId,
            { email: input.email, ...(input.name ? { name: input.name } : {}) },
            { keyless },
          ).user;
    const post = createPost(db, projectId, {
      title: input.title,
      status: "PENDING",
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
      ...(author !== null ? { createdByBoardUserId: author.id } : {}),
    });
    if (keyless && author?.email) {
      const unconfirmed = { boardUserId: author.id, email: author.email, name: author.name, post };
      requestEmailConfirmation(db, projectId, unconfirmed, Date.now());
    } else if (keyless && author === null && input.email !== undefined) {
      // A known address: the request stays anonymous, and its owner is asked by mail whether to hear about it.
      askToFollow(db, projectId, { email: input.email, post }, Date.now());
    }
    return post;
  });
}
