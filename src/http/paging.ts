import { t } from "elysia";
import { ApiError } from "./errors";
import { IntegerParam } from "./schemas";

/**
 * The highest page number any list accepts (docs/decisions.md, Limits): far past any real board, and
 * small enough that page × limit stays an exact integer SQLite can bind as an offset.
 */
export const MAX_PAGE = 1_000_000;

/** The `page` query parameter of every offset-paged list. */
export const PageParam = IntegerParam("page", {
  minimum: 1,
  maximum: MAX_PAGE,
  description: `Page number, from 1 to ${MAX_PAGE}`,
});

/**
 * `page` and `limit` query parameters: page from 1, limit from 1 to `maxLimit`, `defaultLimit` when left
 * out (the same constant the service passes to pageRequest).
 */
export function pageQuery(maxLimit: number, defaultLimit: number) {
  return {
    page: t.Optional(PageParam),
    limit: t.Optional(LimitParam(maxLimit, defaultLimit)),
  };
}

/** A `limit` query parameter: 1 to `maxLimit`, `defaultLimit` when left out. */
export function LimitParam(maxLimit: number, defaultLimit: number) {
  return IntegerParam("limit", {
    minimum: 1,
    maximum: maxLimit,
    description: `Items per page, 1 to ${maxLimit} (default ${defaultLimit})`,
    serviceDefault: defaultLimit,
  });
}

export const PaginationSchema = t.Object({
  page: t.Integer(),
  limit: t.Integer(),
  total: t.Integer(),
  totalPages: t.Integer(),
  hasMore: t.Optional(t.Boolean({ description: "Cursor mode only" })),
  nextCursor: t.Optional(
    t.Nullable(t.String({ description: "Cursor mode only; null when the scan is finished" })),
  ),
});

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  hasMore?: boolean;
  nextCursor?: string | null;
}

export interface PageRequest {
  page: number;
  limit: number;
  offset: number;
}

export function pageRequest(query: { page?: number; limit?: number }, defaultLimit: number): PageRequest {
  const page = query.page ?? 1;
  const limit = query.limit ?? defaultLimit;
  return { page, limit, offset: (page - 1) * limit };
}

export function pagination(request: { page: number; limit: number }, total: number): Pagination {
  return { page: request.page, limit: request.limit, total, totalPages: Math.ceil(total / request.limit) };
}

/** Cursors are opaque to clients: base64url of a small JSON document only the server reads. */
export function encodeCursor(payload: object): string {
  return Buffer.from(JSON.stringify(payload)).toString("base64url");
}

export function invalidCursor(): ApiError {
  return new ApiError(
    "INVALID_CURSOR",
    "The cursor is not one this API issued",
    "Pass the nextCursor of the previous page unchanged, or an empty cursor to start a new scan.",
  );
}

export function decodeCursor<T>(token: string, isValid: (value: unknown) => value is T): T {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    throw invalidCursor();
  }
  if (!isValid(value)) throw invalidCursor();
  return value;
}
