import { Cron } from "croner";
import type { AppContext } from "../context";
import { ApiError } from "../http/errors";
import { describeError } from "../log";
import { GATED_FROM, planAtLeast } from "../projects/plans";
import { findProjectById } from "../projects/service";
import { syncPayments } from "./service";
import { enabledProjectIds } from "./store";

/** Every day at 03:17 UTC: off the hour, when boards are quiet. */
const DAILY = "17 3 * * *";

/** Runs every enabled project's sync once, one after another; a failing project never stops the others. */
export async function syncAllProjects(ctx: AppContext): Promise<void> {
  for (const projectId of enabledProjectIds(ctx.db)) {
    const project = findProjectById(ctx.db, projectId);
    if (!project || !planAtLeast(project.plan, GATED_FROM)) continue;
    try {
      const result = await syncPayments(ctx, projectId);
      ctx.log.info("payments sync", { projectId, status: result.status, message: result.message });
    } catch (error) {
      if (error instanceof ApiError) continue;
      ctx.log.error("payments sync failed", { projectId, ...describeError(error) });
    }
  }
}

/** Starts the daily sync; returns a function that stops it. The timer never keeps the process alive. */
export function startDailySync(ctx: AppContext): () => void {
  const job = new Cron(DAILY, { utcOffset: 0, protect: true, unref: true }, () => syncAllProjects(ctx));
  return () => job.stop();
}
