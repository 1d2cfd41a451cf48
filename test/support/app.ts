import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type App, createApp } from "../../src/app";
import { loadConfig } from "../../src/config";
import type { AppContext } from "../../src/context";
import { createLogger } from "../../src/log";
import { type CreatedProject, createProject } from "../../src/projects/service";
import { createContext } from "../../src/server";
import { closeDatabase } from "../../src/db/connection";

export const TEST_ORIGIN = "http://localhost";

/** A temporary directory removed when the test file's `cleanup` runs. */
export function tempDir(prefix = "featureboard-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface TestApp {
  app: App;
  ctx: AppContext;
  dir: string;
  /** The default test project (plan growth) and its keys. */
  project: CreatedProject;
  /** A second project: its entities must stay invisible to the first one's key. */
  other: CreatedProject;
  call(method: string, path: string, options?: CallOptions): Promise<TestResponse>;
  close(): void;
}

export interface CallOptions {
  /** A secret key, `null` for no Authorization header; defaults to the test project's secret key. */
  key?: string | null;
  body?: unknown;
  /** Sent as-is instead of JSON-encoding `body`. */
  rawBody?: string;
  headers?: Record<string, string>;
}

/** A parsed response body: tests walk arbitrary JSON and let the assertions check its shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the one loosely typed value in the suite, asserted on by every test.
export type JsonBody = any;

export async function readJson(response: Response): Promise<JsonBody> {
  return response.json();
}

function parseOrNull(text: string): JsonBody {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: JsonBody;
  text: string;
}

/**
 * A real app over a real SQLite file in a temporary directory, called in-process with `app.handle`.
 * `env` overrides configuration variables exactly as the environment would.
 */
export function createTestApp(
  env: Record<string, string> = {},
  /** Receives every log line (at the configured level), for tests of what is logged. */
  logLine?: (line: string) => void,
): TestApp {
  const dir = tempDir();
  const config = loadConfig({
    FEATUREBOARD_DB: join(dir, "test.db"),
    FEATUREBOARD_LOG_LEVEL: "silent",
    // Tests set up data in bursts; the rate-limit tests choose their own small limits.
    FEATUREBOARD_RATE_LIMIT_KEY_PER_MINUTE: "1000000",
    FEATUREBOARD_RATE_LIMIT_KEY_BURST: "100000",
    FEATUREBOARD_RATE_LIMIT_IP_PER_MINUTE: "1000000",
    FEATUREBOARD_RATE_LIMIT_IP_BURST: "100000",
    FEATUREBOARD_RATE_LIMIT_PAGE_PER_MINUTE: "1000000",
    FEATUREBOARD_RATE_LIMIT_PAGE_BURST: "100000",
    ...env,
  });
  const ctx = createContext(config, createLogger(config.logLevel, logLine));
  const app = createApp(ctx);
  const project = createProject(ctx.db, { slug: "acme", name: "Acme", plan: "growth" });
  const other = createProject(ctx.db, { slug: "other-co", name: "Other", plan: "growth" });

  async function call(method: string, path: string, options: CallOptions = {}): Promise<TestResponse> {
    const key = options.key === undefined ? project.secretKey : options.key;
    const headers: Record<string, string> = { ...options.headers };
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let body: string | undefined = options.rawBody;
    if (body === undefined && options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const response = await app.handle(new Request(TEST_ORIGIN + path, { method, headers, body }));
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: parseOrNull(text), text };
  }

  return {
    app,
    ctx,
    dir,
    project,
    other,
    call,
    close() {
      closeDatabase(ctx.db);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const API_ERROR_FIELDS = [
  "error_code",
  "message",
  "resolution_hint",
  "retry",
  "docs_url",
  "error",
  "suggestion",
];

/** Asserts the ApiError shape of docs/decisions.md ("API behaviour") and returns the body for further checks. */
export function expectApiError(response: TestResponse, status: number, code: string) {
  if (response.status !== status || response.body?.error_code !== code) {
    throw new Error(`expected ${status} ${code}, got ${response.status}: ${response.text}`);
  }
  for (const field of API_ERROR_FIELDS) {
    if (!(field in response.body)) throw new Error(`ApiError lacks ${field}: ${response.text}`);
  }
  if (response.body.error !== response.body.message) throw new Error("error must equal message");
  if (response.body.suggestion !== response.body.resolution_hint)
    throw new Error("suggestion must equal resolution_hint");
  if (typeof response.body.retry !== "boolean") throw new Error("retry must be a boolean");
  return response.body;
}
