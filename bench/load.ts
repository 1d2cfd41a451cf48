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
   * A stall probe: this URL is fetched every 10 ms, one at a time, while the load runs; the slowest answer
   * shows how long the server's event loop was held (a checkpoint, a re-embed, an import slice).
   */
  probe?: string;
}

async function runProbe(url: string, until: () => boolean): Promise<number> {
  let worst = 0;
  while (!until()) {
    const t0 = performance.now();
    await (await fetch(url)).arrayBuffer();
    worst = Math.max(worst, performance.now() - t0);
    await Bun.sleep(10);
  }
  return worst;
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
  let done = false;
  const probe = options.probe ? runProbe(options.probe, () => done) : Promise.resolve(0);
  await Promise.all(Array.from({ length: options.concurrency }, client));
  done = true;
  const probeMaxMs = await probe;
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
