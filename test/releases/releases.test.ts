import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, expectApiError } from "../support/app";
import { makePost, watchChanges } from "../support/board";

const t = createTestApp();
afterAll(() => t.close());

async function makeRelease(body: Record<string, unknown>, key?: string) {
  const response = await t.call("POST", "/api/v1/releases", {
    body: { title: "A release", ...body },
    ...(key ? { key } : {}),
  });
  if (response.status !== 201) throw new Error(response.text);
  return response.body.data;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("releases", () => {
  beforeEach(() => {
    t.ctx.db.run("DELETE FROM releases");
  });

  test("created as a draft by default, with its label and no publishedAt", async () => {
    const created = await t.call("POST", "/api/v1/releases", {
      body: { title: "v1.2", content: "# Notes", label: "v1.2.0" },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(String),
      title: "v1.2",
      content: "# Notes",
      label: "v1.2.0",
      isDraft: true,
      publishedAt: null,
      postIds: [],
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    const fetched = await t.call("GET", `/api/v1/releases/${created.body.data.id}`);
    expect(fetched.body.data).toEqual(created.body.data);
  });

  test("isDraft false publishes at once and fires release.published once", async () => {
    const changes = watchChanges(t);
    const release = await makeRelease({ isDraft: false });
    expect(release.isDraft).toBe(false);
    expect(release.publishedAt).toMatch(ISO);
    const events = changes().events.filter((event) => event.type === "release.published");
    expect(events).toHaveLength(1);
    expect(events[0]!.payload.data.id).toBe(release.id);
  });

  test("PATCH publishes (sets publishedAt, fires once), unpublishes (clears it), keeps the label", async () => {
    const draft = await makeRelease({ label: "v2" });
    const changes = watchChanges(t);
    const published = await t.call("PATCH", `/api/v1/releases/${draft.id}`, { body: { isDraft: false } });
    expect(published.status).toBe(200);
    expect(published.body.data.publishedAt).toMatch(ISO);
    expect(published.body.data.label).toBe("v2");
    // Publishing again what is already published is no new publication.
    await t.call("PATCH", `/api/v1/releases/${draft.id}`, { body: { isDraft: false, title: "v2 final" } });
    expect(changes().events.filter((event) => event.type === "release.published")).toHaveLength(1);

    const unpublished = await t.call("PATCH", `/api/v1/releases/${draft.id}`, { body: { isDraft: true } });
    expect(unpublished.body.data).toMatchObject({
      isDraft: true,
      publishedAt: null,
      label: "v2",
      title: "v2 final",
    });
    const activity = changes().activity.filter((entry) => entry.entityType === "release");
    expect(activity.map((entry) => entry.action)).toEqual(["published", "updated", "unpublished"]);
  });

  test("GET /releases lists published only, newest first, paged (default 20, max 100)", async () => {
    const published: string[] = [];
    for (let index = 0; index < 23; index++) {
      published.push((await makeRelease({ title: `r${index}`, isDraft: false })).id);
      if (index % 5 === 0) await makeRelease({ title: `draft ${index}` });
    }
    await makeRelease({ title: "elsewhere", isDraft: false }, t.other.secretKey);
    const newestFirst = [...published].reverse();

    const first = await t.call("GET", "/api/v1/releases");
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({ page: 1, limit: 20, total: 23, totalPages: 2 });
    expect(first.body.data.map((release: { id: string }) => release.id)).toEqual(newestFirst.slice(0, 20));
    expect(first.body.data.every((release: { isDraft: boolean }) => !release.isDraft)).toBe(true);

    const second = await t.call("GET", "/api/v1/releases?page=2");
    expect(second.body.data.map((release: { id: string }) => release.id)).toEqual(newestFirst.slice(20));

    const small = await t.call("GET", "/api/v1/releases?limit=5&page=3");
    expect(small.body.data.map((release: { id: string }) => release.id)).toEqual(newestFirst.slice(10, 15));
    expect(small.body.pagination).toEqual({ page: 3, limit: 5, total: 23, totalPages: 5 });

    expect((await t.call("GET", "/api/v1/releases?limit=100")).status).toBe(200);
    expectApiError(await t.call("GET", "/api/v1/releases?limit=101"), 400, "VALIDATION_ERROR");
    expectApiError(await t.call("GET", "/api/v1/releases?limit=0"), 400, "VALIDATION_ERROR");
  });

  test("GET /releases orders by publication: a draft created earlier and published later comes first", async () => {
    const earlierDraft = await makeRelease({ title: "written first" });
    const publishedAtOnce = await makeRelease({ title: "written second", isDraft: false });
    // Publication times are milliseconds: let the second publication fall in a later one.
    await Bun.sleep(5);
    await t.call("PATCH", `/api/v1/releases/${earlierDraft.id}`, { body: { isDraft: false } });
    const listed = (await t.call("GET", "/api/v1/releases")).body.data;
    expect(listed.map((release: { id: string }) => release.id)).toEqual([
      earlierDraft.id,
      publishedAtOnce.id,
    ]);
    expect(listed[0].publishedAt > listed[1].publishedAt).toBe(true);
  });

  test("GET /releases/{id} returns drafts; unknown and other projects' ids are 404", async () => {
    const draft = await makeRelease({ title: "draft" });
    expect((await t.call("GET", `/api/v1/releases/${draft.id}`)).body.data.isDraft).toBe(true);
    const foreign = await makeRelease({ title: "theirs" }, t.other.secretKey);
    expectApiError(await t.call("GET", `/api/v1/releases/${foreign.id}`), 404, "RELEASE_NOT_FOUND");
    expectApiError(
      await t.call("PATCH", `/api/v1/releases/nope`, { body: { title: "x" } }),
      404,
      "RELEASE_NOT_FOUND",
    );
    expectApiError(await t.call("DELETE", `/api/v1/releases/nope`), 404, "RELEASE_NOT_FOUND");
  });

  test("validation: title required and not blank, unknown fields refused", async () => {
    expectApiError(await t.call("POST", "/api/v1/releases", { body: {} }), 400, "VALIDATION_ERROR");
    expectApiError(
      await t.call("POST", "/api/v1/releases", { body: { title: "  " } }),
      400,
      "VALIDATION_ERROR",
    );
    expectApiError(
      await t.call("POST", "/api/v1/releases", { body: { title: "x", colour: "red" } }),
      400,
      "VALIDATION_ERROR",
    );
    expect(t.ctx.db.query("SELECT count(*) AS n FROM releases").get()).toEqual({ n: 0 });
  });

  test("validation: label up to 50 characters, title up to 200, on creation and on PATCH", async () => {
    const longest = await makeRelease({ title: "t".repeat(200), label: "l".repeat(50) });
    expect(longest).toMatchObject({ title: "t".repeat(200), label: "l".repeat(50) });
    for (const body of [{ title: "t".repeat(201) }, { title: "ok", label: "l".repeat(51) }]) {
      const refused = expectApiError(
        await t.call("POST", "/api/v1/releases", { body }),
        400,
        "VALIDATION_ERROR",
      );
      expect(refused.message).toContain("label" in body ? "label" : "title");
      expectApiError(
        await t.call("PATCH", `/api/v1/releases/${longest.id}`, { body }),
        400,
        "VALIDATION_ERROR",
      );
    }
    expect(t.ctx.db.query("SELECT count(*) AS n FROM releases").get()).toEqual({ n: 1 });
    expect((await t.call("GET", `/api/v1/releases/${longest.id}`)).body.data).toEqual(longest);
  });

  test("DELETE removes it", async () => {
    const release = await makeRelease({ isDraft: false });
    expect(await t.call("DELETE", `/api/v1/releases/${release.id}`).then((r) => r.body)).toEqual({
      success: true,
    });
    expectApiError(await t.call("GET", `/api/v1/releases/${release.id}`), 404, "RELEASE_NOT_FOUND");
    expect((await t.call("GET", "/api/v1/releases")).body.pagination.total).toBe(0);
  });
});

describe("shipped posts", () => {
  test("publishing archives the linked posts with releaseId, with activity and events for each", async () => {
    const first = await makePost(t, { title: "ship me", status: "COMPLETE" });
    const second = await makePost(t, { title: "me too", status: "IN_PROGRESS" });
    const untouched = await makePost(t, { title: "not in it", status: "COMPLETE" });
    const draft = await makeRelease({ postIds: [first.id, second.id] });
    expect([...draft.postIds].sort()).toEqual([first.id, second.id].sort());
    // A draft ships nothing yet.
    expect((await t.call("GET", `/api/v1/posts/${first.id}`)).body.data.status).toBe("COMPLETE");

    const changes = watchChanges(t);
    await t.call("PATCH", `/api/v1/releases/${draft.id}`, { body: { isDraft: false } });
    for (const post of [first, second]) {
      const fetched = (await t.call("GET", `/api/v1/posts/${post.id}`)).body.data;
      expect(fetched).toMatchObject({ status: "ARCHIVED", releaseId: draft.id });
    }
    expect((await t.call("GET", `/api/v1/posts/${untouched.id}`)).body.data).toMatchObject({
      status: "COMPLETE",
      releaseId: null,
    });
    const log = changes();
    const statusEvents = log.events.filter((event) => event.type === "post.status_changed");
    expect(statusEvents.map((event) => event.payload.data.post.id).sort()).toEqual(
      [first.id, second.id].sort(),
    );
    expect(statusEvents.every((event) => event.payload.data.post.releaseId === draft.id)).toBe(true);
    const postActivity = log.activity.filter((entry) => entry.entityType === "post");
    expect(postActivity.map((entry) => entry.entityId).sort()).toEqual([first.id, second.id].sort());
    expect(log.events.filter((event) => event.type === "release.published")).toHaveLength(1);

    // Moving a shipped post back out of ARCHIVED clears its releaseId.
    const reopened = await t.call("PATCH", `/api/v1/posts/${first.id}`, { body: { status: "IN_PROGRESS" } });
    expect(reopened.body.data).toMatchObject({ status: "IN_PROGRESS", releaseId: null });
    // Editing the published release does not pull it back; a post added to it ships at once.
    const added = await makePost(t, { title: "late addition", status: "COMPLETE" });
    await t.call("PATCH", `/api/v1/releases/${draft.id}`, {
      body: { content: "edited", postIds: [first.id, second.id, added.id] },
    });
    expect((await t.call("GET", `/api/v1/posts/${first.id}`)).body.data).toMatchObject({
      status: "IN_PROGRESS",
      releaseId: null,
    });
    expect((await t.call("GET", `/api/v1/posts/${added.id}`)).body.data).toMatchObject({
      status: "ARCHIVED",
      releaseId: draft.id,
    });
  });

  test("unpublishing keeps the shipped posts ARCHIVED with their releaseId", async () => {
    const post = await makePost(t, { title: "shipped then unpublished", status: "COMPLETE" });
    const release = await makeRelease({ isDraft: false, postIds: [post.id] });
    const changes = watchChanges(t);
    const unpublished = await t.call("PATCH", `/api/v1/releases/${release.id}`, { body: { isDraft: true } });
    expect(unpublished.body.data).toMatchObject({ isDraft: true, publishedAt: null, postIds: [post.id] });
    expect((await t.call("GET", `/api/v1/posts/${post.id}`)).body.data).toMatchObject({
      status: "ARCHIVED",
      releaseId: release.id,
    });
    expect(changes().events.filter((event) => event.type.startsWith("post."))).toEqual([]);
  });

  test("creating a published release ships at once; an unknown post id is 404 and stores nothing", async () => {
    const post = await makePost(t, { title: "quick ship", status: "APPROVED" });
    const release = await makeRelease({ isDraft: false, postIds: [post.id] });
    expect((await t.call("GET", `/api/v1/posts/${post.id}`)).body.data).toMatchObject({
      status: "ARCHIVED",
      releaseId: release.id,
    });
    const before = t.ctx.db.query("SELECT count(*) AS n FROM releases").get();
    expectApiError(
      await t.call("POST", "/api/v1/releases", { body: { title: "bad", postIds: [post.id, "missing"] } }),
      404,
      "POST_NOT_FOUND",
    );
    const foreign = await makePost(t, { title: "theirs" }, t.other.secretKey);
    expectApiError(
      await t.call("POST", "/api/v1/releases", { body: { title: "bad", postIds: [foreign.id] } }),
      404,
      "POST_NOT_FOUND",
    );
    expect(t.ctx.db.query("SELECT count(*) AS n FROM releases").get()).toEqual(before);
  });

  test("a post dropped from a published release's postIds, or of a deleted release, no longer names it", async () => {
    const kept = await makePost(t, { title: "kept" });
    const dropped = await makePost(t, { title: "dropped" });
    const release = await makeRelease({ isDraft: false, postIds: [kept.id, dropped.id] });
    const patched = await t.call("PATCH", `/api/v1/releases/${release.id}`, { body: { postIds: [kept.id] } });
    expect(patched.body.data.postIds).toEqual([kept.id]);
    expect((await t.call("GET", `/api/v1/posts/${dropped.id}`)).body.data).toMatchObject({
      status: "ARCHIVED",
      releaseId: null,
    });
    await t.call("DELETE", `/api/v1/releases/${release.id}`);
    expect((await t.call("GET", `/api/v1/posts/${kept.id}`)).body.data).toMatchObject({
      status: "ARCHIVED",
      releaseId: null,
    });
  });
});
