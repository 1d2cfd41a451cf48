// Cold start (issue 19): time from spawning the service to its first answered request, median of 5,
// beside a bare Elysia app (bench/baseline-server.ts) started the same way in the same run. Also the
// service's resident memory once idle. Run from source; pass --binary dist/featureboard to measure the
// compiled binary (npm run build) beside the bare app compiled by the same build command.
//
//   npx bun bench/startup.ts [--binary dist/featureboard]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { compileCommand } from "../test/support/build";

const { values } = parseArgs({
  options: { binary: { type: "string" }, runs: { type: "string", default: "5" } },
});
const RUNS = Number(values.runs);

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
  const service = values.binary ? [values.binary, "serve"] : [process.execPath, "src/main.ts", "serve"];
  let baseline = [process.execPath, "bench/baseline-server.ts"];
  if (values.binary) {
    const compiled = join(dir, "baseline-server");
    const build = Bun.spawnSync(compileCommand("bench/baseline-server.ts", compiled), { stdout: "ignore" });
    if (build.exitCode !== 0) throw new Error(`could not compile the baseline: ${build.stderr.toString()}`);
    baseline = [compiled];
  }
  const serviceRuns = [];
  const baselineRuns = [];
  for (let run = 0; run < RUNS; run++) {
    // A fresh database each time: the first start's migrations are part of a cold start.
    serviceRuns.push(await coldStart(service, "/healthz", { FEATUREBOARD_DB: join(dir, `start-${run}.db`) }));
    baselineRuns.push(await coldStart(baseline, "/fixed/10", {}));
  }
  const serviceMs = median(serviceRuns.map((run) => run.elapsed));
  const baselineMs = median(baselineRuns.map((run) => run.elapsed));
  console.log(
    `featureboard (${service.join(" ")}): ${serviceMs.toFixed(0)} ms to the first answer (median of ${RUNS}), idle RSS ${median(serviceRuns.map((run) => run.rss)).toFixed(0)} MB`,
  );
  console.log(
    `bare Elysia app (${baseline.join(" ")}): ${baselineMs.toFixed(0)} ms, idle RSS ${median(baselineRuns.map((run) => run.rss)).toFixed(0)} MB`,
  );
  console.log(`ratio: ${(serviceMs / baselineMs).toFixed(1)}x`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
