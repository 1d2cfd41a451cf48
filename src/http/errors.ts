import { t } from "elysia";

/** Every error_code featureboard answers with (docs/decisions.md, "API behaviour"), by HTTP status. */
export const ERROR_CODES = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  INVALID_CURSOR: 400,
  CURSOR_PARAMS_CHANGED: 400,
  SECRET_KEY_REQUIRED: 401,
  INVALID_API_KEY: 401,
  INVALID_CREDENTIALS: 401,
  SIGN_IN_REQUIRED: 401,
  PLAN_UPGRADE_REQUIRED: 403,
  BOARD_NOT_PUBLIC: 403,
  ROLE_NOT_ALLOWED: 403,
  POST_NOT_FOUND: 404,
  TAG_NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  RELEASE_NOT_FOUND: 404,
  WEBHOOK_NOT_FOUND: 404,
  COMMENT_NOT_FOUND: 404,
  VOTE_NOT_FOUND: 404,
  INTEGRATION_NOT_FOUND: 404,
  PROJECT_NOT_FOUND: 404,
  INVITE_INVALID: 404,
  SIGN_IN_LINK_INVALID: 404,
  IMPORT_NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  DUPLICATE_VOTE: 409,
  ANONYMOUS_ID_ALREADY_VOTED: 409,
  TAG_ALREADY_EXISTS: 409,
  EMAIL_ALREADY_USED: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  UPSTREAM_ERROR: 502,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}

/** What each error_code means and what to do about it: the API docs page's catalogue (`docs_url` links there). */
export const ERROR_MEANINGS: Record<ErrorCode, string> = {
  VALIDATION_ERROR:
    "A field, query parameter or path parameter breaks its rules; the message names it and the rule. Fix it and send the request again.",
  INVALID_JSON: "The body is not a JSON document. Send valid JSON (any Content-Type is read as JSON).",
  INVALID_CURSOR: "The cursor is not one this API gave out. Start the scan again with an empty cursor.",
  CURSOR_PARAMS_CHANGED:
    "status or updated_since changed during a cursor scan. Keep them as they were, or start a new scan.",
  SECRET_KEY_REQUIRED:
    "The route needs a secret key (Authorization: Bearer sk_…); no key, or a publishable pk_ key, is not enough.",
  INVALID_API_KEY:
    "The key is unknown, revoked or malformed. Check it, or create one: featureboard keys create.",
  INVALID_CREDENTIALS: "The email or password of a dashboard sign-in is wrong.",
  SIGN_IN_REQUIRED:
    "A dashboard invite for an email that already has an account: sign in as that account, then open the invite link again.",
  PLAN_UPGRADE_REQUIRED:
    "The project's plan does not include this (from-text, the AI workflows and the payments sync need growth). The hint names the plan.",
  BOARD_NOT_PUBLIC:
    "The board is private: the public API and board pages do not answer for it. Use the REST API with a secret key.",
  ROLE_NOT_ALLOWED: "The team member's role may not do this (managing keys and members needs an owner).",
  POST_NOT_FOUND:
    "No such post in the project (another project's id answers the same; the public board lists no pending post).",
  TAG_NOT_FOUND: "No such tag in the project.",
  USER_NOT_FOUND: "No such board user in the project.",
  RELEASE_NOT_FOUND: "No such release in the project.",
  WEBHOOK_NOT_FOUND: "No such webhook endpoint in the project.",
  COMMENT_NOT_FOUND: "No such comment on the post.",
  VOTE_NOT_FOUND: "No such vote on the post.",
  INTEGRATION_NOT_FOUND: "The integration is not configured for the project.",
  PROJECT_NOT_FOUND: "No project has this slug.",
  INVITE_INVALID: "The invite link is unknown, used, expired or withdrawn. Ask an owner for a new one.",
  SIGN_IN_LINK_INVALID: "The sign-in link is unknown, used or expired. Ask for a new one.",
  IMPORT_NOT_FOUND: "No such import job in the project.",
  ROUTE_NOT_FOUND: "No route for this method and path; GET /api/v1/ lists every endpoint.",
  DUPLICATE_VOTE: "This board user has voted on the post already.",
  ANONYMOUS_ID_ALREADY_VOTED: "This anonymousId has voted on the post already.",
  TAG_ALREADY_EXISTS: "The project has a tag with this label already (letter case aside).",
  EMAIL_ALREADY_USED: "Another board user of the project has this email.",
  PAYLOAD_TOO_LARGE:
    "The body is over the size limit (docs/decisions.md lists them). Send less, or import in parts.",
  RATE_LIMITED: "Too many requests: wait the Retry-After header's seconds, then retry (retry is true).",
  INTERNAL_ERROR:
    "Something failed on the server. Retry in a moment; if it keeps failing, report the response's X-Request-Id.",
  UPSTREAM_ERROR:
    "A service featureboard called (the AI model server, a payments or issue-tracker API) failed; retry says whether trying again can help.",
  SERVICE_UNAVAILABLE:
    "The service cannot answer this right now (starting, its AI provider not attached yet, or another process writing to its database). Retry shortly.",
};

