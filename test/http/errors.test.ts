import { afterAll, describe, expect, test } from "bun:test";
import { ParseError } from "elysia";
import { toApiError } from "../../src/http/error-handler";
import { createTestApp, expectApiError, TEST_ORIGIN } from "../support/app";
import { makePost } from "../support/board";

const t = createTestApp();
// A route added only in this test: the error mapper is global, so it must cover it like any other.
t.app.get("/api/v1/test-only/explode", () => {
  throw new Error("database password is hunter2 at /srv/secret.ts:12");
});
afterAll(() => t.close());

const MiB = 1024 * 1024;

describe("every failure is an ApiError", () => {
  test("malformed JSON → 400 INVALID_JSON", async () => {
    const response = await t.call("POST", "/api/v1/tags", {
      rawBody: '{"label": ',
      headers: { "content-type": "application/json" },
    });
    expectApiError(response, 400, "INVALID_JSON");
  });

  test("a body that is not UTF-8 → 400 INVALID_JSON, and nothing is stored with replacement characters", async () => {
    const encode = (text: string) => new TextEncoder().encode(text);
    const send = (bytes: Uint8Array<ArrayBuffer>) =>
      t.app.handle(
        new Request(`${TEST_ORIGIN}/api/v1/tags`, {
          method: "POST",
          headers: { authorization: `Bearer ${t.project.secretKey}`, "content-type": "application/json" },
          body: bytes,
        }),
      );
    const refused = await send(new Uint8Array([...encode('{"label":"bad'), 0xff, 0xfe, ...encode('utf"}')]));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error_code: "INVALID_JSON",
      message: "Request body is not valid UTF-8",
    });
    const tags = await t.call("GET", "/api/v1/tags");
    expect(JSON.stringify(tags.body.data)).not.toContain("\ufffd");
    // UTF-8 of every script goes through as sent.
    const accepted = await send(new Uint8Array(encode('{"label":"Çà va — 日本"}')));
    expect(accepted.status).toBe(201);
    expect((await accepted.json()).data.label).toBe("Çà va — 日本");
  });

  test("a wrong-typed field → 400 VALIDATION_ERROR naming the field", async () => {
    const body = expectApiError(
      await t.call("POST", "/api/v1/tags", { body: { label: 42 } }),
      400,
      "VALIDATION_ERROR",
    );
    expect(body.message).toContain("label");
  });

  test("an out-of-range integer or a too-long nullable string in a body says the bound, as in a query", async () => {
    const cases: [string, string, Record<string, unknown>, string][] = [
      ["POST", "/api/v1/ai/triage", { limit: 101 }, "Invalid 'limit' in body: must be at most 100"],
      ["POST", "/api/v1/ai/sprint-plan", { capacity: 0 }, "Invalid 'capacity' in body: must be at least 1"],
      ["POST", "/api/v1/ai/sprint-plan", { capacity: 51 }, "Invalid 'capacity' in body: must be at most 50"],
      [
        "POST",
        "/api/v1/posts",
        { title: "ok", description: "x".repeat(10_001) },
        "must be at most 10000 characters",
      ],
    ];
    for (const [method, path, body, message] of cases) {
      const error = expectApiError(await t.call(method, path, { body }), 400, "VALIDATION_ERROR");
      expect(error.message).toContain(message);
    }
    const query = expectApiError(
      await t.call("GET", "/api/v1/posts/similar?query=x&limit=51"),
      400,
      "VALIDATION_ERROR",
    );
    expect(query.message).toBe("Invalid 'limit' in query: must be at most 50");
    // A value of another type still names what is wanted.
    const wrongType = expectApiError(
      await t.call("POST", "/api/v1/ai/sprint-plan", { body: { capacity: true } }),
      400,
      "VALIDATION_ERROR",
    );
    expect(wrongType.message).toContain("an integer");
  });

  test("a query's integer is written in decimal digits: hex, exponents, fractions and spaces are refused", async () => {
    for (const written of ["0x10", "1e1", "%205", "5.0", "+5", "", "1_0"]) {
      const error = expectApiError(
        await t.call("GET", `/api/v1/posts/similar?query=x&limit=${written}`),
        400,
        "VALIDATION_ERROR",
      );
      expect(error.message).toStartWith("Invalid 'limit' in query:");
    }
    expect((await t.call("GET", "/api/v1/posts/similar?query=x&limit=10")).status).toBe(200);
    expect((await t.call("GET", "/api/v1/posts?page=2&limit=5")).status).toBe(200);
  });

  test("a value of the right kind with a wrong part says which part: item 1 of the rows, not the whole", async () => {
    const item = expectApiError(
      await t.call("POST", "/api/v1/import", { body: { data: [5] } }),
      400,
      "VALIDATION_ERROR",
    );
    expect(item.message).toBe("Invalid 'data' in body: item 1: must be an object");
    // A value of neither kind still names both.
    const neither = expectApiError(
      await t.call("POST", "/api/v1/import", { body: { data: "rows" } }),
      400,
      "VALIDATION_ERROR",
    );
    expect(neither.message).toBe("Invalid 'data' in body: must be an array or an object");
  });

  test("a body's integer is a JSON number, and a __proto__ key is refused like any unknown field", async () => {
    const asString = expectApiError(
      await t.call("POST", "/api/v1/ai/triage", { body: { limit: "5" } }),
      400,
      "VALIDATION_ERROR",
    );
    expect(asString.message).toBe("Invalid 'limit' in body: must be an integer");
    for (const path of ["/api/v1/ai/triage", "/api/v1/ai/sprint-plan"]) {
      const proto = expectApiError(
        await t.call("POST", path, {
          rawBody: '{"__proto__":{"limit":1}}',
          headers: { "content-type": "application/json" },
        }),
        400,
        "VALIDATION_ERROR",
      );
      expect(proto.message).toBe("Invalid '__proto__' in body: is not a known field");
    }
  });

  test("an unknown field is refused, naming it", async () => {
    const body = expectApiError(
      await t.call("POST", "/api/v1/tags", { body: { label: "ok", colour: "#fff" } }),
      400,
      "VALIDATION_ERROR",
    );
    expect(body.message).toContain("colour");
  });

  test("a missing body → 400 VALIDATION_ERROR", async () => {
    const missing = expectApiError(await t.call("POST", "/api/v1/tags"), 400, "VALIDATION_ERROR");
    expect(missing.message).toBe("Invalid body: must be an object");
  });

  test("a field named like its location (a comment's body, the similar search's query) is named as a field", async () => {
    const { id: postId } = await makePost(t, { title: "Field names" });
    const comment = expectApiError(
      await t.call("POST", `/api/v1/posts/${postId}/comments`, { body: {} }),
      400,
      "VALIDATION_ERROR",
    );
    expect(comment.message).toBe("Invalid 'body' in body: is required");
    expect(comment.resolution_hint).toStartWith("Fix 'body'");
    const search = expectApiError(await t.call("GET", "/api/v1/posts/similar"), 400, "VALIDATION_ERROR");
    expect(search.message).toBe("Invalid 'query' in query: is required");
  });

  test("JSON sent with a form Content-Type (curl -d) is still read as JSON", async () => {
    const response = await t.call("POST", "/api/v1/tags", {
      rawBody: '{"label":"From curl"}',
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(response.status).toBe(201);
  });

  test("an unknown route → 404 ROUTE_NOT_FOUND", async () => {
    expectApiError(await t.call("GET", "/api/v1/does-not-exist"), 404, "ROUTE_NOT_FOUND");
    expectApiError(await t.call("DELETE", "/nowhere", { key: null }), 404, "ROUTE_NOT_FOUND");
  });

  test("a 2 MiB body → 413 PAYLOAD_TOO_LARGE, and nothing is stored", async () => {
    const before = (await t.call("GET", "/api/v1/tags")).body.data.length;
    const response = await t.call("POST", "/api/v1/tags", { body: { label: "x".repeat(2 * MiB) } });
    expectApiError(response, 413, "PAYLOAD_TOO_LARGE");
    expect((await t.call("GET", "/api/v1/tags")).body.data.length).toBe(before);
  });

  test("a 2 MiB chunked body without Content-Length → 413 PAYLOAD_TOO_LARGE", async () => {
    const chunk = new TextEncoder().encode("x".repeat(256 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 8) return controller.close();
        sent += 1;
        controller.enqueue(chunk);
      },
    });
    const request = new Request(`${TEST_ORIGIN}/api/v1/tags`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.project.secretKey}`, "content-type": "application/json" },
      body: stream,
    });
    expect(request.headers.get("content-length")).toBeNull();
    const response = await t.app.handle(request);
    const text = await response.text();
    expectApiError(
      { status: response.status, headers: response.headers, body: JSON.parse(text), text },
      413,
      "PAYLOAD_TOO_LARGE",
    );
  });

  test("an exception inside a handler → 500 INTERNAL_ERROR without internals", async () => {
    const response = await t.call("GET", "/api/v1/test-only/explode");
    const body = expectApiError(response, 500, "INTERNAL_ERROR");
    expect(body.retry).toBe(true);
    expect(response.text).not.toContain("hunter2");
    expect(response.text).not.toContain("secret.ts");
    expect(response.text).not.toContain("at ");
  });

  test("docs_url points at the error's anchor in the API docs", async () => {
    const body = expectApiError(
      await t.call("GET", "/api/v1/tags", { key: null }),
      401,
      "SECRET_KEY_REQUIRED",
    );
    expect(body.docs_url).toBe("http://localhost:3000/api/v1/docs#errors-SECRET_KEY_REQUIRED");
  });

  test("every response, error or not, carries an X-Request-Id; a sane incoming one is kept", async () => {
    const ok = await t.call("GET", "/api/v1/tags");
    const failed = await t.call("GET", "/api/v1/nope");
    expect(ok.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(failed.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const traced = await t.call("GET", "/api/v1/tags", { headers: { "x-request-id": "trace-123" } });
    expect(traced.headers.get("x-request-id")).toBe("trace-123");
    const hostile = await t.call("GET", "/api/v1/tags", { headers: { "x-request-id": "<script>" } });
    expect(hostile.headers.get("x-request-id")).not.toBe("<script>");
  });
});

describe("a body the parser could not read", () => {
  test("is a 400 INVALID_JSON; an error other than the text's own SyntaxError (a bug) is logged too", () => {
    const lines: string[] = [];
    const logged = createTestApp({ FEATUREBOARD_LOG_LEVEL: "warn" }, (line) => lines.push(line));
    try {
      const request = new Request("http://localhost/api/v1/tags", { method: "POST" });
      const syntax = toApiError(
        "PARSE",
        new ParseError(new SyntaxError("Unexpected end")),
        logged.ctx,
        request,
      );
      expect(syntax.code).toBe("INVALID_JSON");
      expect(lines).toEqual([]);
      const bug = toApiError(
        "PARSE",
        new ParseError(new TypeError("hook is not a function")),
        logged.ctx,
        request,
      );
      expect(bug.code).toBe("INVALID_JSON");
      expect(lines.join("\n")).toContain("hook is not a function");
    } finally {
      logged.close();
    }
  });
});
