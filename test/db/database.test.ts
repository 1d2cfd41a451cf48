import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../src/db/connection";
import { MigrationError, migrate, openMigrated } from "../../src/db/migrate";
import { migrations } from "../../src/db/migrations";
import { tempDir } from "../support/app";

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cacheDir = join(dir, "cache");

describe("database connection", () => {
  test("uses WAL, synchronous=NORMAL, a busy timeout and foreign keys, with sqlite-vec loaded", () => {
    const db = openDatabase(join(dir, "pragmas.db"), cacheDir);
    const pragma = (name: string) => Object.values(db.query(`PRAGMA ${name}`).get() as object)[0];
    expect(pragma("journal_mode")).toBe("wal");
    expect(pragma("synchronous")).toBe(1); // NORMAL
    expect(pragma("busy_timeout")).toBeGreaterThanOrEqual(1000);
    expect(pragma("foreign_keys")).toBe(1);
    expect(db.query("SELECT vec_version() AS v").get()).toEqual({ v: expect.stringMatching(/^v0\./) });
    db.run("CREATE VIRTUAL TABLE probe USING vec0(embedding float[3])");
    db.run("INSERT INTO probe (rowid, embedding) VALUES (1, '[1, 0, 0]'), (2, '[0, 1, 0]')");
    const nearest = db
      .query("SELECT rowid FROM probe WHERE embedding MATCH '[0.9, 0.1, 0]' AND k = 1")
      .get() as { rowid: number };
    expect(nearest.rowid).toBe(1);
    db.close();
  });

  test("creates the parent folder of a new database file", () => {
    const db = openDatabase(join(dir, "nested", "deeper", "new.db"), cacheDir);
    db.close();
    expect(readdirSync(join(dir, "nested", "deeper"))).toContain("new.db");
  });
});

describe("migrations", () => {
  test("every .sql file in the migrations folder is listed, numbered in order", () => {
    const folder = new URL("../../src/db/migrations/", import.meta.url).pathname;
    const files = readdirSync(folder)
      .filter((name) => name.endsWith(".sql"))
      .sort();
    expect(migrations.map((m) => `${m.name}.sql`)).toEqual(files);
    migrations.forEach((migration, index) => {
      expect(migration.version).toBe(index + 1);
      expect(migration.name.startsWith(String(index + 1).padStart(4, "0"))).toBe(true);
    });
  });

  test("are applied in order once and recorded; a second run applies nothing", () => {
    const db = openDatabase(join(dir, "migrate.db"), cacheDir);
    expect(migrate(db)).toEqual(migrations.map((m) => m.version));
    expect(migrate(db)).toEqual([]);
    const recorded = db.query("SELECT version, name FROM schema_migrations ORDER BY version").all();
    expect(recorded).toEqual(migrations.map((m) => ({ version: m.version, name: m.name })));
    db.close();
  });

  test("a failing migration leaves nothing half-applied", () => {
    const db = openDatabase(join(dir, "failing.db"), cacheDir);
    const broken = [
      { version: 1, name: "0001_broken", sql: "CREATE TABLE a (x INTEGER); CREATE TABLE a (y INTEGER);" },
    ];
    expect(() => migrate(db, broken)).toThrow();
    expect(db.query("SELECT name FROM sqlite_master WHERE name = 'a'").get()).toBeNull();
    expect(db.query("SELECT count(*) AS n FROM schema_migrations").get()).toEqual({ n: 0 });
    db.close();
  });

  test("a landed migration whose text changed stops start-up", () => {
    const path = join(dir, "edited.db");
    openMigrated({ databasePath: path, cacheDir }).close();
    const db = openDatabase(path, cacheDir);
    const edited = migrations.map((m, i) => (i === 0 ? { ...m, sql: `${m.sql}\n-- edited` } : m));
    expect(() => migrate(db, edited)).toThrow(MigrationError);
    db.close();
  });
});
