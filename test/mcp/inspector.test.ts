import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import Ajv from "ajv";
import { createTestApp } from "../support/app";
import { listen } from "../support/board";
import { connectHttp } from "../support/mcp";

/**
 * Tool schemas as the MCP Inspector checks them: it compiles every tool's output schema with a bare
 * `new Ajv()` (strict, no formats), and warns for each schema that does not compile. Every input and
 * output schema must compile there; the Inspector's own CLI must list tools, resources and prompts.
 */
const ROOT = new URL("../../", import.meta.url).pathname;
const t = createTestApp();
const server = listen(t);
afterAll(async () => {
  await server.stop();
  t.close();
});

describe("MCP schemas pass the Inspector's checks", () => {
  test.each([
    ["admin", { key: t.project.secretKey }],
    ["public", { project: "acme" }],
  ] as const)("every %s tool's input and output schema compiles in a bare Ajv", async (_mode, options) => {
    const client = await connectHttp(server.url, options);
    const problems: string[] = [];
    const ajv = new Ajv({
      logger: {
        log: () => {},
        warn: (...parts: unknown[]) => problems.push(parts.join(" ")),
        error: () => {},
      },
    });
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(2);
    for (const tool of tools) {
      for (const [kind, schema] of [
        ["input", tool.inputSchema],
        ["output", tool.outputSchema],
      ] as const) {
        if (!schema) continue;
        try {
          ajv.compile(schema);
        } catch (error) {
          problems.push(`${tool.name} ${kind}: ${String(error)}`);
        }
      }
    }
    await client.close();
    expect(problems).toEqual([]);
  });

  test.each(["tools/list", "resources/list", "prompts/list"])(
    "the Inspector CLI runs %s against the hosted endpoint",
    async (method) => {
      // Spawned asynchronously: the server answering it runs in this very process.
      const inspector = Bun.spawn(
        [
          join(ROOT, "node_modules/.bin/mcp-inspector"),
          "--cli",
          `${server.url}/mcp?project=acme`,
          "--method",
          method,
        ],
        { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe" },
      );
      const [stdout, stderr, exitCode] = await Promise.all([
        new Response(inspector.stdout).text(),
        new Response(inspector.stderr).text(),
        inspector.exited,
      ]);
      expect(stderr).toBe("");
      expect(exitCode).toBe(0);
      expect(JSON.parse(stdout)).toBeDefined();
    },
    60_000,
  );
});
