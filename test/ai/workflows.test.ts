import { afterAll, describe, expect, test } from "bun:test";
import { expectApiError } from "../support/app";
import { makePost, makeTag, makeUser } from "../support/board";
import { createAiTestApp } from "./support";

const t = createAiTestApp();
afterAll(() => t.close());

async function vote(postId: string, body: Record<string, unknown>) {
  const response = await t.call("POST", `/api/v1/posts/${postId}/votes`, { body });
  if (response.status !== 201) throw new Error(`vote failed: ${response.text}`);
}

async function payingUser(email: string, spend: number) {
  const user = await makeUser(t, { email, name: email });
  const patched = await t.call("PATCH", `/api/v1/users/${user.id}`, { body: { userSpend: spend } });
  expect(patched.status).toBe(200);
  return user;
}

const postCount = () =>
  t.ctx.db
    .query<{ n: number }, [string]>("SELECT count(*) AS n FROM posts WHERE project_id = ?")
    .get(t.project.project.id)!.n;

describe("POST /posts/from-text", () => {
  test("a new idea → 201 created: PENDING post, source and source_url in metadata, tags among the project's", async () => {
    const mobile = await makeTag(t, "Mobile");
    await makeTag(t, "Billing");
    const response = await t.call("POST", "/api/v1/posts/from-text", {
      body: {
        text: "Hi team,\nCould you build a mobile app for Android? Our field staff only have phones.\nThanks, Ana",
        source: "support-email",
        source_url: "https://mail.example.com/thread/42",
      },
    });
    expect(response.status).toBe(201);
    const { action, post, similar_posts } = response.body.data;
    expect(Object.keys(response.body.data).sort()).toEqual(["action", "post", "similar_posts"]);
    expect(action).toBe("created");
    expect(post.status).toBe("PENDING");
    expect(post.title.toLowerCase()).toContain("mobile app");
    expect(post.metadata).toEqual({
      source: "support-email",
      source_url: "https://mail.example.com/thread/42",
    });
    expect(Array.isArray(similar_posts)).toBe(true);
    const stored = await t.call("GET", `/api/v1/posts/${post.id}`);
    expect(stored.body.data.tags.map((tag: { id: string }) => tag.id)).toEqual([mobile.id]);
  });

  test("a near-duplicate of an existing post → matched_duplicate with that post, and no new post", async () => {
    const existing = await makePost(t, {
      title: "Export data to CSV",
      description: "Download all records as CSV",
    });
    const before = postCount();
    const response = await t.call("POST", "/api/v1/posts/from-text", {
      body: { text: "Please let us download our records as an Excel spreadsheet.", source: "intercom" },
    });
    expect(response.status).toBe(201);
    expect(response.body.data.action).toBe("matched_duplicate");
    expect(response.body.data.post.id).toBe(existing.id);
    const [first] = response.body.data.similar_posts;
    expect(Object.keys(first).sort()).toEqual(["id", "similarity", "status", "title", "voteCount"]);
    expect(first.id).toBe(existing.id);
    expect(first.similarity).toBeGreaterThanOrEqual(0.7);
    expect(postCount()).toBe(before);
  });

  test("text is required", async () => {
    expectApiError(
      await t.call("POST", "/api/v1/posts/from-text", { body: { source: "x" } }),
      400,
      "VALIDATION_ERROR",
    );
  });
});

