import { type Db, releaseCacheMemory } from "./db/connection";

/**
 * The compiled binary starts with JavaScriptCore's JIT held back (`--compile-jit-policy=20` in
 * package.json's build): the code that runs once at start-up (migrations, building ~180 routes, module
 * bodies) stays in the interpreter instead of being compiled to machine code that is never run again,
 * which the idle process kept resident (~3 MB; docs/performance.md). A long-running mode calls this once it
 * answers, so the code that serves requests tiers up as usual. From source, or called twice, it changes
 * nothing.
 */
export function startupDone(): void {
  Bun.unsafe.setJITPolicy(1);
}

/** How long after the service starts answering its start-up's leftovers are given back (below). */
const SETTLE_AFTER_MS = 200;

/**
 * The service answers: the JIT goes back to normal (startupDone), and a moment later one full collection
 * runs and the database connection gives back its page cache. What start-up alone allocated (the
 * migrations' text and plans, the routes' building) is garbage by then, and JavaScriptCore collected it on
 * its own only after ~20 s idle: ~1 MB resident meanwhile (docs/performance.md). The collection of a heap
 * this small takes a few milliseconds. Returns a function that cancels it (a stop that comes first).
 */
export function serviceStarted(db: Db): () => void {
  startupDone();
  const timer = setTimeout(() => {
    Bun.gc(true);
    releaseCacheMemory(db);
  }, SETTLE_AFTER_MS);
  timer.unref();
  return () => clearTimeout(timer);
}
