import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { readJson, tempDir } from "../support/app";
import { runCommand, startServiceProcess } from "../support/process";

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
      const build = runCommand(
        [process.execPath, "build", "--compile", "src/binary.ts", "--outfile", binary],
        {},
        root,
      );
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

    service.proc.kill("SIGTERM");
    expect(await service.exited).toBe(0);
  });
});
