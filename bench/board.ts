// Board benchmark (issue: Core board). Seeds a project with 100,000 posts and 1,000,000 votes, starts
// featureboard and a bare Elysia baseline as separate processes, and measures each case beside the baseline
// answering a body of the same size, in the same run. Prints ratios; the figures go in docs/performance.md.
//
//   npx bun bench/board.ts [--posts 100000] [--votes 1000000] [--seconds 5] [--concurrency 16]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Database } from "bun:sqlite";
import { closeDatabase, commitNow, inTransaction } from "../src/db/connection";
import { openMigrated } from "../src/db/migrate";
import { POST_STATUSES } from "../src/posts/schema";
import { createProject } from "../src/projects/service";
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
const ROOT = new URL("../", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "featureboard-bench-"));
const databasePath = join(dir, "bench.db");
const cacheDir = join(dir, "cache");

function seed(): { secretKey: string; postIds: string[] } {
  const started = performance.now();
  const db = openMigrated({ databasePath, cacheDir });
  const { secretKey, project } = createProject(db, { slug: "bench", plan: "growth" });
  const now = Date.now();
  const postIds: string[] = [];
  inTransaction(db, () => {
    const tagIds = Array.from({ length: 20 }, (_, i) => {
      const id = Bun.randomUUIDv7();
      db.query(
        "INSERT INTO tags (id, project_id, label, theme, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
      ).run(id, project.id, `Tag ${i}`, "#6366f1", now, now);
      return id;
    });
    const insertPost = db.query(
      `INSERT INTO posts (id, project_id, title, description, status, vote_count, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 0, ?, ?)`,
    );
    const insertTag = db.query("INSERT INTO post_tags (post_id, tag_id) VALUES (?, ?)");
    for (let i = 0; i < POSTS; i++) {
      // A year of posts, oldest first, a few minutes apart.
      const createdAt = now - (POSTS - i) * 300_000;
      const id = Bun.randomUUIDv7("hex", createdAt);
      postIds.push(id);
      insertPost.run(
        id,
        project.id,
        `Feature request number ${i}: make the reports page faster`,
        "A customer asked for this in a support ticket; several others agreed on the call.",
        POST_STATUSES[i % POST_STATUSES.length]!,
        createdAt,
        createdAt,
      );
      if (i % 3 === 0) insertTag.run(id, tagIds[i % tagIds.length]!);
    }
  });
  // Votes go in chunks, each committed and checkpointed, so the WAL stays small while seeding.
  const insertVote = db.query(
    "INSERT INTO votes (id, project_id, post_id, anonymous_id, created_at) VALUES (?, ?, ?, ?, ?)",
  );
  const CHUNK = 50_000;
  for (let start = 0; start < VOTES; start += CHUNK) {
    inTransaction(db, () => {
      for (let i = start; i < Math.min(VOTES, start + CHUNK); i++) {
        // Skewed: a few posts collect most votes, as on a real board.
        const postIndex = Math.floor(POSTS * Math.random() ** 3);
        insertVote.run(
          Bun.randomUUIDv7(),
          project.id,
          postIds[postIndex]!,
          `seed-${i}`,
          now - (i % 1_000_000),
        );
      }
    });
    commitNow(db);
    db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  }
  // Seeding writes vote rows directly, so it sets the counts the service keeps in step vote by vote.
  inTransaction(db, () =>
    db.run("UPDATE posts SET vote_count = (SELECT count(*) FROM votes WHERE votes.post_id = posts.id)"),
  );
  closeDatabase(db);
  const analyzed = openMigrated({ databasePath, cacheDir });
  analyzed.run("ANALYZE");
  closeDatabase(analyzed);
  console.log(
    `seeded ${POSTS} posts and ${VOTES} votes in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { secretKey, postIds };
}

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

/** Starts a server process logging to a file (as in production), and waits until it answers. */
async function start(
  name: string,
  command: string[],
  env: Record<string, string>,
  readyPath: string,
): Promise<{ url: string; stop: () => void }> {
  const port = freePort();
  const proc = Bun.spawn(command, {
    cwd: ROOT,
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), ...env },
    stdout: Bun.file(join(dir, `${name}.log`)),
    stderr: "inherit",
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    if (proc.exitCode !== null) throw new Error(`${name} exited with ${proc.exitCode}`);
    const ok = await fetch(`${url}${readyPath}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (attempt > 200) throw new Error(`${name} did not start`);
    await Bun.sleep(50);
  }
  return { url, stop: () => proc.kill("SIGTERM") };
}

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

const { secretKey, postIds } = seed();
const board = await start(
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
const baseline = await start("baseline", [process.execPath, "bench/baseline-server.ts"], {}, "/fixed/1");
const auth = { authorization: `Bearer ${secretKey}` };
/** The stall probe of every featureboard case (bench/load.ts). */
const healthz = `${board.url}/healthz`;

/**
 * The server embeds the seeded posts in the background right after it starts: measuring during that work
 * would measure the work. Wait until the embedding queue is empty (read through a second connection).
 */
async function waitForEmbeddings(): Promise<void> {
  const reader = new Database(databasePath, { readonly: true });
  const started = performance.now();
  try {
    for (;;) {
      const waiting =
        reader.query<{ n: number }, []>("SELECT count(*) AS n FROM embedding_queue").get()?.n ?? 0;
      if (waiting === 0) break;
      await Bun.sleep(200);
    }
  } finally {
    reader.close();
  }
  console.log(
    `seeded posts embedded by the server in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
await waitForEmbeddings();

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

  const voteBytes = (
    await (
      await fetch(`${board.url}/api/v1/posts/${postIds[0]}/votes`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ anonymousId: "probe" }),
      })
    ).arrayBuffer()
  ).byteLength;
  const vote = (i: number) =>
    new Request(`${board.url}/api/v1/posts/${postIds[(i * 104729) % postIds.length]}/votes`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ anonymousId: `bench-${i}` }),
    });
  await runLoad({ concurrency: CONCURRENCY, seconds: 1, request: (i) => vote(i + 10_000_000), expect: 201 });
  rows.push({
    name: "POST votes (create)",
    board: await runLoad({
      concurrency: CONCURRENCY,
      seconds: SECONDS,
      request: vote,
      expect: 201,
      probe: healthz,
    }),
    baseline: await runLoad({
      concurrency: CONCURRENCY,
      seconds: SECONDS,
      expect: 200,
      request: (i) =>
        new Request(`${baseline.url}/fixed/${voteBytes}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ anonymousId: `bench-${i}` }),
        }),
    }),
  });

  const create = (i: number) =>
    new Request(`${board.url}/api/v1/posts`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ title: `Bench request ${i}`, description: "Created under load" }),
    });
  const createBytes = (await (await fetch(create(-1))).arrayBuffer()).byteLength;
  rows.push({
    name: "POST /posts (create)",
    board: await runLoad({
      concurrency: CONCURRENCY,
      seconds: SECONDS,
      request: create,
      expect: 201,
      probe: healthz,
    }),
    baseline: await runLoad({
      concurrency: CONCURRENCY,
      seconds: SECONDS,
      expect: 200,
      request: () =>
        new Request(`${baseline.url}/fixed/${createBytes}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{}",
        }),
    }),
  });

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
  board.stop();
  baseline.stop();
  await Bun.sleep(200);
  rmSync(dir, { recursive: true, force: true });
}
