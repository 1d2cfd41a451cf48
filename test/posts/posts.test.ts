import { afterAll, describe, expect, test } from "bun:test";
import { createTestApp, expectApiError } from "../support/app";
import { makePost, makeTag, makeUser } from "../support/board";
import { createPost } from "../../src/posts/service";
import { createProject } from "../../src/projects/service";

const t = createTestApp();
afterAll(() => t.close());

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("POST /posts and GET /posts/{id}", () => {
  test("creates a PENDING post by default and reads it back with its tags", async () => {
    const tag = await makeTag(t, "Reporting");
    const created = await t.call("POST", "/api/v1/posts", {
      body: {
        title: "  Export to CSV  ",
        description: "From the reports page",
        tagIds: [tag.id],
        metadata: { crm: "A-1" },
      },
    });
    expect(created.status).toBe(201);
    const post = created.body.data;
    expect(post).toEqual({
      id: expect.any(String),
      projectId: t.project.project.id,
      title: "Export to CSV",
      description: "From the reports page",
      status: "PENDING",
      voteCount: 0,
      metadata: { crm: "A-1" },
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
      releaseId: null,
      mergedIntoId: null,
      createdByBoardUserId: null,
    });
    expect(post.tags).toBeUndefined();
    const read = await t.call("GET", `/api/v1/posts/${post.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({ ...post, tags: [tag], issueLinks: [] });
  });

  test("a supplied status, any of the six, is kept", async () => {
    for (const status of ["PENDING", "APPROVED", "IN_PROGRESS", "COMPLETE", "CLOSED", "ARCHIVED"]) {
      expect((await makePost(t, { status })).status).toBe(status);
    }
    expectApiError(
      await t.call("POST", "/api/v1/posts", { body: { title: "x", status: "DONE" } }),
      400,
      "VALIDATION_ERROR",
    );
  });

  test("createdByBoardUserId must be a board user of this project", async () => {
    const author = await makeUser(t, { email: "author@example.com", name: "Author" });
    const post = await makePost(t, { createdByBoardUserId: author.id });
    expect(post.createdByBoardUserId).toBe(author.id);
    const foreigner = await makeUser(t, { email: "x@other.example" }, t.other.secretKey);
    const refused = await t.call("POST", "/api/v1/posts", {
      body: { title: "x", createdByBoardUserId: foreigner.id },
    });
    expect(expectApiError(refused, 404, "USER_NOT_FOUND").message).toBe("Entity not found in this project");
  });

  test("tagIds must be tags of this project", async () => {
    const theirs = await makeTag(t, "Theirs", t.other.secretKey);
    const refused = await t.call("POST", "/api/v1/posts", { body: { title: "x", tagIds: [theirs.id] } });
    expectApiError(refused, 404, "TAG_NOT_FOUND");
  });

  test("a blank title is refused", async () => {
    expectApiError(
      await t.call("POST", "/api/v1/posts", { body: { title: "   " } }),
      400,
      "VALIDATION_ERROR",
    );
  });

  test("an unknown or foreign post id → 404 POST_NOT_FOUND", async () => {
    expectApiError(await t.call("GET", "/api/v1/posts/nope"), 404, "POST_NOT_FOUND");
    const theirs = await makePost(t, {}, t.other.secretKey);
    const body = expectApiError(await t.call("GET", `/api/v1/posts/${theirs.id}`), 404, "POST_NOT_FOUND");
    expect(body.message).toBe("Entity not found in this project");
  });
});

describe("PATCH /posts/{id}", () => {
  test("applies every given field at once and leaves the others", async () => {
    const [a, b] = [await makeTag(t, "Alpha"), await makeTag(t, "Beta")];
    const post = await makePost(t, {
      title: "Old",
      description: "Keep me",
      tagIds: [a.id],
      metadata: { k: 1 },
    });
    const patched = await t.call("PATCH", `/api/v1/posts/${post.id}`, {
      body: { title: "New", status: "APPROVED", tagIds: [b.id] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      title: "New",
      description: "Keep me",
      status: "APPROVED",
      metadata: { k: 1 },
    });
    expect(patched.body.data.tags).toBeUndefined();
    const read = (await t.call("GET", `/api/v1/posts/${post.id}`)).body.data;
    expect(read.tags.map((tag: { id: string }) => tag.id)).toEqual([b.id]);
    expect(Date.parse(read.updatedAt)).toBeGreaterThanOrEqual(Date.parse(post.updatedAt));
  });

  test("a field left out keeps its value (an omitted status is never filled in)", async () => {
    const post = await makePost(t, { status: "APPROVED" });
    const patched = await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { title: "Renamed" } });
    expect(patched.body.data).toMatchObject({ title: "Renamed", status: "APPROVED" });
    const bulk = await t.call("PATCH", "/api/v1/posts/bulk", {
      body: { items: [{ id: post.id, title: "Again" }] },
    });
    expect(bulk.body.data[0].data).toMatchObject({ title: "Again", status: "APPROVED" });
  });

  test("is atomic: one bad field (an unknown tag) changes nothing", async () => {
    const post = await makePost(t, { title: "Untouched" });
    const response = await t.call("PATCH", `/api/v1/posts/${post.id}`, {
      body: { title: "Changed", status: "APPROVED", tagIds: ["missing-tag"] },
    });
    expectApiError(response, 404, "TAG_NOT_FOUND");
    expect((await t.call("GET", `/api/v1/posts/${post.id}`)).body.data).toMatchObject({
      title: "Untouched",
      status: "PENDING",
    });
  });

  test("notify alone, or an empty body, is refused", async () => {
    const post = await makePost(t);
    const alone = expectApiError(
      await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { notify: true } }),
      400,
      "VALIDATION_ERROR",
    );
    expect(alone.message).toContain("notify");
    expectApiError(await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: {} }), 400, "VALIDATION_ERROR");
    expectApiError(await t.call("PATCH", `/api/v1/posts/${post.id}`), 400, "VALIDATION_ERROR");
  });

  test("metadata is replaced whole, and null clears it", async () => {
    const post = await makePost(t, { metadata: { a: 1, b: 2 } });
    const replaced = await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { metadata: { c: 3 } } });
    expect(replaced.body.data.metadata).toEqual({ c: 3 });
    const cleared = await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { metadata: null } });
    expect(cleared.body.data.metadata).toBeNull();
  });

  test("metadata JSON cannot write back is refused: a number beyond a double, nesting deeper than a body may", async () => {
    const huge = expectApiError(
      await t.call("POST", "/api/v1/posts", {
        rawBody: '{"title":"Huge number","metadata":{"a":1e400}}',
        headers: { "content-type": "application/json" },
      }),
      400,
      "VALIDATION_ERROR",
    );
    expect(huge.message).toBe("Invalid 'metadata': must hold finite numbers only");
    // Deeper than any surface's body may nest (each checks its body first); the service's own rule holds
    // for every caller, and walks the value without recursing.
    let deep: Record<string, unknown> = {};
    for (let level = 0; level < 100_000; level++) deep = { d: deep };
    const { project } = createProject(t.ctx.db, { slug: "deep-metadata" });
    expect(() => createPost(t.ctx.db, project.id, { title: "Deep", metadata: deep })).toThrow(
      "must not nest arrays or objects deeper than 64 levels",
    );
    expect((await t.call("GET", "/api/v1/posts?limit=100")).body.data).not.toContainEqual(
      expect.objectContaining({ title: "Huge number" }),
    );
  });

  test("ARCHIVED → another status clears releaseId; staying ARCHIVED keeps it", async () => {
    const post = await makePost(t, { status: "ARCHIVED" });
    t.ctx.db.query("UPDATE posts SET release_id = 'rel-1' WHERE id = ?").run(post.id);
    const kept = await t.call("PATCH", `/api/v1/posts/${post.id}`, {
      body: { status: "ARCHIVED", title: "Shipped" },
    });
    expect(kept.body.data.releaseId).toBe("rel-1");
    const moved = await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { status: "COMPLETE" } });
    expect(moved.body.data).toMatchObject({ status: "COMPLETE", releaseId: null });
  });

  test("a status change with notify: true records the email request; without it, none", async () => {
    const post = await makePost(t);
    const requests = () =>
      t.ctx.db
        .query<{ previous_status: string; status: string }, [string]>(
          "SELECT previous_status, status FROM status_notifications WHERE post_id = ?",
        )
        .all(post.id);
    await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { status: "APPROVED" } });
    expect(requests()).toEqual([]);
    await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { status: "IN_PROGRESS", notify: true } });
    await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { status: "IN_PROGRESS", notify: true } });
    expect(requests()).toEqual([{ previous_status: "APPROVED", status: "IN_PROGRESS" }]);
  });
});

describe("DELETE /posts/{id}", () => {
  test("removes the post with its votes, comments and tag links, and writes a tombstone", async () => {
    const tag = await makeTag(t, "Doomed");
    const post = await makePost(t, { tagIds: [tag.id] });
    await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { anonymousId: "anon-1" } });
    await t.call("POST", `/api/v1/posts/${post.id}/comments`, { body: { body: "me too" } });
    const since = new Date().toISOString();
    const deleted = await t.call("DELETE", `/api/v1/posts/${post.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });
    expectApiError(await t.call("GET", `/api/v1/posts/${post.id}`), 404, "POST_NOT_FOUND");
    for (const table of ["votes", "comments", "post_tags"]) {
      const left = t.ctx.db
        .query<{ n: number }, [string]>(`SELECT count(*) AS n FROM ${table} WHERE post_id = ?`)
        .get(post.id);
      expect(left?.n).toBe(0);
    }
    // The tag itself stays.
    expect((await t.call("GET", "/api/v1/tags")).body.data.map((x: { id: string }) => x.id)).toContain(
      tag.id,
    );
    const tombstones = await t.call("GET", `/api/v1/posts/deleted?since=${encodeURIComponent(since)}`);
    expect(tombstones.status).toBe(200);
    expect(tombstones.body.data).toEqual([{ id: post.id, deletedAt: expect.stringMatching(ISO) }]);
    expectApiError(await t.call("DELETE", `/api/v1/posts/${post.id}`), 404, "POST_NOT_FOUND");
  });

  test("deleted posts of another project are not listed", async () => {
    const theirs = await makePost(t, {}, t.other.secretKey);
    await t.call("DELETE", `/api/v1/posts/${theirs.id}`, { key: t.other.secretKey });
    const mine = await t.call("GET", "/api/v1/posts/deleted");
    expect(mine.body.data.map((x: { id: string }) => x.id)).not.toContain(theirs.id);
  });
});
