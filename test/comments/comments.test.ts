import { afterAll, describe, expect, test } from "bun:test";
import { createTestApp, expectApiError } from "../support/app";
import { makePost } from "../support/board";

const t = createTestApp();
afterAll(() => t.close());
const commentsPath = (postId: string) => `/api/v1/posts/${postId}/comments`;

describe("comments", () => {
  test("create a public comment and an internal note; the internal filter picks them", async () => {
    const post = await makePost(t);
    const created = await t.call("POST", commentsPath(post.id), {
      body: { body: "Would love this", authorName: "Ada" },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(String),
      postId: post.id,
      body: "Would love this",
      authorName: "Ada",
      isInternalNote: false,
      createdAt: expect.any(String),
    });
    const note = (
      await t.call("POST", commentsPath(post.id), { body: { body: "Big customer", isInternalNote: true } })
    ).body.data;
    expect(note).toMatchObject({ isInternalNote: true, authorName: null });
    const bodies = async (query: string) =>
      (await t.call("GET", `${commentsPath(post.id)}${query}`)).body.data.map(
        (c: { body: string }) => c.body,
      );
    expect(await bodies("")).toEqual(["Would love this"]);
    expect(await bodies("?internal=true")).toEqual(["Big customer"]);
    expect(await bodies("?internal=all")).toEqual(["Would love this", "Big customer"]);
    expectApiError(await t.call("GET", `${commentsPath(post.id)}?internal=false`), 400, "VALIDATION_ERROR");
  });

  test("PATCH edits or hides a comment: 1 to 5000 characters, at least one property, no others", async () => {
    const post = await makePost(t);
    const comment = (await t.call("POST", commentsPath(post.id), { body: { body: "first" } })).body.data;
    const path = `${commentsPath(post.id)}/${comment.id}`;
    const edited = await t.call("PATCH", path, { body: { body: "edited" } });
    expect(edited.body.data).toMatchObject({ body: "edited", isInternalNote: false });
    const hidden = await t.call("PATCH", path, { body: { isInternalNote: true } });
    expect(hidden.body.data).toMatchObject({ body: "edited", isInternalNote: true });
    expect((await t.call("GET", commentsPath(post.id))).body.data).toEqual([]);
    for (const [body, field] of [
      [{ body: "" }, "body"],
      [{ body: "x".repeat(5001) }, "body"],
      [{}, "body"],
      [{ body: "ok", authorName: "Eve" }, "authorName"],
    ] as const) {
      const error = expectApiError(await t.call("PATCH", path, { body }), 400, "VALIDATION_ERROR");
      expect(error.message).toContain(field);
    }
    expect((await t.call("PATCH", path, { body: { body: "y".repeat(5000) } })).status).toBe(200);
  });

  test("DELETE → 204 with an empty body", async () => {
    const post = await makePost(t);
    const comment = (await t.call("POST", commentsPath(post.id), { body: { body: "gone soon" } })).body.data;
    const deleted = await t.call("DELETE", `${commentsPath(post.id)}/${comment.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect((await t.call("GET", `${commentsPath(post.id)}?internal=all`)).body.data).toEqual([]);
    expectApiError(
      await t.call("DELETE", `${commentsPath(post.id)}/${comment.id}`),
      404,
      "COMMENT_NOT_FOUND",
    );
  });

  test("a comment reached through another post → 404 COMMENT_NOT_FOUND", async () => {
    const [a, b] = [await makePost(t), await makePost(t)];
    const comment = (await t.call("POST", commentsPath(a.id), { body: { body: "on a" } })).body.data;
    expectApiError(
      await t.call("PATCH", `${commentsPath(b.id)}/${comment.id}`, { body: { body: "x" } }),
      404,
      "COMMENT_NOT_FOUND",
    );
  });
});
