import { beforeNextSlice, type Db, inTransaction, whenWritable } from "../db/connection";
import { ApiError } from "../http/errors";
import type { Logger } from "../log";
import { type AiProvider, isRejected } from "./provider";
import { SignatureIndex } from "./signature-index";
import * as store from "./store";
import { preparePlanes, signature, vectorProblem } from "./vectors";

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

/**
 * Exponential backoff with full jitter: a fleet of failing workers does not retry in lockstep. When the
 * server said how long to wait (the provider's error carries its Retry-After, in seconds), at least that
 * long, up to the longest backoff (docs/ai.md, "Real model servers").
 */
export function backoffMs(
  failures: number,
  random = Math.random(),
  serverAsksMs: number | null = null,
): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, failures - 1));
  const jittered = Math.round(ceiling / 2 + (ceiling / 2) * random);
  return serverAsksMs === null ? jittered : Math.max(jittered, Math.min(MAX_BACKOFF_MS, serverAsksMs));
}

/** The wait a failed call's error passes on from the server (ApiError's Retry-After, in seconds), if any. */
function retryAfterOf(error: unknown): number | null {
  const said = error instanceof ApiError ? error.headers["Retry-After"] : undefined;
  const seconds = Number(said);
  return said !== undefined && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : null;
}

/**
 * Batches of queued posts a request embeds before it searches: enough for the posts of the last moments,
 * bounded so a request during a full re-embed (after a provider change) does not wait for all of it.
 */
export const REQUEST_DRAIN_BATCHES = 4;
/**
 * How long a request waits, at most, for the project's queued posts to be embedded before it searches
 * what is indexed (docs/ai.md, "Searches while the model server is slow"): counted from when that
 * embedding started, so a later request never waits for one that has taken longer already.
 */
export const REQUEST_DRAIN_WAIT_MS = 1_500;

