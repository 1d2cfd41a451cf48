import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/app";
import { freePort, runCommand, SOURCE_COMMAND } from "../support/process";

/**
 * A database featureboard cannot use stopped it with SQLite's words ("unable to open database file") and
 * exit 1; README.md promises one line naming the variable, and exit 2, for every bad setting.
 */
const dir = tempDir();
afterAll(() => {
  chmodSync(join(dir, "locked"), 0o755);
  rmSync(dir, { recursive: true, force: true });
});
mkdirSync(join(dir, "a-folder"));
writeFileSync(join(dir, "notes.txt"), "These are notes, not a database. ".repeat(20));
writeFileSync(join(dir, "a-file"), "");
mkdirSync(join(dir, "locked"));
chmodSync(join(dir, "locked"), 0o555);
chmodSync(dir, 0o755);

/**
 * Permissions mean nothing to root: as root, the cases that need them run as the unprivileged user
 * "nobody" (setpriv, from util-linux); without setpriv they are skipped.
 */
const runsAsRoot = process.getuid?.() === 0;
const UNPRIVILEGED = runsAsRoot ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : [];
const permissionsUntestable = runsAsRoot && Bun.which("setpriv") === null;

function expectSettingRefused(
  env: Record<string, string>,
  args: string[],
  variable: string,
  path: string,
  prefix: string[] = [],
) {
  const result = runCommand([...prefix, ...SOURCE_COMMAND, ...args], {
    HOST: "127.0.0.1",
    PORT: String(freePort()),
    ...env,
  });
  expect({ args, exitCode: result.exitCode }).toEqual({ args, exitCode: 2 });
  const lines = result.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toStartWith(`featureboard: invalid configuration: ${variable}: `);
  expect(lines[0]).toContain(path);
  expect(result.stdout).not.toMatch(/sk_|pk_/);
}

describe("a database featureboard cannot use is a setting to correct", () => {
  test("FEATUREBOARD_DB naming a folder", () => {
    const path = join(dir, "a-folder");
    for (const args of [["serve"], ["project", "list"], ["project", "create", "--slug", "acme"]]) {
      expectSettingRefused({ FEATUREBOARD_DB: path }, args, "FEATUREBOARD_DB", path);
    }
  });

  test("FEATUREBOARD_DB naming a file that is not a SQLite database", () => {
    const path = join(dir, "notes.txt");
    for (const args of [["serve"], ["keys", "list", "--project", "default"]]) {
      expectSettingRefused({ FEATUREBOARD_DB: path }, args, "FEATUREBOARD_DB", path);
    }
  });

  test("FEATUREBOARD_DB in a folder that cannot be made (its path runs through a file)", () => {
    const path = join(dir, "a-file", "board.db");
    for (const args of [["serve"], ["project", "create", "--slug", "acme"]]) {
      expectSettingRefused({ FEATUREBOARD_DB: path }, args, "FEATUREBOARD_DB", path);
    }
  });

  test.skipIf(permissionsUntestable)("FEATUREBOARD_DB in a folder featureboard may not write", () => {
    const path = join(dir, "locked", "board.db");
    expectSettingRefused({ FEATUREBOARD_DB: path }, ["serve"], "FEATUREBOARD_DB", path, UNPRIVILEGED);
  });

  test.skipIf(permissionsUntestable)("FEATUREBOARD_DB naming a database featureboard may only read", () => {
    const folder = join(dir, "shared");
    const path = join(folder, "board.db");
    mkdirSync(folder);
    chmodSync(folder, 0o777);
    const created = runCommand([...SOURCE_COMMAND, "project", "create", "--slug", "acme"], {
      FEATUREBOARD_DB: path,
    });
    expect(created.exitCode).toBe(0);
    chmodSync(path, 0o444);
    expectSettingRefused({ FEATUREBOARD_DB: path }, ["serve"], "FEATUREBOARD_DB", path, UNPRIVILEGED);
  });

  test("HOST that is no address of this machine", () => {
    for (const host of ["no-such-host.invalid", "192.0.2.123"]) {
      expectSettingRefused({ FEATUREBOARD_DB: join(dir, "host.db"), HOST: host }, ["serve"], "HOST", host);
    }
  });
});
