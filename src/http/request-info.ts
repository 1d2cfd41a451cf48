import { Elysia } from "elysia";
import type { Config } from "../config";
import { describeError, type Logger } from "../log";

export interface RequestInfo {
  id: string;
  startedAt: number;
  clientIp: string;
  projectId?: string;
}

const infos = new WeakMap<Request, RequestInfo>();
const INCOMING_ID = /^[\w.:-]{1,128}$/;

/** Per-request facts gathered by the plumbing (id, timing, caller), readable by any later hook. */
export function requestInfo(request: Request): RequestInfo {
  let info = infos.get(request);
  if (!info) {
    info = { id: Bun.randomUUIDv7(), startedAt: performance.now(), clientIp: "unknown" };
    infos.set(request, info);
  }
  return info;
}

/** Base for request URLs that carry no usable host: only their path and query are ever read. */
const FALLBACK_BASE = "http://localhost";

/**
 * The request's URL, never throwing: a request without a usable `Host` (HTTP/1.0 without one, or a Host
 * such as `[` or `x:99999999`) has a URL that `new URL()` refuses, yet its path and query are sound.
 */
export function requestUrl(request: Request): URL {
  const raw = request.url;
  try {
    return new URL(raw);
  } catch {
    const afterScheme = raw.indexOf("://");
    const pathStart = afterScheme === -1 ? raw.indexOf("/") : raw.indexOf("/", afterScheme + 3);
    const pathAndQuery = pathStart === -1 ? "/" : raw.slice(pathStart);
    try {
      return new URL(pathAndQuery, FALLBACK_BASE);
    } catch {
      return new URL("/", FALLBACK_BASE);
    }
  }
}

/** The request's path (see requestUrl: never throws). */
/**
 * The liveness check: answers without a key, is never rate limited, and reads no stored data, so it does
 * not wait for other requests' commits (src/http/commit.ts): a load balancer's check must not time out
 * because writes are syncing.
 */
export const HEALTH_CHECK_PATH = "/healthz";
/** The API's documents (src/meta): the OpenAPI document and the docs page with its assets. */
export const OPENAPI_PATH = "/api/v1/openapi.json";
export const DOCS_PATH = "/api/v1/docs";

/** The hosted MCP endpoint (src/mcp/routes.ts): metered and size-limited by the HTTP layer too. */
export const MCP_PATH = "/mcp";

export function requestPath(request: Request): string {
  return requestUrl(request).pathname;
}

interface AddressSource {
  requestIP(request: Request): { address: string } | null;
}

/**
 * Behind a trusted proxy, the X-Forwarded-For entry that proxy appended: the last one (nginx's
 * `$proxy_add_x_forwarded_for` adds the address it saw at the end). Entries before it are whatever the
 * client sent; taking the first let a client pick its own IP and escape every per-IP limit
 * (docs/decisions.md, "Rate limits").
 */
function clientIp(request: Request, server: AddressSource | null, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return server?.requestIP(request)?.address ?? "unknown";
}

/**
 * Paths that carry a one-time secret (an invite, a sign-in link, an unsubscribe or email confirmation
 * token): the log keeps the route and drops the secret, so a log reader cannot use a link its owner has not
 * opened yet.
 */
const SECRET_IN_PATH =
  /^(\/admin\/invite\/|\/admin\/login\/link\/|\/email\/unsubscribe\/|\/email\/confirm\/)[^/?]+/;

export function loggedPath(path: string): string {
  return path.replace(SECRET_IN_PATH, "$1…");
}

/**
 * Gives every response an `X-Request-Id` (the caller's, when it sent a sane one) and writes one JSON
 * access-log line per request once the response is sent.
 */
export function requestLog(ctx: { config: Pick<Config, "trustProxy">; log: Logger }) {
  let warnedAboutProxy = false;
  return new Elysia({ name: "http.request-log" })
    .onRequest(({ request, set, server }) => {
      if (!ctx.config.trustProxy && !warnedAboutProxy && request.headers.has("x-forwarded-for")) {
        // Behind a proxy every visitor would share the proxy's address, and so one rate-limit budget.
        warnedAboutProxy = true;
        ctx.log.warn(
          "requests carry X-Forwarded-For but FEATUREBOARD_TRUST_PROXY is off: clients are identified by the " +
            "proxy's address; set FEATUREBOARD_TRUST_PROXY=true if a proxy you run sets that header",
        );
      }
      const info = requestInfo(request);
      const incoming = request.headers.get("x-request-id");
      if (incoming && INCOMING_ID.test(incoming)) info.id = incoming;
      info.clientIp = clientIp(request, server, ctx.config.trustProxy);
      set.headers["x-request-id"] = info.id;
    })
    .onAfterResponse({ as: "global" }, ({ request, set, responseValue }) => {
      // Runs after the answer left, outside every error handler: it must never throw.
      try {
        const info = requestInfo(request);
        // A route that answers a Response (a redirect, a page) carries its status there, not in `set`.
        const status =
          responseValue instanceof Response
            ? responseValue.status
            : typeof set.status === "number"
              ? set.status
              : 200;
        ctx.log.info("request", {
          requestId: info.id,
          method: request.method,
          path: loggedPath(requestPath(request)),
          status,
          durationMs: Math.round((performance.now() - info.startedAt) * 100) / 100,
          clientIp: info.clientIp,
          projectId: info.projectId,
        });
      } catch (error) {
        ctx.log.error("access log failed", describeError(error));
      }
    });
}
