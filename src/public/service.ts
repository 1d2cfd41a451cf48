import { createPublicComment, listThread } from "../comments/service";
import type { ThreadComment } from "../comments/schema";
import type { Db } from "../db/connection";
import { ApiError, notFound, validationError } from "../http/errors";
import { pageRequest, pagination, type Pagination } from "../http/paging";
import { type PostWithTags, VISIBLE_STATUSES, type VisibleStatus } from "../posts/schema";
import {
  countVisibleByStatus,
  countVisiblePosts,
  findPostRow,
  listVisiblePostsWithTags,
  searchWords,
  submitPost,
  type VisibleFilter,
  withTags,
} from "../posts/service";
import type { PostRow, SubmissionCaller } from "../posts/service";
import type { Project } from "../projects/schema";
import { authenticateKey, requireProjectBySlug } from "../projects/service";
import type { Release } from "../releases/schema";
import { listPublishedReleases, publishedRelease } from "../releases/service";
import type {
  PublicBoard,
  PublicComment,
  PublicCommentBody,
  PublicPost,
  PublicPostDetail,
  PublicPostsQueryInput,
  PublicRelease,
  PublicRoadmap,
  PublicSubmit,
} from "./schema";
import { PUBLIC_POSTS_DEFAULT_LIMIT } from "./schema";

/** The board page of a project: `{public_url}/b/{slug}`. */
export function boardUrl(publicUrl: string, slug: string): string {
  return `${publicUrl}/b/${encodeURIComponent(slug)}`;
}

// ---- which project, and may the public see it ----

function boardNotPublic(slug: string): ApiError {
  return new ApiError(
    "BOARD_NOT_PUBLIC",
    `The board '${slug}' is private`,
    "Only public boards answer without a key; use the REST API with a secret key of the project.",
  );
}

function notPublishableKey(): ApiError {
  return new ApiError(
    "INVALID_API_KEY",
    "X-Publishable-Key is not an active publishable key",
    "Send the project's pk_ key (never a secret sk_ key in a web page), or create one with: featureboard keys create --project <slug> --kind publishable",
  );
}

export interface PublicProjectSource {
  /** From the path (`/boards/{slug}`) or the body (`projectSlug`). */
  slug?: string | undefined;
  /** The `X-Publishable-Key` header of the widget. */
  publishableKey?: string | null | undefined;
}

/**
 * The project a public request addresses: by slug, or by the widget's publishable key (both may be sent
 * when they agree). Unknown slug → 404 PROJECT_NOT_FOUND; private board → 403 BOARD_NOT_PUBLIC.
 */
export function resolvePublicProject(db: Db, source: PublicProjectSource): Project {
  let project: Project;
  if (source.publishableKey) {
    const authenticated = authenticateKey(db, source.publishableKey);
    if (authenticated?.kind !== "publishable") throw notPublishableKey();
    project = authenticated.project;
    if (source.slug !== undefined && source.slug !== project.slug) {
      throw validationError(
        "projectSlug",
        `does not match the project of X-Publishable-Key ('${project.slug}')`,
      );
    }
  } else {
    if (source.slug === undefined)
      throw validationError("projectSlug", "is required unless X-Publishable-Key is sent");
    project = requireProjectBySlug(db, source.slug);
  }
  if (!project.isPublic) throw boardNotPublic(project.slug);
  return project;
}

/** A public board by slug; what every `/api/public/boards/{slug}` route starts from. */
export function requirePublicBoard(db: Db, slug: string): Project {
  return resolvePublicProject(db, { slug });
}

// ---- mapping to public shapes: field by field, so nothing private can ride along ----

export function toPublicPost(post: PostWithTags): PublicPost {
  return {
    id: post.id,
    title: post.title,
    description: post.description,
    status: post.status,
    voteCount: post.voteCount,
    tags: post.tags.map((tag) => ({ id: tag.id, label: tag.label, theme: tag.theme })),
    createdAt: post.createdAt,
    updatedAt: post.updatedAt,
  };
}

export function toPublicComment(comment: ThreadComment): PublicComment {
  return {
    id: comment.id,
    postId: comment.postId,
    body: comment.body,
    authorName: comment.authorName,
    isTeamReply: comment.isTeamReply,
    createdAt: comment.createdAt,
  };
}

export function toPublicRelease(release: Release): PublicRelease {
  return {
    id: release.id,
    title: release.title,
    content: release.content,
    label: release.label,
    // Only published releases reach the public, so the date is always there.
    publishedAt: release.publishedAt ?? release.updatedAt,
    postIds: release.postIds,
  };
}

