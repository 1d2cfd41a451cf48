import { aiCommand } from "./cli/ai-commands";
import { keysCommand, projectCommand } from "./cli/project-commands";
import { teamCommand } from "./cli/team-commands";
import { USAGE, UsageError } from "./cli/usage";
import { type Config, ConfigError, loadConfig } from "./config";
import { backupDatabase } from "./db/backup";
import { closeDatabase, type Db } from "./db/connection";
import { MigrationError, openMigrated } from "./db/migrate";
import { DatabaseInUseError } from "./db/server-lock";
import { createLogger, describeError } from "./log";
import { APP_VERSION } from "./meta/version";
import { existsSync } from "node:fs";
import { type RunningService, startService } from "./server";

const print = (line: string) => console.log(line);

/**
 * Opens the database a management command works on. Only `serve` and `project create` make a new one: a
 * mistyped FEATUREBOARD_DB would otherwise answer "no projects" from an empty database made on the spot.
 */
function openExisting(config: Config, mayCreate = false): Db {
  const path = config.databasePath;
  if (!mayCreate && path !== ":memory:" && !existsSync(path)) {
    throw new Error(
      `no database at ${path}: set FEATUREBOARD_DB to the server's database (\`featureboard serve\` creates it on its first start)`,
    );
  }
  return openMigrated(config);
}

function withDatabase(config: Config, run: (db: Db) => number, mayCreate = false): number {
  const db = openExisting(config, mayCreate);
  try {
    return run(db);
  } finally {
    closeDatabase(db);
  }
}

/** An error Bun raised while binding the listening socket, with its code (EADDRINUSE, EACCES…). */
function listenErrorCode(error: unknown): string | null {
  if (!(error instanceof Error) || !("syscall" in error) || error.syscall !== "listen") return null;
  return "code" in error && typeof error.code === "string" ? error.code : "unknown error";
}

function serve(config: Config): void {
  const log = createLogger(config.logLevel);
  let service: RunningService | undefined;
  // Listened for before start-up: a SIGTERM that arrives while it runs (a test or a supervisor that
  // stops the server right after the "listening" line) waits for it and stops the server cleanly, where
  // the default action killed the process (exit 143) without closing the database.
  const shutdown = () => {
    if (service === undefined) process.exit(0);
    service.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`featureboard: shutdown failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
  try {
    service = startService(config, log);
  } catch (error) {
    const code = listenErrorCode(error);
    if (code === null) throw error;
    if (code === "EADDRINUSE") {
      console.error(
        `featureboard: port ${config.port} on ${config.host} is already in use; stop the other server or set PORT`,
      );
      process.exit(2);
    }
    if (code === "EACCES") {
      throw new ConfigError(
        "PORT",
        `not allowed to listen on port ${config.port} (${code}); use 1024 or above`,
      );
    }
    // An address this machine does not have, or a name that does not resolve.
    throw new ConfigError(
      "HOST",
      `cannot listen on "${config.host}" (${code}); use an address of this machine, such as 0.0.0.0 or 127.0.0.1`,
    );
  }
  // A request's error is answered by the error handlers; anything that still escapes (a timer, a hook
  // after the answer) is logged and the server keeps serving everyone else.
  process.on("unhandledRejection", (reason) => log.error("unhandled rejection", describeError(reason)));
  process.on("uncaughtException", (error) => log.error("uncaught exception", describeError(error)));
}

async function withDatabaseAsync(config: Config, run: (db: Db) => Promise<number>): Promise<number> {
  const db = openExisting(config);
  try {
    return await run(db);
  } finally {
    closeDatabase(db);
  }
}

function run(argv: string[]): number | Promise<number> | "serving" {
  const [command = "serve", ...args] = argv;
  if (command === "--help" || command === "help" || command === "-h") {
    print(USAGE);
    return 0;
  }
  if (command === "--version") {
    print(APP_VERSION);
    return 0;
  }
  if (command === "mcp") {
    // The stdio server talks to a running service over HTTP: it needs none of the server's settings. Loaded
    // here only, so `serve` never pays for the MCP SDK's client and stdio parts at start-up.
    import("./mcp/stdio")
      .then(({ runStdioServer, stdioConfigFrom }) => runStdioServer(stdioConfigFrom(process.env)))
      .catch((error: unknown) => {
        // A bad setting is a configuration error like any other (exit 2, one line naming the variable).
        if (error instanceof ConfigError) fail(error);
        console.error(`featureboard mcp: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      });
    return "serving";
  }
  const config = loadConfig();
  switch (command) {
    case "serve":
      // Settings come from the environment; a flag here would be silently ignored.
      if (args.length > 0)
        throw new UsageError(`serve takes no arguments (set PORT, FEATUREBOARD_DB… instead): ${args[0]}`);
      serve(config);
      return "serving";
    case "project":
      return withDatabase(config, (db) => projectCommand(args, db, print), args[0] === "create");
    case "keys":
      return withDatabase(config, (db) => keysCommand(args, db, print));
    case "team":
      return withDatabaseAsync(config, (db) => teamCommand(args, db, config, print));
    case "ai":
      return withDatabaseAsync(config, (db) => aiCommand(args, db, config, print));
    case "backup": {
      const [path] = args;
      if (!path) throw new UsageError("backup needs a PATH");
      return withDatabase(config, (db) => {
        backupDatabase(db, path);
        print(`backup written to ${path}`);
        return 0;
      });
    }
    default:
      throw new UsageError(`unknown command: ${command}`);
  }
}

function fail(error: unknown): never {
  if (error instanceof ConfigError) {
    console.error(`featureboard: invalid configuration: ${error.message}`);
    process.exit(2);
  }
  // The installation, not the program, is at fault: one line, exit 2, like a configuration error.
  if (error instanceof DatabaseInUseError || error instanceof MigrationError) {
    console.error(`featureboard: ${error.message}`);
    process.exit(2);
  }
  if (error instanceof UsageError) {
    console.error(`featureboard: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (error instanceof TypeError && String((error as { code?: unknown }).code).startsWith("ERR_PARSE_ARGS")) {
    console.error(`featureboard: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error(`featureboard: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

try {
  const outcome = run(process.argv.slice(2));
  if (outcome instanceof Promise) outcome.then((code) => process.exit(code), fail);
  else if (outcome !== "serving") process.exit(outcome);
} catch (error) {
  fail(error);
}
