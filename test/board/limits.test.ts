import { afterAll, describe, expect, test } from "bun:test";
import { LIMITS } from "../../src/http/limits";
import { createTestApp, expectApiError } from "../support/app";
import { makePost, makeTag, makeUser } from "../support/board";

const t = createTestApp();
afterAll(() => t.close());

/** Asserts 400 VALIDATION_ERROR whose message names `field`. */
async function refused(method: string, path: string, body: unknown, field: string) {
  const error = expectApiError(await t.call(method, path, { body }), 400, "VALIDATION_ERROR");
  expect(error.message).toContain(field);
}

describe("the limits of docs/limits.md", () => {
  test("post title: 1 to 200 characters", async () => {
    await refused("POST", "/api/v1/posts", { title: "" }, "title");
    await refused("POST", "/api/v1/posts", { title: "x".repeat(201) }, "title");
    expect((await makePost(t, { title: "x".repeat(200) })).title).toHaveLength(200);
    const post = await makePost(t);
    await refused("PATCH", `/api/v1/posts/${post.id}`, { title: "" }, "title");
    await refused("PATCH", `/api/v1/posts/${post.id}`, { title: "y".repeat(201) }, "title");
  });

  test("post description: up to 10,000 characters", async () => {
    await refused("POST", "/api/v1/posts", { title: "t", description: "d".repeat(10_001) }, "description");
    expect((await makePost(t, { description: "d".repeat(10_000) })).description).toHaveLength(10_000);
  });

  test("tagIds: up to 100, unique", async () => {
    const tags = [];
    for (let i = 0; i < 100; i++) tags.push((await makeTag(t, `tag ${i}`)).id);
    expect((await makePost(t, { tagIds: tags })).id).toBeString();
    await refused("POST", "/api/v1/posts", { title: "t", tagIds: [...tags, "one-more"] }, "tagIds");
    await refused("POST", "/api/v1/posts", { title: "t", tagIds: [tags[0], tags[0]] }, "tagIds");
    const post = await makePost(t);
    await refused("PATCH", `/api/v1/posts/${post.id}`, { tagIds: [tags[1], tags[1]] }, "tagIds");
  });

  test("bulk post update: up to 100 posts", async () => {
    const post = await makePost(t);
    await refused(
      "PATCH",
      "/api/v1/posts/bulk",
      { items: Array.from({ length: 101 }, () => ({ id: post.id, title: "x" })) },
      "items",
    );
  });

  test("comment body: 1 to 5,000 characters, on create and on edit", async () => {
    const post = await makePost(t);
    const path = `/api/v1/posts/${post.id}/comments`;
    await refused("POST", path, { body: "" }, "body");
    await refused("POST", path, { body: "c".repeat(5001) }, "body");
    const comment = (await t.call("POST", path, { body: { body: "c".repeat(5000) } })).body.data;
    await refused("PATCH", `${path}/${comment.id}`, { body: "" }, "body");
    await refused("PATCH", `${path}/${comment.id}`, { body: "c".repeat(5001) }, "body");
  });

  test("anonymousId: 1 to 200 characters, on vote and on vote patch", async () => {
    const post = await makePost(t);
    const path = `/api/v1/posts/${post.id}/votes`;
    await refused("POST", path, { anonymousId: "" }, "anonymousId");
    await refused("POST", path, { anonymousId: "a".repeat(201) }, "anonymousId");
    const vote = (await t.call("POST", path, { body: { anonymousId: "a".repeat(200) } })).body.data;
    await refused("PATCH", `${path}/${vote.id}`, { anonymousId: "" }, "anonymousId");
    await refused("PATCH", `${path}/${vote.id}`, { anonymousId: "b".repeat(201) }, "anonymousId");
  });

  test("userSpend: a number of at least 0", async () => {
    const user = await makeUser(t, { email: "limits@example.com" });
    await refused("PATCH", `/api/v1/users/${user.id}`, { userSpend: -0.01 }, "userSpend");
    await refused("POST", "/api/v1/users", { email: "x@example.com", userSpend: -5 }, "userSpend");
  });

  test("no other properties where the specification says so: comment edit and vote patch", async () => {
    const post = await makePost(t);
    const comment = (await t.call("POST", `/api/v1/posts/${post.id}/comments`, { body: { body: "hi" } })).body
      .data;
    await refused(
      "PATCH",
      `/api/v1/posts/${post.id}/comments/${comment.id}`,
      { body: "ok", postId: "moved" },
      "postId",
    );
    const vote = (await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { anonymousId: "v" } })).body
      .data;
    await refused(
      "PATCH",
      `/api/v1/posts/${post.id}/votes/${vote.id}`,
      { anonymousId: "w", createdAt: "now" },
      "createdAt",
    );
  });

  test("GET /posts and GET /users limit: 1 to 100", async () => {
    for (const path of ["/api/v1/posts", "/api/v1/users"]) {
      for (const limit of [0, 101]) {
        const error = expectApiError(await t.call("GET", `${path}?limit=${limit}`), 400, "VALIDATION_ERROR");
        expect(error.message).toContain("limit");
      }
    }
  });
});

describe("one limits module for every surface", () => {
  test("from-text's text and source, and the similar search's query, state their LIMITS in the API document", async () => {
    const document = (await t.call("GET", "/api/v1/openapi.json", { key: null })).body;
    const fromText =
      document.paths["/api/v1/posts/from-text"].post.requestBody.content["application/json"].schema
        .properties;
    expect(fromText.text.maxLength).toBe(LIMITS.feedbackTextLength);
    expect(fromText.source.maxLength).toBe(LIMITS.feedbackSourceLength);
    expect(fromText.source_url.maxLength).toBe(LIMITS.urlLength);
    const query = document.paths["/api/v1/posts/similar"].get.parameters.find(
      (parameter: { name: string }) => parameter.name === "query",
    );
    expect(query.schema.maxLength).toBe(LIMITS.similarQueryLength);
    await refused(
      "POST",
      "/api/v1/posts/from-text",
      { text: "x".repeat(LIMITS.feedbackTextLength + 1) },
      "text",
    );
  });

  test("the REST and public API documents state the same title limit, from LIMITS", async () => {
    const document = (await t.call("GET", "/api/v1/openapi.json", { key: null })).body;
    const bodyOf = (path: string) => document.paths[path].post.requestBody.content["application/json"].schema;
    expect(bodyOf("/api/v1/posts").properties.title.maxLength).toBe(LIMITS.postTitleLength);
    expect(bodyOf("/api/public/posts").properties.title.maxLength).toBe(LIMITS.postTitleLength);
    const tooLong = "x".repeat(LIMITS.postTitleLength + 1);
    expectApiError(
      await t.call("POST", "/api/public/posts", { key: null, body: { projectSlug: "acme", title: tooLong } }),
      400,
      "VALIDATION_ERROR",
    );
  });
});
