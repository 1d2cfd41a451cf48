import { Cron } from "croner";
import type { AppContext } from "../context";
import { beforeNextSlice, whenCommitted, whenWritable } from "../db/connection";
import { describeError } from "../log";
import { deleteEndedSessions } from "./service";

/** Every day at 04:23 UTC: off the hour, when boards are quiet, apart from the payments sync (03:17). */
const DAILY = "23 4 * * *";

/**
 * Deletes every member's sessions that ended long enough ago (team/service, deleteEndedSessions): those of
 * members who no longer sign in, whose own sign-ins would have deleted them (docs/dashboard.md). A write
 * held back or another process's write lock is waited for as any background writer waits; a failure is
 * logged, and the next day tries again.
 */
export async function deleteEndedSessionsNow(ctx: AppContext, now = Date.now()): Promise<void> {
  try {
    await beforeNextSlice(ctx.db);
    await whenWritable(ctx.db);
    const deleted = deleteEndedSessions(ctx.db, now);
    await whenCommitted(ctx.db);
    if (deleted > 0) ctx.log.info("ended team sessions deleted", { deleted });
  } catch (error) {
    ctx.log.error("deleting ended team sessions failed", describeError(error));
  }
}

/** Starts the daily clean-up of ended sessions; returns a function that stops it. Its timer keeps no process alive. */
export function startSessionCleanup(ctx: AppContext): () => void {
  const job = new Cron(DAILY, { utcOffset: 0, protect: true, unref: true }, () =>
    deleteEndedSessionsNow(ctx),
  );
  return () => job.stop();
}
