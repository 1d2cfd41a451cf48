// Stalls, tails and durability cost (issue 19). One run, one seeded database, the service as a separate
// process (from source, or --binary dist/featureboard), the stall probe (bench/probe.ts: a /healthz every
// 10 ms from a process of its own) running through each scenario:
//   1. re-embed: the service starts on --posts seeded posts, none embedded yet, and embeds them all;
//   2. votes and create-post at --concurrency clients for --seconds each, under synchronous=FULL;
//   3. two imports of --rows rows through POST /api/v1/import: as JSON rows, then as a CSV text (what the
//      dashboard's upload sends), each once the posts before it are embedded;
//   4. the same vote and create-post loads under FEATUREBOARD_DURABILITY=fast (synchronous=NORMAL), the
//      baseline of the rate target.
// From source, each line also shows `loop max`: the longest the service's own event loop was held
// (bench/loop-lag.ts, preloaded), which the probe's figure includes along with its wait behind busy
// clients and the machine's scheduling.
// Prints each scenario's figures and the issue's targets; the figures go in docs/performance.md.
//
//   npx bun bench/stalls.ts [--posts 10000] [--votes 100000] [--rows 10000] [--seconds 30] [--concurrency 16]
//                           [--scenarios reembed,votes,create,import,fast]
// --scenarios runs only those named (`fast`: the NORMAL loads, of votes and create as named): an A/B of one
// change alternates shorter runs of one load. The seeded posts are always embedded before any load.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { seedBoard, startServer, waitForEmbeddings } from "./board-fixture";
import { badRowsOf, importCsv, importRows } from "./import-rows";
import { type LoadResult, type ProbeResult, runLoad, startProbe } from "./load";

const { values } = parseArgs({
  options: {
    posts: { type: "string", default: "10000" },
    votes: { type: "string", default: "100000" },
    rows: { type: "string", default: "10000" },
    seconds: { type: "string", default: "30" },
    concurrency: { type: "string", default: "16" },
    binary: { type: "string" },
    scenarios: { type: "string", default: "reembed,votes,create,import,fast" },
  },
});
const SCENARIOS = new Set(values.scenarios.split(","));
const POSTS = Number(values.posts);
const ROWS = Number(values.rows);
const SECONDS = Number(values.seconds);
const CONCURRENCY = Number(values.concurrency);
const dir = mkdtempSync(join(tmpdir(), "featureboard-stalls-"));
const databasePath = join(dir, "bench.db");
const cacheDir = join(dir, "cache");
// From source, bench/loop-lag.ts is preloaded into the service to note how long its event loop was held.
const loopLagFile = join(dir, "loop-lag.txt");
const command = values.binary
  ? [values.binary, "serve"]
  : [process.execPath, "--preload", "./bench/loop-lag.ts", "src/main.ts", "serve"];

/**
 * The longest the service's event loop was held between two moments (from source only), and when it
 * began (seconds after `from`): a stall at the start of a load is not the same as one in its middle.
 */
async function loopMaxMs(from: number, to: number): Promise<string> {
  if (values.binary) return "n/a";
  const file = Bun.file(loopLagFile);
  if (!(await file.exists())) return "0.0";
  let max = 0;
  let startedAt = from;
  for (const line of (await file.text()).split("\n")) {
    const [at, ms] = line.split(" ").map(Number);
    // A line is written when the stall ends; one that began before `from` is the service's start-up,
    // whose first answer can go out before the timer notes it.
    if (at === undefined || ms === undefined || at - ms < from || at > to || ms <= max) continue;
    max = ms;
    startedAt = at - ms;
  }
  return `${max.toFixed(1)} (at ${((startedAt - from) / 1000).toFixed(1)} s)`;
}

const { secretKey, postIds } = seedBoard({
  databasePath,
  cacheDir,
  posts: POSTS,
  votes: Number(values.votes),
});
const auth = { authorization: `Bearer ${secretKey}` };
const json = { ...auth, "content-type": "application/json" };

async function startService(durability: "full" | "fast") {
  return startServer(
    dir,
    `featureboard-${durability}`,
    command,
    {
      FEATUREBOARD_DB: databasePath,
      FEATUREBOARD_CACHE_DIR: cacheDir,
      FEATUREBOARD_DURABILITY: durability,
      FEATUREBOARD_RATE_LIMIT_KEY_PER_MINUTE: "1000000",
      FEATUREBOARD_RATE_LIMIT_KEY_BURST: "1000000",
      FEATUREBOARD_BENCH_LOOP_LAG_FILE: loopLagFile,
    },
    "/healthz",
  );
}

let round = 0;
function vote(url: string) {
  const tag = `${round++}`;
  return (i: number) =>
    new Request(`${url}/api/v1/posts/${postIds[(i * 104729) % postIds.length]}/votes`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ anonymousId: `stall-${tag}-${i}` }),
    });
}
function create(url: string) {
  return (i: number) =>
    new Request(`${url}/api/v1/posts`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ title: `Load request ${i}`, description: "Created under load" }),
    });
}

const lines: string[] = [];
const show = (name: string, text: string) => {
  const line = `${name.padEnd(34)} ${text}`;
  lines.push(line);
  console.log(line);
};
const probeText = (probe: ProbeResult, loopMs: string) =>
  `probe p50 ${probe.p50Ms.toFixed(1)} ms, p99 ${probe.p99Ms.toFixed(1)} ms, max ${probe.maxMs.toFixed(1)} ms (${probe.count} probes); loop max ${loopMs} ms`;
