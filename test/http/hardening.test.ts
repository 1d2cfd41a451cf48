import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { rmSync } from "node:fs";
import { createTestApp, expectApiError, tempDir, type TestApp } from "../support/app";
import { type ServiceProcess, SOURCE_COMMAND, startServiceProcess } from "../support/process";

const SECRET_KEY = "sk_hardening00000000000000000000000";
const MiB = 1024 * 1024;

/** Sends raw bytes over a real socket and resolves with everything the server answered. */
async function rawRequest(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  let received = "";
  const decoder = new TextDecoder();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(received), 5000);
    Bun.connect({
      hostname,
      port: Number(port),
      socket: {
        open(socket) {
          socket.write(bytes);
        },
        data(socket, chunk) {
          received += decoder.decode(chunk);
          // One answer is all these requests get: stop once the declared body has arrived.
          const [head = "", body = ""] = received.split("\r\n\r\n");
          const length = /content-length: (\d+)/i.exec(head)?.[1];
          if (length !== undefined && Buffer.byteLength(body) >= Number(length)) {
            clearTimeout(timer);
            socket.end();
            resolve(received);
          }
        },
        close() {
          clearTimeout(timer);
          resolve(received);
        },
        error(_socket, error) {
          clearTimeout(timer);
          reject(error);
        },
      },
    }).catch(reject);
  });
}

function statusOf(raw: string): number {
  return Number(/^HTTP\/1\.[01] (\d{3})/.exec(raw)?.[1] ?? 0);
}

/** Nothing a client sees may carry a stack trace or a path of the server's file system. */
function expectNoInternals(text: string) {
  expect(text).not.toContain(process.cwd());
  expect(text).not.toMatch(/\bat .+\.(ts|js):\d+/);
  expect(text).not.toMatch(/<html/i);
}

