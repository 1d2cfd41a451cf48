import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { EVENT_TYPES } from "../../src/events/catalogue";
import { ERROR_CODES } from "../../src/http/errors";
import { createTestApp, type JsonBody, type TestApp } from "../support/app";

/**
 * The OpenAPI document says what the service really does: each operation's statuses, headers and request
 * rules are checked against the service itself, operation by operation, not only read.
 */

let t: TestApp;
let document: JsonBody;

interface Operation {
  method: string;
  path: string;
  operation: JsonBody;
}
let operations: Operation[];

beforeAll(async () => {
  t = createTestApp();
  document = (await t.call("GET", "/api/v1/openapi.json", { key: null })).body;
  operations = Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod as Record<string, JsonBody>).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      operation,
    })),
  );
});
afterAll(() => t.close());

/** A callable URL for an operation: every path parameter filled with an id that exists nowhere. */
const urlOf = (path: string) => path.replace(/\{[^}]+\}/g, "nothing-here");
const statusesOf = (operation: JsonBody) => Object.keys(operation.responses);
const secured = (operation: JsonBody) => operation.security.length > 0;
const isPublic = (path: string) => path.startsWith("/api/public/");
const label = ({ method, path }: Operation) => `${method} ${path}`;

describe("error statuses", () => {
  test("400: every operation but the health check refuses an unknown query parameter, and says so", async () => {
    for (const entry of operations) {
      const response = await t.call(entry.method, `${urlOf(entry.path)}?no_such_parameter=1`);
      if (entry.path === "/healthz") {
        expect(response.status).toBe(200);
        expect(statusesOf(entry.operation)).not.toContain("400");
        continue;
      }
      expect([label(entry), response.status]).toEqual([label(entry), 400]);
      expect([label(entry), statusesOf(entry.operation)]).toEqual([
        label(entry),
        expect.arrayContaining(["400"]),
      ]);
    }
  });

  test("413: every operation with a JSON body refuses one over its limit, and says so", async () => {
    const withBody = operations.filter((entry) => entry.operation.requestBody);
    expect(withBody.length).toBeGreaterThan(25);
    // Over the largest body limit (import's 10 MiB), so every route refuses it.
    const oversized = JSON.stringify({ title: "x".repeat(11 * 1024 * 1024) });
    for (const entry of withBody) {
      const response = await t.call(entry.method, urlOf(entry.path), {
        rawBody: oversized,
        headers: { "content-type": "application/json" },
      });
      expect([label(entry), response.status, response.body?.error_code]).toEqual([
        label(entry),
        413,
        "PAYLOAD_TOO_LARGE",
      ]);
      expect([label(entry), statusesOf(entry.operation)]).toEqual([
        label(entry),
        expect.arrayContaining(["413"]),
      ]);
    }
    for (const entry of operations.filter((entry) => !entry.operation.requestBody)) {
      expect([label(entry), statusesOf(entry.operation)]).toEqual([
        label(entry),
        expect.not.arrayContaining(["413"]),
      ]);
    }
  }, 60_000);

  test("401 is listed where a key can be refused: every secret-key operation and the public API's publishable key", async () => {
    for (const entry of operations) {
      const listed = statusesOf(entry.operation).includes("401");
      if (secured(entry.operation)) {
        const response = await t.call(entry.method, urlOf(entry.path), { key: null });
        expect([label(entry), response.status, listed]).toEqual([label(entry), 401, true]);
      } else if (isPublic(entry.path)) {
        expect([label(entry), listed]).toEqual([label(entry), true]);
      } else {
        expect([label(entry), listed]).toEqual([label(entry), false]);
      }
    }
    const refused = await t.call("GET", "/api/public/boards/acme", {
      key: null,
      headers: { "x-publishable-key": "pk_unknown" },
    });
    expect(refused.status).toBe(401);
  });

  test("error responses share the ApiError schema, whose error_code is one of the catalogue's", () => {
    const apiError = document.components.schemas.ApiError;
    expect(apiError.properties.error_code.enum.sort()).toEqual(Object.keys(ERROR_CODES).sort());
    for (const entry of operations) {
      for (const [status, answer] of Object.entries(entry.operation.responses) as [string, JsonBody][]) {
        if (Number(status) < 400) continue;
        expect([label(entry), status, answer.content["application/json"].schema]).toEqual([
          label(entry),
          status,
          { $ref: "#/components/schemas/ApiError" },
        ]);
      }
    }
  });
});

