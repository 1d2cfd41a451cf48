import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { tempDir } from "../support/app";
import { type ServiceProcess, SOURCE_COMMAND, startServiceProcess } from "../support/process";

/**
 * Property-based fuzzing from the service's own OpenAPI document (issue 13): requests derived from every
 * operation, mutated (wrong types, deep nesting, huge numbers, unknown fields, non-object bodies, odd
 * headers), sent to a real server process over real sockets. Never a 5xx, never a non-JSON answer under
 * /api, never a stack trace, and the process still answers. CI runs a fixed seed; `npm run fuzz` runs long.
 */
const RUNS = Number(process.env.FEATUREBOARD_FUZZ_RUNS ?? 1000);
const SEED = Number(process.env.FEATUREBOARD_FUZZ_SEED ?? 1313);
const SECRET_KEY = "sk_fuzzfuzzfuzzfuzzfuzzfuzzfuzzfuzz";

interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  bodyFields: string[];
}

interface OpenApiOperation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

function operationsOf(document: { paths: Record<string, Record<string, OpenApiOperation>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      const parameters = operation.parameters ?? [];
      const body = Object.values(operation.requestBody?.content ?? {})[0]?.schema?.properties ?? {};
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === "path").map((p) => p.name),
        queryParams: parameters.filter((p) => p.in === "query").map((p) => p.name),
        bodyFields: Object.keys(body),
      });
    }
  }
  return operations;
}

const nastyNumber = fc.oneof(
  fc.constantFrom(
    "99999999999999999999",
    "-1",
    "0",
    "1e309",
    "NaN",
    "-0",
    "0x10",
    "9223372036854775808",
    "1.5",
    "",
  ),
  fc.bigInt().map(String),
);
const nastyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom("..", "../..", "%00", "null", "[]", "{}", "ü", "\u0000", "a".repeat(5000), "' OR 1=1 --"),
);
const scalar = fc.oneof({ weight: 3, arbitrary: nastyNumber }, { weight: 2, arbitrary: nastyText });

function deep(depth: number, open: string, close: string, inner = "1"): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

/** A JSON value from the given field names, mutated: wrong types, nesting, unknown fields. */
function jsonValueFor(fields: string[]): fc.Arbitrary<unknown> {
  const fieldName = fields.length > 0 ? fc.oneof(fc.constantFrom(...fields), fc.string()) : fc.string();
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    scalar,
    fc.constantFrom(Number.MAX_SAFE_INTEGER, -1, 1e300, 0.5, true, null),
  );
  return fc.dictionary(fieldName, value, { maxKeys: 6 });
}

function bodyFor(operation: Operation): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 4, arbitrary: jsonValueFor(operation.bodyFields).map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        "42",
        '"text"',
        "[]",
        "null",
        "{",
        "not json",
        deep(5000, "[", "]", ""),
        `{"a":${deep(3000, '{"b":', "}")}}`,
        '{"title":"x","metadata":' + deep(200, '{"m":', "}") + "}",
        JSON.stringify({ items: Array.from({ length: 150 }, () => ({ id: "x" })) }),
      ),
    },
  );
}

