import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { readJson, tempDir } from "../support/app";
import { runCommand, SOURCE_COMMAND, startServiceProcess } from "../support/process";

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY_LINE = /secret key:\s+(sk_\w+)[\s\S]*publishable key:\s+(pk_\w+)/;

describe("first start and restart", () => {
  const env = { FEATUREBOARD_DB: join(dir, "bootstrap.db") };

  test("an empty database: the bootstrap keys are printed once and work", async () => {
    const service = await startServiceProcess(SOURCE_COMMAND, env);
    const [, secretKey, publishableKey] = service.output().match(KEY_LINE) ?? [];
    expect(secretKey).toMatch(/^sk_[0-9A-Za-z]{32}$/);
    expect(publishableKey).toMatch(/^pk_[0-9A-Za-z]{32}$/);
    expect(service.output().match(/secret key:/g)).toHaveLength(1);
    // First contact: the banner names where to go next, and the root leads to the board.
    const publicUrl = /board:\s+(http\S+)\/b\/default/.exec(service.output())?.[1];
    expect(publicUrl).toBeDefined();
    expect(service.output()).toContain(`API docs:         ${publicUrl}/api/v1/docs`);
    expect(service.output()).toContain(`MCP endpoint:     ${publicUrl}/mcp`);
    const root = await fetch(`${service.url}/`, { redirect: "manual" });
    expect(root.status).toBe(302);
    expect(root.headers.get("location")).toBe("/b/default");
    const tags = await fetch(`${service.url}/api/v1/tags`, {
      headers: { authorization: `Bearer ${secretKey}` },
    });
    expect(tags.status).toBe(200);
    service.proc.kill("SIGTERM");
    expect(await service.exited).toBe(0);
  });

  test("a restart prints no keys and creates nothing", async () => {
    const service = await startServiceProcess(SOURCE_COMMAND, env);
    expect(service.output()).not.toMatch(/sk_|pk_/);
    service.proc.kill("SIGTERM");
    expect(await service.exited).toBe(0);
    const projects = JSON.parse(runCommand([...SOURCE_COMMAND, "project", "list", "--json"], env).stdout);
    expect(projects).toEqual([expect.objectContaining({ slug: "default", plan: "growth", isPublic: true })]);
  });

  test("FEATUREBOARD_BOOTSTRAP_SECRET_KEY makes the bootstrap secret key deterministic", async () => {
    const preset = `sk_${"T".repeat(16)}${"7".repeat(16)}`;
    const service = await startServiceProcess(SOURCE_COMMAND, {
      FEATUREBOARD_DB: join(dir, "preset.db"),
      FEATUREBOARD_BOOTSTRAP_SECRET_KEY: preset,
    });
    expect(service.output().match(KEY_LINE)?.[1]).toBe(preset);
    const tags = await fetch(`${service.url}/api/v1/tags`, {
      headers: { authorization: `Bearer ${preset}` },
    });
    expect(tags.status).toBe(200);
    service.proc.kill("SIGTERM");
    expect(await service.exited).toBe(0);
  });
});

describe("the address it reports", () => {
  test("PORT=0: the log and the bootstrap links name the port the server got, not :0", async () => {
    const service = await startServiceProcess(SOURCE_COMMAND, {
      FEATUREBOARD_DB: join(dir, "port-zero.db"),
      PORT: "0",
    });
    try {
      const listening = JSON.parse(await service.waitForOutput(/\{[^\n]*"msg":"listening"[^\n]*\}/));
      const port = new URL(listening.url).port;
      expect(Number(port)).toBeGreaterThan(0);
      expect(service.output()).not.toContain("localhost:0");
      expect(service.output()).toContain(`board:            http://localhost:${port}/b/default`);
      const discovery = await readJson(await fetch(`${listening.url}/api/v1/`));
      expect(discovery.docs_url).toBe(`http://localhost:${port}/api/v1/docs`);
    } finally {
      service.proc.kill("SIGTERM");
      await service.exited;
    }
  });

  test("an IPv6 HOST is logged as a URL that works: http://[::1]:port", async () => {
    const service = await startServiceProcess(SOURCE_COMMAND, {
      FEATUREBOARD_DB: join(dir, "ipv6.db"),
      HOST: "::1",
    });
    try {
      const listening = JSON.parse(await service.waitForOutput(/\{[^\n]*"msg":"listening"[^\n]*\}/));
      expect(listening.url).toBe(`http://[::1]:${new URL(service.url).port}`);
      expect((await fetch(`${listening.url}/healthz`)).status).toBe(200);
    } finally {
      service.proc.kill("SIGTERM");
      await service.exited;
    }
  });
});

