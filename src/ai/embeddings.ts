import { beforeNextSlice, type Db, inTransaction, whenWritable } from "../db/connection";
import type { Logger } from "../log";
import { type AiProvider, isRejected } from "./provider";
import { SignatureIndex } from "./signature-index";
import * as store from "./store";
import { preparePlanes, signature } from "./vectors";

/** `ai reindex`: forgets every vector and queues every post again. */
export { resetIndex } from "./store";

export interface PostTextInput {
  title: string;
  description: string | null;
}

const WORKER_INTERVAL_MS = 1000;
/**
 * Posts per batch: one request to a model server (which may take fewer: the provider learns its cap), or
 * local embedding, which runs on the event loop: 4 posts are ~4 ms of embedding, signing and writing with
 * local-hash-v3 (whose 100 word-vector dimensions are never zero, so signing costs more than v2's sparse
 * vectors; 8 posts held the loop ~7-12 ms, 32 posts of v2 ~18 ms), and requests are served between batches.
 */
const REMOTE_BATCH_SIZE = 64;
const LOCAL_BATCH_SIZE = 4;
/** Posts the background worker embeds per tick, at most: a 10,000-post re-embed takes ~20 ticks. */
const WORKER_POSTS_PER_TICK = 512;
/** Vectors from before migration 0017 the worker rewrites in half precision per tick: a few ms of work. */
const HALVED_PER_TICK = 64;

export function textHash(text: PostTextInput): string {
  return Bun.hash(`${text.title}\n${text.description ?? ""}`).toString(16);
}

/**
 * The AI provider of the running service and the embedding work around it: built once by `createContext`
 * (or by a CLI command) and passed to the AI services; its background worker is started and stopped by
 * `server.ts`. When the stored vectors came from another provider or model they are dropped and every post
 * is queued, to be embedded again in the background (or by `featureboard ai reindex` in the foreground).
 */
/** The background worker's wait after its first failure, doubled per failure up to the maximum. */
const FIRST_BACKOFF_MS = 2_000;
const MAX_BACKOFF_MS = 5 * 60_000;

/** Exponential backoff with full jitter: a fleet of failing workers does not retry in lockstep. */
export function backoffMs(failures: number, random = Math.random()): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, failures - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}

export class AiRuntime {
  private draining: Promise<number> | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  /** Failures of the background worker in a row, and when it may try again. */
  private failures = 0;
  private resumeAt = 0;
  /** Set once no vector is left in the old 32-bit format. */
  private allHalved = false;
  /** The large projects' signatures, scanned in memory by every search. */
  readonly signatures: SignatureIndex;

  constructor(
    readonly db: Db,
    readonly provider: AiProvider,
    private readonly log: Logger | null = null,
  ) {
    this.signatures = new SignatureIndex(db);
    inTransaction(db, () => {
      if (store.storedModelKey(db) === provider.modelKey) return;
      const queued = store.resetIndex(db, Date.now());
      store.setModelKey(db, provider.modelKey, Date.now());
      if (queued > 0)
        log?.info("embedding model changed; re-embedding posts", { queued, model: provider.modelKey });
    });
  }

  /**
   * Embeds queued posts (of one project, or of all when `projectId` is null), at most `maxBatches` batches;
   * one drain runs at a time, so the worker and a search never embed the same post twice. Provider
   * failures propagate (UPSTREAM_ERROR).
   */
  async drain(projectId: string | null, maxBatches = Number.POSITIVE_INFINITY): Promise<number> {
    while (this.draining) await this.draining.catch(() => 0);
    this.draining = drainQueue(this.db, this.provider, projectId, maxBatches);
    try {
      return await this.draining;
    } finally {
      this.draining = null;
    }
  }