const loadText = (load: LoadResult, loopMs: string) =>
  `${load.perSecond.toFixed(0)} req/s, p50 ${load.p50Ms.toFixed(1)} ms, p99 ${load.p99Ms.toFixed(1)} ms ` +
  `(${(load.p99Ms / load.p50Ms).toFixed(1)}×), probe max ${load.probeMaxMs.toFixed(1)} ms; loop max ${loopMs} ms` +
  (load.errors ? `, ${load.errors} errors` : "");

/** One write load of SECONDS at CONCURRENCY clients, shown under `name`; probed when `probe` is given. */
async function writeLoad(name: string, request: (i: number) => Request, probe?: string): Promise<LoadResult> {
  const from = Date.now();
  const result = await runLoad({ concurrency: CONCURRENCY, seconds: SECONDS, request, expect: 201, probe });
  show(name, loadText(result, await loopMaxMs(from, Date.now())));
  return result;
}

const full = await startService("full");
const results: Partial<Record<"voteFull" | "createFull" | "voteFast" | "createFast", LoadResult>> = {};
try {
  // 1. Re-embed: every seeded post is queued; the service embeds them in the background from its start.
  const reembedFrom = Date.now();
  const reembedProbe = startProbe(`${full.url}/healthz`);
  const reembedSeconds = await waitForEmbeddings(databasePath);
  const reembed = await reembedProbe.stop();
  const reembedLoop = await loopMaxMs(reembedFrom, Date.now());
  if (SCENARIOS.has("reembed")) {
    show(`re-embed ${POSTS} posts`, `${reembedSeconds.toFixed(1)} s; ${probeText(reembed, reembedLoop)}`);
  }

  // 2. Writes under synchronous=FULL, after a short warm-up.
  await runLoad({ concurrency: CONCURRENCY, seconds: 1, request: vote(full.url), expect: 201 });
  if (SCENARIOS.has("votes")) {
    results.voteFull = await writeLoad("votes, FULL", vote(full.url), `${full.url}/healthz`);
  }
  if (SCENARIOS.has("create")) {
    results.createFull = await writeLoad("create-post, FULL", create(full.url), `${full.url}/healthz`);
  }
  await waitForEmbeddings(databasePath);

  // 3. Import: one request carrying every row.
  if (SCENARIOS.has("import")) await importScenario();
} finally {
  await full.stop();
  await Bun.sleep(500);
}

async function importScenario() {
  await importOnce("rows", { source: "csv", data: importRows(ROWS) });
  await waitForEmbeddings(databasePath);
  // The same rows as a CSV text, as the dashboard's upload sends them: parsed by the service itself.
  await importOnce("CSV text", { source: "csv", csv: importCsv(importRows(ROWS)) });
}

async function importOnce(form: string, body: object) {
  const importFrom = Date.now();
  const importProbe = startProbe(`${full.url}/healthz`);
  const importStarted = performance.now();
  const imported = await fetch(`${full.url}/api/v1/import`, {
    method: "POST",
    headers: json,
    body: JSON.stringify(body),
  });
  const importBody = (await imported.json()) as { data?: { imported: number } };
  const importMs = performance.now() - importStarted;
  const importStalls = await importProbe.stop();
  if (importBody.data?.imported !== ROWS - badRowsOf(ROWS).size) {
    throw new Error(`import answered ${imported.status}: ${JSON.stringify(importBody).slice(0, 300)}`);
  }
  const importLoop = await loopMaxMs(importFrom, Date.now());
  show(`import ${ROWS} ${form}`, `${(importMs / 1000).toFixed(1)} s; ${probeText(importStalls, importLoop)}`);
}

// 4. The same writes under synchronous=NORMAL: the rate the FULL figures are held against.
if (SCENARIOS.has("fast")) {
  const fast = await startService("fast");
  try {
    await waitForEmbeddings(databasePath);
    await runLoad({ concurrency: CONCURRENCY, seconds: 1, request: vote(fast.url), expect: 201 });
    if (SCENARIOS.has("votes")) results.voteFast = await writeLoad("votes, fast (NORMAL)", vote(fast.url));
    if (SCENARIOS.has("create")) {
      results.createFast = await writeLoad("create-post, fast (NORMAL)", create(fast.url));
    }
  } finally {
    await fast.stop();
    await Bun.sleep(500);
  }
}
rmSync(dir, { recursive: true, force: true });

const { voteFull, createFull, voteFast, createFast } = results;
const ratio = (
  a: LoadResult | undefined,
  b: LoadResult | undefined,
  of: (x: LoadResult, y: LoadResult) => string,
) => (a && b ? of(a, b) : "not run");
console.log(`\n${POSTS} posts; ${CONCURRENCY} clients, ${SECONDS} s per load; ${command.join(" ")}\n`);
console.log(lines.join("\n"));
console.log(`
targets (issue 19):
  vote p99 ≤ 3× p50 under FULL:          ${ratio(voteFull, voteFull, (x) => `${(x.p99Ms / x.p50Ms).toFixed(1)}×`)}
  create p99 ≤ 3× p50 under FULL:        ${ratio(createFull, createFull, (x) => `${(x.p99Ms / x.p50Ms).toFixed(1)}×`)}
  vote rate FULL ≥ 0.8× NORMAL:          ${ratio(voteFull, voteFast, (x, y) => `${(x.perSecond / y.perSecond).toFixed(2)}×`)}
  create rate FULL ≥ 0.8× NORMAL:        ${ratio(createFull, createFast, (x, y) => `${(x.perSecond / y.perSecond).toFixed(2)}×`)}
  probe max ≤ 20 ms (re-embed, import, votes): see the lines above`);
