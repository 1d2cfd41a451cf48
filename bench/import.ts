// Import benchmark (issue: Roadmap, releases, analytics, import). Imports 10,000 csv rows (3 of them bad)
// through POST /import, in-process over app.handle, and beside it a baseline measured in the same run: raw
// SQLite inserts of the same rows (posts, tags, users, votes, comments) in one transaction, with no
// validation, activity, events or HTTP. Prints each median and the ratio; the figure goes in
// docs/performance.md.
//
//   npx bun bench/import.ts [--rows 10000] [--runs 3]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createApp } from "../src/app";
import { loadConfig } from "../src/config";
import { closeDatabase, commitNow, type Db, inTransaction } from "../src/db/connection";
import { createLogger } from "../src/log";
import { createProject } from "../src/projects/service";
import { createContext } from "../src/server";
import { badRowsOf, type ImportRow, importRows } from "./import-rows";

const { values } = parseArgs({
  options: { rows: { type: "string", default: "10000" }, runs: { type: "string", default: "3" } },
});
const ROWS = Number(values.rows);
const RUNS = Number(values.runs);
const BAD_ROWS = badRowsOf(ROWS);

const dir = mkdtempSync(join(tmpdir(), "featureboard-bench-import-"));
const config = loadConfig({
  FEATUREBOARD_DB: join(dir, "bench.db"),
  FEATUREBOARD_LOG_LEVEL: "silent",
  FEATUREBOARD_RATE_LIMIT_KEY_PER_MINUTE: "1000000",
  FEATUREBOARD_RATE_LIMIT_KEY_BURST: "100000",
});
const ctx = createContext(config, createLogger(config.logLevel));
const app = createApp(ctx);
const db = ctx.db;

async function featureboardImport(rows: ImportRow[], run: number): Promise<number> {
  const { secretKey } = createProject(db, { slug: `import-${run}`, plan: "growth" });
  commitNow(db);
  const body = JSON.stringify({ source: "csv", data: rows });
  const started = performance.now();
  const response = await app.handle(
    new Request("http://localhost/api/v1/import", {
      method: "POST",
      headers: { authorization: `Bearer ${secretKey}`, "content-type": "application/json" },
      body,
    }),
  );
  const result = (await response.json()) as { data: { imported: number; errors: unknown[] } };
  const elapsed = performance.now() - started;
  if (result.data.imported !== ROWS - BAD_ROWS.size || result.data.errors.length !== BAD_ROWS.size) {
    throw new Error(`unexpected import result: ${JSON.stringify(result).slice(0, 500)}`);
  }
  return elapsed;
}

/** The same rows as bare inserts: what SQLite alone costs for the data, without any of the promises. */
function rawInserts(target: Db, rows: ImportRow[], run: number): number {
  const { project } = createProject(target, { slug: `raw-${run}`, plan: "growth" });
  commitNow(target);
  const projectId = project.id;
  const started = performance.now();
  inTransaction(target, () => {
    const tagIds = new Map<string, string>();
    const userIds = new Map<string, string>();
    const insertTag = target.query(
      "INSERT INTO tags (id, project_id, label, theme, created_at, updated_at) VALUES (?, ?, ?, '#6366f1', ?, ?)",
    );
    const insertUser = target.query(
      "INSERT INTO board_users (id, project_id, email, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
    );
    const insertPost = target.query(
      `INSERT INTO posts (id, project_id, title, description, status, vote_count, created_by_board_user_id,
       created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertPostTag = target.query("INSERT INTO post_tags (post_id, tag_id) VALUES (?, ?)");
    const insertVote = target.query(
      "INSERT INTO votes (id, project_id, post_id, anonymous_id, created_at) VALUES (?, ?, ?, ?, ?)",
    );
    const insertComment = target.query(
      "INSERT INTO comments (id, project_id, post_id, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
    );
    for (const [index, row] of rows.entries()) {
      if (BAD_ROWS.has(index)) continue;
      const createdAt = Date.parse(row.created_at);
      let userId = userIds.get(row.author_email);
      if (userId === undefined) {
        userId = Bun.randomUUIDv7();
        insertUser.run(userId, projectId, row.author_email, row.author_name, createdAt, createdAt);
        userIds.set(row.author_email, userId);
      }
      const postId = Bun.randomUUIDv7();
      insertPost.run(
        postId,
        projectId,
        row.title,
        row.description,
        row.status,
        row.votes,
        userId,
        createdAt,
        createdAt,
      );
      for (const label of row.tags.split(",").map((each) => each.trim())) {
        let tagId = tagIds.get(label);
        if (tagId === undefined) {
          tagId = Bun.randomUUIDv7();
          insertTag.run(tagId, projectId, label, createdAt, createdAt);
          tagIds.set(label, tagId);
        }
        insertPostTag.run(postId, tagId);
      }
      for (let vote = 0; vote < row.votes; vote++) {
        insertVote.run(Bun.randomUUIDv7(), projectId, postId, `import:${postId}:${vote}`, createdAt);
      }
      for (const body of row.comments.split("\n").filter((each) => each !== "")) {
        insertComment.run(Bun.randomUUIDv7(), projectId, postId, body, createdAt, createdAt);
      }
    }
  });
  commitNow(target);
  return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const rows = importRows(ROWS);
const imports: number[] = [];
const baselines: number[] = [];
for (let run = 0; run < RUNS; run++) {
  baselines.push(rawInserts(db, rows, run));
  imports.push(await featureboardImport(rows, run));
}
const votes = rows.reduce((sum, row, index) => sum + (BAD_ROWS.has(index) ? 0 : row.votes), 0);
const comments = rows.filter((row, index) => !BAD_ROWS.has(index) && row.comments !== "").length * 2;
console.log(
  `${ROWS} csv rows (${BAD_ROWS.size} bad) → ${ROWS - BAD_ROWS.size} posts, ${votes} votes, ${comments} comments, ` +
    `500 users, 22 tags; median of ${RUNS} runs`,
);
console.log(`POST /import (in-process, validation, activity, events): ${median(imports).toFixed(0)} ms`);
console.log(`baseline, raw SQLite inserts of the same rows:             ${median(baselines).toFixed(0)} ms`);
console.log(`ratio: ${(median(imports) / median(baselines)).toFixed(1)}× the baseline`);

closeDatabase(db);
rmSync(dir, { recursive: true, force: true });