  startWorker(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.draining || Date.now() < this.resumeAt) return;
      this.drain(null, Math.ceil(WORKER_POSTS_PER_TICK / batchSizeOf(this.provider)))
        .then(() => {
          this.failures = 0;
          this.halveOldVectors();
        })
        .catch((error: unknown) => {
          // The database was closed under the timer (shutdown, end of a test): nothing left to do.
          if (String(error).includes("closed")) return this.stopWorker();
          this.failures++;
          const waitMs = backoffMs(this.failures);
          this.resumeAt = Date.now() + waitMs;
          this.log?.warn("background embedding failed; will retry", {
            error: String(error),
            failures: this.failures,
            retryInMs: waitMs,
          });
        });
    }, WORKER_INTERVAL_MS);
    this.timer.unref();
  }

  /**
   * Rewrites a few vectors stored before migration 0017 in half precision. Read first, outside any
   * transaction: an up-to-date index costs no commit (no fsync) per tick.
   */
  private halveOldVectors(): void {
    if (this.allHalved) return;
    const rows = store.fullPrecisionVectors(this.db, HALVED_PER_TICK);
    if (rows.length === 0) {
      this.allHalved = true;
      return;
    }
    inTransaction(this.db, () => store.storeInHalfPrecision(this.db, rows));
  }

  stopWorker(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/**
 * Queues a post's new text for embedding: called inside the transaction that creates the post or changes
 * its text (posts, import). The runtime's worker embeds it moments later, and a similarity search embeds
 * what is queued before it searches, so a search never misses a post it could find.
 */
export function embedPost(db: Db, projectId: string, postId: string): void {
  store.enqueue(db, projectId, postId, Date.now());
}

/** Removes a post from similarity search: on delete, and for the source of a merge (a known duplicate). */
export function forgetPost(db: Db, postId: string): void {
  store.deleteEmbedding(db, postId);
  store.dequeue(db, postId);
}

function batchSizeOf(provider: AiProvider): number {
  return provider.embedNow ? LOCAL_BATCH_SIZE : REMOTE_BATCH_SIZE;
}

async function embedBatch(db: Db, provider: AiProvider, projectId: string | null): Promise<number> {
  const queued = store.queuedPosts(db, projectId, batchSizeOf(provider));
  if (queued.length === 0) return 0;
  const texts = queued.map((row) => ({ title: row.title, description: row.description }));
  if (provider.prepare) await provider.prepare();
  const vectors = provider.embedNow
    ? texts.map((text) => provider.embedNow!(text))
    : await provider.embed(texts);
  // The signatures' hyperplanes are built a step at a time the first time they are needed (~45 ms in
  // one piece): here, not at start-up, so a service with nothing to embed does not hold their ~4 MB.
  const first = vectors.find((vector) => !isRejected(vector));
  if (first && !isRejected(first)) await preparePlanes(first.length);
  await whenWritable(db);
  inTransaction(db, () => {
    queued.forEach((row, index) => {
      // The post may have changed or gone while the provider was answering: only a vector of the text
      // it still has is written; otherwise it stays queued for the next batch.
      const current = store.currentPostText(db, row.post_id);
      if (!current || current.merged_into_id !== null) return store.dequeue(db, row.post_id);
      if (textHash(current) !== textHash(texts[index]!)) return;
      const vector = vectors[index]!;
      // Refused by the model server for this text alone: kept aside with the reason (`ai status`), so the
      // posts after it go on; editing the post queues it again.
      if (isRejected(vector)) return store.markFailed(db, row.post_id, vector.rejected, Date.now());
      store.writeEmbedding(db, {
        projectId: row.project_id,
        postId: row.post_id,
        modelKey: provider.modelKey,
        textHash: textHash(current),
        vector,
        signature: signature(vector),
        now: Date.now(),
      });
      store.dequeue(db, row.post_id);
    });
  });
  return queued.length;
}

/**
 * Embeds queued posts with `provider` (of one project, or of all when `projectId` is null), at most
 * `maxBatches` batches; returns how many posts it handled. Callers go through AiRuntime.drain.
 */
async function drainQueue(
  db: Db,
  provider: AiProvider,
  projectId: string | null,
  maxBatches: number,
): Promise<number> {
  let handled = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    // Each batch is bounded work; before each the event loop serves requests (a local provider embeds
    // without I/O, so without this a drain of thousands of posts would hold the loop for seconds).
    await beforeNextSlice(db);
    const count = await embedBatch(db, provider, projectId);
    if (count === 0) break;
    handled += count;
  }
  return handled;
}

/** What the index holds; read-only (`featureboard ai status`). */
export function indexStatus(db: Db, providerName: string | null) {
  return {
    provider: providerName,
    modelKey: store.storedModelKey(db),
    embedded: store.countEmbeddings(db),
    queued: store.queueLength(db),
    failed: store.failedEmbeddings(db, 20),
  };
}
