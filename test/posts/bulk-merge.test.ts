import { afterAll, describe, expect, test } from "bun:test";
import { createTestApp, expectApiError } from "../support/app";
import { makePost, makeUser } from "../support/board";

const t = createTestApp();
afterAll(() => t.close());

describe("PATCH /posts/bulk", () => {
  test("gives one result per item: updated, unchanged or error; a failure does not undo the others", async () => {
    const [a, b] = [await makePost(t, { title: "a" }), await makePost(t, { title: "b" })];
    const theirs = await makePost(t, {}, t.other.secretKey);
    const response = await t.call("PATCH", "/api/v1/posts/bulk", {
      body: {
        items: [
          { id: a.id, status: "APPROVED" },
          { id: "missing", status: "APPROVED" },
          { id: b.id, title: "b" },
          { id: theirs.id, status: "CLOSED" },
          { id: b.id, notify: true },
          { id: b.id, tagIds: ["no-such-tag"], title: "never" },
        ],
      },
    });
    expect(response.status).toBe(200);
    const results = response.body.data;
    expect(results.map((r: { index: number; status: string }) => [r.index, r.status])).toEqual([
      [0, "updated"],
      [1, "error"],
      [2, "unchanged"],
      [3, "error"],
      [4, "error"],
      [5, "error"],
    ]);
    expect(results[0]).toMatchObject({ id: a.id, data: { id: a.id, status: "APPROVED" } });
    expect(results[1]).toMatchObject({ id: "missing", error: { error_code: "POST_NOT_FOUND" } });
    expect(results[3].error).toEqual({
      error_code: "POST_NOT_FOUND",
      message: "Entity not found in this project",
    });
    expect(results[4].error.error_code).toBe("VALIDATION_ERROR");
    expect(results[5].error.error_code).toBe("TAG_NOT_FOUND");
    expect((await t.call("GET", `/api/v1/posts/${a.id}`)).body.data.status).toBe("APPROVED");
    expect((await t.call("GET", `/api/v1/posts/${b.id}`)).body.data.title).toBe("b");
    expect(
      (await t.call("GET", `/api/v1/posts/${theirs.id}`, { key: t.other.secretKey })).body.data.status,
    ).toBe("PENDING");
  });

  test("an item's own field problems are that item's error; the other items are applied", async () => {
    const [a, b] = [await makePost(t, { title: "own a" }), await makePost(t, { title: "own b" })];
    const response = await t.call("PATCH", "/api/v1/posts/bulk", {
      body: {
        items: [
          { id: a.id, title: "" },
          { id: a.id, status: "SHIPPED" },
          { id: b.id, status: "APPROVED" },
          { id: a.id, colour: "red" },
          { status: "APPROVED" },
          { id: 42, title: "numeric id" },
          { id: a.id, title: "x".repeat(201) },
        ],
      },
    });
    expect(response.status).toBe(200);
    const results = response.body.data;
    expect(results.map((r: { status: string }) => r.status)).toEqual([
      "error",
      "error",
      "updated",
      "error",
      "error",
      "error",
      "error",
    ]);
    for (const index of [0, 1, 3, 4, 5, 6]) expect(results[index].error.error_code).toBe("VALIDATION_ERROR");
    expect(results[0].error.message).toContain("'title'");
    expect(results[1].error.message).toContain("'status'");
    expect(results[3].error.message).toContain("'colour'");
    expect(results[4]).toMatchObject({ index: 4, id: null });
    expect(results[5]).toMatchObject({ index: 5, id: null });
    expect((await t.call("GET", `/api/v1/posts/${b.id}`)).body.data.status).toBe("APPROVED");
    expect((await t.call("GET", `/api/v1/posts/${a.id}`)).body.data).toMatchObject({
      title: "own a",
      status: "PENDING",
    });
  });

  test("a body that is not a list of objects is a 400 for the whole request", async () => {
    for (const body of [{ items: "all" }, { items: [1, 2] }, { items: [null] }, {}]) {
      expectApiError(await t.call("PATCH", "/api/v1/posts/bulk", { body }), 400, "VALIDATION_ERROR");
    }
  });

  test("1 to 100 items: 0 or 101 → 400 VALIDATION_ERROR naming items", async () => {
    const post = await makePost(t);
    const items = (n: number) => Array.from({ length: n }, () => ({ id: post.id, title: "x" }));
    expect((await t.call("PATCH", "/api/v1/posts/bulk", { body: { items: items(100) } })).status).toBe(200);
    for (const n of [0, 101]) {
      const body = expectApiError(
        await t.call("PATCH", "/api/v1/posts/bulk", { body: { items: items(n) } }),
        400,
        "VALIDATION_ERROR",
      );
      expect(body.message).toContain("items");
    }
  });
});

