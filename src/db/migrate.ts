import type { Db, Durability } from "./connection";
import { openDatabase } from "./connection";
import { migrations as allMigrations, type Migration } from "./migrations";
import { asCacheDirSettingError, asDatabaseSettingError, refuseDatabaseFolder } from "./setting-errors";
import { sqliteVecPath } from "./sqlite-vec";

export class MigrationError extends Error {}

function checksum(sql: string): string {
  return new Bun.CryptoHasher("sha256").update(sql).digest("hex");
}

/**
 * Applies pending migrations in order, all in one transaction, and records each. A recorded migration
 * whose text has changed since it was applied stops start-up: landed migrations must never be edited.
 */
export function migrate(db: Db, migrations: Migration[] = allMigrations): number[] {
  db.run(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at INTEGER NOT NULL
  ) STRICT`);
  const applied = new Map(
    db
      .query<{ version: number; checksum: string }, []>("SELECT version, checksum FROM schema_migrations")
      .all()
      .map((row) => [row.version, row.checksum]),
  );
  // A database written by a newer featureboard: this build would run on a schema it does not know, and
  // its start-up (bootstrap, instance secrets) could overwrite what the newer one stored. Refused before
  // anything is written.
  const known = new Set(migrations.map((migration) => migration.version));
  const unknown = [...applied.keys()].filter((version) => !known.has(version));
  if (unknown.length > 0) {
    throw new MigrationError(
      `the database ${db.filename} is at schema version ${Math.max(...applied.keys())}, newer than this build ` +
        `of featureboard knows (up to version ${Math.max(0, ...known)}): run the newer featureboard, or restore ` +
        "a backup made before the upgrade",
    );
  }
  const pending = migrations.filter((migration) => {
    const recorded = applied.get(migration.version);
    if (recorded === undefined) return true;
    if (recorded !== checksum(migration.sql)) {
      throw new MigrationError(
        `migration ${migration.name} was changed after it was applied; add a new migration instead`,
      );
    }
    return false;
  });
  // Start-up work, committed at once and not part of any batch of changes. All pending migrations go in
  // one transaction: an upgrade lands whole or not at all, and a new database costs one commit (one fsync
  // under synchronous=FULL) instead of one per migration.
  db.transaction(() => {
    const record = db.query(
      "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
    );
    for (const migration of pending) {
      db.run(migration.sql);
      record.run(migration.version, migration.name, checksum(migration.sql), Date.now());
    }
  }).immediate();
  const newlyApplied = pending.map((migration) => migration.version);
  return newlyApplied;
}

/**
 * Opens the database file with featureboard's settings and brings its schema up to date. A database or
 * cache folder it cannot use is reported as the setting to correct (setting-errors.ts).
 */
export function openMigrated(config: {
  databasePath: string;
  cacheDir: string;
  durability?: Durability;
}): Db {
  refuseDatabaseFolder(config.databasePath);
  try {
    // Unpacked here first (the compiled binary's embedded copy) so a cache folder that cannot be written
    // is told apart from a database that cannot; openDatabase then finds it in place.
    sqliteVecPath(config.cacheDir);
  } catch (error) {
    throw asCacheDirSettingError(config.cacheDir, error);
  }
  let db: Db;
  try {
    db = openDatabase(config.databasePath, config.cacheDir, config.durability);
  } catch (error) {
    throw asDatabaseSettingError(config.databasePath, error);
  }
  try {
    migrate(db);
  } catch (error) {
    db.close();
    throw asDatabaseSettingError(config.databasePath, error);
  }
  return db;
}