describe("stopped during start-up", () => {
  test("a SIGTERM while it starts (right after the keys are printed) stops it cleanly: exit 0, the project kept", async () => {
    const env = { FEATUREBOARD_DB: join(dir, "early-stop.db") };
    const proc = Bun.spawn([...SOURCE_COMMAND, "serve"], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "/tmp",
        HOST: "127.0.0.1",
        PORT: "0",
        ...env,
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const decoder = new TextDecoder();
    let stdout = "";
    for await (const chunk of proc.stdout) {
      stdout += decoder.decode(chunk);
      if (stdout.includes("secret key:")) {
        proc.kill("SIGTERM");
        break;
      }
    }
    // The default action of SIGTERM before the server listened for it: killed, exit 143.
    expect(await proc.exited).toBe(0);
    const restarted = await startServiceProcess(SOURCE_COMMAND, env);
    expect(restarted.output()).not.toMatch(/sk_|pk_/);
    restarted.proc.kill("SIGTERM");
    expect(await restarted.exited).toBe(0);
  });
});

describe("behind a proxy", () => {
  test("requests with X-Forwarded-For while FEATUREBOARD_TRUST_PROXY is off make the log warn once", async () => {
    const service = await startServiceProcess(SOURCE_COMMAND, { FEATUREBOARD_DB: join(dir, "proxy.db") });
    try {
      for (let round = 0; round < 3; round++) {
        await fetch(`${service.url}/api/v1/`, { headers: { "x-forwarded-for": "203.0.113.9" } });
      }
      await service.waitForOutput(/FEATUREBOARD_TRUST_PROXY is off/);
      expect(service.output().match(/FEATUREBOARD_TRUST_PROXY is off/g)).toHaveLength(1);
    } finally {
      service.proc.kill("SIGTERM");
      await service.exited;
    }
  });
});

describe("a port in use", () => {
  test("a second server on the same port exits 2 with one line naming the port", async () => {
    const first = await startServiceProcess(SOURCE_COMMAND, { FEATUREBOARD_DB: join(dir, "first.db") });
    try {
      const port = new URL(first.url).port;
      const second = runCommand([...SOURCE_COMMAND, "serve"], {
        FEATUREBOARD_DB: join(dir, "second.db"),
        HOST: "127.0.0.1",
        PORT: port,
      });
      expect(second.exitCode).toBe(2);
      const lines = second.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`port ${port}`);
      expect(lines[0]).toContain("already in use");
      expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    } finally {
      first.proc.kill("SIGTERM");
      await first.exited;
    }
  });
  test("a first start on a busy port prints no keys (they would be lost); the next start prints them", async () => {
    const blocker = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("someone else") });
    const env = { FEATUREBOARD_DB: join(dir, "busy-first.db") };
    try {
      const refused = runCommand([...SOURCE_COMMAND, "serve"], {
        ...env,
        HOST: "127.0.0.1",
        PORT: String(blocker.port),
      });
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr.trim().split("\n")).toHaveLength(1);
      expect(refused.stdout).not.toMatch(/secret key|sk_|pk_/);
    } finally {
      await blocker.stop(true);
    }
    const service = await startServiceProcess(SOURCE_COMMAND, env);
    expect(service.output()).toMatch(KEY_LINE);
    service.proc.kill("SIGTERM");
    expect(await service.exited).toBe(0);
  });
});

