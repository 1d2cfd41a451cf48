import { afterAll, describe, expect, test } from "bun:test";
import { TokenBuckets } from "../../src/http/rate-limit";
import { createTestApp, expectApiError } from "../support/app";

describe("token buckets", () => {
  test("allow a burst, refuse the next, and refill at the per-minute rate", () => {
    let now = 0;
    const buckets = new TokenBuckets("test", { perMinute: 60, burst: 3 }, () => now);
    expect([1, 2, 3].map(() => buckets.take("k").allowed)).toEqual([true, true, true]);
    const refused = buckets.take("k");
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBe(1);
    now += 1000; // one token per second at 60/minute
    expect(buckets.take("k").allowed).toBe(true);
    expect(buckets.take("k").allowed).toBe(false);
    expect(buckets.take("another key").allowed).toBe(true);
  });

  test("report remaining requests and seconds until full", () => {
    const buckets = new TokenBuckets("test", { perMinute: 600, burst: 100 }, () => 0);
    const decision = buckets.take("k");
    expect(decision.remaining).toBe(99);
    expect(decision.resetSeconds).toBe(1);
  });
});

describe("rate limiting over HTTP", () => {
  const t = createTestApp({
    FEATUREBOARD_RATE_LIMIT_KEY_PER_MINUTE: "2",
    FEATUREBOARD_RATE_LIMIT_KEY_BURST: "2",
    FEATUREBOARD_RATE_LIMIT_IP_PER_MINUTE: "2",
    FEATUREBOARD_RATE_LIMIT_IP_BURST: "2",
  });
  afterAll(() => t.close());

  test("normal responses carry RateLimit-Policy and RateLimit headers", async () => {
    const response = await t.call("GET", "/api/v1/tags");
    expect(response.status).toBe(200);
    expect(response.headers.get("ratelimit-policy")).toBe('"secret-key";q=2;w=60;burst=2');
    expect(response.headers.get("ratelimit")).toMatch(/^"secret-key";r=1;t=\d+$/);
  });

  test("exceeding the per-key limit → 429 RATE_LIMITED with Retry-After; another key is unaffected", async () => {
    await t.call("GET", "/api/v1/tags");
    const limited = await t.call("GET", "/api/v1/tags");
    const body = expectApiError(limited, 429, "RATE_LIMITED");
    expect(body.retry).toBe(true);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get("ratelimit")).toMatch(/r=0/);
    expect((await t.call("GET", "/api/v1/tags", { key: t.other.secretKey })).status).toBe(200);
  });

  test("requests without a key are limited per client IP", async () => {
    const first = await t.call("GET", "/api/v1/", { key: null });
    expect(first.headers.get("ratelimit-policy")).toBe('"client-ip";q=2;w=60;burst=2');
    await t.call("GET", "/api/v1/", { key: null });
    const limited = await t.call("GET", "/api/v1/", { key: null });
    expectApiError(limited, 429, "RATE_LIMITED");
    expect(limited.headers.get("retry-after")).not.toBeNull();
  });
});

describe("requests without any key to secret-key routes", () => {
  const t = createTestApp({
    FEATUREBOARD_RATE_LIMIT_IP_PER_MINUTE: "2",
    FEATUREBOARD_RATE_LIMIT_IP_BURST: "2",
  });
  afterAll(() => t.close());

  test("answer 401 every time, never 429: there is nothing to guess", async () => {
    for (let i = 0; i < 6; i++) {
      expectApiError(await t.call("GET", "/api/v1/tags", { key: null }), 401, "SECRET_KEY_REQUIRED");
      const malformed = await t.call("POST", "/api/v1/posts", { key: null, rawBody: "{" });
      expectApiError(malformed, 401, "SECRET_KEY_REQUIRED");
    }
    // The per-IP budget they did not spend still serves keyless routes.
    expect((await t.call("GET", "/api/v1/", { key: null })).status).toBe(200);
  });
});

