import { afterAll, describe, expect, test } from "bun:test";
import { createAiTestApp } from "./support";

const t = createAiTestApp();
afterAll(() => t.close());

describe("the AI routes in the OpenAPI document", () => {
  test("routes that need the provider list 503 SERVICE_UNAVAILABLE, with 403 and 502", async () => {
    const document = (await t.call("GET", "/api/v1/openapi.json", { key: null })).body;
    const operations: [string, string][] = [
      ["/api/v1/posts/similar", "get"],
      ["/api/v1/posts/from-text", "post"],
      ["/api/v1/ai/triage", "post"],
      ["/api/v1/ai/summary", "post"],
    ];
    for (const [path, method] of operations) {
      const responses = Object.keys(document.paths[path][method].responses);
      expect(responses).toEqual(expect.arrayContaining(["403", "502", "503"]));
    }
  });
});