describe("a real server survives what a careless or hostile client sends", () => {
  let dir: string;
  let service: ServiceProcess;

  beforeAll(async () => {
    dir = tempDir();
    service = await startServiceProcess(SOURCE_COMMAND, {
      FEATUREBOARD_DB: join(dir, "hardening.db"),
      FEATUREBOARD_BOOTSTRAP_SECRET_KEY: SECRET_KEY,
      FEATUREBOARD_RATE_LIMIT_IP_PER_MINUTE: "100000",
      FEATUREBOARD_RATE_LIMIT_IP_BURST: "10000",
    });
  });

  afterAll(async () => {
    service.proc.kill();
    await service.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  async function expectHealthy() {
    const health = await fetch(`${service.url}/healthz`);
    expect(health.status).toBe(200);
    expect(service.proc.exitCode).toBeNull();
  }

  test.each([
    ["no Host header (HTTP/1.0)", "GET /healthz HTTP/1.0\r\n\r\n"],
    ["Host: [", "GET /healthz HTTP/1.1\r\nHost: [\r\nConnection: close\r\n\r\n"],
    ["Host: a b", "GET /healthz HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n"],
    ["Host: @", "GET /healthz HTTP/1.1\r\nHost: @\r\nConnection: close\r\n\r\n"],
    ["Host: x:99999999", "GET /healthz HTTP/1.1\r\nHost: x:99999999\r\nConnection: close\r\n\r\n"],
    ["an API route without a Host", "GET /api/v1/tags?x=1 HTTP/1.0\r\n\r\n"],
    ["a POST without a Host", 'POST /api/v1/tags HTTP/1.0\r\nContent-Length: 15\r\n\r\n{"label":"Raw"}'],
  ])("%s is answered and the server keeps serving", async (_name, bytes) => {
    const raw = await rawRequest(service.url, bytes);
    const status = statusOf(raw);
    expect(status).toBeGreaterThanOrEqual(200);
    expect(status).toBeLessThan(500);
    expectNoInternals(raw);
    await expectHealthy();
  });

  test("a 20,000-deep array to a JSON route is a 400 ApiError, never Bun's HTML page", async () => {
    const body = "[".repeat(20_000) + "]".repeat(20_000);
    const response = await fetch(`${service.url}/api/v1/integrations/payments`, {
      method: "PUT",
      headers: { authorization: `Bearer ${SECRET_KEY}` },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(JSON.parse(text).error_code).toBe("VALIDATION_ERROR");
    expectNoInternals(text);
    await expectHealthy();
  });

  test("50,000 levels of metadata are refused with a 400, not a 500", async () => {
    const metadata = '{"a":'.repeat(50_000) + "1" + "}".repeat(50_000);
    const response = await fetch(`${service.url}/api/v1/posts`, {
      method: "POST",
      headers: { authorization: `Bearer ${SECRET_KEY}`, "content-type": "application/json" },
      body: `{"title":"Deep","metadata":${metadata}}`,
      signal: AbortSignal.timeout(10_000),
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error_code).toBe("VALIDATION_ERROR");
    await expectHealthy();
  });

  test("a body over the route limit but under Bun's own is answered with the ApiError 413", async () => {
    const response = await fetch(`${service.url}/api/v1/tags`, {
      method: "POST",
      headers: { authorization: `Bearer ${SECRET_KEY}` },
      body: "x".repeat(12 * MiB),
    });
    expect(response.status).toBe(413);
    expect((await response.json()).error_code).toBe("PAYLOAD_TOO_LARGE");
    await expectHealthy();
  });

  test("a chunked body to a form route stops at Bun's own cap (16 MiB), not read whole", async () => {
    let sent = 0;
    const chunk = new TextEncoder().encode(`email=${"x".repeat(MiB - 6)}`);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 40) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const answered = await fetch(`${service.url}/admin/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
      signal: AbortSignal.timeout(10_000),
    }).then(
      (response) => response.status,
      () => "closed",
    );
    // Refused (413) or cut off, before the 40 MiB were all read.
    expect([413, "closed"]).toContain(answered);
    expect(sent).toBeLessThan(40);
    await expectHealthy();
  });

  test("an exception in a hook after the answer does not end the process", async () => {
    // The access log runs after the answer, outside the error handler; a Host it cannot parse used to throw there.
    for (let round = 0; round < 3; round++) {
      await rawRequest(service.url, "GET /b/default HTTP/1.0\r\n\r\n");
    }
    await expectHealthy();
  });
});

describe("bounded input", () => {
  let t: TestApp;
  beforeAll(() => {
    t = createTestApp();
  });
  afterAll(() => t.close());

  test.each(["/api/v1/posts", "/api/v1/releases", "/api/v1/activity", "/api/v1/users"])(
    "%s?page=99999999999999999999 is a 400 naming page",
    async (path) => {
      const response = await t.call("GET", `${path}?page=99999999999999999999`);
      expect(expectApiError(response, 400, "VALIDATION_ERROR").message).toContain("'page'");
    },
  );

  test.each(["/api/public/boards/acme/posts", "/api/public/boards/acme/changelog"])(
    "public %s?page=99999999999999999999 is a 400",
    async (path) => {
      const response = await t.call("GET", `${path}?page=99999999999999999999`, { key: null });
      expectApiError(response, 400, "VALIDATION_ERROR");
    },
  );

  test("the highest page is still accepted", async () => {
    const response = await t.call("GET", "/api/v1/posts?page=1000000");
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
  });

  test.each([
    ["GET", "/api/v1/tags?x=1"],
    ["GET", "/api/v1/roadmap?x=1"],
    ["GET", "/api/v1/?x=1"],
    ["GET", "/api/public/boards/acme?x=1"],
  ])("%s %s: an unknown query parameter on a route without a query schema is a 400", async (method, path) => {
    const response = await t.call(method, path);
    expect(expectApiError(response, 400, "VALIDATION_ERROR").message).toContain("'x'");
  });

  test("a field sent to an operation that takes no body is a 400 naming it; {} and no body still work", async () => {
    const tag = await t.call("POST", "/api/v1/tags", { body: { label: "Closed bodies" } });
    const tagPath = `/api/v1/tags/${tag.body.data.id}`;
    const refused = await t.call("DELETE", tagPath, { body: { reason: "duplicate" } });
    expect(expectApiError(refused, 400, "VALIDATION_ERROR").message).toBe(
      "Invalid 'reason': is not a known field: this operation takes no body",
    );
    // Nothing was deleted by the refused call.
    expect((await t.call("GET", "/api/v1/tags")).body.data.map((row: { id: string }) => row.id)).toContain(
      tag.body.data.id,
    );
    expect((await t.call("DELETE", tagPath, { body: {} })).status).toBe(200);
    const sync = await t.call("POST", "/api/v1/integrations/payments/sync", { body: { force: true } });
    expect(expectApiError(sync, 400, "VALIDATION_ERROR").message).toContain("'force'");
  });

  test.each([
    ["/api/v1/ai/triage", "42"],
    ["/api/v1/ai/summary", '"text"'],
    ["/api/v1/ai/sprint-plan", "[]"],
    ["/api/v1/tags", "null"],
  ])("POST %s with the JSON body %s is a 400", async (path, rawBody) => {
    const response = await t.call("POST", path, { rawBody });
    expect(expectApiError(response, 400, "VALIDATION_ERROR").message).toContain("JSON object");
  });

  test("the nesting limit lets 64 levels through and refuses 65", async () => {
    const nested = (depth: number) => "[".repeat(depth - 1) + "]".repeat(depth - 1);
    const ok = await t.call("POST", "/api/v1/posts", {
      rawBody: `{"title":"Nested","metadata":{"deep":${nested(63)}}}`,
    });
    expect(ok.status).toBe(201);
    const refused = await t.call("POST", "/api/v1/posts", {
      rawBody: `{"title":"Nested","metadata":{"deep":${nested(64)}}}`,
    });
    expectApiError(refused, 400, "VALIDATION_ERROR");
  });

  test("a code-host owner or repository of '..' is refused before any call is made", async () => {
    for (const body of [
      { repoOwner: "..", repoName: "roadmap" },
      { repoOwner: "acme", repoName: ".." },
      { repoOwner: "acme", repoName: "." },
      { repoOwner: "acme/../x", repoName: "roadmap" },
      { repoOwner: "-acme", repoName: "roadmap" },
    ]) {
      const response = await t.call("PUT", "/api/v1/integrations/code-host", { body });
      const error = expectApiError(response, 400, "VALIDATION_ERROR");
      // In words, not the pattern's regular expression.
      expect(error.message).toMatch(/must be a (GitHub user or organisation|repository) name/);
      expect(error.message).not.toContain("^");
    }
    const valid = await t.call("PUT", "/api/v1/integrations/code-host", {
      body: { repoOwner: "acme-inc", repoName: "road.map_2" },
    });
    expect([200, 201]).toContain(valid.status);
  });
});

describe("rate limits cannot be skipped with a junk Authorization header", () => {
  let t: TestApp;
  beforeAll(() => {
    t = createTestApp({
      FEATUREBOARD_RATE_LIMIT_IP_PER_MINUTE: "2",
      FEATUREBOARD_RATE_LIMIT_IP_BURST: "2",
      FEATUREBOARD_RATE_LIMIT_PAGE_PER_MINUTE: "2",
      FEATUREBOARD_RATE_LIMIT_PAGE_BURST: "2",
    });
  });
  afterAll(() => t.close());

  test.each([
    ["/b/acme", '"page"'],
    ["/b/acme/changelog.atom", '"page"'],
    ["/api/v1/", '"client-ip"'],
    ["/api/v1/openapi.json", '"client-ip"'],
    ["/api/public/boards/acme", '"client-ip"'],
  ])("%s is metered per IP even with Authorization: Bearer junk", async (path, policy) => {
    // Every case shares the one client's bucket (burst 2): four requests in a row always end in a 429.
    const statuses: number[] = [];
    for (let round = 0; round < 4; round++) {
      const response = await t.call("GET", path, { key: "junk" });
      expect(response.headers.get("ratelimit-policy")).toContain(policy);
      statuses.push(response.status);
    }
    expect(statuses).toContain(429);
  });
});

describe("board pages have their own budget, and their 429 is a page", () => {
  test("pages do not spend the API's per-IP budget, and a page's 429 is HTML with Retry-After", async () => {
    const t = createTestApp({
      FEATUREBOARD_RATE_LIMIT_IP_PER_MINUTE: "1",
      FEATUREBOARD_RATE_LIMIT_IP_BURST: "1",
      FEATUREBOARD_RATE_LIMIT_PAGE_PER_MINUTE: "3",
      FEATUREBOARD_RATE_LIMIT_PAGE_BURST: "3",
    });
    try {
      for (let round = 0; round < 3; round++)
        expect((await t.call("GET", "/b/acme", { key: null })).status).toBe(200);
      const limited = await t.call("GET", "/b/acme", { key: null });
      expect(limited.status).toBe(429);
      expect(limited.headers.get("content-type")).toContain("text/html");
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(limited.text).toContain("Too many requests");
      // The API's own budget was untouched by the pages.
      expect((await t.call("GET", "/api/v1/", { key: null })).status).toBe(200);
    } finally {
      t.close();
    }
  });
});
