import { Database, type SQLQueryBindings, SQLiteError } from "bun:sqlite";
import { closeSync, fdatasync, fdatasyncSync, fsyncSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { nextTurn } from "../turns";
import { sqliteVecPath } from "./sqlite-vec";

interface OpenBatch {
  committed: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** A committed batch waiting for the WAL sync that makes it durable (see `syncCommitsOffLoop`). */
interface AwaitingSync {
  durable: () => void;
  failed: (error: unknown) => void;
}

/** The WAL file's descriptor, the batches waiting for its next sync, and whether a sync is under way. */
interface WalSync {
  fd: number;
  syncing: boolean;
  closing: boolean;
  waiting: AwaitingSync[];
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
  /** Set while the WAL is being started over (see `whenWritesOpen`): settles when writes may go on. */
  writeHold: Promise<void> | null = null;
  /** Commits so far: how the checkpointer learns that frames arrived while it copied. */
  commits = 0;
  /** The last committed batch's promise: settled once it is durable. */
  lastCommitted: Promise<void> = Promise.resolve();
  /** Set by `syncCommitsOffLoop`: commits are made durable by syncs of the WAL off the event loop. */
  walSync: WalSync | null = null;
  /** WAL syncs completed off the event loop (a figure for tests and the log). */
  walSyncs = 0;
  /** Checkpoint rounds after which the checkpointer flushed the database file (checkpoints.ts). */
  databaseFlushes = 0;

  /** bun:sqlite's cached statement, of the SQL with its `= ?` and `LIMIT ?` written `= +?` (`withPlainBindings`). */
  override query<ReturnType, ParamsType extends SQLQueryBindings | SQLQueryBindings[]>(sql: string) {
    return super.query<ReturnType, ParamsType>(withPlainBindings(sql));
  }
}

/**
 * SQLite 3.54 (the one Bun ships) plans a `column = ?` term of a join or of a query with ORDER BY, an
 * `IS ?` or `LIKE ?` there, and a `LIMIT ?`, with the parameter's value in view, and marks the statement to
 * be compiled again when its bindings are cleared, which bun:sqlite does after every run: each run of such
 * a cached statement was parsed and planned again (10-50 µs; the key lookup of every API request, every
 * list, the delivery worker's look for due deliveries after each commit). A parameter written `+?` is the
 * same value (unary plus changes nothing, not even affinity: a parameter has none) that the planner does
 * not look into; an index is used for `=` and `IS` just the same (no LIKE here is a prefix an index could
 * serve). Ranges, IN lists and OFFSET are not compiled again and are left as written. Measured in
 * docs/performance.md ("Statements compiled again at every run").
 */
const COMPARED_PARAMETER = /(?<![<>!=])(=|\bIS(?: NOT)?|\bLIKE|\bGLOB|\bLIMIT)\s*(\?\d*|[$:@][A-Za-z_]\w*)/g;
/** Rewritten SQL by the SQL it came from: the statements are a fixed set of literals and a few built ones. */
const plainBindings = new Map<string, string>();
const PLAIN_BINDINGS_KEPT = 4096;

/** `sql` with every parameter of COMPARED_PARAMETER written with a unary plus (`= +?`, `LIMIT +?`). */
export function withPlainBindings(sql: string): string {
  let rewritten = plainBindings.get(sql);
  if (rewritten === undefined) {
    rewritten = sql.replace(COMPARED_PARAMETER, "$1 +$2");
    if (plainBindings.size >= PLAIN_BINDINGS_KEPT) plainBindings.clear();
    plainBindings.set(sql, rewritten);
  }
  return rewritten;
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
  // one stays, much later (256 MiB, twice the WAL's usual bound), as a safety valve should it ever stall.
  db.run("PRAGMA wal_autocheckpoint = 65536");
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
  setImmediate(() => commitUnlessSyncing(db));
}

/**
 * A batch's turn is over. While a WAL sync is under way its answers would wait for the next sync anyway,
 * so the batch stays open and takes in the changes that come meanwhile; it commits when that sync
 * completes (`syncWal`). One commit instead of several writes each page they share once: fewer WAL frames
 * and fewer syncs per change.
 */
function commitUnlessSyncing(db: Db): void {
  if (db.walSync?.syncing) return;
  commitNow(db);
}

/** True for SQLite's "another connection holds the lock" (SQLITE_BUSY and its extended codes). */
export function isBusy(error: unknown): boolean {
  return error instanceof SQLiteError && (error.code ?? "").startsWith("SQLITE_BUSY");
}

/** How long a change waits for another process's write (the CLI, a backup) before it is refused as busy. */
export const WRITE_LOCK_WAIT_MS = 5_000;

/**
 * Under the service (`waitForOtherWritersOffLoop`) SQLite no longer sleeps on the event loop while another
 * process writes: a change that meets that write fails at once with SQLITE_BUSY. So what is about to write
 * waits here first, between attempts, without holding the loop: null when the write lock can be taken now
 * (or is held: a batch is open), else a promise that settles once it can, or rejects with SQLITE_BUSY
 * after WRITE_LOCK_WAIT_MS. Cheap when free: a write transaction begun and rolled back, nothing written.
 */
export function whenWritable(db: Db): Promise<void> | null {
  if (writable(db)) return null;
  return (async () => {
    const deadline = Date.now() + WRITE_LOCK_WAIT_MS;
    for (let waitMs = 2; ; waitMs = Math.min(2 * waitMs, 50)) {
      await Bun.sleep(waitMs);
      if (writable(db)) return;
      if (Date.now() >= deadline) {
        // The same error SQLite gives when its own wait runs out, so callers answer it the same way.
        db.run("BEGIN IMMEDIATE");
        db.run("ROLLBACK");
        return;
      }
    }
  })();
}

function writable(db: Db): boolean {
  if (db.inTransaction) return true;
  try {
    db.run("BEGIN IMMEDIATE");
  } catch (error) {
    if (isBusy(error)) return false;
    throw error;
  }
  db.run("ROLLBACK");
  return true;
}

/**
 * The service's connection: SQLite's busy handler would sleep inside the statement, on the event loop, for
 * as long as another process (the CLI, a backup) holds the write lock: up to the busy timeout, with every
 * request and the health check waiting. A change waits in `whenWritable` instead, and one that meets
 * the lock anyway fails with SQLITE_BUSY (503 SERVICE_UNAVAILABLE over HTTP; background work retries).
 */
export function waitForOtherWritersOffLoop(db: Db): void {
  db.run("PRAGMA busy_timeout = 0");
}

/** Runs `work` atomically: in full, or (when it throws) not at all, leaving other changes intact. */
export function inTransaction<T>(db: Db, work: () => T): T {
  if (!db.inTransaction) openBatch(db);
  return db.transaction(work)();
}

/**
 * While the WAL is being started over (checkpoints.ts), surfaces that write hold their writes back until
 * this settles: a write transaction that begins once every frame is copied reuses the WAL from its start.
 * Null when writes are open. Reads never wait.
 */
export function whenWritesOpen(db: Db): Promise<void> | null {
  return db.writeHold;
}

/**
 * What background work that writes in slices (imports, embedding) does between two slices: lets the
 * requests waiting on the event loop run, then waits while writes are held back (`whenWritesOpen`), and
 * then for a turn of its own.
 */
export async function beforeNextSlice(db: Db): Promise<void> {
  await nextTurn();
  const hold = whenWritesOpen(db);
  if (!hold) return;
  await hold;
  // A hold lets every writer it held go in one turn: slices of an import and of the embedding worker ran
  // back to back there, 12-19 ms after each start-over of the WAL (docs/performance.md). Each takes a turn
  // of its own after it.
  await nextTurn();
}

/**
 * Under the service, `full` durability syncs the WAL off the event loop instead of inside each COMMIT
 * (docs/decisions.md, "Durability"): the connection commits with synchronous=NORMAL (the WAL written, not
 * yet synced), and a batch counts as committed (answers go out, commit listeners run) only once an fsync of
 * the WAL file, run on Bun's I/O threads, has completed after it. That is what synchronous=FULL gives, an
 * acknowledged write that survives a power cut, without holding every request for the fsync: the next
 * batch is built while the last one syncs, and one sync covers every batch committed before it began.
 * Checkpoints sync the WAL and the database file themselves, under NORMAL as under FULL.
 */
export function syncCommitsOffLoop(db: Db): void {
  if (db.filename === ":memory:" || db.filename === "" || db.walSync) return;
  commitNow(db);
  db.run("PRAGMA synchronous = NORMAL");
  // "a": the WAL exists once the database is open in WAL mode; if not, an empty one means no frames.
  const fd = openSync(`${db.filename}-wal`, "a");
  // The WAL's directory entry must be durable too, once.
  const directory = openSync(dirname(db.filename), "r");
  try {
    fsyncSync(directory);
  } finally {
    closeSync(directory);
  }
  db.walSync = { fd, syncing: false, closing: false, waiting: [] };
}

function syncWal(db: Db, wal: WalSync): void {
  const batches = wal.waiting;
  wal.waiting = [];
  wal.syncing = true;
  fdatasync(wal.fd, (error) => {
    wal.syncing = false;
    if (!error) db.walSyncs++;
    for (const batch of batches) {
      if (error) batch.failed(error);
      else batch.durable();
    }
    if (wal.closing) {
      closeSync(wal.fd);
      return;
    }
    // The batch kept open during this sync (commitUnlessSyncing) commits now, which starts the next sync.
    if (db.openBatch) commitNow(db);
    if (!wal.syncing && wal.waiting.length > 0) syncWal(db, wal);
  });
}

function committed(db: Db, batch: OpenBatch): void {
  batch.resolve();
  for (const listener of db.commitListeners) listener();
}

/** Commits the open batch, if any, right away. */
export function commitNow(db: Db): void {
  const batch = db.openBatch;
  if (!batch) return;
  db.openBatch = null;
  try {
    db.run("COMMIT");
  } catch (error) {
    if (db.inTransaction) db.run("ROLLBACK");
    batch.reject(error);
    return;
  }
  db.lastCommitted = batch.committed;
  db.commits++;
  const wal = db.walSync;
  if (wal) {
    wal.waiting.push({ durable: () => committed(db, batch), failed: batch.reject });
    if (!wal.syncing) syncWal(db, wal);
  } else {
    committed(db, batch);
  }
}

/** Resolves once every change made so far is committed (and durable); rejects if that commit failed. */
export function whenCommitted(db: Db): Promise<void> {
  return db.openBatch?.committed ?? db.lastCommitted;
}

/** Commits what is pending, makes it durable, then closes the database. */
/** Gives back the memory the connection's page cache holds (SQLite's `shrink_memory`); it fills again as pages are read. */
export function releaseCacheMemory(db: Db): void {
  db.run("PRAGMA shrink_memory");
}

export function closeDatabase(db: Db): void {
  commitNow(db);
  const wal = db.walSync;
  if (wal) {
    db.walSync = null;
    fdatasyncSync(wal.fd);
    for (const batch of wal.waiting.splice(0)) batch.durable();
    // A sync still under way closes the file when it completes.
    wal.closing = true;
    if (!wal.syncing) closeSync(wal.fd);
  }
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
