import { Database, SQLiteError } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { sqliteVecPath } from "./sqlite-vec";

interface OpenBatch {
  committed: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The database handle: bun:sqlite's Database plus the group-commit state that belongs to it (the open
 * batch and who to tell after a commit), held on the handle itself rather than looked up by it.
 */
export class Db extends Database {
  openBatch: OpenBatch | null = null;
  readonly commitListeners = new Set<() => void>();
  /**
   * The team member a dashboard change is made by, while that change runs (activity/service `actAs`).
   * Service calls are synchronous, so no other request's change can run while it is set.
   */
  actingMember: ActingMember | null = null;
  /** When the background checkpointer (checkpoints.ts) last copied the WAL back; 0 before its first. */
  lastCheckpointAt = 0;
  /** What the checkpointer last saw: frames in the WAL, and how many of them it had not copied yet. */
  walFrames = 0;
  walBacklog = 0;
  /** While the checkpointer runs: the WAL length (frames) past which this connection finishes a checkpoint. */
  restartWalAfterFrames: number | null = null;
}

/**
 * What a commit survives (docs/decisions.md, "Durability"): `full` (the default) syncs the WAL at every
 * commit, so an acknowledged write survives an OS crash or a power cut; `fast` syncs only at checkpoints,
 * surviving a crash of featureboard but not of the machine. Group commit makes `full` cost one fsync per
 * batch, not per request.
 */
export type Durability = "full" | "fast";

/** Who made a change from the dashboard; the activity entries of that change name them. */
export interface ActingMember {
  id: string;
  name: string;
}

/**
 * Opens the one database file with the settings every part of featureboard relies on: WAL so readers
 * never wait for the writer, FULL sync by default (see Durability), a busy timeout so the CLI and the
 * server can share the file, and foreign keys enforced.
 */
export function openDatabase(path: string, cacheDir: string, durability: Durability = "full"): Db {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new Db(path, { create: true, strict: true });
  db.run("PRAGMA journal_mode = WAL");
  db.run(`PRAGMA synchronous = ${durability === "full" ? "FULL" : "NORMAL"}`);
  db.run("PRAGMA busy_timeout = 5000");
  db.run("PRAGMA foreign_keys = ON");
  // Larger page cache and memory-mapped reads: sqlite-vec inserts and KNN scans are much faster with them.
  db.run("PRAGMA cache_size = -65536");
  db.run("PRAGMA mmap_size = 268435456");
  // Checkpoints run in a worker thread of their own (checkpoints.ts), off the event loop; the automatic
  // one stays, much later, as a safety valve should that worker ever stall.
  db.run("PRAGMA wal_autocheckpoint = 16384");
  // Every change runs in a savepoint (see group commit below); its journal stays in memory.
  db.run("PRAGMA temp_store = MEMORY");
  db.loadExtension(sqliteVecPath(cacheDir), "sqlite3_vec_init");
  return db;
}

/**
 * Group commit. Every change runs atomically in its own savepoint, inside one write transaction that
 * collects all the changes made in the same turn of the event loop and commits on the next one. A commit
 * (WAL frames, and now and then a checkpoint) costs far more than the statements of a typical change, and
 * concurrent requests then share it. A change counts as done only once committed: the HTTP layer answers
 * after `whenCommitted`, and other callers use `commitNow` before they report success or close.
 */

/**
 * Calls `listener` after each successful commit of `db`: how the delivery worker learns at once that new
 * events are stored. Listeners run synchronously and must not throw. Returns a function that removes it.
 */
export function onCommit(db: Db, listener: () => void): () => void {
  db.commitListeners.add(listener);
  return () => db.commitListeners.delete(listener);
}

function openBatch(db: Db): void {
  db.run("BEGIN IMMEDIATE");
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const committed = new Promise<void>((onCommit, onFailure) => {
    resolve = onCommit;
    reject = onFailure;
  });
  // Callers that never wait must not turn a failed commit into an unhandled rejection.
  committed.catch(() => undefined);
  db.openBatch = { committed, resolve, reject };
  setImmediate(() => commitNow(db));
}

/** Runs `work` atomically: in full, or (when it throws) not at all, leaving other changes intact. */
export function inTransaction<T>(db: Db, work: () => T): T {
  if (!db.inTransaction) openBatch(db);
  return db.transaction(work)();
}

/** The last frames of a WAL copied here, not by the checkpointer thread: a millisecond or two of copying. */
const FINISH_AT_MOST_FRAMES = 256;

/**
 * Right after a commit (no transaction open), copies the few frames the checkpointer thread has not, so
 * the WAL is whole in the database file and the next write starts it over (checkpoints.ts says why).
 */
function finishCheckpoint(db: Db): void {
  const restartAfter = db.restartWalAfterFrames;
  if (restartAfter === null || db.inTransaction) return;
  if (db.walFrames < restartAfter || db.walBacklog > FINISH_AT_MOST_FRAMES) return;
  db.walFrames = 0;
  try {
    db.run("PRAGMA wal_checkpoint(PASSIVE)");
  } catch {
    // The commit stands; the checkpointer thread copies these frames on its next round.
  }
}

/** Commits the open batch, if any, right away. */
export function commitNow(db: Db): void {
  const batch = db.openBatch;
  if (!batch) return;
  db.openBatch = null;
  try {
    db.run("COMMIT");
    batch.resolve();
    for (const listener of db.commitListeners) listener();
    finishCheckpoint(db);
  } catch (error) {
    if (db.inTransaction) db.run("ROLLBACK");
    batch.reject(error);
  }
}

/** Resolves once every change made so far is committed; rejects if that commit failed. */
export function whenCommitted(db: Db): Promise<void> {
  return db.openBatch?.committed ?? Promise.resolve();
}

/** Commits what is pending, then closes the database. */
export function closeDatabase(db: Db): void {
  commitNow(db);
  db.close();
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