function requestFor(operation: Operation) {
  return fc.record({
    pathValues: fc.array(fc.oneof(nastyText, fc.constant("existing")), {
      minLength: operation.pathParams.length,
      maxLength: operation.pathParams.length,
    }),
    query: fc.array(
      fc.tuple(
        operation.queryParams.length > 0
          ? fc.oneof(
              { weight: 4, arbitrary: fc.constantFrom(...operation.queryParams) },
              { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
            )
          : fc.string({ maxLength: 8 }),
        scalar,
      ),
      { maxLength: 4 },
    ),
    body: bodyFor(operation),
    auth: fc.oneof(
      { weight: 4, arbitrary: fc.constant<string | null>(`Bearer ${SECRET_KEY}`) },
      {
        weight: 1,
        arbitrary: fc.constantFrom<string | null>(null, "Bearer junk", "Basic x", "Bearer pk_nope"),
      },
    ),
    contentType: fc.constantFrom<string | null>(
      null,
      "application/json",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ),
  });
}

let dir: string;
let service: ServiceProcess;
let operations: Operation[];

beforeAll(async () => {
  dir = tempDir();
  service = await startServiceProcess(SOURCE_COMMAND, {
    FEATUREBOARD_DB: join(dir, "fuzz.db"),
    FEATUREBOARD_BOOTSTRAP_SECRET_KEY: SECRET_KEY,
    FEATUREBOARD_RATE_LIMIT_KEY_PER_MINUTE: "1000000",
    FEATUREBOARD_RATE_LIMIT_KEY_BURST: "100000",
    FEATUREBOARD_RATE_LIMIT_IP_PER_MINUTE: "1000000",
    FEATUREBOARD_RATE_LIMIT_IP_BURST: "100000",
    FEATUREBOARD_RATE_LIMIT_AI_PER_MINUTE: "1000000",
    FEATUREBOARD_RATE_LIMIT_AI_BURST: "100000",
  });
  const document = await (await fetch(`${service.url}/api/v1/openapi.json`)).json();
  operations = operationsOf(document);
});

afterAll(async () => {
  service.proc.kill();
  await service.exited;
  rmSync(dir, { recursive: true, force: true });
});

test(
  "requests derived from the OpenAPI document and mutated never get a 5xx, HTML under /api, or internals",
  async () => {
    expect(operations.length).toBeGreaterThan(40);
    const cwd = process.cwd();
    const property = fc.asyncProperty(
      fc
        .constantFrom(...operations)
        .chain((operation) => requestFor(operation).map((request) => ({ operation, request }))),
      async ({ operation, request }) => {
        let path = operation.path;
        operation.pathParams.forEach((name, index) => {
          path = path.replace(`{${name}}`, encodeURIComponent(request.pathValues[index] ?? "x") || "x");
        });
        const query = new URLSearchParams(request.query);
        const url = `${service.url}${path}${request.query.length > 0 ? `?${query}` : ""}`;
        const headers: Record<string, string> = {};
        if (request.auth !== null) headers.authorization = request.auth;
        if (request.contentType !== null) headers["content-type"] = request.contentType;
        const response = await fetch(url, {
          method: operation.method,
          headers,
          body: operation.method === "GET" || operation.method === "DELETE" ? undefined : request.body,
          signal: AbortSignal.timeout(15_000),
        });
        const text = await response.text();
        const context = `${operation.method} ${url} → ${response.status} ${text.slice(0, 300)}`;
        expect(response.status, context).toBeLessThan(500);
        const isDocsPage = path === "/api/v1/docs";
        if (!isDocsPage) expect(response.headers.get("content-type") ?? "", context).toContain("json");
        expect(text.includes(cwd), context).toBe(false);
        expect(/\bat .+\.(ts|js):\d+/.test(text), context).toBe(false);
      },
    );
    await fc.assert(property, { numRuns: RUNS, seed: SEED, endOnFailure: true });
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    expect(service.proc.exitCode).toBeNull();
  },
  { timeout: 600_000 },
);

test("odd Host headers over a raw socket are answered and the process keeps serving", async () => {
  const { port } = new URL(service.url);
  await fc.assert(
    fc.asyncProperty(fc.option(fc.string({ maxLength: 20 }), { nil: undefined }), async (host) => {
      const clean = host?.replace(/[\r\n]/g, "");
      const head = clean === undefined ? "" : `Host: ${clean}\r\n`;
      const answer = await new Promise<string>((resolve) => {
        let received = "";
        const timer = setTimeout(() => resolve(received), 3000);
        void Bun.connect({
          hostname: "127.0.0.1",
          port: Number(port),
          socket: {
            open: (socket) => void socket.write(`GET /api/v1/ HTTP/1.0\r\n${head}\r\n`),
            data: (_socket, chunk) => void (received += new TextDecoder().decode(chunk)),
            close: () => {
              clearTimeout(timer);
              resolve(received);
            },
          },
        });
      });
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0);
      expect(status, `Host ${JSON.stringify(clean)}: ${answer.slice(0, 200)}`).toBeGreaterThanOrEqual(200);
      expect(status, `Host ${JSON.stringify(clean)}: ${answer.slice(0, 200)}`).toBeLessThan(500);
    }),
    { numRuns: Math.min(RUNS, 60), seed: SEED },
  );
  expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
});
