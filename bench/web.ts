// Board pages benchmark (issue: public board pages). Seeds a public board with many posts, then renders
// each page in-process (`app.handle`, no network) one request at a time and prints the median time and
// the page's size, beside the public API's JSON listing of the same posts as the reference. The figures
// go in docs/web.md.
//
//   npx bun bench/web.ts [--posts 100000] [--runs 20]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createApp } from "../src/app";
import { loadConfig } from "../src/config";
import { closeDatabase, inTransaction } from "../src/db/connection";
import { createLogger } from "../src/log";
import { createProject } from "../src/projects/service";
import { createContext } from "../src/server";

const { values } = parseArgs({
  options: { posts: { type: "string", default: "100000" }, runs: { type: "string", default: "20" } },
});
const POSTS = Number(values.posts);
const RUNS = Number(values.runs);
const dir = mkdtempSync(join(tmpdir(), "featureboard-bench-web-"));

const config = loadConfig({
  FEATUREBOARD_DB: join(dir, "bench.db"),
  FEATUREBOARD_CACHE_DIR: join(dir, "cache"),
  FEATUREBOARD_LOG_LEVEL: "silent",
  FEATUREBOARD_RATE_LIMIT_IP_PER_MINUTE: "1000000",
  FEATUREBOARD_RATE_LIMIT_IP_BURST: "1000000",
});
const ctx = createContext(config, createLogger(config.logLevel));
const app = createApp(ctx);
const { project } = createProject(ctx.db, { slug: "bench", name: "Bench" });

const STATUSES = ["APPROVED", "IN_PROGRESS", "COMPLETE", "PENDING", "CLOSED"];
const tagIds: string[] = [];
let somePostId = "";
inTransaction(ctx.db, () => {
  const now = Date.now();
  for (let i = 0; i < 20; i++) {
    const id = Bun.randomUUIDv7();
    tagIds.push(id);
    ctx.db
      .query(
        "INSERT INTO tags (id, project_id, label, theme, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .run(id, project.id, `Tag ${i}`, "#6366f1", now, now);
  }
  const insertPost = ctx.db.query(
    `INSERT INTO posts (id, project_id, title, description, status, vote_count, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertTag = ctx.db.query("INSERT INTO post_tags (post_id, tag_id) VALUES (?, ?)");
  for (let i = 0; i < POSTS; i++) {
    const id = Bun.randomUUIDv7();
    if (i === 0) somePostId = id;
    const description = `Request ${i}: a description of a few sentences, as customers write them. `.repeat(4);
    insertPost.run(
      id,
      project.id,
      `Feature request ${i}`,
      description,
      STATUSES[i % 5]!,
      i % 997,
      now - i * 60_000,
      now,
    );
    insertTag.run(id, tagIds[i % 20]!);
  }
});
ctx.db.query("ANALYZE").run();

const cases: [string, string][] = [
  ["public API listing (JSON, reference)", "/api/public/boards/bench/posts?limit=20"],
  ["board, by votes", "/b/bench"],
  ["board, newest", "/b/bench?sort=new"],
  ["board, one tag", `/b/bench?tag=${tagIds[1]}`],
  ["board, search", "/b/bench?q=request+99"],
  ["board, page 100", "/b/bench?page=100"],
  ["post", `/b/bench/posts/${somePostId}`],
  ["roadmap", "/b/bench/roadmap"],
  ["changelog", "/b/bench/changelog"],
];

console.log(`${POSTS} posts (${(POSTS * 3) / 5} visible), median of ${RUNS} runs, one request at a time`);
for (const [name, path] of cases) {
  const times: number[] = [];
  let bytes = 0;
  for (let run = 0; run <= RUNS; run++) {
    const started = performance.now();
    const response = await app.handle(new Request(`http://localhost${path}`));
    const body = await response.text();
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${body.slice(0, 200)}`);
    // The first run warms statement caches and is not counted.
    if (run > 0) times.push(performance.now() - started);
    bytes = body.length;
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  console.log(
    `${name.padEnd(38)} ${median.toFixed(2).padStart(8)} ms ${(bytes / 1024).toFixed(1).padStart(7)} KB`,
  );
}

closeDatabase(ctx.db);
rmSync(dir, { recursive: true, force: true });
