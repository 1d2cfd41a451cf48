import { Elysia } from "elysia";
import type { Config, RateLimitRule } from "../config";
import { ApiError } from "./errors";
import {
  DOCS_PATH,
  HEALTH_CHECK_PATH,
  MCP_PATH,
  OPENAPI_PATH,
  requestInfo,
  requestPath,
} from "./request-info";

export interface RateDecision {
  allowed: boolean;
  /** Whole requests left right now. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until the next request is allowed (0 when allowed). */
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

const IDLE_SWEEP_THRESHOLD = 10_000;

/**
 * In-memory token buckets, one per key: `burst` requests at once, refilled at `perMinute` per minute.
 * One process serves everything (docs/architecture.md), so memory is the right home for them.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly refillPerMs: number;

  constructor(
    readonly policyName: string,
    readonly rule: RateLimitRule,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.refillPerMs = rule.perMinute / 60_000;
  }

  take(key: string): RateDecision {
    const now = this.now();
    if (this.buckets.size > IDLE_SWEEP_THRESHOLD) this.sweepFull(now);
    const bucket = this.buckets.get(key) ?? { tokens: this.rule.burst, updatedAt: now };
    bucket.tokens = Math.min(this.rule.burst, bucket.tokens + (now - bucket.updatedAt) * this.refillPerMs);
    bucket.updatedAt = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.buckets.set(key, bucket);
    return {
      allowed,
      remaining: Math.floor(bucket.tokens),
      resetSeconds: Math.ceil((this.rule.burst - bucket.tokens) / this.refillPerMs / 1000),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / this.refillPerMs / 1000)),
    };
  }

  /** Forgets buckets that have refilled completely: they hold nothing a fresh bucket would not. */
  private sweepFull(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.updatedAt) * this.refillPerMs >= this.rule.burst)
        this.buckets.delete(key);
    }
  }
}

export interface RateLimits {
  secretKey: TokenBuckets;
  publicIp: TokenBuckets;
  page: TokenBuckets;
  ai: TokenBuckets;
  signIn: TokenBuckets;
}

export function createRateLimits(config: Config): RateLimits {
  return {
    secretKey: new TokenBuckets("secret-key", config.rateLimits.secretKey),
    publicIp: new TokenBuckets("client-ip", config.rateLimits.publicIp),
    page: new TokenBuckets("page", config.rateLimits.page),
    signIn: new TokenBuckets("sign-in", config.rateLimits.signIn),
    ai: new TokenBuckets("ai", config.rateLimits.ai),
  };
}

type HeaderBag = Record<string, string | number>;

/**
 * Takes one request from `buckets[key]`, sets the IETF `RateLimit-Policy` / `RateLimit` headers, and
 * throws 429 RATE_LIMITED with `Retry-After` when the bucket is empty.
 */
export function enforceRateLimit(buckets: TokenBuckets, key: string, headers: HeaderBag): void {
  const decision = buckets.take(key);
  const name = `"${buckets.policyName}"`;
  headers["ratelimit-policy"] = `${name};q=${buckets.rule.perMinute};w=60;burst=${buckets.rule.burst}`;
  headers.ratelimit = `${name};r=${decision.remaining};t=${decision.resetSeconds}`;
  if (decision.allowed) return;
  throw new ApiError(
    "RATE_LIMITED",
    `Rate limit exceeded: ${buckets.rule.perMinute} requests per minute (bursts of ${buckets.rule.burst})`,
    `Wait ${decision.retryAfterSeconds} second(s) (the Retry-After header) before sending more requests.`,
    { retry: true, headers: { "retry-after": String(decision.retryAfterSeconds) } },
  );
}

const UNMETERED_PATHS = new Set([HEALTH_CHECK_PATH]);
/** The board pages' versioned, cached scripts and styles (src/web/assets.ts): static, never metered. */
const STATIC_ASSETS = "/b/_assets/";
/** The keyless pages of the REST API: discovery and its documentation. */
const KEYLESS_API_PATHS = new Set(["/api/v1", "/api/v1/", OPENAPI_PATH, DOCS_PATH]);
/** The MCP endpoint (src/mcp/routes.ts): admin mode authenticates with a secret key. */

/** Board pages (and their feed), the widget script and the team dashboard: what a person's browser loads. */
function isBoardPage(path: string): boolean {
  return path.startsWith("/b/") || path === "/widget.js" || path === "/admin" || path.startsWith("/admin/");
}

const TOO_MANY_PAGES = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Too many requests</title></head>
<body><h1>Too many requests</h1><p>This address loaded pages faster than the board allows. Wait a moment
(the Retry-After header says how long) and reload.</p></body></html>`;

/**
 * Whether the route's key check (`authenticateSecretKey`) meters the request instead of the keyless
 * limiter: every request to a secret-key REST route, and MCP requests that carry a key (admin mode). The
 * key check meters a good key per key and a bad one per client IP (guessing keys is limited); a request
 * with no key at all to a secret-key route is answered 401 and metered by nothing, as it costs nothing
 * and a client checking "no key → 401" across the API must not be told 429 instead (docs/decisions.md,
 * "Rate limits").
 */
export function meteredByKeyCheck(request: Request): boolean {
  const path = requestPath(request);
  if (path === MCP_PATH) return request.headers.has("authorization");
  return path.startsWith("/api/v1/") && !KEYLESS_API_PATHS.has(path);
}

/**
 * Every request is metered at most once: per client IP here, unless the route's key check meters it
 * (`meteredByKeyCheck`). A header sent to a keyless route (board pages, feed, discovery, the public API) is
 * ignored and changes nothing.
 */
export function keylessRateLimit(ctx: { rateLimits: RateLimits }) {
  return new Elysia({ name: "http.keyless-rate-limit" }).onRequest(({ request, set }) => {
    const path = requestPath(request);
    if (UNMETERED_PATHS.has(path) || path.startsWith(STATIC_ASSETS)) return;
    // A browser sends a CORS preflight on its own before a widget's vote or comment: that vote would cost
    // the visitor two requests of the budget. The preflight is answered from constants.
    if (request.method === "OPTIONS") return;
    // The MCP SDK's client probes GET /mcp for an event stream on every connection; the 405 it gets is a
    // constant, and it cost a public agent one request of its budget per session.
    if (path === MCP_PATH && request.method !== "POST") return;
    if (meteredByKeyCheck(request)) return;
    const clientIp = requestInfo(request).clientIp;
    if (!isBoardPage(path)) return enforceRateLimit(ctx.rateLimits.publicIp, clientIp, set.headers);
    try {
      enforceRateLimit(ctx.rateLimits.page, clientIp, set.headers);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // A person's browser shows this page: HTML, not the API's JSON.
      return new Response(TOO_MANY_PAGES, {
        status: 429,
        headers: {
          ...error.headers,
          "content-type": "text/html; charset=utf-8",
          "cache-control": "no-store",
        },
      });
    }
  });
}
