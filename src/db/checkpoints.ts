import { type Db, onCommit, whenCommitted } from "./connection";

/**
 * The checkpointer: a worker thread with its own connection to the database file that runs a passive
 * checkpoint (copies the WAL back into the database file) every interval. On the event loop a checkpoint
 * under steady writes took 30–45 ms each second, and a WAL left to the automatic checkpoint made commits of
 * ~170 ms (issue 19; docs/performance.md). A passive checkpoint never blocks the service's connection.
 *
 * Under writes that never pause, the worker never sees the WAL whole: frames arrive while it copies, and
 * SQLite reuses the WAL from its start only when a write transaction begins with every frame copied. So
 * once the WAL is long and the worker keeps up with it, the worker pauses its rounds and catches up, then
 * writes are held back (`whenWritesOpen` in connection.ts: the HTTP layer and background writers wait on
 * it, the event loop does not) while it copies the last frames, and the first write after that starts the
 * WAL over. Copying those frames on the service's connection instead held the
 * event loop for the checkpoint's fsyncs, 11–190 ms about once a second under a vote load
 * (docs/performance.md).
 *
 * The worker's code is a string run from a Blob URL, so the compiled binary needs no second entry point.
 */
const WORKER_SOURCE = `
import { Database } from "bun:sqlite";
import { closeSync, fdatasyncSync, openSync } from "node:fs";
let db = null;
let databaseFd = null;
let timer = null;
let everyMs = 25;
let flushEachRound = false;
let copiedBefore = 0;
// Only news is posted: an idle WAL, or the same failure again, would wake the service 40 times a second.
let last = "";
function startRounds() {
  timer = setInterval(() => {
      let message;
      const startedAt = Date.now();
      try {
        const result = db.query("PRAGMA wal_checkpoint(PASSIVE)").get();
        // Commits that wait for WAL syncs: the pages copied are flushed now, a round's worth, instead of
        // reaching the disk in the kernel's write-back bursts, which the WAL syncs then queue behind.
        const flushed = flushEachRound && result.checkpointed !== copiedBefore;
        if (flushed) fdatasyncSync(databaseFd);
        copiedBefore = result.checkpointed;
        message = { type: "checkpointed", frames: result.log, copied: result.checkpointed, flushed };
      } catch (error) {
        message = { type: "failed", error: String(error) };
      }
      const text = JSON.stringify(message);
      if (text !== last) postMessage({ ...message, startedAt });
      last = text;
  }, everyMs);
}
self.onmessage = ({ data }) => {
  if (data.type === "start") {
    db = new Database(data.path);
    db.run("PRAGMA busy_timeout = 5000");
    db.run("PRAGMA synchronous = " + data.synchronous);
    databaseFd = openSync(data.path, "r");
    everyMs = data.everyMs;
    flushEachRound = data.flushEachRound;
    startRounds();
  } else if (data.type === "pause") {
    // Answered once the round under way (if any) is over and one more has copied what came since, writes
    // still going on: the copy while they are held back is then only what comes during this one.
    clearInterval(timer);
    try {
      db.query("PRAGMA wal_checkpoint(PASSIVE)").get();
      // SQLite syncs the database file only after a round that reached the WAL's end, which under writes
      // that never pause is rare: the copy under the hold would flush every page copied since (60-75 ms
      // measured). Flushed here, writes still going on, it flushes only what it copies.
      fdatasyncSync(databaseFd);
    } catch {
      // The copy under the hold reports any failure.
    }
    postMessage({ type: "paused" });
  } else if (data.type === "resume") {
    clearInterval(timer);
    startRounds();
  } else if (data.type === "finish") {
    // Asked while writes are held back: always answered, the service is waiting for it.
    try {
      const result = db.query("PRAGMA wal_checkpoint(PASSIVE)").get();
      postMessage({ type: "finished", frames: result.log, copied: result.checkpointed });
    } catch (error) {
      postMessage({ type: "finish-failed", error: String(error) });
    }
  } else if (data.type === "stop") {
    clearInterval(timer);
    db?.close();
    if (databaseFd !== null) closeSync(databaseFd);
    postMessage({ type: "stopped" });
  }
};
`;

