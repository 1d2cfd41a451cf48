import { Elysia, ParseError, ValidationError } from "elysia";
import type { AppContext } from "../context";
import { isBusy } from "../db/connection";
import { describeError } from "../log";
import { ApiError, errorBody } from "./errors";
import { requestInfo, requestPath } from "./request-info";
import { describeProblem, fieldName } from "./validation-message";

function fromValidation(error: ValidationError): ApiError | null {
  // A response that does not match its own schema is our bug, not the client's: it becomes a 500.
  if (error.type === "response") return null;
  const first = error.all[0];
  if (!first) {
    return new ApiError(
      "VALIDATION_ERROR",
      `Invalid ${error.type}`,
      "Check the request against the OpenAPI document.",
    );
  }
  const field = fieldName(first, error.type);
  // Elysia calls a query parameter checked on its own a "property".
  const location = error.type === "property" ? "query" : error.type;
  const subject = field === null ? `Invalid ${location}` : `Invalid '${field}' in ${location}`;
  return new ApiError(
    "VALIDATION_ERROR",
    `${subject}: ${describeProblem(first)}`,
    `Fix ${field === null ? `the ${location}` : `'${field}'`} and send the request again; the OpenAPI document lists every field's rules.`,
  );
}

/** Another process (the CLI, a backup) kept the database's write lock past WRITE_LOCK_WAIT_MS. */
function databaseBusy(): ApiError {
  return new ApiError(
    "SERVICE_UNAVAILABLE",
    "The database is busy with another process's write (a command-line task or a backup)",
    "Retry in a moment, once that write is over.",
    { retry: true, headers: { "Retry-After": "1" } },
  );
}

function internalError(): ApiError {
  return new ApiError(
    "INTERNAL_ERROR",
    "Something went wrong on our side",
    "Retry in a moment; if it keeps failing, report the X-Request-Id of this response.",
    { retry: true },
  );
}

/** Turns whatever a handler or Elysia throws into an ApiError; anything unexpected is logged. */
export function toApiError(code: unknown, error: unknown, ctx: AppContext, request: Request): ApiError {
  if (error instanceof ApiError) return error;
  if (isBusy(error)) return databaseBusy();
  // Elysia wraps whatever a parse hook throws (INVALID_JSON, PAYLOAD_TOO_LARGE) in its ParseError.
  if (error instanceof ParseError && error.cause instanceof ApiError) return error.cause;
  if (error instanceof ValidationError) {
    const mapped = fromValidation(error);
    if (mapped) return mapped;
  } else if (code === "PARSE") {
    // A parse failure of the body's own text is a SyntaxError; anything else thrown while parsing (a
    // TypeError in a parse hook) is a bug that a 400 would hide: it is logged, the client still gets a 400.
    const cause = error instanceof ParseError ? error.cause : undefined;
    if (cause instanceof Error && !(cause instanceof SyntaxError)) {
      ctx.log.warn("request body parsing failed", {
        requestId: requestInfo(request).id,
        ...describeError(cause),
      });
    }
    return new ApiError("INVALID_JSON", "Request body could not be parsed", "Send a valid JSON document.");
  } else if (code === "NOT_FOUND") {
    const { method } = request;
    return new ApiError(
      "ROUTE_NOT_FOUND",
      `No route for ${method} ${requestPath(request)}`,
      "Check the method and path; GET /api/v1/ lists every endpoint.",
    );
  }
  ctx.log.error("unhandled error", {
    requestId: requestInfo(request).id,
    code: String(code),
    ...describeError(error),
  });
  return internalError();
}

/**
 * The answer of last resort, for an error that escaped every hook (Bun's own `error` callback): an
 * ApiError 500 in JSON, never Bun's development page with its stack trace and working directory.
 */
export function lastResortResponse(ctx: AppContext, error: unknown): Response {
  ctx.log.error("unhandled error outside the request pipeline", describeError(error));
  return Response.json(errorBody(internalError(), ctx.config.publicUrl), { status: 500 });
}

/** The one place errors become responses: every non-2xx body is the ApiError of docs/decisions.md ("API behaviour"). */
export function errorHandler(ctx: AppContext) {
  return new Elysia({ name: "http.errors" }).onError({ as: "global" }, ({ code, error, set, request }) => {
    const apiError = toApiError(code, error, ctx, request);
    set.status = apiError.status;
    Object.assign(set.headers, apiError.headers);
    return errorBody(apiError, ctx.config.publicUrl);
  });
}
