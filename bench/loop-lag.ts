// Preloaded into the service by bench/stalls.ts (`bun --preload bench/loop-lag.ts src/main.ts serve`): how
// long the service's own event loop was held, apart from what the stall probe adds (its queue behind busy
// clients, the scheduling of three busy processes on two cores). Every 5 ms a timer notes how late it ran;
// each lateness over 5 ms is appended, with its time, to FEATUREBOARD_BENCH_LOOP_LAG_FILE.
import { appendFileSync } from "node:fs";

const file = process.env.FEATUREBOARD_BENCH_LOOP_LAG_FILE;
const EVERY_MS = 5;
if (file) {
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    const lateMs = now - last - EVERY_MS;
    last = now;
    if (lateMs > 5) appendFileSync(file, `${Date.now()} ${lateMs.toFixed(1)}\n`);
  }, EVERY_MS).unref();
}
