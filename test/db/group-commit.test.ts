import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { closeDatabase, commitNow, inTransaction, whenCommitted } from "../../src/db/connection";
import { openMigrated } from "../../src/db/migrate";
import { tempDir } from "../support/app";

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const open = (name: string) => openMigrated({ databasePath: join(dir, name), cacheDir: join(dir, "cache") });
const insert = (db: ReturnType<typeof open>, slug: string) =>
  db
    .query("INSERT INTO projects (id, slug, name, plan, created_at) VALUES (?, ?, ?, 'free', 0)")
    .run(slug, slug, slug);

describe("group commit", () => {
  test("changes of one turn share one transaction, committed on the next turn", async () => {
    const db = open("batch.db");
    const reader = open("batch.db");
    inTransaction(db, () => insert(db, "one"));
    inTransaction(db, () => insert(db, "two"));
    expect(db.inTransaction).toBe(true);
    // Another connection cannot see them before the commit.
    expect(reader.query("SELECT count(*) AS n FROM projects").get()).toEqual({ n: 0 });
    await whenCommitted(db);
    expect(db.inTransaction).toBe(false);
    expect(reader.query("SELECT count(*) AS n FROM projects").get()).toEqual({ n: 2 });
    reader.close();
    closeDatabase(db);
  });

  test("a change that throws is undone alone; the others of its batch commit", async () => {
    const db = open("partial.db");
    inTransaction(db, () => insert(db, "kept"));
    expect(() =>
      inTransaction(db, () => {
        insert(db, "undone");
        throw new Error("refused");
      }),
    ).toThrow("refused");
    inTransaction(db, () => insert(db, "also-kept"));
    await whenCommitted(db);
    const slugs = db
      .query<{ slug: string }, []>("SELECT slug FROM projects ORDER BY slug")
      .all()
      .map((r) => r.slug);
    expect(slugs).toEqual(["also-kept", "kept"]);
    closeDatabase(db);
  });

  test("commitNow commits at once, and closeDatabase never drops pending changes", () => {
    const path = "close.db";
    const db = open(path);
    inTransaction(db, () => insert(db, "pending"));
    commitNow(db);
    expect(db.inTransaction).toBe(false);
    inTransaction(db, () => insert(db, "at-close"));
    closeDatabase(db);
    const reopened = open(path);
    expect(reopened.query("SELECT count(*) AS n FROM projects").get()).toEqual({ n: 2 });
    closeDatabase(reopened);
  });

  test("a failed commit rejects whenCommitted and leaves nothing stored", async () => {
    const db = open("failing.db");
    // A deferred foreign key fails only at COMMIT.
    db.run("PRAGMA defer_foreign_keys = ON");
    inTransaction(db, () =>
      db
        .query(
          "INSERT INTO tags (id, project_id, label, theme, created_at, updated_at) VALUES ('t', 'nope', 'x', '#fff', 0, 0)",
        )
        .run(),
    );
    await expect(whenCommitted(db)).rejects.toThrow();
    expect(db.inTransaction).toBe(false);
    expect(db.query("SELECT count(*) AS n FROM tags").get()).toEqual({ n: 0 });
    closeDatabase(db);
  });
});
