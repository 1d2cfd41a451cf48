/**
 * Work waiting for a later turn of the event loop, oldest first: one step of it runs per turn.
 *
 * Bun runs every `setImmediate` callback queued before a turn's check phase in that same phase, so steps
 * of several long tasks that each waited with their own `setImmediate` (an import slice, an embedding
 * batch, a body's parse step) ran back to back, the group commit after them, and requests waited for the
 * sum: 15–22 ms under an import while the imported posts were embedded, each step within its own ~5 ms
 * (docs/performance.md, "one background step per turn"). Here one callback per turn releases one step.
 */
const waiting: (() => void)[] = [];
let releasing = false;

function releaseOne(): void {
  const next = waiting.shift();
  // Queued from inside the check phase, the next release runs on the following turn, after its I/O.
  if (waiting.length > 0) setImmediate(releaseOne);
  else releasing = false;
  next?.();
}

/**
 * Resolves on a later turn of the event loop, once the requests and I/O waiting now have run, and after
 * the steps that were already waiting, one per turn: what long work does between its steps so that no
 * turn holds the loop for long (issue 19).
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (releasing) return;
    releasing = true;
    setImmediate(releaseOne);
  });
}

/**
 * Long work done in a loop on a request's behalf: `await slices.step()` between its steps goes on on a
 * later turn (`nextTurn`) once the current turn has run for `sliceMs`, and costs nothing before that. The
 * AI workflows read a board's posts this way: a 100-post summary held every other request 300–500 ms.
 */
export function inSlices(sliceMs = 5): { step(): Promise<void> } {
  let until = performance.now() + sliceMs;
  return {
    async step() {
      if (performance.now() < until) return;
      await nextTurn();
      until = performance.now() + sliceMs;
    },
  };
}
