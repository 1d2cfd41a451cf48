import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createTestApp, type TestApp } from "../support/app";

/**
 * The OpenAPI document checked by the tools integrators run on it, with their default rulesets:
 * Redocly CLI (`recommended`) and Spectral (`spectral:oas`, .spectral.yaml). Both must report 0 errors.
 */
const ROOT = new URL("../../", import.meta.url).pathname;
const BIN = join(ROOT, "node_modules/.bin");

let t: TestApp;
let documentPath: string;

beforeAll(async () => {
  t = createTestApp({ FEATUREBOARD_PUBLIC_URL: "https://board.example.org" });
  const response = await t.call("GET", "/api/v1/openapi.json", { key: null });
  expect(response.status).toBe(200);
  documentPath = join(t.dir, "openapi.json");
  writeFileSync(documentPath, response.text);
});
afterAll(() => t.close());

function run(command: string[]) {
  const result = Bun.spawnSync(command, { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" } });
  // The reports are on stdout; stderr carries notices (such as Redocly's Node.js deprecation box).
  return { exitCode: result.exitCode, output: result.stdout.toString(), notices: result.stderr.toString() };
}

describe("the OpenAPI document passes the ecosystem's linters", () => {
  test("@redocly/cli lint (recommended rules): 0 errors", () => {
    const result = run([join(BIN, "redocly"), "lint", documentPath, "--format=json", "--max-problems=1000"]);
    const report = JSON.parse(result.output.slice(result.output.indexOf("{")));
    const errors = report.problems.filter((problem: { severity: string }) => problem.severity === "error");
    expect(errors).toEqual([]);
    expect(result.exitCode).toBe(0);
  }, 60_000);

  test("@stoplight/spectral-cli lint (spectral:oas): 0 errors", () => {
    const result = run([
      join(BIN, "spectral"),
      "lint",
      documentPath,
      "--ruleset",
      join(ROOT, ".spectral.yaml"),
      "--format=json",
      "--fail-severity=error",
    ]);
    const report = JSON.parse(result.output.slice(result.output.indexOf("[")));
    // Spectral's severities: 0 error, 1 warning, 2 information, 3 hint.
    const errors = report.filter((problem: { severity: number }) => problem.severity === 0);
    expect(errors).toEqual([]);
    expect(result.exitCode).toBe(0);
  }, 60_000);

  test("no 3.0 or non-standard keywords, and integers are integers", async () => {
    const text = (await t.call("GET", "/api/v1/openapi.json", { key: null })).text;
    expect(text).not.toContain('"nullable"');
    expect(text).not.toContain('"format":"integer"');
    const document = JSON.parse(text);
    const total =
      document.paths["/api/v1/posts"].get.responses["200"].content["application/json"].schema.properties
        .pagination.properties.total;
    expect(total.type).toBe("integer");
    for (const operations of Object.values(document.paths) as Record<string, { security?: unknown }>[]) {
      for (const operation of Object.values(operations)) expect(operation.security).toBeDefined();
    }
  });
});

/** A program an integrator would write against the generated client; it must type-check under strict. */
const CLIENT_PROGRAM = `import createClient from "openapi-fetch";
import type { paths } from "./api";

const client = createClient<paths>({ baseUrl: "http://localhost:3000", headers: { authorization: "Bearer sk_x" } });

export async function demo(): Promise<number> {
  const { data, error } = await client.GET("/api/v1/posts", { params: { query: { limit: 10, status: "APPROVED" } } });
  if (error) return error.error_code.length;
  const total: number = data.pagination.total;
  // @ts-expect-error an integer field is a number, never "string | number"
  const wrong: string = data.pagination.total;
  const firstTitle: string | undefined = data.data[0]?.title;
  const created = await client.POST("/api/v1/tags", { body: { label: "Mobile" } });
  const label: string | undefined = created.data?.data.label;
  // An optional body may be left out; the public API's key is a typed header parameter.
  const summary = await client.POST("/api/v1/ai/summary");
  const summaryText: string | undefined = summary.data?.data.summary;
  const widget = await client.GET("/api/public/widget", { params: { header: { "X-Publishable-Key": "pk_x" } } });
  const boardName: string | undefined = widget.data?.data.name;
  // @ts-expect-error the widget's route requires the publishable key
  await client.GET("/api/public/widget", { params: { header: {} } });
  return total + wrong.length + (firstTitle?.length ?? 0) + (label?.length ?? 0) + (summaryText?.length ?? 0) + (boardName?.length ?? 0);
}
`;

describe("a typed client generated from the document", () => {
  test("openapi-typescript generates it and a program using it with openapi-fetch type-checks", () => {
    const dir = join(t.dir, "client");
    mkdirSync(dir);
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
    const generated = run([join(BIN, "openapi-typescript"), documentPath, "-o", join(dir, "api.d.ts")]);
    expect(generated.exitCode).toBe(0);
    writeFileSync(join(dir, "use.ts"), CLIENT_PROGRAM);
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: "ESNext",
          moduleResolution: "Bundler",
          target: "ES2022",
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ["use.ts", "api.d.ts"],
      }),
    );
    const checked = run([join(BIN, "tsc"), "-p", dir]);
    expect(checked.output).toBe("");
    expect(checked.exitCode).toBe(0);
  }, 120_000);
});
