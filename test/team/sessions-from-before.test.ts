import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { closeDatabase, commitNow, openDatabase } from "../../src/db/connection";
import { migrate } from "../../src/db/migrate";
import { migrations } from "../../src/db/migrations";
import { accountActivity, sessionFor } from "../../src/team/service";
import { tempDir } from "../support/app";

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a session signed in before migration 0023 stays signed in, gets an id of its own and shows what is unknown", () => {
  const db = openDatabase(join(dir, "before.db"), join(dir, "cache"));
  const before = migrations.filter((migration) => migration.version < 23);
  migrate(db, before);
  const now = Date.now();
  const token = "a-session-token-from-an-older-build";
  db.query("INSERT INTO team_members (id, email, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)").run(
    "m1",
    "old@example.com",
    "Old",
    now,
    now,
  );
  db.query(
    "INSERT INTO team_sessions (token_hash, member_id, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
  ).run(new Bun.CryptoHasher("sha256").update(token).digest(), "m1", "csrf", now - 1000, now + 60_000);
  // 0023 and every later migration run now (later ones are not this test's concern).
  expect(migrate(db)[0]).toBe(23);

  const session = sessionFor(db, token, now);
  expect(session?.member.email).toBe("old@example.com");
  expect(session?.sessionId).toMatch(/^[0-9a-f]{32}$/);
  commitNow(db);
  const { sessions, signIns } = accountActivity(db, "m1", session!.sessionId, now);
  expect(sessions).toEqual([
    {
      id: session!.sessionId,
      signedInAt: new Date(now - 1000).toISOString(),
      // Used just now: the first request after the upgrade notes it.
      lastUsedAt: new Date(now).toISOString(),
      userAgent: "",
      ip: "unknown",
      current: true,
    },
  ]);
  expect(signIns).toEqual([]);
  closeDatabase(db);
});
