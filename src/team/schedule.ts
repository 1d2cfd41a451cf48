import { Cron } from "croner";
import type { AppContext } from "../context";
import { beforeNextSlice, whenCommitted, whenWritable } from "../db/connection";
import { describeError } from "../log";
import { deleteSpentTeamRecords } from "./service";

/** Every day at 04:23 UTC: off the hour, when boards are quiet, apart from the payments sync (03:17). */
const DAILY = "23 4 * * *";

/**
 * Deletes the team's spent records (team/service, deleteSpentTeamRecords): the sessions that ended long
 * enough ago of members who no longer sign in, whose own sign-ins would have deleted them, and the invites
 * and sign-in links used, withdrawn or expired (docs/dashboard.md). A write held back or another
 * process's write lock is waited for as any background writer waits; a failure is logged, and the next day
 * tries again.
 */
export async function deleteSpentTeamRecordsNow(ctx: AppContext, now = Date.now()): Promise<void> {
  try {
    await beforeNextSlice(ctx.db);
    await whenWritable(ctx.db);
    const deleted = deleteSpentTeamRecords(ctx.db, now);
    await whenCommitted(ctx.db);
    if (deleted.sessions + deleted.invites + deleted.signInLinks > 0) {
      ctx.log.info("spent team records deleted", { ...deleted });
    }
  } catch (error) {
    ctx.log.error("deleting spent team records failed", describeError(error));
  }
}

/** Starts the daily clean-up of spent team records; returns a function that stops it. Its timer keeps no process alive. */
export function startTeamCleanup(ctx: AppContext): () => void {
  const job = new Cron(DAILY, { utcOffset: 0, protect: true, unref: true }, () =>
    deleteSpentTeamRecordsNow(ctx),
  );
  return () => job.stop();
}