describe("CORS preflights", () => {
  const t = createTestApp({
    FEATUREBOARD_RATE_LIMIT_IP_PER_MINUTE: "2",
    FEATUREBOARD_RATE_LIMIT_IP_BURST: "2",
  });
  afterAll(() => t.close());

  test("are not metered: the widget's own requests keep the visitor's whole budget", async () => {
    const headers = { origin: "https://customer.example", "access-control-request-method": "POST" };
    for (let i = 0; i < 5; i++) {
      const preflight = await t.call("OPTIONS", "/api/public/boards/acme/posts", { key: null, headers });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("ratelimit")).toBeNull();
    }
    const first = await t.call("GET", "/api/public/boards/acme/posts", { key: null });
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit")).toMatch(/^"client-ip";r=1;/);
  });
});

describe("the MCP endpoint's stream probe", () => {
  const t = createTestApp({
    FEATUREBOARD_RATE_LIMIT_IP_PER_MINUTE: "2",
    FEATUREBOARD_RATE_LIMIT_IP_BURST: "2",
  });
  afterAll(() => t.close());

  test("GET /mcp (405, sent by the SDK's client on each connection) is not metered", async () => {
    for (let i = 0; i < 5; i++) {
      const probe = await t.call("GET", "/mcp", { key: null, headers: { accept: "text/event-stream" } });
      expect(probe.status).toBe(405);
    }
    const first = await t.call("GET", "/api/v1/", { key: null });
    expect(first.headers.get("ratelimit")).toMatch(/^"client-ip";r=1;/);
  });
});

describe("guessing keys", () => {
  const t = createTestApp({
    FEATUREBOARD_RATE_LIMIT_IP_PER_MINUTE: "2",
    FEATUREBOARD_RATE_LIMIT_IP_BURST: "2",
  });
  afterAll(() => t.close());

  test("is limited per client IP", async () => {
    const guess = `sk_${"Q".repeat(32)}`;
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await t.call("GET", "/api/v1/tags", { key: guess })).status);
    expect(statuses).toEqual([401, 401, 429]);
    // The project's real key has its own bucket and still works.
    expect((await t.call("GET", "/api/v1/tags")).status).toBe(200);
  });
});

describe("bodies refused before the route runs", () => {
  const t = createTestApp({
    FEATUREBOARD_RATE_LIMIT_KEY_PER_MINUTE: "2",
    FEATUREBOARD_RATE_LIMIT_KEY_BURST: "2",
  });
  afterAll(() => t.close());
  const malformed = { rawBody: '{"label": ', headers: { "content-type": "application/json" } };

  test("meet the key check first: a bad key answers 401, not 400", async () => {
    const response = await t.call("POST", "/api/v1/tags", { ...malformed, key: `sk_${"Q".repeat(32)}` });
    expectApiError(response, 401, "INVALID_API_KEY");
  });

  test("count against the key's limit and carry its RateLimit headers, then are refused with 429", async () => {
    const first = await t.call("POST", "/api/v1/tags", malformed);
    expectApiError(first, 400, "INVALID_JSON");
    expect(first.headers.get("ratelimit")).toMatch(/^"secret-key";r=1;t=\d+$/);
    const tooLarge = await t.call("POST", "/api/v1/tags", {
      rawBody: JSON.stringify({ label: "x".repeat(2 * 1024 * 1024) }),
    });
    expectApiError(tooLarge, 413, "PAYLOAD_TOO_LARGE");
    expect(tooLarge.headers.get("ratelimit")).toMatch(/r=0/);
    expectApiError(await t.call("POST", "/api/v1/tags", malformed), 429, "RATE_LIMITED");
    // The other project's key has its own budget.
    expectApiError(
      await t.call("POST", "/api/v1/tags", { ...malformed, key: t.other.secretKey }),
      400,
      "INVALID_JSON",
    );
  });
});