describe("response headers", () => {
  const headerNames = (answer: JsonBody) => Object.keys(answer.headers ?? {});

  test("every response declares X-Request-Id; metered ones RateLimit and RateLimit-Policy; 429 and 503 Retry-After", () => {
    for (const entry of operations) {
      for (const [status, answer] of Object.entries(entry.operation.responses) as [string, JsonBody][]) {
        const names = headerNames(answer);
        expect(names).toContain("X-Request-Id");
        const metered = entry.path !== "/healthz" && !(secured(entry.operation) && status === "413");
        expect([
          label(entry),
          status,
          names.includes("RateLimit"),
          names.includes("RateLimit-Policy"),
        ]).toEqual([label(entry), status, metered, metered]);
        expect([label(entry), status, names.includes("Retry-After")]).toEqual([
          label(entry),
          status,
          status === "429" || status === "503",
        ]);
      }
    }
    for (const name of ["X-Request-Id", "RateLimit", "RateLimit-Policy", "Retry-After"]) {
      expect(document.components.headers[name].schema).toBeDefined();
    }
  });

  test("the service sends them as declared", async () => {
    const listed = await t.call("GET", "/api/v1/posts");
    expect(listed.headers.get("x-request-id")).toBeTruthy();
    expect(listed.headers.get("ratelimit")).toContain('"secret-key"');
    expect(listed.headers.get("ratelimit-policy")).toContain('"secret-key"');
    const discovery = await t.call("GET", "/api/v1", { key: null });
    expect(discovery.headers.get("ratelimit")).toContain('"client-ip"');
    const health = await t.call("GET", "/healthz", { key: null });
    expect(health.headers.get("x-request-id")).toBeTruthy();
    expect(health.headers.get("ratelimit")).toBeNull();
  });

  test("a 429 carries Retry-After", async () => {
    const limited = createTestApp({
      FEATUREBOARD_RATE_LIMIT_KEY_PER_MINUTE: "1",
      FEATUREBOARD_RATE_LIMIT_KEY_BURST: "1",
    });
    try {
      await limited.call("GET", "/api/v1/tags");
      const refused = await limited.call("GET", "/api/v1/tags");
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      limited.close();
    }
  });
});

