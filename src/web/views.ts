import { publicCommentCounts } from "../comments/service";
import type { Db } from "../db/connection";
import { ApiError } from "../http/errors";
import { MAX_PAGE } from "../http/paging";
import type { Project } from "../projects/schema";
import type { PublicPost } from "../public/schema";
import { isVisibleStatus, type VisibleStatus } from "../posts/schema";
import { publicTitlesOf } from "../posts/service";
import {
  getBoard,
  getPublicPost,
  getPublicRoadmap,
  listVisiblePosts,
  requirePublicBoard,
} from "../public/service";
import { listPublishedReleases } from "../releases/service";
import { listTags } from "../tags/service";
import type { BoardRef } from "./layout";
import type {
  BoardPageView,
  BoardQuery,
  ChangelogPageView,
  PageInfo,
  PostPageView,
  PostView,
  ReleaseView,
  RoadmapPageView,
  ShownStatus,
} from "./pages";

/**
 * Loaders: each page's view, read in-process through the public API's service functions, so a page
 * shows exactly what the public API would answer.
 */

/** A page that must answer 404: unknown board, private board, unknown or unlisted post. */
export class PageNotFound extends Error {}

export interface Board extends BoardRef {
  project: Project;
}

export const BOARD_PAGE_SIZE = 20;
export const COMMENT_PAGE_SIZE = 20;
export const ROADMAP_COLUMN_SIZE = 50;
export const CHANGELOG_PAGE_SIZE = 10;
export const FEED_SIZE = 20;

/**
 * A private board is answered exactly like one that does not exist (the public API's 403 and 404 both
 * become the one 404 page), so a page shows nothing of a private board, not even that it exists.
 */
export function requireBoard(db: Db, slug: string): Board {
  try {
    const project = requirePublicBoard(db, slug);
    return {
      project,
      slug: project.slug,
      name: project.name,
      accentColor: project.accentColor,
      logoVersion: project.logoVersion,
    };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.code === "BOARD_NOT_PUBLIC"))
      throw new PageNotFound();
    throw error;
  }
}

type RawQuery = Record<string, string | undefined>;

function pageNumber(raw: string | undefined): number {
  const page = Number(raw);
  return Number.isSafeInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1;
}

/** Page URLs are typed by people and shared around: odd values fall back to defaults instead of failing. */
export function cleanBoardQuery(raw: RawQuery): BoardQuery {
  const status = raw.status?.toUpperCase() ?? "";
  return {
    sort: raw.sort === "new" ? "new" : "votes",
    status: isVisibleStatus(status) ? status : null,
    tagId: raw.tag ? raw.tag.slice(0, 64) : null,
    q: (raw.q ?? "").trim().slice(0, 200),
    page: pageNumber(raw.page),
  };
}

function pageInfo(page: number, limit: number, total: number): PageInfo {
  return { page, total, totalPages: Math.ceil(total / limit) };
}

function toPostView(post: PublicPost, commentCount = 0): PostView {
  return {
    id: post.id,
    title: post.title,
    description: post.description,
    // The public API never answers a PENDING post.
    status: post.status as ShownStatus,
    voteCount: post.voteCount,
    createdAt: post.createdAt,
    tags: post.tags.map(({ id, label }) => ({ id, label })),
    commentCount,
  };
}

export function loadBoardPage(db: Db, board: Board, raw: RawQuery): BoardPageView {
  const projectId = board.project.id;
  const tags = listTags(db, projectId).map(({ id, label }) => ({ id, label }));
  const cleaned = cleanBoardQuery(raw);
  // A link naming a tag that does not exist (or no longer does) falls back to all tags, as the Tag select
  // then shows, instead of an empty board (docs/web.md, "Lenient query strings").
  const query = tags.some((tag) => tag.id === cleaned.tagId) ? cleaned : { ...cleaned, tagId: null };
  const listing = {
    sort: query.sort === "new" ? ("date" as const) : ("votes" as const),
    page: query.page,
    limit: BOARD_PAGE_SIZE,
    ...(query.status ? { status: query.status } : {}),
    ...(query.q ? { q: query.q } : {}),
  };
  const list = listVisiblePosts(db, projectId, listing, query.tagId ?? undefined);
  const posts = list.data;
  const total = list.pagination.total;
  const commentCounts = publicCommentCounts(
    db,
    posts.map((post) => post.id),
  );
  return {
    board,
    posts: posts.map((post) => toPostView(post, commentCounts.get(post.id) ?? 0)),
    tags,
    query,
    pages: pageInfo(query.page, BOARD_PAGE_SIZE, total),
  };
}

/** The post as the public API shows it: pending posts (and other projects' posts) answer 404. */
export function loadPostPage(db: Db, board: Board, postId: string, raw: RawQuery): PostPageView {
  let detail;
  try {
    detail = getPublicPost(db, board.project.id, postId);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw new PageNotFound();
    throw error;
  }
  const page = pageNumber(raw.page);
  return {
    board,
    post: toPostView(detail),
    mergedInto: detail.mergedInto,
    shippedIn: detail.shippedIn,
    comments: detail.comments
      .slice((page - 1) * COMMENT_PAGE_SIZE, page * COMMENT_PAGE_SIZE)
      .map(({ id, body, authorName, isTeamReply, createdAt }) => ({
        id,
        body,
        authorName,
        isTeamReply,
        createdAt,
      })),
    commentPages: pageInfo(page, COMMENT_PAGE_SIZE, detail.comments.length),
  };
}

export function loadRoadmapPage(db: Db, board: Board, publicUrl: string): RoadmapPageView {
  const roadmap = getPublicRoadmap(db, board.project.id, ROADMAP_COLUMN_SIZE);
  const { counts } = getBoard(db, board.project, publicUrl);
  const column = (status: VisibleStatus, posts: PublicPost[], count: number) => ({
    status,
    posts: posts.map((post) => toPostView(post)),
    more: Math.max(0, count - posts.length),
  });
  return {
    board,
    columns: [
      column("APPROVED", roadmap.approved, counts.approved),
      column("IN_PROGRESS", roadmap.in_progress, counts.in_progress),
      column("COMPLETE", roadmap.complete, counts.complete),
    ],
  };
}

function releaseViews(db: Db, board: Board, page: number, limit: number) {
  const { data, pagination } = listPublishedReleases(db, board.project.id, { page, limit });
  const titles = publicTitlesOf(
    db,
    board.project.id,
    data.flatMap((release) => release.postIds),
  );
  const releases: ReleaseView[] = data.map((release) => ({
    id: release.id,
    title: release.title,
    label: release.label,
    content: release.content,
    // Listed releases are published, so they carry a publication time.
    publishedAt: release.publishedAt ?? release.updatedAt,
    updatedAt: release.updatedAt,
    shipped: release.postIds.flatMap((id) => {
      const title = titles.get(id);
      return title === undefined ? [] : [{ id, title }];
    }),
  }));
  return { releases, pages: { page, total: pagination.total, totalPages: pagination.totalPages } };
}

export function loadChangelogPage(db: Db, board: Board, raw: RawQuery): ChangelogPageView {
  return { board, ...releaseViews(db, board, pageNumber(raw.page), CHANGELOG_PAGE_SIZE) };
}

export function loadFeedReleases(db: Db, board: Board): ReleaseView[] {
  return releaseViews(db, board, 1, FEED_SIZE).releases;
}