describe("POST /posts/{id}/merge", () => {
  test("moves votes (a voter of both counts once), comments and subscribers; closes the source", async () => {
    const source = await makePost(t, { title: "Dark theme", status: "APPROVED" });
    const target = await makePost(t, { title: "Dark mode" });
    const both = await makeUser(t, { email: "both@example.com" });
    const onlySource = await makeUser(t, { email: "source@example.com" });
    const vote = (postId: string, body: object) => t.call("POST", `/api/v1/posts/${postId}/votes`, { body });
    await vote(source.id, { boardUserId: both.id });
    await vote(target.id, { boardUserId: both.id });
    await vote(source.id, { boardUserId: onlySource.id });
    await vote(source.id, { anonymousId: "anon-both" });
    await vote(target.id, { anonymousId: "anon-both" });
    await vote(source.id, { anonymousId: "anon-source" });
    await t.call("POST", `/api/v1/posts/${source.id}/comments`, { body: { body: "Please!" } });

    const merged = await t.call("POST", `/api/v1/posts/${source.id}/merge`, {
      body: { intoPostId: target.id },
    });
    expect(merged.status).toBe(200);
    expect(merged.body.data).toMatchObject({
      post: { id: source.id, status: "CLOSED", mergedIntoId: target.id, voteCount: 0 },
      into: { id: target.id, voteCount: 4 },
      movedVotes: 2,
      droppedDuplicateVotes: 2,
      movedComments: 1,
    });
    const votes = (await t.call("GET", `/api/v1/posts/${target.id}/votes`)).body.data;
    expect(votes).toHaveLength(4);
    expect(votes.filter((v: { boardUserId: string }) => v.boardUserId === both.id)).toHaveLength(1);
    expect(votes.filter((v: { anonymousId: string }) => v.anonymousId === "anon-both")).toHaveLength(1);
    expect((await t.call("GET", `/api/v1/posts/${target.id}`)).body.data.voteCount).toBe(4);
    expect((await t.call("GET", `/api/v1/posts/${target.id}/comments`)).body.data).toHaveLength(1);
    const subscribers = t.ctx.db
      .query<{ board_user_id: string }, [string]>(
        "SELECT board_user_id FROM post_subscribers WHERE post_id = ?",
      )
      .all(target.id)
      .map((row) => row.board_user_id)
      .sort();
    expect(subscribers).toEqual([both.id, onlySource.id].sort());
  });

  test("a merged post takes no new votes or comments: its voters are on the other post", async () => {
    const source = await makePost(t, { title: "Offline mode", status: "APPROVED" });
    const target = await makePost(t, { title: "Work without a connection", status: "APPROVED" });
    const voter = await makeUser(t, { email: "merged-voter@example.com" });
    await t.call("POST", `/api/v1/posts/${target.id}/votes`, { body: { boardUserId: voter.id } });
    await t.call("POST", `/api/v1/posts/${source.id}/merge`, { body: { intoPostId: target.id } });

    const vote = await t.call("POST", `/api/v1/posts/${source.id}/votes`, {
      body: { boardUserId: voter.id },
    });
    expectApiError(vote, 400, "VALIDATION_ERROR");
    expect(vote.body.message).toContain(target.id);
    const anonymous = await t.call("POST", `/api/v1/posts/${source.id}/votes`, {
      body: { anonymousId: "late" },
    });
    expectApiError(anonymous, 400, "VALIDATION_ERROR");
    const comment = await t.call("POST", `/api/v1/posts/${source.id}/comments`, { body: { body: "Me too" } });
    expectApiError(comment, 400, "VALIDATION_ERROR");
    expect((await t.call("GET", `/api/v1/posts/${source.id}`)).body.data.voteCount).toBe(0);
    expect((await t.call("GET", `/api/v1/posts/${target.id}`)).body.data.voteCount).toBe(1);
    expect((await t.call("GET", `/api/v1/posts/${source.id}/comments`)).body.data).toHaveLength(0);
  });

  test("a merged post reopened is a request of its own again: it takes votes and can be merged again", async () => {
    const source = await makePost(t, { title: "Export to PDF" });
    const target = await makePost(t, { title: "PDF export" });
    const other = await makePost(t, { title: "Printable reports" });
    await t.call("POST", `/api/v1/posts/${source.id}/merge`, { body: { intoPostId: target.id } });
    const reopened = await t.call("PATCH", `/api/v1/posts/${source.id}`, { body: { status: "APPROVED" } });
    expect(reopened.status).toBe(200);
    expect(reopened.body.data).toMatchObject({ status: "APPROVED", mergedIntoId: null });
    const vote = await t.call("POST", `/api/v1/posts/${source.id}/votes`, {
      body: { anonymousId: "after-reopen" },
    });
    expect(vote.status).toBe(201);
    const again = await t.call("POST", `/api/v1/posts/${source.id}/merge`, {
      body: { intoPostId: other.id },
    });
    expect(again.status).toBe(200);
    expect(again.body.data.post).toMatchObject({ status: "CLOSED", mergedIntoId: other.id });
    // Archiving (or any move off CLOSED) reopens it the same way; staying CLOSED keeps the link.
    const edited = await t.call("PATCH", `/api/v1/posts/${source.id}`, {
      body: { title: "Export to PDF files" },
    });
    expect(edited.body.data.mergedIntoId).toBe(other.id);
  });

  test("merging a post that others were merged into points them at the post that now holds their votes", async () => {
    const [a, b, c] = [await makePost(t), await makePost(t), await makePost(t)];
    await t.call("POST", `/api/v1/posts/${a.id}/votes`, { body: { anonymousId: "chain-a" } });
    await t.call("POST", `/api/v1/posts/${a.id}/merge`, { body: { intoPostId: b.id } });
    const before = (await t.call("GET", `/api/v1/posts/${a.id}`)).body.data;
    await Bun.sleep(2);
    await t.call("POST", `/api/v1/posts/${b.id}/merge`, { body: { intoPostId: c.id } });
    const after = (await t.call("GET", `/api/v1/posts/${a.id}`)).body.data;
    expect(after.mergedIntoId).toBe(c.id);
    // A syncing client (updated_since) sees the change.
    expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    expect((await t.call("GET", `/api/v1/posts/${c.id}`)).body.data.voteCount).toBe(1);
  });

  test("refuses merging a post into itself, into a merged post, twice, or across projects", async () => {
    const [a, b, c] = [await makePost(t), await makePost(t), await makePost(t)];
    expectApiError(
      await t.call("POST", `/api/v1/posts/${a.id}/merge`, { body: { intoPostId: a.id } }),
      400,
      "VALIDATION_ERROR",
    );
    await t.call("POST", `/api/v1/posts/${a.id}/merge`, { body: { intoPostId: b.id } });
    expectApiError(
      await t.call("POST", `/api/v1/posts/${a.id}/merge`, { body: { intoPostId: c.id } }),
      400,
      "VALIDATION_ERROR",
    );
    expectApiError(
      await t.call("POST", `/api/v1/posts/${c.id}/merge`, { body: { intoPostId: a.id } }),
      400,
      "VALIDATION_ERROR",
    );
    const theirs = await makePost(t, {}, t.other.secretKey);
    expectApiError(
      await t.call("POST", `/api/v1/posts/${c.id}/merge`, { body: { intoPostId: theirs.id } }),
      404,
      "POST_NOT_FOUND",
    );
  });
});