describe("POST /ai/triage", () => {
  test("PENDING posts only, oldest first, with the documented shape; limit is respected", async () => {
    const triage = await t.call("POST", "/api/v1/ai/triage");
    expect(triage.status).toBe(200);
    const { triaged, recommendations } = triage.body.data;
    expect(triaged).toBe(recommendations.length);
    for (const item of recommendations) {
      expect(Object.keys(item).sort()).toEqual(
        [
          "duplicate_of",
          "postId",
          "priority",
          "reason",
          "suggested_status",
          "suggested_tags",
          "title",
        ].sort(),
      );
      expect(["high", "medium", "low"]).toContain(item.priority);
      expect(typeof item.reason).toBe("string");
      expect(item.reason.length).toBeGreaterThan(0);
    }
    const approved = await makePost(t, { title: "Approved already", status: "APPROVED" });
    const all = (await t.call("POST", "/api/v1/ai/triage", { body: { limit: 100 } })).body.data
      .recommendations;
    expect(all.some((item: { postId: string }) => item.postId === approved.id)).toBe(false);
    const listed = await t.call("GET", "/api/v1/posts?status=PENDING&sort=date&limit=100");
    const oldestFirst = listed.body.data.map((post: { id: string }) => post.id).reverse();
    expect(all.map((item: { postId: string }) => item.postId)).toEqual(oldestFirst);
    const limited = (await t.call("POST", "/api/v1/ai/triage", { body: { limit: 2 } })).body.data;
    expect(limited.triaged).toBe(2);
    expect(limited.recommendations.map((item: { postId: string }) => item.postId)).toEqual(
      oldestFirst.slice(0, 2),
    );
  });

  test("the default limit is 20", async () => {
    for (let i = 0; i < 22; i++) await makePost(t, { title: `Inbox filler request number ${i}` });
    expect((await t.call("POST", "/api/v1/ai/triage", { body: {} })).body.data.triaged).toBe(20);
  });

  test("a duplicate points at the earlier post, never at itself, and never both ways", async () => {
    const first = await makePost(t, {
      title: "Two-factor authentication",
      description: "2FA with an authenticator app",
    });
    const second = await makePost(t, {
      title: "Multi-factor login",
      description: "MFA codes on every account",
    });
    const all = (await t.call("POST", "/api/v1/ai/triage", { body: { limit: 100 } })).body.data
      .recommendations;
    for (const item of all) expect(item.duplicate_of).not.toBe(item.postId);
    const byId = new Map(all.map((item: { postId: string }) => [item.postId, item]));
    expect(byId.get(second.id)).toMatchObject({ duplicate_of: first.id, suggested_status: "CLOSED" });
    expect(byId.get(first.id)).toMatchObject({ duplicate_of: null });
  });

  test("priority follows votes and the voters' spend", async () => {
    const popular = await makePost(t, { title: "Gantt timeline of projects" });
    for (let i = 0; i < 12; i++) await vote(popular.id, { anonymousId: `anon-${i}` });
    const big = await payingUser("cfo@bigcorp.example", 5000);
    await vote(popular.id, { boardUserId: big.id });
    const all = (await t.call("POST", "/api/v1/ai/triage", { body: { limit: 100 } })).body.data
      .recommendations;
    const item = all.find((entry: { postId: string }) => entry.postId === popular.id);
    expect(item.priority).toBe("high");
    expect(item.suggested_status).toBe("APPROVED");
    expect(item.reason).toContain("13 votes");
    expect(item.reason).toContain("$5,000/month");
  });

  test("limit is validated", async () => {
    expectApiError(
      await t.call("POST", "/api/v1/ai/triage", { body: { limit: 0 } }),
      400,
      "VALIDATION_ERROR",
    );
  });
});

describe("POST /ai/summary", () => {
  test("summary, highlights, top_themes and stats for the default week", async () => {
    const response = await t.call("POST", "/api/v1/ai/summary");
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(Object.keys(data).sort()).toEqual(["highlights", "stats", "summary", "top_themes"]);
    expect(typeof data.summary).toBe("string");
    expect(data.stats.period).toBe("week");
    expect(data.stats.new_posts).toBe(postCount());
    expect(data.stats.total_votes).toBe(13);
    expect(data.highlights[0]).toContain("Gantt timeline of projects");
    expect(data.top_themes.length).toBeGreaterThan(0);
    for (const theme of data.top_themes) expect(typeof theme).toBe("string");
  });

  test("period month and quarter; an unknown period is refused", async () => {
    for (const period of ["month", "quarter"]) {
      const response = await t.call("POST", "/api/v1/ai/summary", { body: { period } });
      expect(response.body.data.stats.period).toBe(period);
    }
    expectApiError(
      await t.call("POST", "/api/v1/ai/summary", { body: { period: "year" } }),
      400,
      "VALIDATION_ERROR",
    );
  });
});

