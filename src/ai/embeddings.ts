import { type Db, inTransaction } from "../db/connection";
import type { Logger } from "../log";
import type { AiProvider } from "./provider";
import * as store from "./store";
import { signature } from "./vectors";

/** `ai reindex`: forgets every vector and queues every post again. */
export { resetIndex } from "./store";

export interface PostTextInput {
  title: string;
  description: string | null;
}

interface AiRuntime {
  provider: AiProvider;
  log: Logger | null;
  draining: Promise<number> | null;
  stopWorker: () => void;
}

/**
 * The provider in use for each open database. Services take `(db, projectId, …)` (architecture.md), so
 * the post hooks find the provider through the database they write to; `attachAi` is called once when the
 * app (or the CLI) is built.
 */
const runtimes = new WeakMap<Db, AiRuntime>();

const WORKER_INTERVAL_MS = 1000;
const BATCH_SIZE = 64;

export function textHash(text: PostTextInput): string {
  return Bun.hash(`${text.title}\n${text.description ?? ""}`).toString(16);
}

export function providerOf(db: Db): AiProvider | null {
  return runtimes.get(db)?.provider ?? null;
}

/**
 * Makes `provider` the one that embeds posts of `db`. When the stored vectors came from another provider
 * or model they are dropped and every post is queued: a worker re-embeds them in the background, and
 * `featureboard ai reindex` does it in the foreground.
 */
export function attachAi(
  db: Db,
  provider: AiProvider,
  options: { log?: Logger; worker?: boolean } = {},
): void {
  runtimes.get(db)?.stopWorker();
  inTransaction(db, () => {
    if (store.storedModelKey(db) === provider.modelKey) return;
    const queued = store.resetIndex(db, Date.now());
    store.setModelKey(db, provider.modelKey, Date.now());
    if (queued > 0)
      options.log?.info("embedding model changed; re-embedding posts", { queued, model: provider.modelKey });
  });
  const runtime: AiRuntime = {
    provider,
    log: options.log ?? null,
    draining: null,
    stopWorker: () => undefined,
  };
  runtimes.set(db, runtime);
  if (options.worker !== false) runtime.stopWorker = startWorker(db, runtime);
}

/**
 * Embeds a post's title and description: called inside the transaction that creates the post or changes
 * its text (posts, import), so the vector exists exactly when the text does. A provider that needs the
 * network cannot run inside a transaction: the post is queued in it instead and embedded moments later.
 */
export function embedPost(db: Db, projectId: string, postId: string, text: PostTextInput): void {
  const provider = providerOf(db);
  const now = Date.now();
  if (!provider?.embedNow) {
    store.enqueue(db, projectId, postId, now);
    return;
  }
  const hash = textHash(text);
  if (store.textHashOf(db, postId, provider.modelKey) === hash) return;
  const vector = provider.embedNow(text);
  store.writeEmbedding(db, {
    projectId,
    postId,
    modelKey: provider.modelKey,
    textHash: hash,
    vector,
    signature: signature(vector),
    now,
  });
  store.dequeue(db, postId);
}

/** Removes a post from similarity search: on delete, and for the source of a merge (a known duplicate). */
export function forgetPost(db: Db, postId: string): void {
  store.deleteEmbedding(db, postId);
  store.dequeue(db, postId);
}

async function embedBatch(db: Db, provider: AiProvider, projectId: string | null): Promise<number> {
  const queued = store.queuedPosts(db, projectId, BATCH_SIZE);
  if (queued.length === 0) return 0;
  const texts = queued.map((row) => ({ title: row.title, description: row.description }));
  const vectors = provider.embedNow
    ? texts.map((text) => provider.embedNow!(text))
    : await provider.embed(texts);
  inTransaction(db, () => {
    queued.forEach((row, index) => {
      // The post may have changed or gone while the provider was answering: only a vector of the text
      // it still has is written; otherwise it stays queued for the next batch.
      const current = store.currentPostText(db, row.post_id);
      if (!current || current.merged_into_id !== null) return store.dequeue(db, row.post_id);
      if (textHash(current) !== textHash(texts[index]!)) return;
      const vector = vectors[index]!;
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
 * Embeds queued posts (of one project, or of all when `projectId` is null), at most `maxBatches` batches;
 * returns how many posts it handled. Provider failures propagate (UPSTREAM_ERROR).
 */
export async function drainQueue(
  db: Db,
  projectId: string | null,
  maxBatches = Number.POSITIVE_INFINITY,
): Promise<number> {
  const runtime = runtimes.get(db);
  if (!runtime) return 0;
  let handled = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const count = await embedBatch(db, runtime.provider, projectId);
    if (count === 0) break;
    handled += count;
  }
  return handled;
}

function startWorker(db: Db, runtime: AiRuntime): () => void {
  const timer = setInterval(() => {
    if (runtime.draining) return;
    runtime.draining = drainQueue(db, null, 8);
    runtime.draining
      .catch((error: unknown) => {
        // The database was closed under the timer (shutdown, end of a test): nothing left to do.
        if (String(error).includes("closed")) clearInterval(timer);
        else runtime.log?.warn("background embedding failed; will retry", { error: String(error) });
      })
      .finally(() => {
        runtime.draining = null;
      });
  }, WORKER_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

export function indexStatus(db: Db) {
  return {
    provider: providerOf(db)?.name ?? null,
    modelKey: store.storedModelKey(db),
    embedded: store.countEmbeddings(db),
    queued: store.queueLength(db),
  };
}
