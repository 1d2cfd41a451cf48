import { commentsOfPost } from "../comments/store";
import type { Db } from "../db/connection";
import { iso } from "../db/time";
import { findPostRow, tagsOfPosts } from "../posts/store";
import { findProjectBySlug } from "../projects/store";
import { listPublishedReleases } from "../releases/service";
import { listTags } from "../tags/store";
import type { BoardRef } from "./layout";
import {
  type BoardPageView,
  type BoardQuery,
  type ChangelogPageView,
  type PageInfo,
  type PostPageView,
  type PostView,
  type ReleaseView,
  type RoadmapPageView,
  VISIBLE_STATUSES,
  type VisibleStatus,
} from "./pages";
import { type BoardPostRow, listBoardPosts } from "./store";

/** A page that must answer 404: unknown board, private board, unknown or hidden post. */
export class PageNotFound extends Error {}

export interface Board extends BoardRef {
  projectId: string;
}

export const BOARD_PAGE_SIZE = 20;
export const COMMENT_PAGE_SIZE = 20;
export const ROADMAP_COLUMN_SIZE = 50;
export const CHANGELOG_PAGE_SIZE = 10;
export const FEED_SIZE = 20;

/** A private board is answered exactly like one that does not exist: nothing of it shows. */
export function requirePublicBoard(db: Db, slug: string): Board {
  const project = findProjectBySlug(db, slug);
  if (!project?.isPublic) throw new PageNotFound();
  return { projectId: project.id, slug: project.slug, name: project.name };
}

function isVisible(status: string): status is VisibleStatus {
  return (VISIBLE_STATUSES as readonly string[]).includes(status);
}

type RawQuery = Record<string, string | undefined>;

function pageNumber(raw: string | undefined): number {
  const page = Number(raw);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/** Page URLs are typed by people and shared around: odd values fall back to defaults instead of failing. */
export function cleanBoardQuery(raw: RawQuery): BoardQuery {
  const status = raw.status?.toUpperCase() ?? "";
  return {
    sort: raw.sort === "new" ? "new" : "votes",
    status: isVisible(status) ? status : null,
    tagId: raw.tag ? raw.tag.slice(0, 64) : null,
    q: (raw.q ?? "").trim().slice(0, 200),
    page: pageNumber(raw.page),
  };
}

function pageInfo(page: number, limit: number, total: number): PageInfo {
  return { page, total, totalPages: Math.ceil(total / limit) };
}

function toPostViews(db: Db, rows: BoardPostRow[]): PostView[] {
  const tags = tagsOfPosts(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    description: row.description,
    status: row.status,
    voteCount: row.vote_count,
    createdAt: iso(row.created_at),
    tags: (tags.get(row.id) ?? []).map(({ id, label }) => ({ id, label })),
  }));
}

export function loadBoardPage(db: Db, board: Board, raw: RawQuery): BoardPageView {
  const query = cleanBoardQuery(raw);
  const { rows, total } = listBoardPosts(
    db,
    {
      projectId: board.projectId,
      statuses: query.status ? [query.status] : VISIBLE_STATUSES,
      tagId: query.tagId,
      q: query.q,
    },
    query.sort,
    BOARD_PAGE_SIZE,
    (query.page - 1) * BOARD_PAGE_SIZE,
  );
  return {
    board,
    posts: toPostViews(db, rows),
    tags: listTags(db, board.projectId).map(({ id, label }) => ({ id, label })),
    query,
    pages: pageInfo(query.page, BOARD_PAGE_SIZE, total),
  };
}

/** Only visible posts have a page; pending, closed and archived ones answer 404 like unknown ids. */
export function loadPostPage(db: Db, board: Board, postId: string, raw: RawQuery): PostPageView {
  const row = findPostRow(db, board.projectId, postId);
  if (!row || !isVisible(row.status)) throw new PageNotFound();
  const [post] = toPostViews(db, [{ ...row, status: row.status }]);
  const comments = commentsOfPost(db, row.id, "public");
  const page = pageNumber(raw.page);
  return {
    board,
    post: post!,
    comments: comments
      .slice((page - 1) * COMMENT_PAGE_SIZE, page * COMMENT_PAGE_SIZE)
      .map(({ id, body, authorName, createdAt }) => ({ id, body, authorName, createdAt })),
    commentPages: pageInfo(page, COMMENT_PAGE_SIZE, comments.length),
  };
}

export function loadRoadmapPage(db: Db, board: Board): RoadmapPageView {
  return {
    board,
    columns: VISIBLE_STATUSES.map((status) => {
      const { rows, total } = listBoardPosts(
        db,
        { projectId: board.projectId, statuses: [status], tagId: null, q: "" },
        "votes",
        ROADMAP_COLUMN_SIZE,
        0,
      );
      return { status, posts: toPostViews(db, rows), more: total - rows.length };
    }),
  };
}

function releaseViews(db: Db, board: Board, page: number, limit: number) {
  const { data, pagination } = listPublishedReleases(db, board.projectId, { page, limit });
  const releases: ReleaseView[] = data.map((release) => ({
    id: release.id,
    title: release.title,
    label: release.label,
    content: release.content,
    // Listed releases are published, so they carry a publication time.
    publishedAt: release.publishedAt ?? release.updatedAt,
    updatedAt: release.updatedAt,
  }));
  return { releases, pages: { page, total: pagination.total, totalPages: pagination.totalPages } };
}

export function loadChangelogPage(db: Db, board: Board, raw: RawQuery): ChangelogPageView {
  return { board, ...releaseViews(db, board, pageNumber(raw.page), CHANGELOG_PAGE_SIZE) };
}

export function loadFeedReleases(db: Db, board: Board): ReleaseView[] {
  return releaseViews(db, board, 1, FEED_SIZE).releases;
}
