import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { type Db, closeDatabase, commitNow } from "../../src/db/connection";
import { openMigrated } from "../../src/db/migrate";
import { loadConfig } from "../../src/config";
import { createProject } from "../../src/projects/service";
import { ENDED_SESSIONS_KEPT_MS, SESSION_TTL_MS } from "../../src/team/schema";
import { deleteSpentTeamRecordsNow } from "../../src/team/schedule";
import {
  acceptInvite,
  createSignInLink,
  deleteSpentTeamRecords,
  describeInvite,
  inviteMember,
  listOpenInvites,
  sessionFor,
  signIn,
  signOut,
  useSignInLink,
  withdrawInvite,
} from "../../src/team/service";
import { createTestApp, tempDir } from "../support/app";

// docs/dashboard.md, "Your account": a session that ended (signed out, or expired) is deleted 14 days after
// it ended, with its IP and User-Agent: that member's at each of their sign-ins, every member's by the daily
// clean-up. A session that ended recently, every live session, and (at a sign-in) other members' sessions
// stay. A real SQLite file, and a clock the test gives.

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.parse("2026-03-02T09:00:00Z");
const PASSWORD = "a long enough password";

describe("ended team sessions are deleted after their retention", () => {
  const dir = tempDir();
  let db: Db;
  /** Every session row there is, by the name the test gave it (its token). */
  const named = new Map<string, string>();
  const rows = () =>
    db
      .query<{ token_hash: Uint8Array }, []>("SELECT token_hash FROM team_sessions")
      .all()
      .map((row) => named.get(Buffer.from(row.token_hash).toString("hex")) ?? "unnamed")
      .sort();
  const remember = (name: string, token: string) =>
    named.set(new Bun.CryptoHasher("sha256").update(token).digest("hex"), name);

  const joinTeam = async (email: string, name: string, at: number) => {
    const { token } = inviteMember(db, { email, role: "member", projectSlug: "acme" }, at);
    const { sessionToken } = await acceptInvite(db, token, { password: PASSWORD }, at);
    remember(name, sessionToken);
    return sessionToken;
  };
  const signInAt = async (email: string, name: string, at: number) => {
    const { sessionToken } = await signIn(db, { email, password: PASSWORD }, at);
    remember(name, sessionToken);
    return sessionToken;
  };

  let ann: Record<string, string>;
  let bob: Record<string, string>;
  beforeAll(async () => {
    const config = loadConfig({
      FEATUREBOARD_DB: join(dir, "sessions.db"),
      FEATUREBOARD_LOG_LEVEL: "silent",
    });
    db = openMigrated(config);
    createProject(db, { slug: "acme", name: "Acme", plan: "growth" });
    // Each sign-in below deletes nothing yet: no session of the member had ended 14 days before it.
    // Ann: signed out on day 5; a session left to expire (day 17); one signed out on day 25; one in use.
    ann = { signedOut: await joinTeam("ann@example.com", "ann signed out on day 5", T0) };
    signOut(db, ann.signedOut!, T0 + 5 * DAY);
    ann.expired = await signInAt("ann@example.com", "ann expired on day 17", T0 + 3 * DAY);
    ann.signedOutLately = await signInAt("ann@example.com", "ann signed out on day 25", T0 + 18 * DAY);
    signOut(db, ann.signedOutLately, T0 + 25 * DAY);
    ann.live = await signInAt("ann@example.com", "ann signed in on day 19", T0 + 19 * DAY);
    // Bob: the same sessions ended long ago, and one in use.
    bob = { signedOut: await joinTeam("bob@example.com", "bob signed out on day 5", T0) };
    signOut(db, bob.signedOut!, T0 + 5 * DAY);
    bob.expired = await signInAt("bob@example.com", "bob expired on day 17", T0 + 3 * DAY);
    bob.live = await signInAt("bob@example.com", "bob signed in on day 18", T0 + 18 * DAY);
    commitNow(db);
  });
  afterAll(() => {
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  });

  test("the retention is a session's own life: 14 days after it ended", () => {
    expect(ENDED_SESSIONS_KEPT_MS).toBe(SESSION_TTL_MS);
    expect(ENDED_SESSIONS_KEPT_MS).toBe(14 * DAY);
  });

  test("a sign-in deletes that member's sessions ended more than 14 days ago, and nobody else's", async () => {
    expect(rows()).toHaveLength(7);
    // Day 31: what ended before day 17 goes (signed out on day 5); what ended on day 17 and 25 stays.
    ann.fresh = await signInAt("ann@example.com", "ann signed in on day 31", T0 + 31 * DAY);
    commitNow(db);
    expect(rows()).toEqual(
      [
        "ann expired on day 17",
        "ann signed out on day 25",
        "ann signed in on day 19",
        "ann signed in on day 31",
        "bob signed out on day 5",
        "bob expired on day 17",
        "bob signed in on day 18",
      ].sort(),
    );
    // The sessions in use still sign their holders in.
    const now = T0 + 31 * DAY;
    expect(sessionFor(db, ann.live!, now)?.member.email).toBe("ann@example.com");
    expect(sessionFor(db, bob.live!, now)?.member.email).toBe("bob@example.com");
  });

  test("the daily clean-up deletes every member's sessions ended more than 14 days ago", () => {
    // Day 31, exactly 14 days after the sessions that expired on day 17: those are not older than that yet.
    expect(deleteSpentTeamRecords(db, T0 + 31 * DAY).sessions).toBe(1);
    commitNow(db);
    expect(rows()).not.toContain("bob signed out on day 5");
    expect(rows()).toContain("bob expired on day 17");
    expect(deleteSpentTeamRecords(db, T0 + 31 * DAY + 1).sessions).toBe(2);
    commitNow(db);
    expect(rows()).toEqual(
      [
        "ann signed out on day 25",
        "ann signed in on day 19",
        "ann signed in on day 31",
        "bob signed in on day 18",
      ].sort(),
    );
    // Day 40: the session signed out on day 25 has had its 14 days; those that expired on day 32 and 33
    // ended 7 and 8 days ago, and the one in use is in use.
    expect(deleteSpentTeamRecords(db, T0 + 40 * DAY).sessions).toBe(1);
    commitNow(db);
    expect(rows()).toEqual(
      ["ann signed in on day 19", "ann signed in on day 31", "bob signed in on day 18"].sort(),
    );
    expect(sessionFor(db, ann.fresh!, T0 + 40 * DAY)?.member.email).toBe("ann@example.com");
  });
});

