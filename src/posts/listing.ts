import type { Db } from "../db/connection";
import { ApiError, validationError } from "../http/errors";
import { decodeCursor, encodeCursor, type Pagination, pageRequest, pagination } from "../http/paging";
import { type ListPostsQueryInput, POSTS_DEFAULT_LIMIT, type PostWithTags } from "./schema";
import { withTags } from "./service";
import * as store from "./store";
import type { PostFilter } from "./store";

/**
 * What a cursor carries: the last post's position (createdAt ms, id), the time bound of the scan's first
 * request, a hash of the filters the scan started with, and the number of the page it leads to.
 */
interface PostCursor {
  v: 1;
  t: number;
  i: string;
  b: number;
  h: string;
  p: number;
}

function isPostCursor(value: unknown): value is PostCursor {
  if (typeof value !== "object" || value === null) return false;
  const c = value as Record<string, unknown>;
  return (
    c.v === 1 &&
    Number.isSafeInteger(c.t) &&
    typeof c.i === "string" &&
    Number.isSafeInteger(c.b) &&
    typeof c.h === "string" &&
    Number.isSafeInteger(c.p) &&
    (c.p as number) >= 2
  );
}

function filterHash(filter: PostFilter): string {
  const key = `${filter.status ?? ""}|${filter.updatedSince ?? ""}`;
  return new Bun.CryptoHasher("sha256").update(key).digest("hex").slice(0, 16);
}

export interface PostList {
  data: PostWithTags[];
  pagination: Pagination;
}

/**
 * GET /posts in both modes. Offset mode pages by `page`/`limit`, sorted by votes (default) or date.
 * Cursor mode (any `cursor`, even empty) scans by creation time then id, descending, and only sees posts
 * created by the time of its first request, so deletions and vote changes never shift its pages.
 */
export function listPosts(db: Db, projectId: string, query: ListPostsQueryInput, now = Date.now()): PostList {
  const filter: PostFilter = {
    projectId,
    ...(query.status ? { status: query.status } : {}),
    ...(query.updated_since ? { updatedSince: Date.parse(query.updated_since) } : {}),
  };
  const limit = query.limit ?? POSTS_DEFAULT_LIMIT;

  if (query.cursor === undefined) {
    const page = pageRequest(query, POSTS_DEFAULT_LIMIT);
    const rows = store.listPostRows(db, filter, query.sort ?? "votes", page.limit, page.offset);
    return { data: withTags(db, rows), pagination: pagination(page, store.countPosts(db, filter)) };
  }

  if (query.page !== undefined)
    throw validationError("page", "cannot be combined with cursor; follow nextCursor");
  if (query.sort === "votes")
    throw validationError("sort", "cursor mode orders by date; omit sort or use sort=date");
  const hash = filterHash(filter);
  let position: { createdAt: number; id: string } | null = null;
  let bound = now;
  let pageNumber = 1;
  if (query.cursor !== "") {
    const cursor = decodeCursor(query.cursor, isPostCursor);
    if (cursor.h !== hash) {
      throw new ApiError(
        "CURSOR_PARAMS_CHANGED",
        "status and updated_since must stay the same during a cursor scan",
        "Repeat the filters of the scan's first request, or start a new scan with cursor=.",
      );
    }
    position = { createdAt: cursor.t, id: cursor.i };
    bound = cursor.b;
    pageNumber = cursor.p;
  }

  const scan: PostFilter = { ...filter, createdAtMost: bound };
  const rows = store.listPostRowsAfter(db, scan, position, limit + 1);
  const hasMore = rows.length > limit;
  const pageRows = rows.slice(0, limit);
  const last = pageRows.at(-1);
  const nextCursor =
    hasMore && last
      ? encodeCursor({ v: 1, t: last.created_at, i: last.id, b: bound, h: hash, p: pageNumber + 1 })
      : null;
  return {
    data: withTags(db, pageRows),
    pagination: {
      ...pagination({ page: pageNumber, limit }, store.countPosts(db, scan)),
      hasMore,
      nextCursor,
    },
  };
}
