import { SQLiteError } from "bun:sqlite";
import { statSync } from "node:fs";
import { ConfigError } from "../config";

/**
 * A database or cache folder featureboard cannot use is a setting to correct, not a crash: one line naming
 * the variable and the path, exit 2, as README.md promises for every bad setting.
 */

function fileSystemCode(error: unknown): string | null {
  return error instanceof Error &&
    "code" in error &&
    typeof error.code === "string" &&
    !(error instanceof SQLiteError)
    ? error.code
    : null;
}

/** Refuses a FEATUREBOARD_DB that names a folder: SQLite would only say "unable to open database file". */
export function refuseDatabaseFolder(databasePath: string): void {
  if (databasePath === ":memory:") return;
  let isFolder: boolean;
  try {
    isFolder = statSync(databasePath).isDirectory();
  } catch {
    return; // not there yet: it is created
  }
  if (isFolder) {
    throw new ConfigError(
      "FEATUREBOARD_DB",
      `${databasePath} is a folder; name a database file, such as ${databasePath.replace(/\/+$/, "")}/featureboard.db`,
    );
  }
}

/** The ConfigError an error opening or writing the database stands for, or the error itself if none does. */
export function asDatabaseSettingError(databasePath: string, error: unknown): unknown {
  if (error instanceof ConfigError) return error;
  const setting = (detail: string) => new ConfigError("FEATUREBOARD_DB", `${databasePath}: ${detail}`);
  if (error instanceof SQLiteError) {
    const code = error.code ?? "";
    if (code === "SQLITE_NOTADB") return setting("not a SQLite database file");
    if (code.startsWith("SQLITE_READONLY")) {
      return setting("read-only; featureboard writes the file and, beside it, its -wal and -shm files");
    }
    if (code.startsWith("SQLITE_CANTOPEN")) {
      return setting("cannot be opened or created; its folder must exist (or be creatable) and be writable");
    }
    return error;
  }
  const code = fileSystemCode(error);
  // mkdir of a path through a file: ENOTDIR, or EEXIST when the file stands where the folder would be.
  if (code === "ENOTDIR" || code === "EEXIST")
    return setting(`its folder path runs through a file (${code})`);
  if (code === "EACCES" || code === "EPERM" || code === "EROFS") {
    return setting(`its folder cannot be created or written (${code})`);
  }
  return error;
}

/** The ConfigError a failure to write the sqlite-vec extension into the cache folder stands for. */
export function asCacheDirSettingError(cacheDir: string, error: unknown): unknown {
  const code = fileSystemCode(error);
  if (code === null) return error;
  return new ConfigError(
    "FEATUREBOARD_CACHE_DIR",
    `${cacheDir}: cannot write the sqlite-vec extension there (${code}); name a writable folder`,
  );
}
