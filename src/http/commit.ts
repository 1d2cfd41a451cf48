import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { whenCommitted } from "../db/connection";

/**
 * Answers only once the changes made so far are committed (see group commit in src/db/connection.ts), so
 * a success response always means the write is stored, and no response shows data that could still be
 * rolled back. A failed commit becomes the request's error.
 */
export function commitBeforeAnswering(ctx: AppContext) {
  return new Elysia({ name: "http.commit" }).onAfterHandle({ as: "global" }, async () => {
    await whenCommitted(ctx.db);
  });
}
