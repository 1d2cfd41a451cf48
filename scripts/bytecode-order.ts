// Records the order in which the binary's start-up uses its bytecode (build/bytecode-order.txt), which
// `npm run build` passes to `--bytecode-order`: Bun lays the bytecode a start uses together at the front,
// so a start reads fewer pages of the binary and keeps fewer resident (docs/performance.md). The start
// recorded is the common one: `featureboard serve` on a new database, answering its first /healthz.
// A file recorded from an older build still applies; record again after large changes to start-up.
//
//   npm run build && bun scripts/bytecode-order.ts && npm run build

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const binary = join(import.meta.dir, "..", "dist", "featureboard");
const orderFile = join(import.meta.dir, "..", "build", "bytecode-order.txt");
const dir = mkdtempSync(join(tmpdir(), "featureboard-order-"));
const port = 39_000 + Math.floor(Math.random() * 1_000);
const service = Bun.spawn([binary, "serve"], {
  env: {
    ...process.env,
    PORT: String(port),
    FEATUREBOARD_DB: join(dir, "order.db"),
    BUN_BYTECODE_ORDER_OUT: orderFile,
  },
  stdout: "ignore",
  stderr: "inherit",
});
try {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const answered = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) break;
    if (Date.now() > deadline) throw new Error("the binary did not answer /healthz within 10 s");
    await Bun.sleep(10);
  }
} finally {
  service.kill("SIGTERM");
  await service.exited;
  rmSync(dir, { recursive: true, force: true });
}
console.log(`recorded ${orderFile}`);