type CheckpointerMessage =
  | { type: "checkpointed"; frames: number; copied: number; flushed: boolean; startedAt: number }
  | { type: "finished"; frames: number; copied: number }
  | { type: "failed" | "finish-failed"; error: string }
  | { type: "paused" | "stopped" };

export interface CheckpointOptions {
  /** How often the worker checkpoints. */
  everyMs?: number;
  /** The WAL length (frames) past which writes are held back for a moment so the WAL starts over. */
  restartAfterFrames?: number;
  /** How long writes may be held back before they go on anyway (the worker did not answer). */
  holdAtMostMs?: number;
}

/**
 * A restart begins only once the worker has at most this many frames (16 MiB) left to copy, i.e. keeps up;
 * the catch-up round before the hold copies them, so the hold's own copy is what comes during that round.
 */
const HOLD_AT_MOST_BACKLOG = 4096;
/** Rounds of "copy the rest" before writes go on anyway (a background writer kept adding frames). */
const HOLD_AT_MOST_ROUNDS = 4;

/** How long `stop` waits for the worker to close its connection before ending the thread anyway. */
const STOP_TIMEOUT_MS = 2_000;

/** The running worker: its thread, the Blob URL of its code, and how to learn it has closed. */
interface RunningCheckpointer {
  worker: Worker;
  /** From the moment the worker is asked to pause its rounds for a restart until writes are let go. */
  restarting: boolean;
  /** Called when the worker has paused its rounds. */
  onPaused: (() => void) | null;
  /** Called with the worker's answer to "finish" while writes are held back. */
  onFinished: ((wholeWal: boolean) => void) | null;
  /** Lets writes held back go on at once; `restartable`: with every frame copied. */
  releaseWrites: ((restartable?: boolean) => void) | null;
  /**
   * Reports of checkpoints begun before this moment (ms) describe a WAL since started over: after writes
   * are let go with every frame copied, the next write starts the WAL over, and until then a report of the
   * old, long WAL would hold writes back again for nothing. Infinity until that write has committed.
   */
  reportsValidFrom: number;
  source: string;
  closed: Promise<void>;
}

function startWorker(db: Db, onError: (error: unknown) => void, everyMs: number): RunningCheckpointer {
  const synchronous = db.query<{ synchronous: number }, []>("PRAGMA synchronous").get()?.synchronous ?? 2;
  const source = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
  const worker = new Worker(source);
  let stopped: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    stopped = resolve;
  });
  const running: RunningCheckpointer = {
    worker,
    source,
    closed,
    restarting: false,
    onPaused: null,
    onFinished: null,
    releaseWrites: null,
    reportsValidFrom: 0,
  };
  worker.onmessage = ({ data }: MessageEvent<CheckpointerMessage>) => {
    if (data.type === "checkpointed" || data.type === "finished") {
      if (data.type === "checkpointed" && data.flushed) db.databaseFlushes++;
      if (data.type === "checkpointed" && data.startedAt < running.reportsValidFrom) return;
      db.lastCheckpointAt = Date.now();
      db.walFrames = data.frames;
      db.walBacklog = data.frames - data.copied;
      if (data.type === "finished") running.onFinished?.(data.frames === data.copied);
    } else if (data.type === "failed") onError(new Error(data.error));
    else if (data.type === "paused") running.onPaused?.();
    else if (data.type === "finish-failed") {
      onError(new Error(data.error));
      running.releaseWrites?.();
    } else stopped();
  };
  worker.onerror = (event) => {
    onError(event.error ?? new Error(event.message));
    running.releaseWrites?.();
  };
  worker.postMessage({
    type: "start",
    path: db.filename,
    synchronous,
    everyMs,
    // Under `full` durability every commit waits for a WAL sync (connection.ts, syncCommitsOffLoop).
    flushEachRound: db.walSync !== null,
  });
  return running;
}

/**
 * Starts the WAL over: first the worker pauses its rounds, copies what is left and flushes the database
 * file while writes still go on (it answers after the round under way, if any, and that catch-up), so the
 * hold below waits for one short copy only: 7-25 ms measured, against 40-90 ms without the catch-up.
 */
