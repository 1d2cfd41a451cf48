import { describe, expect, test } from "bun:test";
import { idleTimeoutSeconds } from "../src/app";
import { ConfigError, loadConfig } from "../src/config";
import { createTestApp } from "./support/app";
import { runCommand, SOURCE_COMMAND } from "./support/process";

describe("configuration", () => {
  test("defaults follow the README settings table", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databasePath).toBe("data/featureboard.db");
    expect(config.ai.provider).toBe("local");
    expect(config.allowPrivateTargets).toBe(false);
    expect(config.rateLimits.secretKey).toEqual({ perMinute: 600, burst: 100 });
    expect(config.rateLimits.publicIp).toEqual({ perMinute: 60, burst: 20 });
    expect(config.rateLimits.ai).toEqual({ perMinute: 30, burst: 30 });
    expect(config.publicUrl).toBe("http://localhost:3000");
  });

  test.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["FEATUREBOARD_AI_PROVIDER", "skynet"],
    ["FEATUREBOARD_ALLOW_PRIVATE_TARGETS", "maybe"],
    ["FEATUREBOARD_PUBLIC_URL", "not a url"],
    ["FEATUREBOARD_PUBLIC_URL", "https://feedback.example.com/?ref=1"],
    ["FEATUREBOARD_PUBLIC_URL", "https://feedback.example.com/#board"],
    ["FEATUREBOARD_BOOTSTRAP_SECRET_KEY", "sk_short"],
    ["FEATUREBOARD_RATE_LIMIT_KEY_PER_MINUTE", "0"],
    ["FEATUREBOARD_LOG_LEVEL", "loud"],
    ["FEATUREBOARD_SMTP_URL", "http://mail"],
  ])("a bad %s is refused, naming the variable", (variable, value) => {
    let thrown: unknown;
    try {
      loadConfig({ [variable]: value });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).variable).toBe(variable);
    expect((thrown as ConfigError).message).toContain(variable);
  });

  test("the openai provider needs a key or a base URL", () => {
    expect(() => loadConfig({ FEATUREBOARD_AI_PROVIDER: "openai" })).toThrow(ConfigError);
    expect(
      loadConfig({ FEATUREBOARD_AI_PROVIDER: "openai", OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" }).ai
        .provider,
    ).toBe("openai");
  });

  test("a bad value stops the process with one line naming the variable and exit code 2", () => {
    const result = runCommand([...SOURCE_COMMAND, "serve"], { PORT: "not-a-port" });
    expect(result.exitCode).toBe(2);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("PORT");
    expect(result.stdout).toBe("");
  });
});

describe("the connection idle time-out", () => {
  test("outlasts two model calls in a row, within Bun's cap, and is what the app serves with", () => {
    // from-text with the defaults: the words (3 attempts of 30 s), then one embedding attempt, + 10 s.
    expect(idleTimeoutSeconds({ ai: { timeoutMs: 30_000, maxRetries: 2 } })).toBe(130);
    expect(idleTimeoutSeconds({ ai: { timeoutMs: 1_000, maxRetries: 2 } })).toBe(30);
    expect(idleTimeoutSeconds({ ai: { timeoutMs: 600_000, maxRetries: 0 } })).toBe(255);
    const t = createTestApp();
    try {
      expect(t.app.config.serve?.idleTimeout).toBe(idleTimeoutSeconds(t.ctx.config));
    } finally {
      t.close();
    }
  });
});
