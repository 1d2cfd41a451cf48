/**
 * Resolves on a later turn of the event loop, once the requests and I/O waiting now have run: what long
 * work does between its steps so that no step holds the loop for long (issue 19).
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