describe("running service", () => {
  const preset = `sk_${"L".repeat(32)}`;
  const env = {
    FEATUREBOARD_DB: join(dir, "running.db"),
    FEATUREBOARD_BOOTSTRAP_SECRET_KEY: preset,
    // The crash test sends more requests at once than the default burst allows.
    FEATUREBOARD_RATE_LIMIT_KEY_BURST: "1000",
  };

  test("writes one JSON access-log line per request, carrying the request id", async () => {
    const service = await startServiceProcess(SOURCE_COMMAND, env);
    const response = await fetch(`${service.url}/api/v1/tags`, {
      headers: { authorization: `Bearer ${preset}` },
    });
    const requestId = response.headers.get("x-request-id");
    const line = await service.waitForOutput(new RegExp(`\\{[^\\n]*"requestId":"${requestId}"[^\\n]*\\}`));
    expect(JSON.parse(line)).toMatchObject({
      level: "info",
      msg: "request",
      method: "GET",
      path: "/api/v1/tags",
      status: 200,
      durationMs: expect.any(Number),
    });
    service.proc.kill("SIGTERM");
    expect(await service.exited).toBe(0);
  });

  test("a 2 MiB body over real HTTP → 413 PAYLOAD_TOO_LARGE ApiError", async () => {
    const service = await startServiceProcess(SOURCE_COMMAND, env);
    const response = await fetch(`${service.url}/api/v1/tags`, {
      method: "POST",
      headers: { authorization: `Bearer ${preset}`, "content-type": "application/json" },
      body: JSON.stringify({ label: "x".repeat(2 * 1024 * 1024) }),
    });
    expect(response.status).toBe(413);
    expect(await readJson(response)).toMatchObject({ error_code: "PAYLOAD_TOO_LARGE", retry: false });
    service.proc.kill("SIGTERM");
    expect(await service.exited).toBe(0);
  });

  test("SIGTERM during a slow request: the request completes, then the process exits 0", async () => {
    const service = await startServiceProcess(SOURCE_COMMAND, env);
    const { port } = new URL(service.url);
    const body = JSON.stringify({ label: "Written during shutdown" });
    const half = Math.floor(body.length / 2);
    const socket = connect(Number(port), "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    let reply = "";
    socket.on("data", (chunk) => {
      reply += chunk.toString();
    });
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    // The request is in flight: headers and half of the body are sent, the rest arrives later.
    socket.write(
      `POST /api/v1/tags HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${preset}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, half)}`,
    );
    await Bun.sleep(300);
    service.proc.kill("SIGTERM");
    await service.waitForOutput(/"msg":"shutting down"/);
    await Bun.sleep(300);
    expect(service.proc.exitCode).toBeNull(); // still serving the slow request
    socket.write(body.slice(half));
    await closed;
    expect(reply).toMatch(/^HTTP\/1\.1 201/);
    expect(reply).toContain("Written during shutdown");
    expect(await service.exited).toBe(0);
    // The acknowledged write survived the shutdown.
    const restarted = await startServiceProcess(SOURCE_COMMAND, env);
    const tags = await fetch(`${restarted.url}/api/v1/tags`, {
      headers: { authorization: `Bearer ${preset}` },
    });
    expect((await readJson(tags)).data.map((tag: { label: string }) => tag.label)).toContain(
      "Written during shutdown",
    );
    restarted.proc.kill("SIGTERM");
    expect(await restarted.exited).toBe(0);
  });

  test("a crash right after the answers loses no acknowledged write", async () => {
    const service = await startServiceProcess(SOURCE_COMMAND, env);
    const auth = { authorization: `Bearer ${preset}`, "content-type": "application/json" };
    const post = await readJson(
      await fetch(`${service.url}/api/v1/posts`, {
        method: "POST",
        headers: auth,
        body: '{"title":"Crash test"}',
      }),
    );
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        fetch(`${service.url}/api/v1/posts/${post.data.id}/votes`, {
          method: "POST",
          headers: auth,
          body: JSON.stringify({ anonymousId: `crash-${i}` }),
        }),
      ),
    );
    const acknowledged = responses.filter((r) => r.status === 201).length;
    expect(acknowledged).toBe(100);
    service.proc.kill("SIGKILL");
    await service.exited;
    const restarted = await startServiceProcess(SOURCE_COMMAND, env);
    const read = await readJson(
      await fetch(`${restarted.url}/api/v1/posts/${post.data.id}`, { headers: auth }),
    );
    expect(read.data.voteCount).toBe(acknowledged);
    const votes = await readJson(
      await fetch(`${restarted.url}/api/v1/posts/${post.data.id}/votes`, { headers: auth }),
    );
    expect(votes.data).toHaveLength(acknowledged);
    restarted.proc.kill("SIGTERM");
    expect(await restarted.exited).toBe(0);
  });
});