// ---- reading ----

export function getBoard(db: Db, project: Project, publicUrl: string): PublicBoard {
  const counts = countVisibleByStatus(db, project.id);
  return {
    slug: project.slug,
    name: project.name,
    boardUrl: boardUrl(publicUrl, project.slug),
    accentColor: project.accentColor,
    logoUrl: project.logoVersion
      ? `${boardUrl(publicUrl, project.slug)}/logo?v=${project.logoVersion}`
      : null,
    counts: {
      posts: counts.APPROVED + counts.IN_PROGRESS + counts.COMPLETE,
      approved: counts.APPROVED,
      in_progress: counts.IN_PROGRESS,
      complete: counts.COMPLETE,
    },
  };
}

export interface PublicPostList {
  data: PublicPost[];
  pagination: Pagination;
}

/**
 * The board's visible posts (APPROVED, IN_PROGRESS, COMPLETE): by votes (default) or date, searchable;
 * `tagId` narrows them to one tag (the board pages' filter).
 */
export function listVisiblePosts(
  db: Db,
  projectId: string,
  query: PublicPostsQueryInput,
  tagId?: string,
): PublicPostList {
  const filter: VisibleFilter = {
    projectId,
    statuses: query.status ? [query.status] : VISIBLE_STATUSES,
    words: searchWords(query.q),
    tagId,
  };
  const page = pageRequest(query, PUBLIC_POSTS_DEFAULT_LIMIT);
  const posts = listVisiblePostsWithTags(db, filter, query.sort ?? "votes", page.limit, page.offset);
  return {
    data: posts.map(toPublicPost),
    pagination: pagination(page, countVisiblePosts(db, filter)),
  };
}

/**
 * A post the public may reach by id. PENDING posts are not moderated yet, so they answer like unknown
 * ones; closed and archived posts stay reachable (links to them live on).
 */
function requirePublicPostRow(db: Db, projectId: string, postId: string): PostRow {
  const row = findPostRow(db, projectId, postId);
  if (!row || row.status === "PENDING") throw notFound("POST_NOT_FOUND", "board");
  return row;
}

export function getPublicPost(db: Db, projectId: string, postId: string): PublicPostDetail {
  const row = requirePublicPostRow(db, projectId, postId);
  const post = toPublicPost(withTags(db, [row])[0]!);
  // A merged post points to the one it went into, when that one is public (not still PENDING).
  const target = row.merged_into_id === null ? null : findPostRow(db, projectId, row.merged_into_id);
  return {
    ...post,
    comments: listThread(db, projectId, postId, "public").map(toPublicComment),
    mergedInto: target && target.status !== "PENDING" ? { id: target.id, title: target.title } : null,
    shippedIn: row.release_id === null ? null : publishedRelease(db, projectId, row.release_id),
  };
}

/** APPROVED, IN_PROGRESS and COMPLETE posts, each column by votes. */
export function getPublicRoadmap(db: Db, projectId: string, perColumn = 100): PublicRoadmap {
  const column = (status: VisibleStatus) =>
    listVisiblePostsWithTags(db, { projectId, statuses: [status], words: [] }, "votes", perColumn, 0).map(
      toPublicPost,
    );
  return { approved: column("APPROVED"), in_progress: column("IN_PROGRESS"), complete: column("COMPLETE") };
}

/** The changelog: published releases only, newest first (default 20 a page). */
export function getPublicChangelog(
  db: Db,
  projectId: string,
  query: { page?: number; limit?: number },
): { data: PublicRelease[]; pagination: Pagination } {
  const list = listPublishedReleases(db, projectId, query);
  return { data: list.data.map(toPublicRelease), pagination: list.pagination };
}

// ---- writing ----

/** A public submission, in the public shape (posts/service holds the rules). */
export function submitPublicPost(
  db: Db,
  project: Project,
  input: PublicSubmit,
  /** "team" only for the MCP tool called with a secret key (posts/service submitPost). */
  caller: SubmissionCaller = "keyless",
): PublicPost {
  return toPublicPost({ ...submitPost(db, project.id, input, caller), tags: [], issueLinks: [] });
}

/** A public comment, in the public shape (comments/service holds the rules). */
export function commentPublic(
  db: Db,
  projectId: string,
  postId: string,
  input: PublicCommentBody,
): PublicComment {
  // Written through the public API, so never by the team.
  return toPublicComment({ ...createPublicComment(db, projectId, postId, input), isTeamReply: false });
}
