import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startSmtpReceiver } from "../email/smtp-receiver";
import { connectHttp } from "../support/mcp";
import { readJson, tempDir } from "../support/app";
import { compileCommand } from "../support/build";
import { runCommand, startServiceProcess } from "../support/process";
import { EXACT_SCAN_LIMIT } from "../../src/ai/similarity";

// The binary lives in a folder with no node_modules anywhere above it, and runs from there. CI points
// FEATUREBOARD_BINARY at the output of `npm run build` to smoke-test that very file; otherwise the test
// builds its own.
const dir = tempDir("featureboard-binary-");
const binary = join(dir, "featureboard");
const prebuilt = process.env.FEATUREBOARD_BINARY;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the compiled binary", () => {
  test("is one executable file", () => {
    if (prebuilt) {
      copyFileSync(prebuilt, binary);
    } else {
      const root = new URL("../../", import.meta.url).pathname;
      const build = runCommand(compileCommand("src/binary.ts", binary), {}, root);
      expect(build.exitCode).toBe(0);
    }
    expect(existsSync(binary)).toBe(true);
    expect(existsSync(join(dir, "node_modules"))).toBe(false);
    expect(runCommand([binary, "--version"], {}, dir).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  }, 120_000);

  test("runs without node_modules: CLI, discovery, sqlite-vec, a tag round-trip, board pages, similarity", async () => {
    const env = {
      FEATUREBOARD_DB: join(dir, "data", "board.db"),
      FEATUREBOARD_CACHE_DIR: join(dir, "cache"),
    };
    const created = runCommand([binary, "project", "create", "--slug", "shipped", "--json"], env, dir);
    expect(created.exitCode).toBe(0);
    const { secretKey } = JSON.parse(created.stdout);

    const service = await startServiceProcess([binary], env, dir);
    const discovery = await fetch(`${service.url}/api/v1/`);
    expect(discovery.status).toBe(200);
    expect((await readJson(discovery)).version).toBe("1.0.0");
    const health = await readJson(await fetch(`${service.url}/healthz`));
    expect(health.sqliteVec).toMatch(/^v\d+\.\d+\.\d+/);

    const auth = { authorization: `Bearer ${secretKey}`, "content-type": "application/json" };
    const tag = await fetch(`${service.url}/api/v1/tags`, {
      method: "POST",
      headers: auth,
      body: '{"label":"Binary"}',
    });
    expect(tag.status).toBe(201);
    const invalid = await fetch(`${service.url}/api/v1/tags`, {
      method: "POST",
      headers: auth,
      body: '{"label":7}',
    });
    expect((await readJson(invalid)).message).toContain("label");
    const listed = await readJson(await fetch(`${service.url}/api/v1/tags`, { headers: auth }));
    expect(listed.data.map((t: { label: string }) => t.label)).toEqual(["Binary"]);

    // What the binary must carry besides code: the board's assets, the widget, the similarity index.
    const post = await fetch(`${service.url}/api/v1/posts`, {
      method: "POST",
      headers: auth,
      body: '{"title":"Dark mode","status":"APPROVED"}',
    });
    expect(post.status).toBe(201);
    const board = await fetch(`${service.url}/b/shipped`);
    expect(board.status).toBe(200);
    const page = await board.text();
    expect(page).toContain("Dark mode");
    const stylesheet = page.match(/href="(\/b\/[^"]+\.css[^"]*)"/)?.[1];
    expect((await fetch(`${service.url}${stylesheet}`)).status).toBe(200);
    expect(await (await fetch(`${service.url}/widget.js`)).text()).toContain("data-key");
    const similar = await readJson(
      await fetch(`${service.url}/api/v1/posts/similar?query=night%20mode`, { headers: auth }),
    );
    expect(similar.data.map((hit: { title: string }) => hit.title)).toEqual(["Dark mode"]);
    // Past EXACT_SCAN_LIMIT posts a search runs the in-memory signature scan, a WebAssembly kernel.
    const topics = ["billing", "exports", "calendars", "mobile"];
    const rows = Array.from({ length: EXACT_SCAN_LIMIT + 100 }, (_, index) => ({
      title: `Request ${index} about ${topics[index % topics.length]}`,
      status: "APPROVED",
    }));
    const imported = await fetch(`${service.url}/api/v1/import`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ data: rows }),
    });
    expect(imported.status).toBe(200);
    const indexed = await readJson(
      await fetch(`${service.url}/api/v1/posts/similar?query=night%20mode`, { headers: auth }),
    );
    expect(indexed.data.map((hit: { title: string }) => hit.title)).toEqual(["Dark mode"]);

    service.proc.kill("SIGTERM");
    expect(await service.exited).toBe(0);
  });

  // The build splits what start-up does not need (MCP SDK, mail, payments, model client, API document)
  // into chunks inside the binary, loaded on first use: each must still load from the binary alone.
  test("loads its parts split off at build time: MCP over HTTP and stdio, the API document, mail", async () => {
    const smtp = await startSmtpReceiver();
    const env = {
      FEATUREBOARD_DB: join(dir, "data", "split.db"),
      FEATUREBOARD_CACHE_DIR: join(dir, "cache"),
      FEATUREBOARD_SMTP_URL: smtp.url,
    };
    const created = runCommand([binary, "project", "create", "--slug", "split", "--json"], env, dir);
    const { secretKey } = JSON.parse(created.stdout);
    const service = await startServiceProcess([binary], env, dir);
    const clients: Client[] = [];
    try {
      const document = await readJson(await fetch(`${service.url}/api/v1/openapi.json`));
      expect(document.openapi).toBe("3.1.0");

      const overHttp = await connectHttp(service.url, { key: secretKey });
      clients.push(overHttp);
      expect((await overHttp.listTools()).tools.length).toBeGreaterThan(0);
      const overStdio = new Client({ name: "featureboard-binary-test", version: "1.0.0" });
      await overStdio.connect(
        new StdioClientTransport({
          command: binary,
          args: ["mcp"],
          env: { FEATUREBOARD_URL: service.url, FEATUREBOARD_API_KEY: secretKey },
          stderr: "pipe",
        }),
      );
      clients.push(overStdio);
      expect((await overStdio.listTools()).tools.length).toBeGreaterThan(0);

      const auth = { authorization: `Bearer ${secretKey}`, "content-type": "application/json" };
      const call = async (method: string, path: string, body: unknown) =>
        readJson(
          await fetch(`${service.url}/api/v1${path}`, { method, headers: auth, body: JSON.stringify(body) }),
        );
      const post = (await call("POST", "/posts", { title: "Offline mode", status: "APPROVED" })).data;
      const user = (await call("POST", "/users", { email: "waiting@example.com", name: "Ada" })).data;
      await call("POST", `/posts/${post.id}/votes`, { boardUserId: user.id });
      await call("PATCH", `/posts/${post.id}`, { status: "COMPLETE", notify: true });
      const deadline = Date.now() + 10_000;
      while (smtp.mail.length === 0 && Date.now() < deadline) await Bun.sleep(20);
      expect(smtp.mail.map((mail) => mail.to[0])).toEqual(["waiting@example.com"]);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
      service.proc.kill("SIGTERM");
      await service.exited;
      await smtp.close();
    }
  });

  // The binary unpacks sqlite-vec into the cache folder: one it cannot write is a setting to correct.
  test("a FEATUREBOARD_CACHE_DIR it cannot write: one line naming the variable and the path, exit 2", () => {
    writeFileSync(join(dir, "not-a-folder"), "");
    const cacheDir = join(dir, "not-a-folder", "cache");
    for (const args of [["serve"], ["project", "create", "--slug", "cached"]]) {
      const result = runCommand(
        [binary, ...args],
        { FEATUREBOARD_DB: join(dir, "data", "cache-test.db"), FEATUREBOARD_CACHE_DIR: cacheDir, PORT: "0" },
        dir,
      );
      expect({ args, exitCode: result.exitCode }).toEqual({ args, exitCode: 2 });
      const lines = result.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toStartWith("featureboard: invalid configuration: FEATUREBOARD_CACHE_DIR: ");
      expect(lines[0]).toContain(cacheDir);
    }
  });
});
