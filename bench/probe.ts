// The stall probe, in a process of its own so the load generator's event loop does not add to what it
// measures: GET the URL, wait 10 ms, again, until a line arrives on stdin; then print the answers' times
// as JSON ({count, p50Ms, p99Ms, maxMs}) and exit. Started by bench/load.ts (startProbe).
//
//   npx bun bench/probe.ts http://127.0.0.1:3000/healthz

export {};

const url = process.argv[2];
if (!url) throw new Error("usage: bun bench/probe.ts URL");
// One answer first, unmeasured: the probe's own first fetch sets up its client and connection.
await (await fetch(url)).arrayBuffer();
const times: number[] = [];
let stopped = false;
const stopRequested = (async () => {
  for await (const _ of console) break;
  stopped = true;
})();
while (!stopped) {
  const started = performance.now();
  await (await fetch(url)).arrayBuffer();
  times.push(performance.now() - started);
  await Promise.race([Bun.sleep(10), stopRequested]);
}
times.sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
console.log(
  JSON.stringify({ count: times.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: times.at(-1) ?? 0 }),
);
process.exit(0);
