import { Elysia } from "elysia";
import type { AppContext } from "../context";

export interface RequestInfo {
  id: string;
  startedAt: number;
  clientIp: string;
  projectId?: string;
}

const infos = new WeakMap<Request, RequestInfo>();
const INCOMING_ID = /^[\w.:-]{1,128}$/;

/** Per-request facts gathered by the plumbing (id, timing, caller), readable by any later hook. */
export function requestInfo(request: Request): RequestInfo {
  let info = infos.get(request);
  if (!info) {
    info = { id: Bun.randomUUIDv7(), startedAt: performance.now(), clientIp: "unknown" };
    infos.set(request, info);
  }
  return info;
}

interface AddressSource {
  requestIP(request: Request): { address: string } | null;
}

function clientIp(request: Request, server: AddressSource | null, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return server?.requestIP(request)?.address ?? "unknown";
}

/**
 * Gives every response an `X-Request-Id` (the caller's, when it sent a sane one) and writes one JSON
 * access-log line per request once the response is sent.
 */
export function requestLog(ctx: AppContext) {
  return new Elysia({ name: "http.request-log" })
    .onRequest(({ request, set, server }) => {
      const info = requestInfo(request);
      const incoming = request.headers.get("x-request-id");
      if (incoming && INCOMING_ID.test(incoming)) info.id = incoming;
      info.clientIp = clientIp(request, server, ctx.config.trustProxy);
      set.headers["x-request-id"] = info.id;
    })
    .onAfterResponse({ as: "global" }, ({ request, set }) => {
      const info = requestInfo(request);
      ctx.log.info("request", {
        requestId: info.id,
        method: request.method,
        path: new URL(request.url).pathname,
        status: typeof set.status === "number" ? set.status : 200,
        durationMs: Math.round((performance.now() - info.startedAt) * 100) / 100,
        clientIp: info.clientIp,
        projectId: info.projectId,
      });
    });
}
