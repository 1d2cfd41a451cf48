import { afterAll, describe, expect, test } from "bun:test";
import { createProject } from "../../src/projects/service";
import { createTestApp, expectApiError } from "../support/app";
import { makePost } from "../support/board";
import { createAiTestApp } from "./support";

/** The routes the specification gates (docs/ai.md, "Endpoints"); the similar-post search is not one of them. */
const AI_ROUTES: [string, string, unknown?][] = [
  ["POST", "/api/v1/posts/from-text", { text: "Please add a dark mode" }],
  ["POST", "/api/v1/ai/triage", {}],
  ["POST", "/api/v1/ai/summary", {}],
  ["POST", "/api/v1/ai/sprint-plan", {}],
];

describe("plan gating", () => {
  const t = createAiTestApp();
  afterAll(() => t.close());
  const keys = Object.fromEntries(
    (["free", "starter", "growth", "business"] as const).map((plan) => [
      plan,
      createProject(t.ctx.db, { slug: `plan-${plan}`, plan }).secretKey,
    ]),
  );

  test("free and starter projects → 403 PLAN_UPGRADE_REQUIRED naming the growth plan, on every AI route", async () => {
    for (const plan of ["free", "starter"]) {
      await makePost(t, { title: "Dark mode" }, keys[plan]);
      for (const [method, path, body] of AI_ROUTES) {
        const response = await t.call(method, path, { key: keys[plan], body });
        const error = expectApiError(response, 403, "PLAN_UPGRADE_REQUIRED");
        expect(error.resolution_hint).toContain("growth");
      }
    }
    // Nothing was created by the refused from-text.
    const listed = await t.call("GET", "/api/v1/posts", { key: keys.free });
    expect(listed.body.data).toHaveLength(1);
  });

  test("the similar-post search answers on every plan", async () => {
    for (const plan of ["free", "starter", "growth", "business"]) {
      await makePost(t, { title: "Dark mode for the editor" }, keys[plan]);
      const response = await t.call("GET", "/api/v1/posts/similar?query=dark%20mode%20for%20the%20editor", {
        key: keys[plan],
      });
      expect(response.status).toBe(200);
      expect(response.body.data[0].title).toBe("Dark mode for the editor");
    }
  });

  test("growth and business projects → 200 (201 for from-text)", async () => {
    for (const plan of ["growth", "business"]) {
      for (const [method, path, body] of AI_ROUTES) {
        const response = await t.call(method, path, { key: keys[plan], body });
        expect(response.status).toBe(path.endsWith("from-text") ? 201 : 200);
      }
    }
  });
});

describe("AI rate limit", () => {
  const t = createTestApp({
    FEATUREBOARD_RATE_LIMIT_AI_PER_MINUTE: "30",
    FEATUREBOARD_RATE_LIMIT_AI_BURST: "3",
  });
  afterAll(() => t.close());

  test("AI routes share a per-project bucket: past the burst → 429 RATE_LIMITED with Retry-After", async () => {
    for (let i = 0; i < 3; i++) {
      const response = await t.call("POST", "/api/v1/ai/summary");
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-policy")).toContain('"ai"');
    }
    const limited = await t.call("POST", "/api/v1/ai/triage", { body: {} });
    const error = expectApiError(limited, 429, "RATE_LIMITED");
    expect(error.retry).toBe(true);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Other routes of the same key are not affected, nor is another project's AI bucket.
    expect((await t.call("GET", "/api/v1/posts")).status).toBe(200);
    // The similar-post search is a posts route: it draws on the key's budget, not the AI one.
    const similar = await t.call("GET", "/api/v1/posts/similar?query=anything");
    expect(similar.status).toBe(200);
    expect(similar.headers.get("ratelimit-policy")).toContain('"secret-key"');
    expect((await t.call("POST", "/api/v1/ai/summary", { key: t.other.secretKey })).status).toBe(200);
  });

  test("a free project is told to upgrade (403), never to wait (429), however many requests it makes", async () => {
    const free = createProject(t.ctx.db, { slug: "free-flood", plan: "free" }).secretKey;
    for (let i = 0; i < 8; i++) {
      const [method, path, body] = AI_ROUTES[i % AI_ROUTES.length]!;
      const response = await t.call(method, path, { key: free, body });
      expectApiError(response, 403, "PLAN_UPGRADE_REQUIRED");
    }
  });
});