describe("POST /ai/sprint-plan", () => {
  test("default strategy balanced and capacity 5, with the documented shape", async () => {
    const response = await t.call("POST", "/api/v1/ai/sprint-plan");
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(Object.keys(data).sort()).toEqual(["items", "strategy", "summary"]);
    expect(data.strategy).toBe("balanced");
    expect(data.items).toHaveLength(5);
    for (const item of data.items) {
      expect(Object.keys(item).sort()).toEqual(["postId", "reason", "title", "voteCount"]);
      expect(item.reason.length).toBeGreaterThan(0);
    }
    expect(typeof data.summary).toBe("string");
    const three = await t.call("POST", "/api/v1/ai/sprint-plan", {
      body: { capacity: 3, strategy: "popular" },
    });
    expect(three.body.data.items).toHaveLength(3);
    expect(three.body.data.items[0].voteCount).toBe(13);
  });

  test("revenue ranks a post backed by a high-spend customer above one with more votes from non-paying users", async () => {
    const paid = await makePost(t, { title: "Audit log export for compliance" });
    const free = await makePost(t, { title: "Emoji reactions on comments" });
    const customer = await payingUser("buyer@enterprise.example", 20_000);
    await vote(paid.id, { boardUserId: customer.id });
    for (let i = 0; i < 6; i++) {
      const user = await makeUser(t, { email: `free${i}@example.com` });
      await vote(free.id, { boardUserId: user.id });
    }
    const items = (
      await t.call("POST", "/api/v1/ai/sprint-plan", { body: { strategy: "revenue", capacity: 50 } })
    ).body.data.items;
    const position = (id: string) => items.findIndex((item: { postId: string }) => item.postId === id);
    expect(position(paid.id)).toBeGreaterThanOrEqual(0);
    expect(position(paid.id)).toBeLessThan(position(free.id));
    expect(items[position(paid.id)].reason).toContain("$20,000/month");
    const popular = (
      await t.call("POST", "/api/v1/ai/sprint-plan", { body: { strategy: "popular", capacity: 50 } })
    ).body.data.items;
    const popularPosition = (id: string) =>
      popular.findIndex((item: { postId: string }) => item.postId === id);
    expect(popularPosition(free.id)).toBeLessThan(popularPosition(paid.id));
  });

  test("never plans CLOSED, COMPLETE or ARCHIVED posts, whatever the strategy", async () => {
    const excluded = [];
    for (const status of ["CLOSED", "COMPLETE", "ARCHIVED"]) {
      const post = await makePost(t, { title: `Hugely popular but ${status}`, status });
      for (let i = 0; i < 30; i++) await vote(post.id, { anonymousId: `${status}-${i}` });
      excluded.push(post.id);
    }
    for (const strategy of ["balanced", "revenue", "popular", "quick-wins"]) {
      const response = await t.call("POST", "/api/v1/ai/sprint-plan", { body: { strategy, capacity: 50 } });
      expect(response.body.data.strategy).toBe(strategy);
      const ids = response.body.data.items.map((item: { postId: string }) => item.postId);
      for (const id of excluded) expect(ids).not.toContain(id);
    }
  });

  test("quick-wins prefers a short request over a long one with the same votes", async () => {
    const short = await makePost(t, { title: "Rename the Save button to Publish" });
    const long = await makePost(t, {
      title: "Rebuild the reporting engine",
      description: "A complete rewrite of reporting with custom dimensions, scheduled exports, ".repeat(20),
    });
    for (const post of [short, long])
      for (let i = 0; i < 40; i++) await vote(post.id, { anonymousId: `qw-${post.id}-${i}` });
    const items = (
      await t.call("POST", "/api/v1/ai/sprint-plan", { body: { strategy: "quick-wins", capacity: 50 } })
    ).body.data.items;
    const ids = items.map((item: { postId: string }) => item.postId);
    expect(ids.indexOf(short.id)).toBeLessThan(ids.indexOf(long.id));
    expect(items[ids.indexOf(short.id)].reason).toContain("Quick win");
  });

  test("quick-wins sizes by what the text says, not by its length: a two-word integration is no quick win", async () => {
    const integration = await makePost(t, { title: "Salesforce integration" });
    const tweak = await makePost(t, {
      title: "Newest first as the default sort order",
      description:
        "Most of our visitors come to see what was just posted, and the current default puts new requests " +
        "at the bottom of the list where nobody scrolls; newest first would fix that for everyone.",
    });
    for (const post of [integration, tweak])
      for (let i = 0; i < 30; i++) await vote(post.id, { anonymousId: `size-${post.id}-${i}` });
    const items = (
      await t.call("POST", "/api/v1/ai/sprint-plan", { body: { strategy: "quick-wins", capacity: 50 } })
    ).body.data.items;
    const ids = items.map((item: { postId: string }) => item.postId);
    expect(ids.indexOf(tweak.id)).toBeLessThan(ids.indexOf(integration.id));
    expect(items[ids.indexOf(integration.id)].reason).toContain("larger build");
  });

  test("an unknown strategy is refused", async () => {
    expectApiError(
      await t.call("POST", "/api/v1/ai/sprint-plan", { body: { strategy: "vibes" } }),
      400,
      "VALIDATION_ERROR",
    );
  });
});
