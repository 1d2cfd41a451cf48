import { Database, SQLiteError } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { sqliteVecPath } from "./sqlite-vec";

export type Db = Database;

/**
 * Opens the one database file with the settings every part of featureboard relies on: WAL so readers
 * never wait for the writer, NORMAL sync (durable at each WAL checkpoint, safe against process crashes),
 * a busy timeout so the CLI and the server can share the file, and foreign keys enforced.
 */
export function openDatabase(path: string, cacheDir: string): Db {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { create: true, strict: true });
  db.run("PRAGMA journal_mode = WAL");
  db.run("PRAGMA synchronous = NORMAL");
  db.run("PRAGMA busy_timeout = 5000");
  db.run("PRAGMA foreign_keys = ON");
  // Larger page cache and memory-mapped reads: sqlite-vec inserts and KNN scans are much faster with them.
  db.run("PRAGMA cache_size = -65536");
  db.run("PRAGMA mmap_size = 268435456");
  db.loadExtension(sqliteVecPath(cacheDir), "sqlite3_vec_init");
  return db;
}

/** Runs `work` in one write transaction (BEGIN IMMEDIATE); nested calls become savepoints. */
export function inTransaction<T>(db: Db, work: () => T): T {
  return db.transaction(work).immediate();
}

export function sqliteVersions(db: Db): { sqlite: string; sqliteVec: string } {
  const row = db
    .query<{ sqlite: string; vec: string }, []>("SELECT sqlite_version() AS sqlite, vec_version() AS vec")
    .get();
  return { sqlite: row?.sqlite ?? "unknown", sqliteVec: row?.vec ?? "unknown" };
}

/** True for a UNIQUE constraint failure: how the database reports "that already exists". */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof SQLiteError && error.code === "SQLITE_CONSTRAINT_UNIQUE";
}
