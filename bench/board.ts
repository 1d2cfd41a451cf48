// Board benchmark (issue: Core board). Seeds a project with 100,000 posts and 1,000,000 votes, starts
// featureboard and a bare Elysia baseline as separate processes, and measures each case beside the baseline
// answering a body of the same size, in the same run. Prints ratios; the figures go in docs/performance.md.
//
//   npx bun bench/board.ts [--posts 100000] [--votes 1000000] [--seconds 5] [--concurrency 16]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { seedBoard, startServer, waitForEmbeddings } from "./board-fixture";
import { type LoadResult, runLoad } from "./load";

const { values } = parseArgs({
  options: {
    posts: { type: "string", default: "100000" },
    votes: { type: "string", default: "1000000" },
    seconds: { type: "string", default: "5" },
    concurrency: { type: "string", default: "16" },
  },
});
const POSTS = Number(values.posts);
const VOTES = Number(values.votes);
const SECONDS = Number(values.seconds);
const CONCURRENCY = Number(values.concurrency);
const dir = mkdtempSync(join(tmpdir(), "featureboard-bench-"));
const databasePath = join(dir, "bench.db");
const cacheDir = join(dir, "cache");

interface Row {
  name: string;
  board: LoadResult;
  baseline: LoadResult;
}

function format(rows: Row[]): string {
  const header =
    "case                          featureboard req/s  p50 ms  p99 ms  stall ms | baseline req/s  p50 ms | ratio  body";
  const lines = rows.map((r) =>
    [
      r.name.padEnd(30),
      r.board.perSecond.toFixed(0).padStart(18),
      r.board.p50Ms.toFixed(2).padStart(7),
      r.board.p99Ms.toFixed(2).padStart(7),
      r.board.probeMaxMs.toFixed(1).padStart(10),
      " |",
      r.baseline.perSecond.toFixed(0).padStart(14),
      r.baseline.p50Ms.toFixed(2).padStart(7),
      " |",
      (r.board.perSecond / r.baseline.perSecond).toFixed(2).padStart(6),
      `${r.board.bytes} B`.padStart(9),
      r.board.errors ? `  (${r.board.errors} errors)` : "",
    ].join(""),
  );
  return [header, ...lines].join("\n");
}

const { secretKey, postIds } = seedBoard({ databasePath, cacheDir, posts: POSTS, votes: VOTES });
const board = await startServer(
  dir,
  "featureboard",
  [process.execPath, "src/main.ts", "serve"],
  {
    FEATUREBOARD_DB: databasePath,
    FEATUREBOARD_CACHE_DIR: cacheDir,
    FEATUREBOARD_RATE_LIMIT_KEY_PER_MINUTE: "1000000",
    FEATUREBOARD_RATE_LIMIT_KEY_BURST: "1000000",
  },
  "/healthz",
);
const baseline = await startServer(
  dir,
  "baseline",
  [process.execPath, "bench/baseline-server.ts"],
  {},
  "/fixed/1",
);
const auth = { authorization: `Bearer ${secretKey}` };
/** The stall probe of every featureboard case (bench/load.ts). */
const healthz = `${board.url}/healthz`;

// The server embeds the seeded posts in the background right after it starts: measuring during that work
// would measure the work.
console.log(`seeded posts embedded by the server in ${(await waitForEmbeddings(databasePath)).toFixed(1)} s`);

async function sizeOf(path: string): Promise<number> {
  return (await (await fetch(`${board.url}${path}`, { headers: auth })).arrayBuffer()).byteLength;
}

/** Measures `path` on featureboard, then the baseline answering a body of the same size. */
async function measureGet(name: string, path: (i: number) => string): Promise<Row> {
  const bytes = await sizeOf(path(0));
  const load = (request: (i: number) => Request) =>
    runLoad({ concurrency: CONCURRENCY, seconds: SECONDS, request, expect: 200, probe: healthz });
  await load((i) => new Request(`${board.url}${path(i)}`, { headers: auth })); // warm-up round
  return {
    name,
    board: await load((i) => new Request(`${board.url}${path(i)}`, { headers: auth })),
    baseline: await load(() => new Request(`${baseline.url}/fixed/${bytes}`)),
  };
}

