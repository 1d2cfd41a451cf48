import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../src/app";
import { closeDatabase } from "../src/db/connection";
import { loadConfig } from "../src/config";
import { createLogger } from "../src/log";
import { createContext } from "../src/server";
import { describeInvite } from "../src/team/service";
import { tempDir } from "./support/app";
import { runCommand, SOURCE_COMMAND } from "./support/process";

const dir = tempDir();
const database = join(dir, "cli.db");
const env = { FEATUREBOARD_DB: database };
const cli = (...args: string[]) => runCommand([...SOURCE_COMMAND, ...args], env);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Calls the API against the CLI's database file, as a server started on it would. */
async function listTags(key: string): Promise<number> {
  const config = loadConfig({ ...env, FEATUREBOARD_LOG_LEVEL: "silent" });
  const ctx = createContext(config, createLogger("silent"));
  try {
    const response = await createApp(ctx).handle(
      new Request("http://localhost/api/v1/tags", { headers: { authorization: `Bearer ${key}` } }),
    );
    return response.status;
  } finally {
    closeDatabase(ctx.db);
  }
}

/** GET /api/v1/activity of one entity type, against the CLI's database file. */
async function activityOf(
  key: string,
  entityType: string,
): Promise<{ action: string; entityId: string | null; metadata: Record<string, unknown> | null }[]> {
  const config = loadConfig({ ...env, FEATUREBOARD_LOG_LEVEL: "silent" });
  const ctx = createContext(config, createLogger("silent"));
  try {
    const response = await createApp(ctx).handle(
      new Request(`http://localhost/api/v1/activity?entityType=${entityType}`, {
        headers: { authorization: `Bearer ${key}` },
      }),
    );
    return ((await response.json()) as { data: [] }).data;
  } finally {
    closeDatabase(ctx.db);
  }
}

function databaseBytes(): string {
  return [database, `${database}-wal`]
    .filter((path) => existsSync(path))
    .map((path) => readFileSync(path).toString("latin1"))
    .join("");
}

