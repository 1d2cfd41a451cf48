import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { whenCommitted, whenWritable, whenWritesOpen } from "../db/connection";
import { HEALTH_CHECK_PATH, requestPath } from "./request-info";

/** Methods that do not change anything: never held back while the WAL starts over. */
const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Answers only once the changes made so far are committed (see group commit in src/db/connection.ts), so
 * a success response always means the write is stored, and no response shows data that could still be
 * rolled back. A failed commit becomes the request's error. The health check reads no stored data and
 * does not wait. While the WAL is being started over (src/db/checkpoints.ts), a request that may write
 * waits for it before its handler runs; reads go on. Such a request also waits, off the event loop, while
 * another process (the CLI, a backup) writes (`whenWritable`).
 */
export function commitBeforeAnswering(ctx: AppContext) {
  return new Elysia({ name: "http.commit" })
    .onBeforeHandle({ as: "global" }, async ({ request }) => {
      if (READ_METHODS.has(request.method)) return;
      const hold = whenWritesOpen(ctx.db);
      if (hold) await hold;
      const otherWriter = whenWritable(ctx.db);
      if (otherWriter) await otherWriter;
    })
    .onAfterHandle({ as: "global" }, async ({ request }) => {
      if (requestPath(request) === HEALTH_CHECK_PATH) return;
      await whenCommitted(ctx.db);
    });
}
