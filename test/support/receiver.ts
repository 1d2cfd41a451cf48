/** A real loopback HTTP receiver that records every request and answers as the test says. */
export interface ReceivedRequest {
  method: string;
  path: string;
  /** The query string, with its `?`, or "". */
  search: string;
  headers: Record<string, string>;
  body: string;
}

export type Answer = (request: ReceivedRequest, index: number) => Response | Promise<Response>;

export interface Receiver {
  url: string;
  received: ReceivedRequest[];
  /** Resolves once `count` requests arrived; fails after `timeoutMs` with what did arrive. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  stop(): void;
}

export function startReceiver(answer: Answer = () => new Response("ok")): Receiver {
  const received: ReceivedRequest[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const entry: ReceivedRequest = {
        method: request.method,
        path: new URL(request.url).pathname,
        search: new URL(request.url).search,
        headers: Object.fromEntries(request.headers.entries()),
        body: await request.text(),
      };
      received.push(entry);
      return answer(entry, received.length - 1);
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    received,
    waitFor: (count, timeoutMs = 15_000) =>
      waitUntil(
        () => received.length >= count,
        timeoutMs,
        () => `expected ${count} requests, got ${received.length}`,
      ).then(() => received),
    stop: () => void server.stop(true),
  };
}

/** Polls `condition` until it holds; fails after `timeoutMs` (a safety net, never the thing tested). */
export async function waitUntil(
  condition: () => boolean,
  timeoutMs = 15_000,
  describe: () => string = () => "condition never held",
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(describe());
    await Bun.sleep(10);
  }
}
