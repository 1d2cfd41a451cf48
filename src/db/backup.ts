import { existsSync } from "node:fs";
import type { Db } from "./connection";

/**
 * Writes a consistent copy of the live database to `path` with VACUUM INTO: readers and the server keep
 * working meanwhile, and the copy is compacted. Refuses to overwrite an existing file.
 */
export function backupDatabase(db: Db, path: string): void {
  if (existsSync(path)) throw new Error(`${path} already exists; choose a new file name`);
  db.query("VACUUM INTO ?").run(path);
}
