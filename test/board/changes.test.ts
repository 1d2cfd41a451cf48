import { afterAll, describe, expect, test } from "bun:test";
import { createTestApp, type JsonBody } from "../support/app";
import { makePost, makeUser, watchChanges } from "../support/board";

const t = createTestApp();
afterAll(() => t.close());
const projectId = t.project.project.id;

/** Runs `mutation`, then returns what it wrote to the outbox and the activity log, and nothing else. */
async function changesOf(mutation: () => Promise<unknown>) {
  const read = watchChanges(t);
  await mutation();
  const { events, activity } = read();
  return {
    events: events.map((e) => e.type),
    payloads: events.map((e) => e.payload),
    activity: activity.map((a) => `${a.entityType}.${a.action}`),
  };
}

describe("every mutation leaves exactly its activity entry and outbox event", () => {
  test("post created, updated, status changed, deleted", async () => {
    let post: JsonBody;
    const created = await changesOf(async () => {
      post = await makePost(t, { title: "Audit me", metadata: { secret: "crm-7" } });
    });
    expect(created).toMatchObject({ events: ["post.created"], activity: ["post.created"] });
    expect(created.payloads[0]).toMatchObject({
      type: "post.created",
      projectId,
      timestamp: expect.any(String),
      data: { id: post.id, title: "Audit me", metadata: { secret: "crm-7" } },
    });

    const updated = await changesOf(() =>
      t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { title: "Audited" } }),
    );
    expect(updated).toMatchObject({ events: ["post.updated"], activity: ["post.updated"] });

    const status = await changesOf(() =>
      t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { status: "APPROVED" } }),
    );
    expect(status).toMatchObject({ events: ["post.status_changed"], activity: ["post.status_changed"] });
    expect(status.payloads[0].data).toMatchObject({
      previousStatus: "PENDING",
      status: "APPROVED",
      post: { id: post.id },
    });

    const both = await changesOf(() =>
      t.call("PATCH", `/api/v1/posts/${post.id}`, {
        body: { description: "now with words", status: "IN_PROGRESS" },
      }),
    );
    expect(both).toMatchObject({
      events: ["post.updated", "post.status_changed"],
      activity: ["post.updated", "post.status_changed"],
    });

    const same = await changesOf(() =>
      t.call("PATCH", `/api/v1/posts/${post.id}`, {
        body: { status: "IN_PROGRESS", title: "Audited", notify: true },
      }),
    );
    expect(same).toMatchObject({ events: [], activity: [] });

    const deleted = await changesOf(() => t.call("DELETE", `/api/v1/posts/${post.id}`));
    expect(deleted).toMatchObject({ events: ["post.deleted"], activity: ["post.deleted"] });
    expect(deleted.payloads[0].data).toMatchObject({ id: post.id, title: "Audited" });
  });

  test("post merged", async () => {
    const [source, target] = [await makePost(t), await makePost(t)];
    const merged = await changesOf(() =>
      t.call("POST", `/api/v1/posts/${source.id}/merge`, { body: { intoPostId: target.id } }),
    );
    // One event; two activity entries, one in each post's history (docs/reporting.md, "Activity").
    expect(merged).toMatchObject({
      events: ["post.merged"],
      activity: ["post.merged", "post.merge_received"],
    });
    expect(merged.payloads[0].data).toMatchObject({
      post: { id: source.id, status: "CLOSED" },
      into: { id: target.id },
    });
  });

  test("bulk: one entry per changed item, none for unchanged or failed items", async () => {
    const [a, b] = [await makePost(t), await makePost(t)];
    const bulk = await changesOf(() =>
      t.call("PATCH", "/api/v1/posts/bulk", {
        body: {
          items: [
            { id: a.id, status: "CLOSED" },
            { id: b.id, title: b.title },
            { id: "missing", title: "x" },
          ],
        },
      }),
    );
    expect(bulk).toMatchObject({ events: ["post.status_changed"], activity: ["post.status_changed"] });
  });

  test("vote created, updated, removed", async () => {
    const post = await makePost(t);
    let vote: JsonBody;
    const created = await changesOf(async () => {
      vote = (await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { anonymousId: "v1" } })).body
        .data;
    });
    expect(created).toMatchObject({ events: ["vote.created"], activity: ["vote.created"] });
    expect(created.payloads[0].data).toMatchObject({ id: vote.id, postId: post.id, voteCount: 1 });

    const updated = await changesOf(() =>
      t.call("PATCH", `/api/v1/posts/${post.id}/votes/${vote.id}`, { body: { anonymousId: "v2" } }),
    );
    expect(updated).toMatchObject({ events: ["vote.updated"], activity: ["vote.updated"] });

    const removed = await changesOf(() => t.call("DELETE", `/api/v1/posts/${post.id}/votes/${vote.id}`));
    expect(removed).toMatchObject({ events: ["vote.removed"], activity: ["vote.deleted"] });
    expect(removed.payloads[0].data).toMatchObject({ id: vote.id, postId: post.id, voteCount: 0 });

    const refused = await changesOf(async () => {
      await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { anonymousId: "dup" } });
      await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { anonymousId: "dup" } });
    });
    expect(refused).toMatchObject({ events: ["vote.created"], activity: ["vote.created"] });
  });

  test("comment created, updated, deleted", async () => {
    const post = await makePost(t);
    let comment: JsonBody;
    const created = await changesOf(async () => {
      comment = (await t.call("POST", `/api/v1/posts/${post.id}/comments`, { body: { body: "c" } })).body
        .data;
    });
    expect(created).toMatchObject({ events: ["comment.created"], activity: ["comment.created"] });
    const path = `/api/v1/posts/${post.id}/comments/${comment.id}`;
    const updated = await changesOf(() => t.call("PATCH", path, { body: { isInternalNote: true } }));
    expect(updated).toMatchObject({ events: ["comment.updated"], activity: ["comment.updated"] });
    const deleted = await changesOf(() => t.call("DELETE", path));
    expect(deleted).toMatchObject({ events: ["comment.deleted"], activity: ["comment.deleted"] });
  });

  test("user created and updated; an unchanged update leaves nothing", async () => {
    let user: JsonBody;
    const created = await changesOf(async () => {
      user = await makeUser(t, { email: "events@example.com", name: "E" });
    });
    expect(created).toMatchObject({ events: ["user.created"], activity: ["user.created"] });
    const updated = await changesOf(() =>
      t.call("PATCH", `/api/v1/users/${user.id}`, { body: { userSpend: 99 } }),
    );
    expect(updated).toMatchObject({ events: ["user.updated"], activity: ["user.updated"] });
    expect(updated.payloads[0].data).toMatchObject({ id: user.id, userSpend: "99.00" });
    const unchanged = await changesOf(() =>
      t.call("PATCH", `/api/v1/users/${user.id}`, { body: { name: "E" } }),
    );
    expect(unchanged).toMatchObject({ events: [], activity: [] });
  });

  test("a refused request leaves nothing", async () => {
    const post = await makePost(t);
    const refused = await changesOf(async () => {
      await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { title: "x", tagIds: ["missing"] } });
      await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { notify: true } });
      await t.call("POST", "/api/v1/posts", { body: { title: "" } });
    });
    expect(refused).toMatchObject({ events: [], activity: [] });
  });
});
