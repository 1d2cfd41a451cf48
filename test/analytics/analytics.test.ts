import { afterAll, beforeAll, expect, test } from "bun:test";
import { recordPageView } from "../../src/analytics/service";
import { createTestApp, expectApiError } from "../support/app";
import { makePost, makeTag } from "../support/board";

const t = createTestApp();
afterAll(() => t.close());

const DAY = 24 * 60 * 60 * 1000;
const ids: Record<string, string> = {};

function backdate(table: "posts" | "votes" | "comments", id: string, ageDays: number) {
  t.ctx.db.query(`UPDATE ${table} SET created_at = ? WHERE id = ?`).run(Date.now() - ageDays * DAY, id);
}

async function vote(post: string, ageDays: number, voter: string) {
  const response = await t.call("POST", `/api/v1/posts/${ids[post]}/votes`, { body: { anonymousId: voter } });
  backdate("votes", response.body.data.id, ageDays);
}

async function comment(post: string, ageDays: number, isInternalNote = false) {
  const response = await t.call("POST", `/api/v1/posts/${ids[post]}/comments`, {
    body: { body: "hi", isInternalNote },
  });
  expect(response.body.data.isInternalNote).toBe(isInternalNote);
  backdate("comments", response.body.data.id, ageDays);
}

/**
 * The fixture, with ages in days: posts A 2, B 10, C 45, D 120 (tags A ui+api, B ui, C api+mobile, D ui);
 * votes A 1,1 · B 5,12 · C 40,60,100 · D 3,3,3; comments A 1, B 20, C 80, D 200 and an internal note on
 * B 4 (analytics is for the team: new_comments counts it, docs/reporting.md); page views by UTC day
 * back from today: 0→5, 6→2, 7→4, 29→1, 30→8, 89→3, 90→100. Another project's items never count.
 */
beforeAll(async () => {
  const tags = {
    ui: await makeTag(t, "ui"),
    api: await makeTag(t, "api"),
    mobile: await makeTag(t, "mobile"),
  };
  const posts: [string, number, string[]][] = [
    ["A", 2, [tags.ui.id, tags.api.id]],
    ["B", 10, [tags.ui.id]],
    ["C", 45, [tags.api.id, tags.mobile.id]],
    ["D", 120, [tags.ui.id]],
  ];
  for (const [name, age, tagIds] of posts) {
    ids[name] = (await makePost(t, { title: `post ${name}`, tagIds })).id;
    backdate("posts", ids[name]!, age);
  }
  const votes: [string, number][] = [
    ["A", 1],
    ["A", 1],
    ["B", 5],
    ["B", 12],
    ["C", 40],
    ["C", 60],
    ["C", 100],
    ["D", 3],
    ["D", 3],
    ["D", 3],
  ];
  for (const [index, [post, age]] of votes.entries()) await vote(post, age, `voter-${index}`);
  for (const [post, age] of [
    ["A", 1],
    ["B", 20],
    ["C", 80],
    ["D", 200],
  ] as const)
    await comment(post, age);
  await comment("B", 4, true);
  const projectId = t.project.project.id;
  for (const [daysAgo, views] of [
    [0, 5],
    [6, 2],
    [7, 4],
    [29, 1],
    [30, 8],
    [89, 3],
    [90, 100],
  ] as const) {
    for (let view = 0; view < views; view++) recordPageView(t.ctx.db, projectId, Date.now() - daysAgo * DAY);
  }
  const foreign = await makePost(t, { title: "elsewhere" }, t.other.secretKey);
  await t.call("POST", `/api/v1/posts/${foreign.id}/votes`, {
    body: { anonymousId: "x" },
    key: t.other.secretKey,
  });
  recordPageView(t.ctx.db, t.other.project.id);
});

async function analytics(period?: string) {
  const response = await t.call("GET", `/api/v1/analytics${period ? `?period=${period}` : ""}`);
  expect(response.status).toBe(200);
  return response.body.data;
}

const idsOf = (posts: { id: string }[]): (string | undefined)[] => posts.map((post) => post.id);

test("week (the default): the last 7 days", async () => {
  const data = await analytics();
  expect(data.period).toBe("week");
  expect(data.stats).toEqual({ new_posts: 1, total_votes: 6, new_comments: 2, page_views: 7 });
  expect(idsOf(data.top_posts)).toEqual([ids.D, ids.A, ids.B]);
  expect(data.trending_tags).toEqual([
    { label: "api", post_count: 1 },
    { label: "ui", post_count: 1 },
  ]);
  expect(await analytics("week")).toEqual(data);
});

test("month: the last 30 days", async () => {
  const data = await analytics("month");
  expect(data.period).toBe("month");
  expect(data.stats).toEqual({ new_posts: 2, total_votes: 7, new_comments: 3, page_views: 12 });
  // A and B both have 2 votes in the period and 2 overall: the newer post first.
  expect(idsOf(data.top_posts)).toEqual([ids.D, ids.A, ids.B]);
  expect(data.trending_tags).toEqual([
    { label: "ui", post_count: 2 },
    { label: "api", post_count: 1 },
  ]);
});

test("quarter: the last 90 days", async () => {
  const data = await analytics("quarter");
  expect(data.stats).toEqual({ new_posts: 3, total_votes: 9, new_comments: 4, page_views: 23 });
  // A, B and C tie on 2 votes in the period; C has 3 overall.
  expect(idsOf(data.top_posts)).toEqual([ids.D, ids.C, ids.A, ids.B]);
  expect(data.top_posts[0]).toMatchObject({ id: ids.D, title: "post D", voteCount: 3 });
  expect(data.trending_tags).toEqual([
    { label: "api", post_count: 2 },
    { label: "ui", post_count: 2 },
    { label: "mobile", post_count: 1 },
  ]);
});

test("an unknown period is 400 naming period; no key is 401", async () => {
  const body = expectApiError(await t.call("GET", "/api/v1/analytics?period=year"), 400, "VALIDATION_ERROR");
  expect(body.message).toContain("period");
  expect((await t.call("GET", "/api/v1/analytics", { key: null })).status).toBe(401);
});

test("top_posts and trending_tags stop at 10", async () => {
  const crowded = createTestApp();
  try {
    const tagIds: string[] = [];
    for (let index = 0; index < 12; index++) tagIds.push((await makeTag(crowded, `tag ${index}`)).id);
    // Post n carries tags 0..n and has n + 1 votes, so both rankings are strict and 12 long uncapped.
    const postIds: string[] = [];
    for (let index = 0; index < 12; index++) {
      const post = await makePost(crowded, { title: `busy ${index}`, tagIds: tagIds.slice(0, index + 1) });
      postIds.push(post.id);
      for (let voter = 0; voter <= index; voter++) {
        await crowded.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { anonymousId: `v${voter}` } });
      }
    }
    const data = (await crowded.call("GET", "/api/v1/analytics")).body.data;
    expect(data.stats.new_posts).toBe(12);
    expect(idsOf(data.top_posts)).toEqual(postIds.slice(2).reverse());
    expect(data.trending_tags).toEqual(
      Array.from({ length: 10 }, (_, index) => ({ label: `tag ${index}`, post_count: 12 - index })),
    );
  } finally {
    crowded.close();
  }
});
