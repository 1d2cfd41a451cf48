import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, expectApiError, type JsonBody } from "../support/app";
import { makePost, makeTag, makeUser } from "../support/board";

const t = createTestApp();
afterAll(() => t.close());

// Entities of the other project, and one post of ours for the nested routes.
let theirs: { post: JsonBody; tag: JsonBody; user: JsonBody; vote: JsonBody; comment: JsonBody };
let mine: { post: JsonBody; vote: JsonBody; comment: JsonBody };

beforeAll(async () => {
  const key = t.other.secretKey;
  const post = await makePost(t, {}, key);
  theirs = {
    post,
    tag: await makeTag(t, "theirs", key),
    user: await makeUser(t, { email: "theirs@example.com" }, key),
    vote: (await t.call("POST", `/api/v1/posts/${post.id}/votes`, { key, body: { anonymousId: "t" } })).body
      .data,
    comment: (await t.call("POST", `/api/v1/posts/${post.id}/comments`, { key, body: { body: "t" } })).body
      .data,
  };
  const own = await makePost(t);
  mine = {
    post: own,
    vote: (await t.call("POST", `/api/v1/posts/${own.id}/votes`, { body: { anonymousId: "m" } })).body.data,
    comment: (await t.call("POST", `/api/v1/posts/${own.id}/comments`, { body: { body: "m" } })).body.data,
  };
});

describe("an id of another project answers like an unknown id, on every route", () => {
  const cases: [string, () => [string, string, unknown?], string][] = [
    ["GET post", () => ["GET", `/api/v1/posts/${theirs.post.id}`], "POST_NOT_FOUND"],
    ["PATCH post", () => ["PATCH", `/api/v1/posts/${theirs.post.id}`, { title: "x" }], "POST_NOT_FOUND"],
    ["DELETE post", () => ["DELETE", `/api/v1/posts/${theirs.post.id}`], "POST_NOT_FOUND"],
    [
      "merge their post",
      () => ["POST", `/api/v1/posts/${theirs.post.id}/merge`, { intoPostId: mine.post.id }],
      "POST_NOT_FOUND",
    ],
    [
      "merge into their post",
      () => ["POST", `/api/v1/posts/${mine.post.id}/merge`, { intoPostId: theirs.post.id }],
      "POST_NOT_FOUND",
    ],
    [
      "post with their tag",
      () => ["POST", "/api/v1/posts", { title: "x", tagIds: [theirs.tag.id] }],
      "TAG_NOT_FOUND",
    ],
    [
      "post by their user",
      () => ["POST", "/api/v1/posts", { title: "x", createdByBoardUserId: theirs.user.id }],
      "USER_NOT_FOUND",
    ],
    ["GET votes", () => ["GET", `/api/v1/posts/${theirs.post.id}/votes`], "POST_NOT_FOUND"],
    [
      "POST vote",
      () => ["POST", `/api/v1/posts/${theirs.post.id}/votes`, { anonymousId: "x" }],
      "POST_NOT_FOUND",
    ],
    [
      "vote as their user",
      () => ["POST", `/api/v1/posts/${mine.post.id}/votes`, { boardUserId: theirs.user.id }],
      "USER_NOT_FOUND",
    ],
    [
      "PATCH their vote",
      () => ["PATCH", `/api/v1/posts/${theirs.post.id}/votes/${theirs.vote.id}`, { anonymousId: "x" }],
      "POST_NOT_FOUND",
    ],
    [
      "PATCH their vote via our post",
      () => ["PATCH", `/api/v1/posts/${mine.post.id}/votes/${theirs.vote.id}`, { anonymousId: "x" }],
      "VOTE_NOT_FOUND",
    ],
    [
      "DELETE their vote",
      () => ["DELETE", `/api/v1/posts/${theirs.post.id}/votes/${theirs.vote.id}`],
      "POST_NOT_FOUND",
    ],
    [
      "DELETE their vote via our post",
      () => ["DELETE", `/api/v1/posts/${mine.post.id}/votes/${theirs.vote.id}`],
      "VOTE_NOT_FOUND",
    ],
    ["GET comments", () => ["GET", `/api/v1/posts/${theirs.post.id}/comments`], "POST_NOT_FOUND"],
    [
      "POST comment",
      () => ["POST", `/api/v1/posts/${theirs.post.id}/comments`, { body: "x" }],
      "POST_NOT_FOUND",
    ],
    [
      "PATCH their comment",
      () => ["PATCH", `/api/v1/posts/${mine.post.id}/comments/${theirs.comment.id}`, { body: "x" }],
      "COMMENT_NOT_FOUND",
    ],
    [
      "DELETE their comment",
      () => ["DELETE", `/api/v1/posts/${theirs.post.id}/comments/${theirs.comment.id}`],
      "POST_NOT_FOUND",
    ],
    [
      "DELETE their comment via our post",
      () => ["DELETE", `/api/v1/posts/${mine.post.id}/comments/${theirs.comment.id}`],
      "COMMENT_NOT_FOUND",
    ],
    ["GET user", () => ["GET", `/api/v1/users/${theirs.user.id}`], "USER_NOT_FOUND"],
    ["PATCH user", () => ["PATCH", `/api/v1/users/${theirs.user.id}`, { name: "x" }], "USER_NOT_FOUND"],
    ["PATCH tag", () => ["PATCH", `/api/v1/tags/${theirs.tag.id}`, { label: "x" }], "TAG_NOT_FOUND"],
    ["DELETE tag", () => ["DELETE", `/api/v1/tags/${theirs.tag.id}`], "TAG_NOT_FOUND"],
  ];

  for (const [name, request, code] of cases) {
    test(`${name} → 404 ${code}`, async () => {
      const [method, path, body] = request();
      const error = expectApiError(await t.call(method, path, { body }), 404, code);
      expect(error.message).toBe("Entity not found in this project");
    });
  }

  test("their entities are untouched and lists never show them", async () => {
    const key = t.other.secretKey;
    expect((await t.call("GET", `/api/v1/posts/${theirs.post.id}`, { key })).body.data).toMatchObject({
      title: "A feature",
      voteCount: 1,
    });
    expect((await t.call("GET", `/api/v1/posts/${theirs.post.id}/comments`, { key })).body.data).toHaveLength(
      1,
    );
    const ours = (await t.call("GET", "/api/v1/posts")).body.data.map((p: { id: string }) => p.id);
    expect(ours).toEqual([mine.post.id]);
    const users = (await t.call("GET", "/api/v1/users")).body.data.map((u: { id: string }) => u.id);
    expect(users).not.toContain(theirs.user.id);
    const bulk = await t.call("PATCH", "/api/v1/posts/bulk", {
      body: { items: [{ id: theirs.post.id, title: "x" }] },
    });
    expect(bulk.body.data[0].error).toEqual({
      error_code: "POST_NOT_FOUND",
      message: "Entity not found in this project",
    });
  });
});
