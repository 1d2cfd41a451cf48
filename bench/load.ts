/** A closed-loop HTTP load generator: `concurrency` clients send requests back to back for `seconds`. */
export interface LoadResult {
  requests: number;
  errors: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  bytes: number;
  /** The slowest answer of the stall probe during the load (0 without a probe). */
  probeMaxMs: number;
}

export interface LoadOptions {
  concurrency: number;
  seconds: number;
  /** Builds the i-th request; called once per request so bodies and paths can vary. */
  request: (i: number) => Request;
  /** Status that counts as success. */
  expect: number;
  /**
   * A stall probe: this URL is fetched every 10 ms, one at a time, from a process of its own, while the load
   * runs; the slowest answer shows how long the server's event loop was held (a checkpoint, a re-embed, an
   * import slice) or how long a request waited behind the load.
   */
  probe?: string;
}

export interface ProbeResult {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * Starts the stall probe (bench/probe.ts) in a process of its own against `url`; `stop` ends it and gives
 * its answer times.
 */
export function startProbe(url: string): { stop: () => Promise<ProbeResult> } {
  const proc = Bun.spawn([process.execPath, new URL("./probe.ts", import.meta.url).pathname, url], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
  });
  return {
    async stop() {
      proc.stdin.write("stop\n");
      await proc.stdin.end();
      const output = await new Response(proc.stdout).text();
      await proc.exited;
      return JSON.parse(output) as ProbeResult;
    },
  };
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let bytes = 0;
  let counter = 0;
  const deadline = performance.now() + options.seconds * 1000;
  const started = performance.now();
  const client = async () => {
    while (performance.now() < deadline) {
      const request = options.request(counter++);
      const t0 = performance.now();
      const response = await fetch(request);
      const body = await response.arrayBuffer();
      latencies.push(performance.now() - t0);
      bytes = body.byteLength;
      if (response.status !== options.expect) errors += 1;
    }
  };
  const probe = options.probe ? startProbe(options.probe) : null;
  await Promise.all(Array.from({ length: options.concurrency }, client));
  const probeMaxMs = probe ? (await probe.stop()).maxMs : 0;
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    requests: latencies.length,
    errors,
    perSecond: latencies.length / elapsed,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    bytes,
    probeMaxMs,
  };
}
