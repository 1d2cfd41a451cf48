import { Database } from "bun:sqlite";
import { mkdirSync, realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { isBusy } from "./connection";
import { asDatabaseSettingError } from "./setting-errors";

/** Another featureboard server holds the database's server lock; `main` prints it as one line, exit 2. */
export class DatabaseInUseError extends Error {}

export interface ServerLock {
  /** Gives the lock back (the OS does it too, when the process ends however it ends). */
  release(): void;
}

/** The lock file beside the database: `featureboard.db` → `featureboard.db.server-lock`. */
export function serverLockPath(databasePath: string): string {
  return `${databasePath}.server-lock`;
}

/**
 * One server per database (docs/decisions.md, "Operations"): a second one would deliver every webhook
 * again and keep rate-limit budgets of its own. The lock is a small SQLite file beside the database held
 * in an exclusive transaction for the server's lifetime: SQLite's lock is a POSIX record lock, which the
 * OS drops when the process ends, so a crash (even SIGKILL) never leaves a stale lock behind. The CLI
 * never takes it and keeps working beside a running server. The file stays after a stop: removing it
 * would let a starting server lock a file another is just opening.
 */
export function lockDatabaseForServer(databasePath: string): ServerLock {
  if (databasePath === ":memory:") return { release: () => undefined };
  let resolved: string;
  let lock: Database;
  try {
    mkdirSync(dirname(databasePath), { recursive: true });
    // The same file under another spelling (a relative path, a symlinked folder) must find the same lock.
    resolved = join(realpathSync(dirname(databasePath)), basename(databasePath));
    lock = new Database(serverLockPath(resolved), { create: true, strict: true });
  } catch (error) {
    throw asDatabaseSettingError(databasePath, error);
  }
  try {
    lock.run("PRAGMA busy_timeout = 0");
    lock.run("BEGIN EXCLUSIVE");
  } catch (error) {
    lock.close();
    if (isBusy(error)) {
      throw new DatabaseInUseError(
        `another featureboard server uses the database ${resolved}; stop it first (one server per database), or set FEATUREBOARD_DB to another file`,
      );
    }
    throw error;
  }
  return {
    release: () => {
      lock.run("ROLLBACK");
      lock.close();
    },
  };
}
