import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, expectApiError } from "../support/app";
import { makePost, makeTag } from "../support/board";

const t = createTestApp();
afterAll(() => t.close());

const created: { entityType: string; entityId: string }[] = [];

beforeAll(async () => {
  for (let index = 0; index < 60; index++) {
    const post = await makePost(t, { title: `post ${index}` });
    created.push({ entityType: "post", entityId: post.id });
    if (index % 10 === 0) {
      const tag = await makeTag(t, `tag ${index}`);
      created.push({ entityType: "tag", entityId: tag.id });
    }
  }
  await makePost(t, { title: "theirs" }, t.other.secretKey);
});

const newestFirst = () => [...created].reverse();

test("newest first, 50 by default, paged, with the ActivityEntry fields", async () => {
  const first = await t.call("GET", "/api/v1/activity");
  expect(first.status).toBe(200);
  expect(first.body.pagination).toEqual({ page: 1, limit: 50, total: 66, totalPages: 2 });
  expect(first.body.data.map((entry: { entityId: string }) => entry.entityId)).toEqual(
    newestFirst()
      .slice(0, 50)
      .map((entry) => entry.entityId),
  );
  expect(first.body.data[0]).toEqual({
    id: expect.any(String),
    action: "created",
    entityType: "post",
    entityId: created.at(-1)!.entityId,
    metadata: { title: "post 59" },
    createdAt: expect.stringMatching(/Z$/),
  });
  const second = await t.call("GET", "/api/v1/activity?page=2");
  expect(second.body.data.map((entry: { entityId: string }) => entry.entityId)).toEqual(
    newestFirst()
      .slice(50)
      .map((entry) => entry.entityId),
  );
});

test("entityType filters, and the total follows the filter", async () => {
  const tags = await t.call("GET", "/api/v1/activity?entityType=tag&limit=4");
  expect(tags.body.pagination).toEqual({ page: 1, limit: 4, total: 6, totalPages: 2 });
  expect(tags.body.data.map((entry: { entityId: string }) => entry.entityId)).toEqual(
    newestFirst()
      .filter((entry) => entry.entityType === "tag")
      .slice(0, 4)
      .map((entry) => entry.entityId),
  );
  const none = await t.call("GET", "/api/v1/activity?entityType=release");
  expect(none.body).toEqual({ data: [], pagination: { page: 1, limit: 50, total: 0, totalPages: 0 } });
});

test("limit is 1 to 100", async () => {
  const all = await t.call("GET", "/api/v1/activity?limit=100");
  expect(all.body.data).toHaveLength(66);
  expectApiError(await t.call("GET", "/api/v1/activity?limit=101"), 400, "VALIDATION_ERROR");
  expectApiError(await t.call("GET", "/api/v1/activity?limit=0"), 400, "VALIDATION_ERROR");
  expectApiError(await t.call("GET", "/api/v1/activity?page=0"), 400, "VALIDATION_ERROR");
});