function restartWal(
  db: Db,
  running: RunningCheckpointer,
  holdAtMostMs: number,
  onError: (error: unknown) => void,
): void {
  running.restarting = true;
  running.onPaused = () => {
    running.onPaused = null;
    holdWritesForRestart(db, running, holdAtMostMs, onError);
  };
  running.worker.postMessage({ type: "pause" });
}

/**
 * Holds writes back (`db.writeHold`) while the worker copies the last frames, and lets them go once it
 * has copied every frame with no commit since it was asked (the next write transaction then starts the
 * WAL over), or after a few rounds if something kept writing, or after `holdAtMostMs` if the worker does
 * not answer: writes never wait on a stuck or dead thread for long.
 */
function holdWritesForRestart(
  db: Db,
  running: RunningCheckpointer,
  holdAtMostMs: number,
  onError: (error: unknown) => void,
): void {
  let release: () => void = () => undefined;
  db.writeHold = new Promise<void>((resolve) => {
    release = resolve;
  });
  const giveUp = setTimeout(() => {
    onError(new Error(`the checkpointer did not finish within ${holdAtMostMs} ms; writes go on`));
    releaseWrites(false);
  }, holdAtMostMs);
  const releaseWrites = (restartable = false) => {
    clearTimeout(giveUp);
    if (restartable) running.reportsValidFrom = Infinity;
    running.onFinished = null;
    running.releaseWrites = null;
    running.restarting = false;
    running.worker.postMessage({ type: "resume" });
    db.writeHold = null;
    // The worker reports afresh on its next round; until then this WAL is not "long" again.
    db.walFrames = 0;
    release();
  };
  running.releaseWrites = releaseWrites;
  let rounds = 0;
  let commitsWhenAsked = db.commits;
  const ask = () => {
    rounds++;
    commitsWhenAsked = db.commits;
    running.worker.postMessage({ type: "finish" });
  };
  running.onFinished = (wholeWal) => {
    const restartable = wholeWal && db.commits === commitsWhenAsked && !db.inTransaction;
    if (!restartable && rounds < HOLD_AT_MOST_ROUNDS) ask();
    else releaseWrites(restartable);
  };
  // Ask once the batch open now (if any) is committed and durable: it may wait for a WAL sync under way
  // (group commit), and committing during the copy would cost a second round.
  void whenCommitted(db).then(ask, ask);
}

/**
 * Starts the checkpointer for `db` (nothing for an in-memory database, which has no WAL). Its thread
 * starts with the first commit after this call: a service nobody writes to has nothing to copy back and
 * does not pay the thread's ~10 MB. Returns the function that stops it: the worker finishes the checkpoint
 * it is in, closes its connection, and ends.
 */
export function startCheckpoints(
  db: Db,
  onError: (error: unknown) => void,
  // Every 25 ms: rounds of 100 ms did not change the vote tail and made the holds longer. 128 MiB: under a vote load that never
  // pauses (1,300 votes/s) the WAL starts over every ~2 s, so holds touch under 1 % of the writes; at
  // 32 MiB they came 4x as often and made the vote p99 (docs/performance.md). Any pause in the writes
  // starts it over sooner.
  { everyMs = 25, restartAfterFrames = 32768, holdAtMostMs = 1_000 }: CheckpointOptions = {},
): () => Promise<void> {
  if (db.filename === ":memory:" || db.filename === "") return () => Promise.resolve();
  let running: RunningCheckpointer | null = null;
  const stopListening = onCommit(db, () => {
    if (!running) running = startWorker(db, onError, everyMs);
    else if (running.reportsValidFrom === Infinity) running.reportsValidFrom = Date.now();
    else if (
      !running.restarting &&
      db.walFrames >= restartAfterFrames &&
      db.walBacklog <= HOLD_AT_MOST_BACKLOG
    )
      restartWal(db, running, holdAtMostMs, onError);
  });
  return async () => {
    stopListening();
    if (!running) return;
    // Writes held back for a restart go on: the worker is about to stop answering.
    running.onPaused = null;
    running.releaseWrites?.();
    const { worker, source, closed } = running;
    worker.postMessage({ type: "stop" });
    await Promise.race([closed, Bun.sleep(STOP_TIMEOUT_MS)]);
    worker.terminate();
    URL.revokeObjectURL(source);
  };
}
