import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { closeDatabase, withPlainBindings } from "../../src/db/connection";
import { openMigrated } from "../../src/db/migrate";
import { tempDir } from "../support/app";

// SQLite 3.54 compiles a cached statement with a `column = ?` of a join or an ORDER BY query, or a `LIMIT ?`,
// again at every run (src/db/connection.ts, COMPARED_PARAMETER); such parameters are written `+?` so that
// it is compiled once.

const dir = tempDir();
const db = openMigrated({ databasePath: join(dir, "bindings.db"), cacheDir: join(dir, "cache") });
afterAll(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

describe("parameters the planner would look into", () => {
  test("are written with a unary plus, whatever their form", () => {
    expect(withPlainBindings("SELECT * FROM t WHERE a = ? AND b=?2 AND c = $name AND d = :other")).toBe(
      "SELECT * FROM t WHERE a = +? AND b= +?2 AND c = +$name AND d = +:other",
    );
    expect(withPlainBindings("UPDATE t SET a = ? WHERE id = ?")).toBe("UPDATE t SET a = +? WHERE id = +?");
    expect(
      withPlainBindings("SELECT * FROM t WHERE a IS ? AND b IS NOT $b AND c LIKE ? ORDER BY d LIMIT ?"),
    ).toBe("SELECT * FROM t WHERE a IS +? AND b IS NOT +$b AND c LIKE +? ORDER BY d LIMIT +?");
  });

  test("other comparisons, lists, limits and literals are left as written", () => {
    const unchanged = [
      "SELECT * FROM t WHERE a >= ? AND b <= ? AND c != ? AND d <> ? AND e == ?",
      "SELECT * FROM t WHERE a IN (?, ?) LIMIT 20 OFFSET ?",
      "SELECT * FROM t WHERE this_is = 'IS' AND a IS NULL",
      "SELECT * FROM t WHERE a = 'x' AND b = 1 AND c = d",
      "INSERT INTO t (a, b) VALUES (?, $b)",
    ];
    for (const sql of unchanged) expect(withPlainBindings(sql)).toBe(sql);
  });

  test("every statement of the database handle is prepared so, and reads the same rows", () => {
    db.run("CREATE TABLE plain_a (id TEXT PRIMARY KEY, label TEXT NOT NULL) STRICT");
    db.run("CREATE TABLE plain_b (id TEXT PRIMARY KEY, a_id TEXT NOT NULL, n INTEGER NOT NULL) STRICT");
    db.run("INSERT INTO plain_a VALUES ('a1', 'one'), ('a2', 'two')");
    db.run("INSERT INTO plain_b VALUES ('b1', 'a1', 3), ('b2', 'a2', 1), ('b3', 'a1', 2)");
    const joined = db.query<{ id: string; label: string }, [string]>(
      "SELECT b.id, a.label FROM plain_b b JOIN plain_a a ON a.id = b.a_id WHERE a.id = ? ORDER BY b.n",
    );
    expect(joined.all("a1")).toEqual([
      { id: "b3", label: "one" },
      { id: "b1", label: "one" },
    ]);
    expect(joined.all("a2")).toEqual([{ id: "b2", label: "two" }]);
    expect(String(joined)).toContain("WHERE a.id = +'a2' ORDER BY");
    // The comparison still seeks the primary key's index: the plus hides the value, not the column.
    const plan = db
      .query<{ detail: string }, [string]>(
        "EXPLAIN QUERY PLAN SELECT b.id FROM plain_b b JOIN plain_a a ON a.id = b.a_id WHERE b.id = ?",
      )
      .all("b1")
      .map((row) => row.detail);
    expect(plan.join("\n")).toMatch(/SEARCH b USING INDEX sqlite_autoindex_plain_b_1 \(id=\?\)/);
  });
});
