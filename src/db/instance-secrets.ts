import { type Db, inTransaction } from "./connection";

/** 32 random bytes: an HMAC-SHA256 key as long as its output. */
const SECRET_BYTES = 32;

function findSecret(db: Db, name: string): Uint8Array | null {
  return (
    db.query<{ value: Uint8Array }, [string]>("SELECT value FROM instance_secrets WHERE name = ?").get(name)
      ?.value ?? null
  );
}

/**
 * The installation's secret named `name` (migration 0019): made at random on first use and kept in the
 * database, so it outlives restarts and upgrades and is the same for every process on the file. Never
 * shown. When two processes make it at once, the first stored wins and both read that one.
 */
export function instanceSecret(db: Db, name: string): Uint8Array {
  const existing = findSecret(db, name);
  if (existing) return existing;
  return inTransaction(db, () => {
    db.query("INSERT OR IGNORE INTO instance_secrets (name, value, created_at) VALUES (?, ?, ?)").run(
      name,
      crypto.getRandomValues(new Uint8Array(SECRET_BYTES)),
      Date.now(),
    );
    const stored = findSecret(db, name);
    if (!stored) throw new Error(`instance secret ${name} was not stored`);
    return stored;
  });
}