export interface ApiErrorOptions {
  retry?: boolean;
  availableActions?: string[];
  /** Extra response headers, such as Retry-After. */
  headers?: Record<string, string>;
}

/** A failure the client is told about. Thrown anywhere; the error mapper turns it into the ApiError body. */
export class ApiError extends Error {
  readonly status: number;
  readonly retry: boolean;
  readonly availableActions: string[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly hint: string,
    options: ApiErrorOptions = {},
  ) {
    super(message);
    this.status = ERROR_CODES[code];
    this.retry = options.retry ?? this.status >= 500;
    this.availableActions = options.availableActions;
    this.headers = options.headers ?? {};
  }
}

export const NOT_IN_PROJECT = "Entity not found in this project";

type NotFoundCode = { [C in ErrorCode]: (typeof ERROR_CODES)[C] extends 404 ? C : never }[ErrorCode];

/**
 * An id of another project answers exactly like an unknown id (docs/decisions.md, "Keys, projects, plans").
 * `reachedBy` says how the caller named the project: its API key, or (keyless, the public board) its slug.
 */
export function notFound(
  code: Exclude<NotFoundCode, "ROUTE_NOT_FOUND">,
  reachedBy: "key" | "board" = "key",
): ApiError {
  const what = code.replace(/_NOT_FOUND$/, "").toLowerCase();
  return new ApiError(
    code,
    NOT_IN_PROJECT,
    reachedBy === "key"
      ? `Check the ${what} id; it must belong to the project of your API key.`
      : `Check the ${what} id; it must be one this board lists.`,
  );
}

export function validationError(field: string, problem: string): ApiError {
  return new ApiError(
    "VALIDATION_ERROR",
    `Invalid '${field}': ${problem}`,
    `Fix '${field}' and send the request again; the OpenAPI document lists every field's rules.`,
  );
}

export const BODY_ERROR_PREFIX = "Invalid request body:";

/**
 * A request body refused as a whole rather than for one field (two fields that exclude each other, none of
 * the fields that would change anything). Not `validationError("body", …)`: a comment's text is a field
 * named `body`, and the MCP tools (which have no body) say "arguments" here instead (src/mcp/tool.ts).
 */
export function bodyError(problem: string): ApiError {
  return new ApiError(
    "VALIDATION_ERROR",
    `${BODY_ERROR_PREFIX} ${problem}`,
    "Fix the request body and send it again; the OpenAPI document lists every field's rules.",
  );
}

export const ApiErrorSchema = t.Object(
  {
    error_code: t.String({ description: "Machine-readable code in upper snake case" }),
    message: t.String(),
    resolution_hint: t.String({ description: "How to fix it" }),
    retry: t.Boolean({ description: "Whether retrying the same request can succeed" }),
    docs_url: t.String(),
    error: t.String({ description: "Legacy alias of message" }),
    suggestion: t.String({ description: "Alias of resolution_hint" }),
    available_actions: t.Optional(t.Array(t.String())),
  },
  { description: "ApiError" },
);

export interface ApiErrorBody {
  error_code: string;
  message: string;
  resolution_hint: string;
  retry: boolean;
  docs_url: string;
  error: string;
  suggestion: string;
  available_actions?: string[];
}

export function errorBody(error: ApiError, publicUrl: string): ApiErrorBody {
  const body: ApiErrorBody = {
    error_code: error.code,
    message: error.message,
    resolution_hint: error.hint,
    retry: error.retry,
    docs_url: `${publicUrl}/api/v1/docs#errors-${error.code}`,
    error: error.message,
    suggestion: error.hint,
  };
  if (error.availableActions) body.available_actions = error.availableActions;
  return body;
}
