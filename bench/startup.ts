// Cold start (issue 19): time from spawning the service to its first answered request, median of 5,
// beside a bare Elysia app (bench/baseline-server.ts) started the same way in the same run. Also the
// service's resident memory once idle. Run from source; pass --binary dist/featureboard to measure the
// compiled binary (npm run build) beside the bare app compiled by the same build command.
//
// A second baseline is the same bare app with as many routes as featureboard has (each with a path
// parameter and a TypeBox schema): what the framework alone costs for that many routes. The binary is
// copied next to the compiled baselines first: a file just written has all its pages in the page cache,
// and the kernel then maps more of them at each fault (resident memory 4-6 MB higher than for a binary
// whose pages were read from disk), so all three are measured in the same state.
//
//   npx bun bench/startup.ts [--binary dist/featureboard]

import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { compileCommand } from "../test/support/build";
import { createApp } from "../src/app";
import { loadConfig } from "../src/config";
import { closeDatabase } from "../src/db/connection";
import { createLogger } from "../src/log";
import { createContext } from "../src/server";

const { values } = parseArgs({
  options: { binary: { type: "string" }, runs: { type: "string", default: "5" } },
});
const RUNS = Number(values.runs);

/** How many routes featureboard registers, counted on an app built over a scratch database. */
function routeCount(dir: string): number {
  const config = loadConfig({ FEATUREBOARD_DB: join(dir, "count.db"), FEATUREBOARD_LOG_LEVEL: "silent" });
  const ctx = createContext(config, createLogger("silent"));
  try {
    return createApp(ctx).routes.length;
  } finally {
    closeDatabase(ctx.db);
  }
}

async function coldStart(command: string[], path: string, env: Record<string, string>) {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const started = performance.now();
  const proc = Bun.spawn(command, {
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), FEATUREBOARD_LOG_LEVEL: "silent", ...env },
    stdout: "ignore",
    stderr: "ignore",
  });
  try {
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}${path}`);
        await response.arrayBuffer();
        if (response.ok) break;
      } catch {
        // Not listening yet.
      }
      if (performance.now() - started > 20_000) throw new Error(`${command.join(" ")} did not start`);
      await Bun.sleep(2);
    }
    const elapsed = performance.now() - started;
    await Bun.sleep(1_000);
    const rss =
      Number((await Bun.file(`/proc/${proc.pid}/status`).text()).match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024;
    return { elapsed, rss };
  } finally {
    proc.kill();
    await proc.exited;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const dir = mkdtempSync(join(tmpdir(), "featureboard-startup-"));
try {
  const routes = routeCount(dir);
  let service = [process.execPath, "src/main.ts", "serve"];
  let baseline = [process.execPath, "bench/baseline-server.ts"];
  if (values.binary) {
    const compiled = join(dir, "baseline-server");
    const build = Bun.spawnSync(compileCommand("bench/baseline-server.ts", compiled), { stdout: "ignore" });
    if (build.exitCode !== 0) throw new Error(`could not compile the baseline: ${build.stderr.toString()}`);
    baseline = [compiled];
    const copied = join(dir, "featureboard");
    copyFileSync(values.binary, copied);
    service = [copied, "serve"];
  }
  const serviceRuns = [];
  const baselineRuns = [];
  const routedRuns = [];
  for (let run = 0; run < RUNS; run++) {
    // A fresh database each time: the first start's migrations are part of a cold start.
    serviceRuns.push(await coldStart(service, "/healthz", { FEATUREBOARD_DB: join(dir, `start-${run}.db`) }));
    baselineRuns.push(await coldStart(baseline, "/fixed/10", {}));
    routedRuns.push(await coldStart(baseline, "/fixed/10", { BASELINE_ROUTES: String(routes) }));
  }
  const report = (name: string, runs: { elapsed: number; rss: number }[]) => {
    const ms = median(runs.map((run) => run.elapsed));
    console.log(
      `${name}: ${ms.toFixed(0)} ms to the first answer (median of ${RUNS}), idle RSS ${median(runs.map((run) => run.rss)).toFixed(1)} MiB`,
    );
    return ms;
  };
  const serviceMs = report(`featureboard (${service.join(" ")}, ${routes} routes)`, serviceRuns);
  const baselineMs = report(`bare Elysia app (${baseline.join(" ")})`, baselineRuns);
  const routedMs = report(`bare Elysia app with ${routes} routes`, routedRuns);
  console.log(
    `ratio: ${(serviceMs / baselineMs).toFixed(1)}x the bare app, ${(serviceMs / routedMs).toFixed(1)}x the bare app with as many routes`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
