import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { startCheckpoints } from "../../src/db/checkpoints";
import {
  beforeNextSlice,
  closeDatabase,
  commitNow,
  inTransaction,
  onCommit,
  openDatabase,
  syncCommitsOffLoop,
  whenCommitted,
  whenWritesOpen,
} from "../../src/db/connection";
import { loadConfig } from "../../src/config";
import { MigrationError, migrate, openMigrated } from "../../src/db/migrate";
import { migrations } from "../../src/db/migrations";
import { tempDir } from "../support/app";

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cacheDir = join(dir, "cache");

describe("durability and checkpoints", () => {
  test("FEATUREBOARD_DURABILITY=fast chooses synchronous=NORMAL; full (the default) FULL", () => {
    const fast = openDatabase(join(dir, "fast.db"), cacheDir, "fast");
    expect(fast.query<{ synchronous: number }, []>("PRAGMA synchronous").get()?.synchronous).toBe(1);
    fast.close();
    expect(loadConfig({}).durability).toBe("full");
    expect(loadConfig({ FEATUREBOARD_DURABILITY: "fast" }).durability).toBe("fast");
    expect(() => loadConfig({ FEATUREBOARD_DURABILITY: "sometimes" })).toThrow("FEATUREBOARD_DURABILITY");
  });

  test("the service's full durability: commits count once a WAL sync off the event loop has completed after them", async () => {
    const path = join(dir, "off-loop.db");
    const db = openDatabase(path, cacheDir);
    db.run("CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
    syncCommitsOffLoop(db);
    // The COMMIT itself no longer syncs (NORMAL); the WAL sync below does.
    expect(db.query<{ synchronous: number }, []>("PRAGMA synchronous").get()?.synchronous).toBe(1);
    const seen: number[] = [];
    onCommit(db, () => seen.push(db.walSyncs));

    inTransaction(db, () => db.query("INSERT INTO note (body) VALUES ('first')").run());
    const first = whenCommitted(db);
    commitNow(db);
    // Committed, not yet durable: nothing is acknowledged and no listener has run in this turn.
    expect(db.walSyncs).toBe(0);
    expect(seen).toEqual([]);
    // A change committed while that sync runs waits for the next one.
    inTransaction(db, () => db.query("INSERT INTO note (body) VALUES ('second')").run());
    commitNow(db);
    const second = whenCommitted(db);
    await first;
    expect(db.walSyncs).toBeGreaterThanOrEqual(1);
    await second;
    expect(db.walSyncs).toBe(2);
    // Listeners ran after the sync that covered each batch.
    expect(seen).toEqual([1, 2]);
    // Nothing pending: answers do not wait.
    await whenCommitted(db);

    // Closing syncs what is left, even with a sync under way.
    inTransaction(db, () => db.query("INSERT INTO note (body) VALUES ('third')").run());
    const third = whenCommitted(db);
    closeDatabase(db);
    await third;
    const reopened = openDatabase(path, cacheDir);
    expect(reopened.query<{ n: number }, []>("SELECT count(*) AS n FROM note").get()?.n).toBe(3);
    reopened.close();
  });

  test("a batch whose turn ends while a WAL sync runs stays open, takes in the changes that come meanwhile, and commits once when that sync completes", async () => {
    const path = join(dir, "aligned.db");
    const db = openDatabase(path, cacheDir);
    db.run("CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
    syncCommitsOffLoop(db);
    const insert = (body: string) =>
      inTransaction(db, () => db.query("INSERT INTO note (body) VALUES (?)").run(body));
    let seen = 0;
    // An fsync takes far longer than a turn of the event loop, but that is the disk's doing: try a few times.
    for (let attempt = 0; attempt < 20 && seen === 0; attempt++) {
      insert("synced first");
      commitNow(db);
      insert("during the sync");
      const commitsBefore = db.commits;
      await new Promise((resolve) => setImmediate(resolve));
      if (!db.walSync?.syncing) {
        await whenCommitted(db);
        continue;
      }
      seen++;
      expect(db.inTransaction).toBe(true);
      expect(db.commits).toBe(commitsBefore);
      insert("joins the open batch");
      await whenCommitted(db);
      expect(db.commits).toBe(commitsBefore + 1);
    }
    expect(seen).toBe(1);
    closeDatabase(db);
  });

  test("under writes that never pause, the checkpointer thread copies the WAL back", async () => {
    const path = join(dir, "steady.db");
    const db = openDatabase(path, cacheDir);
    db.run("CREATE TABLE log (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
    const errors: unknown[] = [];
    const stop = startCheckpoints(db, (error) => errors.push(error), { restartAfterFrames: 512 });
    const started = Date.now();
    let batches = 0;
    let held = 0;
    // A new batch opens on every turn of the event loop: a timer on this thread waiting for an idle moment
    // would never run. Each write first waits for a hold, as the HTTP layer does.
    // At least 800 ms, and on a busy machine (fewer batches a second) until the WAL started over twice.
    const writing = () => Date.now() - started < 800 || (held < 2 && Date.now() - started < 10_000);
    while (writing()) {
      const hold = whenWritesOpen(db);
      if (hold) {
        held++;
        await hold;
      }
      inTransaction(db, () => {
        for (let row = 0; row < 50; row++) db.query("INSERT INTO log (body) VALUES (?)").run("x".repeat(200));
      });
      batches++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    commitNow(db);
    await stop();
    expect(errors).toEqual([]);
    expect(batches).toBeGreaterThan(20);
    expect(db.lastCheckpointAt).toBeGreaterThan(started);
    // Nothing left broken behind: a last checkpoint from here completes, the WAL is small.
    const after = db
      .query<{ busy: number; log: number; checkpointed: number }, []>("PRAGMA wal_checkpoint(PASSIVE)")
      .get();
    expect(after?.busy).toBe(0);
    expect(after?.checkpointed).toBe(after?.log);
    // Started over each time it passed 512 frames (2 MiB), long before the automatic checkpoint.
    expect(held).toBeGreaterThan(1);
    expect(statSync(`${path}-wal`).size).toBeLessThan(4 * 1024 * 1024);
    // Commits here do not wait for WAL syncs: the database file is left to the kernel's write-back.
    expect(db.databaseFlushes).toBe(0);
    db.close();
  });

  test("when commits wait for WAL syncs, the checkpointer flushes the database file after each round that copied", async () => {
    // Left to the kernel's write-back, the copied pages reached the disk in bursts that the WAL syncs
    // queued behind: vote p99 3.3-3.9x p50 under FULL, 1.8-1.95x with a flush per round (docs/performance.md).
    const path = join(dir, "flushed.db");
    const db = openDatabase(path, cacheDir);
    db.run("CREATE TABLE log (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
    syncCommitsOffLoop(db);
    const errors: unknown[] = [];
    const stop = startCheckpoints(db, (error) => errors.push(error));
    const started = Date.now();
    while (Date.now() - started < 400) {
      inTransaction(db, () => {
        for (let row = 0; row < 50; row++) db.query("INSERT INTO log (body) VALUES (?)").run("x".repeat(200));
      });
      await whenCommitted(db);
    }
    await stop();
    expect(errors).toEqual([]);
    expect(db.databaseFlushes).toBeGreaterThan(0);
    closeDatabase(db);
  });

  test("once the checkpointer reports a long WAL it keeps up with, it catches up, writes wait while it copies the rest, and the next write starts the WAL over", async () => {
    const path = join(dir, "finish.db");
    const db = openDatabase(path, cacheDir);
    db.run("CREATE TABLE log (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
    // The worker's own rounds come a minute later: this test plays its reports itself.
    const stop = startCheckpoints(db, () => undefined, { everyMs: 60_000, restartAfterFrames: 64 });
    const write = (rows: number) => {
      inTransaction(db, () => {
        for (let row = 0; row < rows; row++)
          db.query("INSERT INTO log (body) VALUES (?)").run("x".repeat(3000));
      });
      commitNow(db);
    };
    // The WAL file never shrinks; it grows only while the WAL is not started over.
    const walBytes = () => statSync(`${path}-wal`).size;
    write(200);
    const long = walBytes();
    // Every hold the checkpointer begins, seen as it is set on the handle (it can begin and end within one
    // turn of this thread's event loop, so looking for it between turns could miss it).
    const holds: Promise<void>[] = [];
    let current: Promise<void> | null = null;
    Object.defineProperty(db, "writeHold", {
      get: () => current,
      set: (hold: Promise<void> | null) => {
        if (hold) holds.push(hold);
        current = hold;
      },
    });
    // A report of a long WAL with much left to copy (over 16 MiB) leaves the copying to the worker's
    // rounds: writes go on.
    db.walFrames = 10_000;
    db.walBacklog = 5_000;
    write(1);
    await Bun.sleep(50);
    expect(holds).toHaveLength(0);
    write(200);
    expect(walBytes()).toBeGreaterThan(long * 1.5);
    // A report of a long WAL the worker keeps up with: the worker pauses its rounds and catches up, then
    // writes are held back while it copies the rest, and let go once every frame is copied.
    db.walFrames = 1_000;
    db.walBacklog = 10;
    write(1);
    // Not at once: the worker's catch-up comes first, writes still going on.
    expect(whenWritesOpen(db)).toBeNull();
    while (holds.length === 0) await Bun.sleep(1);
    await holds[0];
    expect(holds).toHaveLength(1);
    expect(whenWritesOpen(db)).toBeNull();
    // The writes after it reuse the WAL from its start instead of making it longer.
    const finished = walBytes();
    write(200);
    expect(walBytes()).toBe(finished);
    await stop();
    db.close();
  });

  test("background slices held back while the WAL starts over go on one per turn, none in the turn the hold ends", async () => {
    const db = openDatabase(join(dir, "slices.db"), cacheDir);
    let release: () => void = () => undefined;
    db.writeHold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const resumed: number[] = [];
    const slices = [1, 2, 3].map(async (slice) => {
      await beforeNextSlice(db);
      resumed.push(slice);
    });
    await Bun.sleep(20);
    expect(resumed).toEqual([]);
    // As the checkpointer lets writes go (checkpoints.ts): every waiter of the hold wakes in this turn.
    db.writeHold = null;
    release();
    for (let microtask = 0; microtask < 20; microtask++) await Promise.resolve();
    expect(resumed).toEqual([]);
    const perTurn: number[] = [];
    while (resumed.length < 3) {
      const before = resumed.length;
      await new Promise((resolve) => setImmediate(resolve));
      perTurn.push(resumed.length - before);
    }
    expect(Math.max(...perTurn)).toBe(1);
    await Promise.all(slices);
    closeDatabase(db);
  });

  test("writes held back go on after holdAtMostMs if the checkpointer has not finished, and a late answer changes nothing", async () => {
    const path = join(dir, "stuck.db");
    const db = openDatabase(path, cacheDir);
    db.run("CREATE TABLE log (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
    const errors: unknown[] = [];
    const stop = startCheckpoints(db, (error) => errors.push(error), {
      everyMs: 60_000,
      restartAfterFrames: 64,
      holdAtMostMs: 1,
    });
    const write = (rows: number) => {
      inTransaction(db, () => {
        for (let row = 0; row < rows; row++)
          db.query("INSERT INTO log (body) VALUES (?)").run("x".repeat(3000));
      });
      commitNow(db);
    };
    write(10);
    const holds: Promise<void>[] = [];
    let current: Promise<void> | null = null;
    Object.defineProperty(db, "writeHold", {
      get: () => current,
      set: (hold: Promise<void> | null) => {
        current = hold;
        if (!hold) return;
        holds.push(hold);
        // A writer that ignores the hold: the worker's last copy now has ~6 MB to copy and sync, far
        // longer than the 1 ms the writes may wait.
        write(2_000);
      },
    });
    db.walFrames = 1_000;
    db.walBacklog = 10;
    write(1);
    while (holds.length === 0) await Bun.sleep(1);
    await holds[0];
    expect(whenWritesOpen(db)).toBeNull();
    expect(String(errors[0])).toContain("did not finish within 1 ms");
    // The worker's late answer finds no hold to end; writes go on, and the checkpointer stops cleanly.
    await Bun.sleep(200);
    expect(holds).toHaveLength(1);
    write(1);
    expect(whenWritesOpen(db)).toBeNull();
    await stop();
    db.close();
  });
});

describe("database connection", () => {
  test("uses WAL, synchronous=FULL by default, a busy timeout and foreign keys, with sqlite-vec loaded", () => {
    const db = openDatabase(join(dir, "pragmas.db"), cacheDir);
    const pragma = (name: string) => Object.values(db.query(`PRAGMA ${name}`).get() as object)[0];
    expect(pragma("journal_mode")).toBe("wal");
    expect(pragma("synchronous")).toBe(2); // FULL: an acknowledged commit survives power loss
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