try {
  const rows: Row[] = [];
  rows.push(await measureGet("GET /posts first page (votes)", () => "/api/v1/posts"));
  // A deep page inside the data (90% of the way down at 50 a page), whatever --posts says.
  const offsetPage = Math.max(1, Math.floor((POSTS * 0.9) / 50));
  rows.push(
    await measureGet(`GET /posts offset page ${offsetPage}`, () => `/api/v1/posts?page=${offsetPage}`),
  );
  rows.push(await measureGet("GET /posts cursor first page", () => "/api/v1/posts?cursor="));

  // Walk the scan the way a client does, to hold a cursor about 90% of the way down.
  let cursor = "";
  const depth = Math.floor((POSTS * 0.9) / 100);
  for (let page = 0; page < depth; page++) {
    const response = await fetch(`${board.url}/api/v1/posts?limit=100&cursor=${encodeURIComponent(cursor)}`, {
      headers: auth,
    });
    cursor = ((await response.json()) as { pagination: { nextCursor: string } }).pagination.nextCursor;
  }
  rows.push(
    await measureGet(
      `GET /posts cursor page ${depth * 2}`,
      () => `/api/v1/posts?cursor=${encodeURIComponent(cursor)}`,
    ),
  );
  rows.push(
    await measureGet("GET /posts/{id}", (i) => `/api/v1/posts/${postIds[(i * 7919) % postIds.length]}`),
  );

  /**
   * Measures a write on featureboard (201 expected, with the stall probe), then the baseline answering a
   * POST of the same response size with `baselineBody(i)`.
   */
  async function measureWrite(
    name: string,
    request: (i: number) => Request,
    bytes: number,
    baselineBody: (i: number) => string,
  ): Promise<Row> {
    return {
      name,
      board: await runLoad({
        concurrency: CONCURRENCY,
        seconds: SECONDS,
        request,
        expect: 201,
        probe: healthz,
      }),
      baseline: await runLoad({
        concurrency: CONCURRENCY,
        seconds: SECONDS,
        expect: 200,
        request: (i) =>
          new Request(`${baseline.url}/fixed/${bytes}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: baselineBody(i),
          }),
      }),
    };
  }

  const vote = (i: number) =>
    new Request(`${board.url}/api/v1/posts/${postIds[(i * 104729) % postIds.length]}/votes`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ anonymousId: `bench-${i}` }),
    });
  const voteBytes = (await (await fetch(vote(-1))).arrayBuffer()).byteLength;
  await runLoad({ concurrency: CONCURRENCY, seconds: 1, request: (i) => vote(i + 10_000_000), expect: 201 });
  rows.push(
    await measureWrite("POST votes (create)", vote, voteBytes, (i) =>
      JSON.stringify({ anonymousId: `bench-${i}` }),
    ),
  );

  const create = (i: number) =>
    new Request(`${board.url}/api/v1/posts`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ title: `Bench request ${i}`, description: "Created under load" }),
    });
  const createBytes = (await (await fetch(create(-1))).arrayBuffer()).byteLength;
  rows.push(await measureWrite("POST /posts (create)", create, createBytes, () => "{}"));

  console.log(`\n${POSTS} posts, ${VOTES} votes; ${CONCURRENCY} concurrent clients, ${SECONDS} s per case\n`);
  console.log(format(rows));
  const byName = (prefix: string) => rows.find((r) => r.name.startsWith(prefix))!;
  const first = byName("GET /posts cursor first page").board;
  const deep = byName("GET /posts cursor page").board;
  const votes = byName("POST votes");
  const deepCost = first.perSecond / deep.perSecond;
  const voteRatio = votes.board.perSecond / votes.baseline.perSecond;
  console.log(
    `\ntarget: deep cursor page cost ≤ 1.5× first page: ${deepCost.toFixed(2)}× ${deepCost <= 1.5 ? "ok" : "MISSED"}`,
  );
  console.log(
    `target: vote creation ≥ 0.5× baseline rate:       ${voteRatio.toFixed(2)}× ${voteRatio >= 0.5 ? "ok" : "MISSED"}`,
  );
} finally {
  await board.stop();
  await baseline.stop();
  await Bun.sleep(200);
  rmSync(dir, { recursive: true, force: true });
}