test("the daily job deletes through the running service's context, and logs how many", async () => {
  const lines: string[] = [];
  const t = createTestApp({ FEATUREBOARD_LOG_LEVEL: "info" }, (line) => lines.push(line));
  try {
    const now = Date.now();
    const joined = async (email: string, at: number) => {
      const { token } = inviteMember(t.ctx.db, { email, role: "member", projectSlug: "acme" }, at);
      return (await acceptInvite(t.ctx.db, token, { password: PASSWORD }, at)).sessionToken;
    };
    // Cy signed out 40 days ago and has not signed in since: only the daily job reaches that session.
    const gone = await joined("cy@example.com", now - 40 * DAY);
    signOut(t.ctx.db, gone, now - 40 * DAY + 1000);
    const live = await joined("dee@example.com", now);
    commitNow(t.ctx.db);
    const count = () =>
      t.ctx.db.query<{ n: number }, []>("SELECT count(*) AS n FROM team_sessions").get()?.n ?? 0;
    expect(count()).toBe(2);
    await deleteSpentTeamRecordsNow(t.ctx, now);
    expect(count()).toBe(1);
    expect(sessionFor(t.ctx.db, live, now)?.member.email).toBe("dee@example.com");
    expect(
      lines.some((line) => line.includes("spent team records deleted") && line.includes('"sessions":1')),
    ).toBe(true);
  } finally {
    t.close();
  }
});

// docs/dashboard.md, "Sessions and forms": a used, withdrawn or expired invite and a used or expired sign-in
// link answer as an unknown one does, so the daily clean-up deletes them; open ones stay and still work.
test("the daily clean-up deletes spent invites and sign-in links, and open ones keep working", async () => {
  const t = createTestApp();
  try {
    const db = t.ctx.db;
    const now = Date.now();
    const client = { ip: "127.0.0.1", userAgent: "test" };
    const invite = (email: string, at: number) =>
      inviteMember(db, { email, role: "member", projectSlug: "acme" }, at).token;
    const accepted = invite("accepted@example.com", now - 2 * DAY);
    await acceptInvite(db, accepted, { password: PASSWORD }, now - 2 * DAY);
    invite("expired@example.com", now - 3 * DAY);
    invite("withdrawn@example.com", now - DAY / 2);
    const withdrawnId = listOpenInvites(db, "acme", now - DAY / 2).find(
      (open) => open.email === "withdrawn@example.com",
    )!.id;
    expect(withdrawInvite(db, "acme", withdrawnId, now - DAY / 2 + 1000)).toBe("withdrawn@example.com");
    const open = invite("open@example.com", now - 1000);

    const used = createSignInLink(db, "accepted@example.com", now - 60_000)!.token;
    useSignInLink(db, used, client, now - 50_000);
    createSignInLink(db, "accepted@example.com", now - DAY);
    const live = createSignInLink(db, "accepted@example.com", now - 1000)!.token;
    commitNow(db);
    const count = (table: string) =>
      db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0;
    expect([count("team_invites"), count("team_sign_in_links")]).toEqual([4, 3]);

    await deleteSpentTeamRecordsNow(t.ctx, now);
    expect(deleteSpentTeamRecords(db, now)).toEqual({ sessions: 0, invites: 0, signInLinks: 0 });
    commitNow(db);
    expect([count("team_invites"), count("team_sign_in_links")]).toEqual([1, 1]);
    expect(describeInvite(db, open, now).email).toBe("open@example.com");
    expect(useSignInLink(db, live, client, now).sessionToken).toBeString();
  } finally {
    t.close();
  }
});
