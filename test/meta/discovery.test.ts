import { afterAll, describe, expect, test } from "bun:test";
import SwaggerParser from "@apidevtools/swagger-parser";
import { createTestApp, expectApiError } from "../support/app";

const t = createTestApp({
  FEATUREBOARD_PUBLIC_URL: "https://board.example.com",
  FEATUREBOARD_RATE_LIMIT_KEY_PER_MINUTE: "600",
  FEATUREBOARD_RATE_LIMIT_KEY_BURST: "100",
  FEATUREBOARD_RATE_LIMIT_IP_PER_MINUTE: "60",
  FEATUREBOARD_RATE_LIMIT_IP_BURST: "20",
});
afterAll(() => t.close());

describe("GET /api/v1/ (discovery)", () => {
  test("answers 200 without a key, with every documented field", async () => {
    const response = await t.call("GET", "/api/v1/", { key: null });
    expect(response.status).toBe(200);
    const body = response.body;
    for (const field of ["name", "version", "description", "docs_url", "openapi_url", "mcp_package"]) {
      expect(typeof body[field]).toBe("string");
    }
    expect(body.name).toBe("featureboard");
    expect(body.version).toBe("1.0.0");
    expect(body.docs_url).toBe("https://board.example.com/api/v1/docs");
    expect(body.openapi_url).toBe("https://board.example.com/api/v1/openapi.json");
    // The MCP server is this binary's own command, not an npm package name anyone could publish.
    expect(body.mcp_package).toBe("featureboard mcp");
    expect(body.mcp_stdio).toMatchObject({
      command: "featureboard",
      args: ["mcp"],
      env: { FEATUREBOARD_URL: "https://board.example.com" },
    });
    expect(body.authentication).toMatchObject({
      type: "bearer",
      secret_key_prefix: "sk_",
      publishable_key_prefix: "pk_",
    });
    expect(body.rate_limits.secret_key).toEqual({
      requests_per_minute: 600,
      burst: 100,
      scope: "per secret key",
    });
    expect(body.rate_limits.public_ip).toMatchObject({ requests_per_minute: 60, burst: 20 });
    expect(body.rate_limits.ai).toMatchObject({ requests_per_minute: 30 });
  });

  test("lists the real endpoints with their authentication", async () => {
    const { endpoints } = (await t.call("GET", "/api/v1/", { key: null })).body;
    expect(endpoints).toContainEqual({
      method: "POST",
      path: "/api/v1/tags",
      summary: "Create a tag",
      auth: "secret_key",
    });
    expect(endpoints).toContainEqual({
      method: "DELETE",
      path: "/api/v1/tags/:tagId",
      summary: "Delete a tag",
      auth: "secret_key",
    });
    expect(endpoints).toContainEqual(
      expect.objectContaining({ method: "GET", path: "/api/v1", auth: "none" }),
    );
  });
});

describe("OpenAPI document and docs", () => {
  test("GET /api/v1/openapi.json passes the OpenAPI validator", async () => {
    const response = await t.call("GET", "/api/v1/openapi.json", { key: null });
    expect(response.status).toBe(200);
    const document = response.body;
    expect(document.openapi).toMatch(/^3\./);
    await SwaggerParser.validate(structuredClone(document));
    // The validator is not vacuous: a response without its required description is refused.
    const broken = structuredClone(document);
    delete broken.paths["/api/v1/tags"].post.responses["201"].description;
    expect(SwaggerParser.validate(broken)).rejects.toThrow();
  });

  test("documents every tag route with its request and response schemas and the bearer scheme", async () => {
    const document = (await t.call("GET", "/api/v1/openapi.json", { key: null })).body;
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    const create = document.paths["/api/v1/tags"].post;
    expect(create.security).toEqual([{ bearerAuth: [] }]);
    expect(create.requestBody.content["application/json"].schema.properties.label.maxLength).toBe(50);
    expect(create.responses["201"]).toBeDefined();
    expect(create.responses["400"]).toBeDefined();
    expect(document.paths["/api/v1/tags/{tagId}"].patch).toBeDefined();
    expect(document.paths["/api/v1/tags/{tagId}"].delete).toBeDefined();
  });

  test("Swagger UI is served at /api/v1/docs", async () => {
    const response = await t.call("GET", "/api/v1/docs", { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(response.text).toContain("swagger");
  });

  test("the documents take whatever query a link or a tool adds (a cache buster, a tag), unlike API calls", async () => {
    const page = await t.call("GET", "/api/v1/docs?utm_source=mail&x=1&x=2", { key: null });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const document = await t.call("GET", "/api/v1/openapi.json?v=2", { key: null });
    expect(document.status).toBe(200);
    expect(document.body.openapi).toStartWith("3.1");
    // An API call still refuses what it does not know.
    expectApiError(await t.call("GET", "/api/v1/tags?v=2"), 400, "VALIDATION_ERROR");
  });
});

describe("GET /healthz", () => {
  test("reports the database reachable and the sqlite-vec version", async () => {
    const response = await t.call("GET", "/healthz", { key: null });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: "ok",
      database: "ok",
      sqliteVec: expect.stringMatching(/^v\d+\.\d+/),
    });
  });
});
