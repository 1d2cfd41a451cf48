import { afterAll, describe, expect, test } from "bun:test";
import { createAiTestApp } from "./support";

const t = createAiTestApp();
afterAll(() => t.close());

describe("the AI routes in the OpenAPI document", () => {
  test("routes that need the provider list 503 SERVICE_UNAVAILABLE and 502; the gated ones 403", async () => {
    const document = (await t.call("GET", "/api/v1/openapi.json", { key: null })).body;
    const operations: [string, string][] = [
      ["/api/v1/posts/from-text", "post"],
      ["/api/v1/ai/triage", "post"],
      ["/api/v1/ai/summary", "post"],
    ];
    for (const [path, method] of operations) {
      const responses = Object.keys(document.paths[path][method].responses);
      expect(responses).toEqual(expect.arrayContaining(["403", "502", "503"]));
    }
    // The similar-post search answers on every plan (docs/ai.md, "Endpoints").
    const similar = Object.keys(document.paths["/api/v1/posts/similar"].get.responses);
    expect(similar).toEqual(expect.arrayContaining(["502", "503"]));
    expect(similar).not.toContain("403");
  });
});
