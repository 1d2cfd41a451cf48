import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../src/db/connection";
import { MigrationError, migrate, openMigrated } from "../../src/db/migrate";
import { migrations } from "../../src/db/migrations";
import { tempDir } from "../support/app";
import { freePort, runCommand, SOURCE_COMMAND } from "../support/process";

/**
 * An older build on a database a newer one migrated ignored the versions it did not know and went on (its
 * start-up could even overwrite what the newer build stored). It now refuses, naming both versions, and
 * writes nothing.
 */
const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cacheDir = join(dir, "cache");
const NEWER_VERSION = 9_999;
const latest = migrations.at(-1)!.version;

/** A database at an early schema, plus a version from a build newer than this one. */
function newerDatabase(name: string): string {
  const path = join(dir, name);
  const db = openDatabase(path, cacheDir);
  migrate(db, migrations.slice(0, 5));
  db.run(
    "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, 'from_the_future', 'x', 0)",
    [NEWER_VERSION],
  );
  db.close();
  return path;
}

function recordedVersions(path: string): number[] {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .query<{ version: number }, []>("SELECT version FROM schema_migrations ORDER BY version")
      .all()
      .map((row) => row.version);
  } finally {
    db.close();
  }
}

const EXPECTED_VERSIONS = [1, 2, 3, 4, 5, NEWER_VERSION];

describe("a database from a newer featureboard", () => {
  test("openMigrated refuses it, naming the database's version and the build's, and applies nothing", () => {
    const path = newerDatabase("direct.db");
    let thrown: unknown;
    try {
      openMigrated({ databasePath: path, cacheDir });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MigrationError);
    expect(String(thrown)).toContain(`schema version ${NEWER_VERSION}`);
    expect(String(thrown)).toContain(`up to version ${latest}`);
    expect(String(thrown)).toContain(path);
    expect(recordedVersions(path)).toEqual(EXPECTED_VERSIONS);
  });

  test("serve and the CLI commands exit 2 with one line and leave the database as it was", () => {
    const path = newerDatabase("cli.db");
    const env = { FEATUREBOARD_DB: path, HOST: "127.0.0.1", PORT: String(freePort()) };
    for (const command of [["serve"], ["keys", "list", "--project", "default"], ["project", "list"]]) {
      const result = runCommand([...SOURCE_COMMAND, ...command], env);
      expect({ command, exitCode: result.exitCode }).toEqual({ command, exitCode: 2 });
      const lines = result.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`schema version ${NEWER_VERSION}`);
      expect(lines[0]).toContain(`up to version ${latest}`);
      expect(result.stdout).not.toMatch(/sk_|pk_/);
    }
    expect(recordedVersions(path)).toEqual(EXPECTED_VERSIONS);
  });
});
