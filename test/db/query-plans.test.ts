import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { closeDatabase, type Db } from "../../src/db/connection";
import { openMigrated } from "../../src/db/migrate";
import { listPostRowsAfter } from "../../src/posts/store";
import { votesOfPost } from "../../src/votes/store";
import { tempDir } from "../support/app";

// Deep pages and per-post reads stay fast only while SQLite seeks an index instead of walking one; these
// plans are the regression guard for that (bench/board.ts measures the speed itself).

const dir = tempDir();
const db = openMigrated({ databasePath: join(dir, "plans.db"), cacheDir: join(dir, "cache") });
afterAll(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `read` and returns the query plan of every statement it prepared, with the parameters it bound. */
function plansOf(database: Db, read: () => unknown): string[] {
  const prepared: string[] = [];
  const original = database.query.bind(database);
  const spy = ((sql: string) => {
    prepared.push(sql);
    return original(sql);
  }) as Db["query"];
  database.query = spy;
  try {
    read();
  } finally {
    database.query = original;
  }
  return prepared.map((sql) => {
    const placeholders = sql.split("?").length - 1;
    const rows = original(`EXPLAIN QUERY PLAN ${sql}`).all(
      ...Array.from({ length: placeholders }, () => "x"),
    ) as { detail: string }[];
    return rows.map((row) => row.detail).join("\n");
  });
}

describe("query plans", () => {
  test("a deep cursor page seeks (project, createdAt, id) in the date index", () => {
    const [plan] = plansOf(db, () =>
      listPostRowsAfter(db, { projectId: "p", createdAtMost: 10 }, { createdAt: 5, id: "x" }, 20),
    );
    expect(plan).toContain("USING INDEX posts_by_date (project_id=? AND (created_at,id)<(?,?))");
    expect(plan).not.toContain("TEMP B-TREE");
  });

  test("a filtered cursor page seeks the status date index", () => {
    const [plan] = plansOf(db, () =>
      listPostRowsAfter(db, { projectId: "p", status: "APPROVED" }, { createdAt: 5, id: "x" }, 20),
    );
    expect(plan).toContain(
      "USING INDEX posts_by_status_date (project_id=? AND status=? AND (created_at,id)<(?,?))",
    );
  });

  test("the votes of a post are found through an index on post_id", () => {
    const [plan] = plansOf(db, () => votesOfPost(db, "post"));
    expect(plan).toMatch(/SEARCH v USING INDEX votes_one_per_anonymous \(post_id=\?\)/);
  });
});
