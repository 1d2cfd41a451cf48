import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { WRITE_LOCK_WAIT_MS } from "../../src/db/connection";
import { tempDir } from "../support/app";
import { SOURCE_COMMAND, type ServiceProcess, startServiceProcess } from "../support/process";

/**
 * Another process writing to the database (the CLI, a backup tool) holds SQLite's write lock. The service
 * must go on answering meanwhile, and a change must wait for that write off the event loop: SQLite's own
 * busy handler slept inside the statement, and every request, the health check included, waited up to 5 s.
 */
const dir = tempDir();
const SECRET_KEY = `sk_${"W".repeat(16)}${"4".repeat(16)}`;
const databasePath = join(dir, "shared.db");
let service: ServiceProcess;
let otherProcess: Database;

beforeAll(async () => {
  service = await startServiceProcess(SOURCE_COMMAND, {
    FEATUREBOARD_DB: databasePath,
    FEATUREBOARD_BOOTSTRAP_SECRET_KEY: SECRET_KEY,
  });
  otherProcess = new Database(databasePath);
});
afterAll(async () => {
  otherProcess.close();
  service.proc.kill("SIGTERM");
  await service.exited;
  rmSync(dir, { recursive: true, force: true });
});

const api = (method: string, path: string, body?: object) =>
  fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${SECRET_KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function timed(request: Promise<Response>): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await request;
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

describe("another process writing to the database", () => {
  test("reads, pages and the health check answer at once; a change waits for that write, then is stored", async () => {
    otherProcess.run("BEGIN IMMEDIATE");
    const change = api("POST", "/api/v1/tags", { label: "Written after the other process" });
    await Bun.sleep(100);
    const health = await timed(fetch(`${service.url}/healthz`));
    const read = await timed(api("GET", "/api/v1/tags"));
    // A board page counts a view (a write): served uncounted rather than held.
    const page = await timed(fetch(`${service.url}/b/default`));
    for (const answer of [health, read, page]) {
      expect(answer.status).toBe(200);
      expect(answer.ms).toBeLessThan(1_000);
    }
    await Bun.sleep(200);
    otherProcess.run("ROLLBACK");
    const created = await change;
    expect(created.status).toBe(201);
    const tags = await (await api("GET", "/api/v1/tags")).json();
    expect(tags.data.map((tag: { label: string }) => tag.label)).toContain("Written after the other process");
  });

  test("a write lock held past the wait: 503 SERVICE_UNAVAILABLE with Retry-After, nothing stored, the service fine", async () => {
    otherProcess.run("BEGIN IMMEDIATE");
    try {
      const started = performance.now();
      const refused = await api("POST", "/api/v1/tags", { label: "Never stored" });
      expect(performance.now() - started).toBeGreaterThanOrEqual(WRITE_LOCK_WAIT_MS - 100);
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("1");
      const body = await refused.json();
      expect(body).toMatchObject({ error_code: "SERVICE_UNAVAILABLE", retry: true });
    } finally {
      otherProcess.run("ROLLBACK");
    }
    const tags = await (await api("GET", "/api/v1/tags")).json();
    expect(tags.data.map((tag: { label: string }) => tag.label)).not.toContain("Never stored");
    expect((await api("POST", "/api/v1/tags", { label: "After the other process" })).status).toBe(201);
  });
});
