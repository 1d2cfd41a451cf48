import { AiRuntime } from "./ai/embeddings";
import { ImportJobs } from "./imports/jobs";
import { createProvider } from "./ai/providers";
import { type App, createApp } from "./app";
import type { Config } from "./config";
import type { AppContext } from "./context";
import { startCheckpoints } from "./db/checkpoints";
import { closeDatabase, commitNow, syncCommitsOffLoop, waitForOtherWritersOffLoop } from "./db/connection";
import { openMigrated } from "./db/migrate";
import { lockDatabaseForServer } from "./db/server-lock";
import { asDatabaseSettingError } from "./db/setting-errors";
import { startDeliveryWorker } from "./events/worker";
import { createRateLimits } from "./http/rate-limit";
import { createMailSender } from "./email/sender";
import { startDailySync } from "./payments/schedule";
import { startTeamCleanup } from "./team/schedule";
import { describeError, type Logger } from "./log";
import { type CreatedProject, ensureBootstrapProject } from "./projects/service";
import { serviceStarted } from "./startup";

export interface RunningService {
  app: App;
  ctx: AppContext;
  /** Root URL the server listens on, such as http://127.0.0.1:3000. */
  url: string;
  /** Stops accepting connections, lets in-flight requests finish (up to the shutdown timeout), closes the database. */
  stop(): Promise<void>;
}

/** The one runtime object: built once at start-up (or by a test), passed to everything that needs it. */
export function createContext(config: Config, log: Logger): AppContext {
  const db = openMigrated(config);
  return {
    config,
    log,
    db,
    rateLimits: createRateLimits(config),
    ai: new AiRuntime(db, createProvider(config, log), log),
    mail: createMailSender({ db, config, log }),
    paymentSyncs: new Map(),
    imports: new ImportJobs(db, log),
  };
}

function announceBootstrap(created: CreatedProject, publicUrl: string, print: (line: string) => void): void {
  print(
    [
      "",
      `featureboard: created project "${created.project.slug}" (plan ${created.project.plan}, public board).`,
      "These keys are shown once; store them now:",
      `  secret key:       ${created.secretKey}`,
      `  publishable key:  ${created.publishableKey}`,
      "",
      `  board:            ${publicUrl}/b/${created.project.slug}`,
      `  API docs:         ${publicUrl}/api/v1/docs`,
      `  MCP endpoint:     ${publicUrl}/mcp   (or: featureboard mcp, over stdio)`,
      `  team dashboard:   ${publicUrl}/admin   (invite the first owner: featureboard team invite --email you@example.com)`,
      "",
    ].join("\n"),
  );
}

export function startService(
  config: Config,
  log: Logger,
  print: (line: string) => void = console.log,
): RunningService {
  // Before anything is opened or created: a second server on the same database refuses to start.
  const lock = lockDatabaseForServer(config.databasePath);
  let ctx: AppContext;
  let app: App;
  try {
    try {
      ctx = createContext(config, log);
    } catch (error) {
      // Start-up writes (the AI runtime's index state, instance secrets): a read-only database is a setting.
      throw asDatabaseSettingError(config.databasePath, error);
    }
    try {
      // The port is bound before the bootstrap project is made: a start that fails on a busy port must not
      // print keys that the next start would never show again. No request is served before the project
      // exists: everything up to the end of start-up runs in this one turn of the event loop.
      app = createApp(ctx).listen({ port: config.port, hostname: config.host });
    } catch (error) {
      closeDatabase(ctx.db);
      throw error;
    }
  } catch (error) {
    lock.release();
    throw error;
  }
  const server = app.server!;
  const url = server.url.origin;
  // PORT=0 picks a free port: links made from the default public URL name the port the server got.
  const publicUrl = new URL(config.publicUrl);
  if (publicUrl.port === "0") {
    publicUrl.port = String(server.port);
    config.publicUrl = publicUrl.origin + publicUrl.pathname.replace(/\/+$/, "");
  }
  const created = ensureBootstrapProject(ctx.db, config.bootstrapSecretKey);
  commitNow(ctx.db);
  if (created) {
    announceBootstrap(created, config.publicUrl, print);
    log.info("bootstrap project created", { projectId: created.project.id, slug: created.project.slug });
  }
  // The service's commits under `full` durability are synced off the event loop (connection.ts).
  if (config.durability === "full") syncCommitsOffLoop(ctx.db);
  waitForOtherWritersOffLoop(ctx.db);
  const stopCheckpoints = startCheckpoints(ctx.db, (error) =>
    log.error("checkpoint failed", describeError(error)),
  );
  // Background work starts here, and only here, and stops in `stop` below.
  const deliveryWorker = startDeliveryWorker(ctx);
  ctx.ai.startWorker();
  ctx.mail.start();
  const stopDailySync = startDailySync(ctx);
  // Ended team sessions older than their retention (docs/dashboard.md, "Your account"), once a day.
  const stopTeamCleanup = startTeamCleanup(ctx);
  log.info("listening", { url, database: config.databasePath });
  const cancelSettling = serviceStarted(ctx.db);

  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      log.info("shutting down", { timeoutMs: config.shutdownTimeoutMs });
      cancelSettling();
      const drained = app.stop(false).then(() => true);
      const timedOut = Bun.sleep(config.shutdownTimeoutMs).then(() => false);
      if (!(await Promise.race([drained, timedOut]))) {
        log.warn("shutdown timeout reached; closing open connections");
        await server.stop(true);
      }
      await deliveryWorker.stop();
      ctx.ai.stopWorker();
      ctx.mail.stop();
      stopDailySync();
      stopTeamCleanup();
      await stopCheckpoints();
      closeDatabase(ctx.db);
      lock.release();
      log.info("stopped");
    })();
    return stopping;
  };
  return { app, ctx, url, stop };
}
