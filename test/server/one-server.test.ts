import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/app";
import { freePort, runCommand, SOURCE_COMMAND, startServiceProcess } from "../support/process";

/**
 * Two servers on one database both delivered every webhook (the same webhook-id twice) and kept a
 * rate-limit budget each. A second `serve` now refuses; the CLI still works beside the running server,
 * and a server killed outright leaves nothing that blocks the next start (docs/decisions.md, "Operations").
 */
const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("one server per database", () => {
  const databasePath = join(dir, "shared.db");
  const env = { FEATUREBOARD_DB: databasePath };

  test("a second server on the same database exits 2 with one line naming it; the CLI works beside the first; a SIGKILLed server does not block the next start", async () => {
    const first = await startServiceProcess(SOURCE_COMMAND, env);
    try {
      const second = runCommand([...SOURCE_COMMAND, "serve"], {
        ...env,
        HOST: "127.0.0.1",
        PORT: String(freePort()),
      });
      expect(second.exitCode).toBe(2);
      const lines = second.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(databasePath);
      expect(lines[0]).toContain("another featureboard server uses the database");
      expect(second.stdout).not.toMatch(/sk_|pk_/);
      expect((await fetch(`${first.url}/healthz`)).status).toBe(200);

      // The same file under another spelling (relative to the working directory) is the same database.
      const relative = runCommand(
        [...SOURCE_COMMAND, "serve"],
        { FEATUREBOARD_DB: "shared.db", HOST: "127.0.0.1", PORT: String(freePort()) },
        dir,
      );
      expect(relative.exitCode).toBe(2);

      for (const command of [
        ["keys", "list", "--project", "default"],
        ["project", "list"],
        ["team", "invite", "--email", "owner@example.com"],
        ["team", "list"],
        ["ai", "status"],
        ["backup", join(dir, "copy.db")],
      ]) {
        const result = runCommand([...SOURCE_COMMAND, ...command], env);
        expect({ command, exitCode: result.exitCode, stderr: result.stderr }).toEqual({
          command,
          exitCode: 0,
          stderr: "",
        });
      }
    } finally {
      first.proc.kill("SIGKILL");
      await first.exited;
    }
    const restarted = await startServiceProcess(SOURCE_COMMAND, env);
    expect((await fetch(`${restarted.url}/healthz`)).status).toBe(200);
    restarted.proc.kill("SIGTERM");
    expect(await restarted.exited).toBe(0);
    // A server stopped cleanly gives the database back too.
    const again = await startServiceProcess(SOURCE_COMMAND, env);
    again.proc.kill("SIGTERM");
    expect(await again.exited).toBe(0);
  }, 60_000);
});
