import { describe, expect, test } from "bun:test";
import { generateKey, hashKey, keyKindOf, keyPrefix, sameHash } from "../../src/projects/keys";
import { planAtLeast } from "../../src/projects/plans";

describe("API keys", () => {
  test("secret and publishable keys are a prefix plus 32 base62 characters", () => {
    expect(generateKey("secret")).toMatch(/^sk_[0-9A-Za-z]{32}$/);
    expect(generateKey("publishable")).toMatch(/^pk_[0-9A-Za-z]{32}$/);
  });

  test("keys do not repeat and use the whole alphabet", () => {
    const keys = Array.from({ length: 2000 }, () => generateKey("secret"));
    expect(new Set(keys).size).toBe(keys.length);
    const characters = new Set(keys.join("").replaceAll("sk_", ""));
    expect(characters.size).toBe(62);
  });

  test("the readable prefix is the kind marker plus 8 characters", () => {
    expect(keyPrefix("sk_ABCDEFGH12345678901234567890abcd")).toBe("sk_ABCDEFGH");
    expect(keyKindOf("sk_x")).toBe("secret");
    expect(keyKindOf("pk_x")).toBe("publishable");
    expect(keyKindOf("xx_x")).toBeNull();
  });

  test("hashes are SHA-256 and compare equal only for the same key", () => {
    const key = generateKey("secret");
    expect(hashKey(key).byteLength).toBe(32);
    expect(sameHash(hashKey(key), hashKey(key))).toBe(true);
    expect(sameHash(hashKey(key), hashKey(`${key}x`))).toBe(false);
    expect(sameHash(hashKey(key), new Uint8Array(3))).toBe(false);
  });
});

describe("plans", () => {
  test("are ordered free < starter < growth < business", () => {
    expect(planAtLeast("growth", "growth")).toBe(true);
    expect(planAtLeast("business", "growth")).toBe(true);
    expect(planAtLeast("starter", "growth")).toBe(false);
    expect(planAtLeast("free", "starter")).toBe(false);
  });
});
