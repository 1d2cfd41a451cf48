import { type Db, onCommit } from "./connection";

/**
 * The checkpointer: a worker thread with its own connection to the database file that runs a passive
 * checkpoint (copies the WAL back into the database file) every interval. On the event loop a checkpoint
 * under steady writes took 30–45 ms each second, and a WAL left to the automatic checkpoint made commits of
 * ~170 ms (issue 19; docs/performance.md). A passive checkpoint never blocks the service's connection.
 *
 * Under writes that never pause, the worker never sees the WAL whole: frames arrive while it copies, and
 * the WAL is reused from its start only once every frame is copied. So it reports how far it got, and the
 * service's own connection copies the last few frames right after a commit (finishCheckpoint in
 * connection.ts), a millisecond or two, after which its next write starts the WAL over.
 *
 * The worker's code is a string run from a Blob URL, so the compiled binary needs no second entry point.
 */
const WORKER_SOURCE = `
import { Database } from "bun:sqlite";
let db = null;
let timer = null;
// Only news is posted: an idle WAL, or the same failure again, would wake the service 40 times a second.
let last = "";
self.onmessage = ({ data }) => {
  if (data.type === "start") {
    db = new Database(data.path);
    db.run("PRAGMA busy_timeout = 5000");
    db.run("PRAGMA synchronous = " + data.synchronous);
    timer = setInterval(() => {
      let message;
      try {
        const result = db.query("PRAGMA wal_checkpoint(PASSIVE)").get();
        message = { type: "checkpointed", frames: result.log, copied: result.checkpointed };
      } catch (error) {
        message = { type: "failed", error: String(error) };
      }
      const text = JSON.stringify(message);
      if (text !== last) postMessage(message);
      last = text;
    }, data.everyMs);
  } else if (data.type === "stop") {
    clearInterval(timer);
    db?.close();
    postMessage({ type: "stopped" });
  }
};
`;

type CheckpointerMessage =
  | { type: "checkpointed"; frames: number; copied: number }
  | { type: "failed"; error: string }
  | { type: "stopped" };

export interface CheckpointOptions {
  /** How often the worker checkpoints. */
  everyMs?: number;
  /** The WAL length (frames) past which the service's connection finishes a checkpoint and starts it over. */
  restartAfterFrames?: number;
}

/** How long `stop` waits for the worker to close its connection before ending the thread anyway. */
const STOP_TIMEOUT_MS = 2_000;

/** The running worker: its thread, the Blob URL of its code, and how to learn it has closed. */
interface RunningCheckpointer {
  worker: Worker;
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
  worker.onmessage = ({ data }: MessageEvent<CheckpointerMessage>) => {
    if (data.type === "checkpointed") {
      db.lastCheckpointAt = Date.now();
      db.walFrames = data.frames;
      db.walBacklog = data.frames - data.copied;
    } else if (data.type === "failed") onError(new Error(data.error));
    else stopped();
  };
  worker.onerror = (event) => onError(event.error ?? new Error(event.message));
  worker.postMessage({ type: "start", path: db.filename, synchronous, everyMs });
  return { worker, source, closed };
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
  // Every 25 ms: the frames the service's connection then copies are those of one short checkpoint. 32 MiB:
  // that copy happens about once a second under a heavy vote load (docs/performance.md).
  { everyMs = 25, restartAfterFrames = 8192 }: CheckpointOptions = {},
): () => Promise<void> {
  if (db.filename === ":memory:" || db.filename === "") return () => Promise.resolve();
  db.restartWalAfterFrames = restartAfterFrames;
  let running: RunningCheckpointer | null = null;
  const stopListening = onCommit(db, () => {
    stopListening();
    running = startWorker(db, onError, everyMs);
  });
  return async () => {
    stopListening();
    db.restartWalAfterFrames = null;
    if (!running) return;
    const { worker, source, closed } = running;
    worker.postMessage({ type: "stop" });
    await Promise.race([closed, Bun.sleep(STOP_TIMEOUT_MS)]);
    worker.terminate();
    URL.revokeObjectURL(source);
  };
}