export class AiRuntime {
  /** Posts a running batch is embedding: another drain leaves them to it, so none is embedded twice. */
  private readonly inFlight = new Set<string>();
  /** Counts the index's resets: a batch asked for before a reset writes nothing (its vectors are stale). */
  private resets = 0;
  private workerBusy = false;
  /** The request-path embedding of each project, shared by the requests that arrive while it runs. */
  private readonly requestDrains = new Map<string, { done: Promise<void>; deadline: number }>();
  private timer: ReturnType<typeof setInterval> | null = null;
  /** Failures of the model server in a row (background or request-path embedding), and when to try again. */
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
      if (store.storedModelKey(db) === provider.modelKey) {
        // Vectors of two dimensions under one model key were stored before the dimension was checked
        // (a server that loaded another model): two point reads, the oldest vector and the newest.
        const mixed = store.oldestAndNewestDimensions(db);
        if (mixed && mixed.oldest !== mixed.newest) this.resetForDimension(mixed.oldest, mixed.newest);
        return;
      }
      const queued = store.resetIndex(db, Date.now());
      store.setModelKey(db, provider.modelKey, Date.now());
      if (queued > 0)
        log?.info("embedding model changed; re-embedding posts", { queued, model: provider.modelKey });
    });
  }

  /**
   * Embeds queued posts (of one project, or of all when `projectId` is null), at most `maxBatches` batches.
   * Drains may run at the same time (the worker, a search, the CLI): each batch claims its posts, so none is
   * embedded twice. Provider failures propagate (UPSTREAM_ERROR).
   */
  async drain(projectId: string | null, maxBatches = Number.POSITIVE_INFINITY): Promise<number> {
    let handled = 0;
    for (let batch = 0; batch < maxBatches; batch++) {
      // Each batch is bounded work; before each the event loop serves requests (a local provider embeds
      // without I/O, so without this a drain of thousands of posts would hold the loop for seconds).
      await beforeNextSlice(this.db);
      const count = await this.embedBatch(projectId);
      if (count === 0) break;
      handled += count;
    }
    return handled;
  }

  /**
   * Before a request searches: the project's queued posts are embedded, and the request waits for that at
   * most REQUEST_DRAIN_WAIT_MS from when it started; then it searches what is indexed, and what is left
   * queued is the worker's. While the model server is failing (the worker's backoff) nothing is tried here.
   * Never throws: a failure counts towards the backoff and is logged.
   */
  async catchUp(projectId: string): Promise<void> {
    if (Date.now() < this.resumeAt) return;
    let running = this.requestDrains.get(projectId);
    if (!running) {
      const done = this.drain(projectId, REQUEST_DRAIN_BATCHES)
        .then(
          (handled) => {
            if (handled > 0) this.serverAnswered();
          },
          (error: unknown) => this.serverFailed(error, "search"),
        )
        .finally(() => this.requestDrains.delete(projectId));
      running = { done, deadline: Date.now() + REQUEST_DRAIN_WAIT_MS };
      this.requestDrains.set(projectId, running);
    }
    const waitMs = running.deadline - Date.now();
    if (waitMs <= 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([running.done, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
  }

  /**
   * The model server answered (a search's query was embedded): the worker's backoff ends, so the queue is
   * embedded again at its next tick instead of minutes later.
   */
  serverAnswered(): void {
    if (this.failures > 0) this.log?.info("the model server answers again; embedding resumes");
    this.failures = 0;
    this.resumeAt = 0;
  }

  private serverFailed(error: unknown, by: "background" | "search"): void {
    // The database was closed under the work (shutdown, end of a test): nothing left to do.
    if (String(error).includes("closed")) return this.stopWorker();
    this.failures++;
    const waitMs = backoffMs(this.failures, Math.random(), retryAfterOf(error));
    this.resumeAt = Date.now() + waitMs;
    this.log?.warn("embedding failed; will retry", {
      by,
      error: String(error),
      failures: this.failures,
      retryInMs: waitMs,
    });
  }

  /**
   * A vector of `dimension` came from the model server (a batch or a search's query). When the index holds
   * vectors of another dimension the server now serves another model under the same name (llama.cpp and LM
   * Studio serve whatever is loaded): the index is reset and every post queued, as for a model change.
   * Reads first, so an index of the same dimension costs no write; says whether it reset.
   */
  adoptDimension(dimension: number): boolean {
    const indexed = store.newestDimension(this.db);
    if (indexed === null || indexed === dimension) return false;
    inTransaction(this.db, () => this.resetForDimension(indexed, dimension));
    return true;
  }

  private resetForDimension(from: number, to: number): void {
    const queued = store.resetIndex(this.db, Date.now());
    this.resets++;
    this.log?.warn("the embedding model's dimension changed; re-embedding every post", {
      from,
      to,
      queued,
      model: this.provider.modelKey,
    });
  }

  startWorker(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.workerBusy || Date.now() < this.resumeAt) return;
      this.workerBusy = true;
      this.drain(null, Math.ceil(WORKER_POSTS_PER_TICK / batchSizeOf(this.provider)))
        .then((handled) => {
          if (handled > 0) this.serverAnswered();
          this.halveOldVectors();
        })
        .catch((error: unknown) => this.serverFailed(error, "background"))
        .finally(() => (this.workerBusy = false));
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

  /** Embeds one batch of queued posts no other drain is embedding; returns how many it handled. */
  private async embedBatch(projectId: string | null): Promise<number> {
    const { db, provider, inFlight } = this;
    const size = batchSizeOf(provider);
    const queued = store
      .queuedPosts(db, projectId, size + inFlight.size)
      .filter((row) => !inFlight.has(row.post_id))
      .slice(0, size);
    if (queued.length === 0) return 0;
    for (const row of queued) inFlight.add(row.post_id);
    try {
      await this.embedAndStore(queued);
    } finally {
      for (const row of queued) inFlight.delete(row.post_id);
    }
    return queued.length;
  }

  private async embedAndStore(queued: store.QueuedPost[]): Promise<void> {
    const { db, provider } = this;
    const resetsBefore = this.resets;
    const texts = queued.map((row) => ({ title: row.title, description: row.description }));
    if (provider.prepare) await provider.prepare();
    const answers = provider.embedNow
      ? texts.map((text) => provider.embedNow!(text))
      : await provider.embed(texts);
    // A vector with a NaN or of zeros is never stored (docs/ai.md, "Vectors the index refuses").
    const vectors = answers.map((answer) => {
      const problem = isRejected(answer) ? null : vectorProblem(answer);
      return problem === null ? answer : { rejected: problem, kind: "unusable" as const };
    });
    const first = vectors.find((vector) => !isRejected(vector));
    const dimension = first && !isRejected(first) ? first.length : null;
    // The signatures' hyperplanes are built a step at a time the first time they are needed (~45 ms in
    // one piece): here, not at start-up, so a service with nothing to embed does not hold their ~4 MB.
    if (dimension !== null) await preparePlanes(dimension);
    await whenWritable(db);
    inTransaction(db, () => {
      // The index was reset while the server answered (its model changed): these vectors may be the old
      // model's; the posts are queued again, to be embedded by the next batch.
      if (this.resets !== resetsBefore) return;
      if (dimension !== null) this.adoptDimension(dimension);
      queued.forEach((row, index) => {
        // The post may have changed or gone while the provider was answering: only a vector of the text
        // it still has is written; otherwise it stays queued for the next batch.
        const current = store.currentPostText(db, row.post_id);
        if (!current || current.merged_into_id !== null) return store.dequeue(db, row.post_id);
        if (textHash(current) !== textHash(texts[index]!)) return;
        const vector = vectors[index]!;
        // Refused by the model server for this text alone (or unusable): kept aside with the reason (`ai
        // status`), so the posts after it go on; editing the post queues it again.
        if (isRejected(vector)) return store.markFailed(db, row.post_id, vector.rejected, Date.now());
        if (vector.length !== dimension) {
          const reason = `the embedding has ${vector.length} dimensions, the others of its batch ${dimension}`;
          return store.markFailed(db, row.post_id, reason, Date.now());
        }
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
