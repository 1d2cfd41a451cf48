// Requests in-process with the database handle's statements compiled once (`withPlainBindings`,
// src/db/connection.ts) against bun:sqlite's own `query`, which SQLite 3.54 compiles again at every run for
// a `column = ?` of a join or ORDER BY query and a `LIMIT ?` (docs/performance.md, "Statements compiled
// again at every run"). Each build runs in a process of its own, alternated, three times.
//
//   npx bun bench/prepared-statements.ts

import { Database } from "bun:sqlite";
import { Db } from "../src/db/connection";
import { createTestApp } from "../test/support/app";

const ROUNDS = 3;
const CALLS = 1_000;
const WARM_UP = 200;
const PATHS = [
  "/api/v1/tags",
  "/api/v1/roadmap",
  "/api/v1/activity?limit=20",
  "/api/public/boards/acme/posts?limit=20",
  "/api/v1/posts?limit=20&sort=votes",
  "/api/v1/posts?limit=20",
];

/** One build's figures: microseconds per call of each path, printed as JSON for the parent. */
async function measure(compiledOnce: boolean): Promise<Record<string, number>> {
  if (!compiledOnce) Db.prototype.query = Database.prototype.query;
  const t = createTestApp();
  try {
    for (let i = 0; i < 300; i++) {
      await t.call("POST", "/api/v1/posts", { body: { title: `Request number ${i}`, description: "Text" } });
    }
    const figures: Record<string, number> = {};
    for (const path of PATHS) {
      const key = path.startsWith("/api/public") ? null : undefined;
      for (let i = 0; i < WARM_UP; i++) await t.call("GET", path, { key });
      const started = performance.now();
      for (let i = 0; i < CALLS; i++) {
        const response = await t.call("GET", path, { key });
        if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
      }
      figures[path] = ((performance.now() - started) * 1000) / CALLS;
    }
    return figures;
  } finally {
    t.close();
  }
}

const mode = process.argv[2];
if (mode === "once" || mode === "every-run") {
  console.log(JSON.stringify(await measure(mode === "once")));
} else {
  const runs: Record<"once" | "every-run", Record<string, number>[]> = { once: [], "every-run": [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const build of ["every-run", "once"] as const) {
      const child = Bun.spawn([process.execPath, import.meta.path, build], {
        stdout: "pipe",
        stderr: "inherit",
      });
      const output = await new Response(child.stdout).text();
      if ((await child.exited) !== 0) throw new Error(`the ${build} run failed`);
      runs[build].push(JSON.parse(output.trim().split("\n").at(-1) ?? "{}") as Record<string, number>);
    }
  }
  const range = (values: number[]) =>
    `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)} µs`.padStart(14);
  console.log(`${"request".padEnd(42)} ${"every run".padStart(14)} ${"once".padStart(14)}`);
  for (const path of PATHS) {
    const of = (build: "once" | "every-run") => runs[build].map((figures) => figures[path] ?? NaN);
    console.log(`${path.padEnd(42)} ${range(of("every-run"))} ${range(of("once"))}`);
  }
}
