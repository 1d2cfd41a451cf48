import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { getLoadablePath } from "sqlite-vec";

/**
 * Where the sqlite-vec extension comes from. Under `bun src/main.ts` it is the file in node_modules;
 * the compiled binary embeds it (see `src/binary.ts`) and registers that embedded path here.
 */
let embeddedExtension: string | null = null;

export function useEmbeddedSqliteVec(embeddedPath: string): void {
  embeddedExtension = embeddedPath;
}

/**
 * SQLite can only load an extension from a real file, and an embedded file lives inside the binary,
 * so it is copied once to the cache directory. The content hash names the folder (not the file: SQLite
 * derives the entry point from the file name) so two versions never overwrite each other.
 */
export function sqliteVecPath(cacheDir: string): string {
  if (embeddedExtension === null) return getLoadablePath();
  const bytes = readFileSync(embeddedExtension);
  const folder = join(cacheDir, `sqlite-vec-${Bun.hash(bytes).toString(16)}`);
  const target = join(folder, "vec0.so");
  if (!existsSync(target)) {
    mkdirSync(folder, { recursive: true });
    const partial = `${target}.${process.pid}.tmp`;
    writeFileSync(partial, bytes, { mode: 0o755 });
    renameSync(partial, target);
  }
  return target;
}