describe("featureboard CLI", () => {
  let created: { projectId: string; slug: string; plan: string; secretKey: string; publishableKey: string };

  test("project create --json prints the documented object", () => {
    const result = cli(
      "project",
      "create",
      "--slug",
      "acme",
      "--name",
      "Acme Inc",
      "--plan",
      "starter",
      "--json",
    );
    expect(result.exitCode).toBe(0);
    created = JSON.parse(result.stdout);
    expect(Object.keys(created).sort()).toEqual(["plan", "projectId", "publishableKey", "secretKey", "slug"]);
    expect(created).toMatchObject({ slug: "acme", plan: "starter" });
    expect(created.secretKey).toMatch(/^sk_[0-9A-Za-z]{32}$/);
    expect(created.publishableKey).toMatch(/^pk_[0-9A-Za-z]{32}$/);
  });

  test("the database holds no plaintext key, only the readable prefix", () => {
    const bytes = databaseBytes();
    for (const key of [created.secretKey, created.publishableKey]) {
      expect(bytes.includes(key)).toBe(false);
      expect(bytes.includes(key.slice(11))).toBe(false);
      expect(bytes.includes(key.slice(0, 11))).toBe(true);
    }
  });

  test("the printed secret key authenticates; the publishable one does not", async () => {
    expect(await listTags(created.secretKey)).toBe(200);
    expect(await listTags(created.publishableKey)).toBe(401);
  });

  test("a taken or malformed slug is refused", () => {
    expect(cli("project", "create", "--slug", "acme").exitCode).toBe(1);
    expect(cli("project", "create", "--slug", "Not Valid!").exitCode).toBe(1);
    expect(cli("project", "create").exitCode).toBe(2);
  });

  test("project list and set-plan", () => {
    expect(cli("project", "set-plan", "acme", "business").exitCode).toBe(0);
    const listed = JSON.parse(cli("project", "list", "--json").stdout);
    expect(listed).toEqual([expect.objectContaining({ slug: "acme", plan: "business", isPublic: true })]);
    expect(cli("project", "list").stdout).toContain("acme\tbusiness\tpublic");
    expect(cli("project", "set-plan", "acme", "platinum").exitCode).toBe(2);
    expect(cli("project", "set-plan", "nobody", "free").exitCode).toBe(1);
  });

  test("keys create and revoke", async () => {
    const made = cli("keys", "create", "--project", "acme", "--kind", "secret");
    expect(made.exitCode).toBe(0);
    const key = made.stdout.trim();
    expect(key).toMatch(/^sk_[0-9A-Za-z]{32}$/);
    expect(await listTags(key)).toBe(200);
    const revoked = cli("keys", "revoke", key.slice(0, 11));
    expect(revoked.exitCode).toBe(0);
    expect(await listTags(key)).toBe(401);
    expect(await listTags(created.secretKey)).toBe(200);
    const again = cli("keys", "revoke", key.slice(0, 11));
    expect(again.exitCode).toBe(1);
    // Errors go to stderr with the prefix every command's errors carry; stdout stays for results.
    expect(again.stderr).toBe(`featureboard: no active key matches ${key.slice(0, 11)}\n`);
    expect(again.stdout).toBe("");
    expect(cli("keys", "create", "--project", "acme", "--kind", "root").exitCode).toBe(2);
  });

  test("keys list shows each key's prefix, kind, creation time and state; revoke takes the whole key", async () => {
    const key = cli("keys", "create", "--project", "acme", "--kind", "secret").stdout.trim();
    const listed = JSON.parse(cli("keys", "list", "--project", "acme", "--json").stdout);
    const mine = listed.find((entry: { prefix: string }) => entry.prefix === key.slice(0, 11));
    expect(mine).toMatchObject({ kind: "secret", revokedAt: null });
    expect(new Date(mine.createdAt).getTime()).toBeGreaterThan(0);
    expect(JSON.stringify(listed)).not.toContain(key);
    expect(cli("keys", "list", "--project", "acme").stdout).toContain(`${key.slice(0, 11)}\tsecret\t`);

    expect(cli("keys", "revoke", key).exitCode).toBe(0);
    expect(await listTags(key)).toBe(401);
    const after = JSON.parse(cli("keys", "list", "--project", "acme", "--json").stdout);
    const revoked = after.find((entry: { prefix: string }) => entry.prefix === key.slice(0, 11));
    expect(revoked.revokedAt).not.toBeNull();
    expect(cli("keys", "list", "--project", "acme").stdout).toContain("revoked");
    expect(cli("keys", "list").exitCode).toBe(2);
    expect(cli("keys", "list", "--project", "nobody").exitCode).toBe(1);
  });

  test("keys rename names a key anew with the rules of create; every key change is in the activity log, from the command line", async () => {
    const key = cli(
      "keys",
      "create",
      "--project",
      "acme",
      "--kind",
      "publishable",
      "--name",
      "Widget",
    ).stdout.trim();
    const prefix = key.slice(0, 11);
    const renamed = cli("keys", "rename", prefix, "--project", "acme", "--name", "  Site widget ");
    expect(renamed.exitCode).toBe(0);
    expect(renamed.stdout).toBe(`${prefix} is now named Site widget\n`);
    const listed = JSON.parse(cli("keys", "list", "--project", "acme", "--json").stdout);
    expect(listed.find((entry: { prefix: string }) => entry.prefix === prefix).name).toBe("Site widget");
    // The same check as a name given at creation.
    const tooLong = cli("keys", "rename", prefix, "--project", "acme", "--name", "x".repeat(101));
    expect(tooLong.exitCode).toBe(1);
    expect(tooLong.stderr).toContain("must be at most 100 characters");
    expect(cli("keys", "rename", prefix, "--project", "acme").exitCode).toBe(2);
    const stranger = cli("keys", "rename", "pk_00000000", "--project", "acme", "--name", "x");
    expect(stranger.exitCode).toBe(1);
    expect(stranger.stderr).toBe("featureboard: acme has no key pk_00000000\n");
    expect(cli("keys", "revoke", prefix).exitCode).toBe(0);

    const entries = (await activityOf(created.secretKey, "api_key")).filter(
      (entry) => entry.metadata?.prefix === prefix,
    );
    expect(entries.map(({ action, metadata }) => ({ action, metadata }))).toEqual([
      {
        action: "revoked",
        metadata: { prefix, kind: "publishable", name: "Site widget", source: "cli" },
      },
      {
        action: "renamed",
        metadata: { prefix, kind: "publishable", from: "Widget", to: "Site widget", source: "cli" },
      },
      { action: "created", metadata: { prefix, kind: "publishable", name: "Widget", source: "cli" } },
    ]);
    // Never the key or any more of it than the prefix.
    expect(JSON.stringify(entries)).not.toContain(key.slice(11));
  });

  test("team invite and withdraw and project set-plan are in the activity log, from the command line", async () => {
    expect(
      cli("team", "invite", "--project", "acme", "--email", "ada@example.com", "--role", "admin").exitCode,
    ).toBe(0);
    expect(cli("team", "withdraw", "--project", "acme", "--email", "ada@example.com").exitCode).toBe(0);
    expect(cli("project", "set-plan", "acme", "growth").exitCode).toBe(0);
    const invites = await activityOf(created.secretKey, "invite");
    expect(invites.map(({ action, metadata }) => ({ action, metadata }))).toEqual([
      { action: "withdrawn", metadata: { email: "ada@example.com", role: "admin", source: "cli" } },
      {
        action: "created",
        metadata: { email: "ada@example.com", role: "admin", replaced: 0, source: "cli" },
      },
    ]);
    // Both name the same invite, by an id that opens nothing (its token's SHA-256).
    expect(invites[0]!.entityId).toMatch(/^[0-9a-f]{64}$/);
    expect(invites[1]!.entityId).toBe(invites[0]!.entityId);
    const project = await activityOf(created.secretKey, "project");
    expect(project[0]).toMatchObject({
      action: "plan_changed",
      entityId: created.projectId,
      metadata: { from: "business", to: "growth", source: "cli" },
    });
  });

  test("backup writes a consistent copy that opens as a featureboard database", () => {
    const copy = join(dir, "copy.db");
    const result = cli("backup", copy);
    expect(result.exitCode).toBe(0);
    const listed = runCommand([...SOURCE_COMMAND, "project", "list", "--json"], { FEATUREBOARD_DB: copy });
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ slug: "acme" })]);
    expect(cli("backup", copy).exitCode).toBe(1);
  });

  test("a database that does not exist is refused by every command but serve and project create", () => {
    const missing = { FEATUREBOARD_DB: join(dir, "typo", "nowhere.db") };
    for (const args of [
      ["project", "list"],
      ["keys", "list", "--project", "acme"],
      ["team", "list"],
      ["ai", "status"],
    ]) {
      const result = runCommand([...SOURCE_COMMAND, ...args], missing);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toStartWith(`featureboard: no database at ${missing.FEATUREBOARD_DB}`);
    }
    expect(existsSync(join(dir, "typo"))).toBe(false);
  });

  test("empty lists say so; team remove of a stranger is an error on stderr", () => {
    const empty = { FEATUREBOARD_DB: join(dir, "empty.db") };
    expect(runCommand([...SOURCE_COMMAND, "project", "create", "--slug", "solo"], empty).exitCode).toBe(0);
    const team = runCommand([...SOURCE_COMMAND, "team", "list", "--project", "solo"], empty);
    expect(team.stdout).toContain("no team members in solo yet");
    // An invite not accepted yet is listed, and can be withdrawn: its link stops working.
    const invite = runCommand(
      [...SOURCE_COMMAND, "team", "invite", "--project", "solo", "--email", "new@example.com", "--json"],
      empty,
    );
    const { url } = JSON.parse(invite.stdout);
    expect(runCommand([...SOURCE_COMMAND, "team", "list", "--project", "solo"], empty).stdout).toContain(
      "new@example.com\towner\tinvited, link works until ",
    );
    // --json lists the same people as the text: the open invite too.
    const listed = JSON.parse(
      runCommand([...SOURCE_COMMAND, "team", "list", "--project", "solo", "--json"], empty).stdout,
    );
    expect(listed).toEqual([
      {
        email: "new@example.com",
        role: "owner",
        invited: true,
        createdAt: expect.any(String),
        expiresAt: expect.any(String),
      },
    ]);
    expect(Date.parse(listed[0].expiresAt)).toBeGreaterThan(Date.now());
    const withdraw = [
      ...SOURCE_COMMAND,
      "team",
      "withdraw",
      "--project",
      "solo",
      "--email",
      "new@example.com",
    ];
    expect(runCommand(withdraw, empty).exitCode).toBe(0);
    expect(runCommand([...SOURCE_COMMAND, "team", "list", "--project", "solo"], empty).stdout).not.toContain(
      "new@example.com",
    );
    expect(runCommand(withdraw, empty).stderr).toBe(
      "featureboard: new@example.com has no open invite to solo\n",
    );
    const token = String(url).split("/admin/invite/")[1]!;
    const config = loadConfig({ ...empty, FEATUREBOARD_LOG_LEVEL: "silent" });
    const ctx = createContext(config, createLogger("silent"));
    try {
      expect(() => describeInvite(ctx.db, token)).toThrow();
    } finally {
      closeDatabase(ctx.db);
    }
    const stranger = runCommand(
      [...SOURCE_COMMAND, "team", "remove", "--project", "solo", "--email", "x@example.com"],
      empty,
    );
    expect(stranger.exitCode).toBe(1);
    expect(stranger.stderr).toBe("featureboard: x@example.com is not a team member of solo\n");
  });

  test("every command of --help is in the README's command list", async () => {
    const help = cli("--help").stdout;
    const readme = await Bun.file(new URL("../README.md", import.meta.url)).text();
    const commandList = /## Command line\n+```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    // Each usage line's synopsis: the command and its options, before the description.
    const synopses = help
      .split("\n")
      .filter((line) => line.startsWith("  featureboard "))
      .map((line) => line.trim().split(/\s{2,}/)[0]!);
    expect(synopses).toContain("featureboard team reset-password --email E");
    expect(synopses.filter((synopsis) => !commandList.includes(synopsis))).toEqual([]);
  });

  test("serve refuses arguments: its settings come from the environment", () => {
    const result = cli("serve", "--port", "4000");
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("serve takes no arguments");
  });

  test("an unknown command prints the usage and exits 2", () => {
    const result = cli("launch-rockets");
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("Usage:");
  });
});
