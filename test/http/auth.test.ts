import { afterAll, describe, expect, test } from "bun:test";
import { revokeKey } from "../../src/projects/service";
import { createTestApp, expectApiError } from "../support/app";

const t = createTestApp();
afterAll(() => t.close());

describe("secret-key authentication", () => {
  test("no key → 401 SECRET_KEY_REQUIRED", async () => {
    expectApiError(await t.call("GET", "/api/v1/tags", { key: null }), 401, "SECRET_KEY_REQUIRED");
  });

  test("a publishable pk_ key → 401 SECRET_KEY_REQUIRED", async () => {
    expectApiError(
      await t.call("GET", "/api/v1/tags", { key: t.project.publishableKey }),
      401,
      "SECRET_KEY_REQUIRED",
    );
  });

  test("a non-bearer Authorization header → 401 SECRET_KEY_REQUIRED", async () => {
    const response = await t.call("GET", "/api/v1/tags", {
      key: null,
      headers: { authorization: "Basic dXNlcjpwYXNz" },
    });
    expectApiError(response, 401, "SECRET_KEY_REQUIRED");
  });

  test("an unknown sk_ key → 401 INVALID_API_KEY", async () => {
    const unknown = `sk_${"A".repeat(32)}`;
    expectApiError(await t.call("GET", "/api/v1/tags", { key: unknown }), 401, "INVALID_API_KEY");
  });

  test("a key with the right prefix but wrong secret part → 401 INVALID_API_KEY", async () => {
    const forged = `${t.project.secretKey.slice(0, 11)}${"z".repeat(24)}`;
    expectApiError(await t.call("GET", "/api/v1/tags", { key: forged }), 401, "INVALID_API_KEY");
  });

  test("a revoked sk_ key → 401 INVALID_API_KEY, while other keys keep working", async () => {
    const { secretKey } = t.other;
    expect((await t.call("GET", "/api/v1/tags", { key: secretKey })).status).toBe(200);
    expect(revokeKey(t.ctx.db, secretKey.slice(0, 11))).toBe(secretKey.slice(0, 11));
    expectApiError(await t.call("GET", "/api/v1/tags", { key: secretKey }), 401, "INVALID_API_KEY");
    expect((await t.call("GET", "/api/v1/tags")).status).toBe(200);
  });

  test("the message says a secret API key is required", async () => {
    const body = expectApiError(
      await t.call("GET", "/api/v1/tags", { key: null }),
      401,
      "SECRET_KEY_REQUIRED",
    );
    expect(body.message).toBe("Secret API key required");
  });
});