describe("request bodies and parameters", () => {
  test("a body the service accepts leaving out is not required (the AI workflows)", async () => {
    for (const path of ["/api/v1/ai/triage", "/api/v1/ai/summary", "/api/v1/ai/sprint-plan"]) {
      expect([path, document.paths[path].post.requestBody.required]).toEqual([path, false]);
      const response = await t.call("POST", path);
      expect([path, response.status]).toEqual([path, 200]);
    }
    expect(document.paths["/api/v1/tags"].post.requestBody.required).toBe(true);
  });

  test("request bodies are closed: additionalProperties false, and the service refuses an unknown field", async () => {
    for (const entry of operations.filter((entry) => entry.operation.requestBody)) {
      const schema = entry.operation.requestBody.content["application/json"].schema;
      expect([label(entry), schema.additionalProperties]).toEqual([label(entry), false]);
      const response = await t.call(entry.method, urlOf(entry.path), { body: { no_such_field: 1 } });
      expect([label(entry), response.status]).toEqual([label(entry), 400]);
    }
  });

  test("POST /api/v1/import names every CSV column the import reads, and only those", async () => {
    const description: string = document.paths["/api/v1/import"].post.description;
    const described = [...description.matchAll(/^- `(\w+)` \((required|optional)\): /gm)].map((match) => ({
      name: match[1],
      required: match[2] === "required",
    }));
    expect(described.filter((column) => column.required).map((column) => column.name)).toEqual(["title"]);
    // Every column the document names is one the import reads: a row with all of them leaves none unread,
    // while a column it does not name is reported as unread.
    const row = Object.fromEntries(described.map((column) => [column.name, ""]));
    const response = await t.call("POST", "/api/v1/import", {
      body: { data: [{ ...row, title: "Dark mode", votes: "2", colour: "blue" }] },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.imported).toBe(1);
    expect(response.body.data.unreadColumns).toEqual(["colour"]);
    expect(described.length).toBeGreaterThanOrEqual(10);
  });

  test("X-Publishable-Key is a header parameter of the public API, required by the widget's route", async () => {
    for (const entry of operations.filter((entry) => isPublic(entry.path))) {
      const header = entry.operation.parameters.find(
        (parameter: JsonBody) => parameter.in === "header" && parameter.name === "X-Publishable-Key",
      );
      expect([label(entry), header?.required]).toEqual([label(entry), entry.path === "/api/public/widget"]);
    }
    const widget = await t.call("GET", "/api/public/widget", {
      key: null,
      headers: { "x-publishable-key": t.project.publishableKey },
    });
    expect(widget.status).toBe(200);
    expect((await t.call("GET", "/api/public/widget", { key: null })).status).toBe(400);
  });

  test("webhook events are the catalogue's types or *, and endpoint URLs are absolute URIs", async () => {
    const create =
      document.paths["/api/v1/integrations/webhooks"].post.requestBody.content["application/json"].schema;
    expect(create.properties.events.items.enum).toEqual([...EVENT_TYPES, "*"]);
    expect(create.properties.url.format).toBe("uri");
    const update =
      document.paths["/api/v1/integrations/webhooks/{webhookId}"].patch.requestBody.content[
        "application/json"
      ].schema;
    expect(update.properties.url.format).toBe("uri");
    for (const kind of ["team-chat", "community-chat"]) {
      const schema =
        document.paths[`/api/v1/integrations/${kind}`].put.requestBody.content["application/json"].schema;
      expect([kind, schema.properties.webhookUrl.format]).toEqual([kind, "uri"]);
    }
    // The service enforces both, with its own messages.
    const unknownEvent = await t.call("POST", "/api/v1/integrations/webhooks", {
      body: { url: "https://hooks.example.com/in", events: ["post.nonsense"] },
    });
    expect(unknownEvent.status).toBe(400);
    expect(unknownEvent.body.message).toContain("unknown event type");
    const relative = await t.call("POST", "/api/v1/integrations/webhooks", {
      body: { url: "/in", events: ["*"] },
    });
    expect(relative.status).toBe(400);
    expect(relative.body.message).toContain("must be an absolute URL");
    // The annotation that carries the rule is not left in the document.
    expect(JSON.stringify(document)).not.toContain("x-service-rule");
  });
});

test("operationIds are unique identifiers without hyphens", () => {
  const ids = operations.map((entry) => entry.operation.operationId);
  for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]*$/);
  expect(new Set(ids).size).toBe(ids.length);
  expect(document.paths["/api/v1/posts/from-text"].post.operationId).toBe("postApiV1PostsFromText");
});

describe("query defaults", () => {
  test("every list's `limit` states its default, and the service applies that default when it is left out", async () => {
    const lists = operations.filter(
      (entry) =>
        entry.method === "GET" &&
        (entry.operation.parameters ?? []).some((parameter: JsonBody) => parameter.name === "limit"),
    );
    expect(lists.length).toBeGreaterThanOrEqual(7);
    for (const entry of lists) {
      const limit = entry.operation.parameters.find((parameter: JsonBody) => parameter.name === "limit");
      const stated = limit.schema.default;
      expect([label(entry), typeof stated]).toEqual([label(entry), "number"]);
      expect(limit.schema.description).toContain(`default ${stated}`);
      // Paths with parameters need real ids; the lists a client pages through have none but the board slug.
      const needsQuery = entry.operation.parameters.some(
        (parameter: JsonBody) => parameter.in === "query" && parameter.required,
      );
      if (/\{(?!slug\})/.test(entry.path) || needsQuery) continue;
      const url = entry.path.replace("{slug}", "acme");
      const response = await t.call("GET", url, isPublic(url) ? { key: null } : {});
      expect([label(entry), response.status]).toEqual([label(entry), 200]);
      const applied = response.body.pagination?.limit ?? response.body.data.length;
      if (response.body.pagination) expect([label(entry), applied]).toEqual([label(entry), stated]);
    }
  });
});

describe("503 while another process writes", () => {
  test("every operation that may write states the 503 it answers after waiting for another process's write", () => {
    const writes = operations.filter((entry) => !["GET", "HEAD", "OPTIONS"].includes(entry.method));
    expect(writes.length).toBeGreaterThan(30);
    for (const entry of writes) {
      expect([label(entry), statusesOf(entry.operation)]).toEqual([
        label(entry),
        expect.arrayContaining(["503"]),
      ]);
    }
  });
});
