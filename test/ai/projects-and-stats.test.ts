import { afterAll, describe, expect, test } from "bun:test";
import { makePost } from "../support/board";
import { createAiTestApp } from "./support";

const DAY_MS = 86_400_000;

describe("AI workflows never show another project's posts", () => {
  const t = createAiTestApp();
  afterAll(() => t.close());

  test("triage, summary and sprint-plan answer from the project's own posts only", async () => {
    const own = await makePost(t, { title: "Dark mode", description: "A dark theme for late work" });
    const theirs = [];
    // The other project's posts are older, more voted and near copies: the best candidates everywhere.
    for (const title of ["Dark mode", "Night theme for the app", "Zebra striped tables"]) {
      const post = await makePost(t, { title, description: "A dark theme for late work" }, t.other.secretKey);
      for (let i = 0; i < 5; i++) {
        const voted = await t.call("POST", `/api/v1/posts/${post.id}/votes`, {
          key: t.other.secretKey,
          body: { anonymousId: `other-${post.id}-${i}` },
        });
        expect(voted.status).toBe(201);
      }
      theirs.push(post);
    }
    const theirIds = theirs.map((post) => post.id);

    const triage = (await t.call("POST", "/api/v1/ai/triage", { body: { limit: 100 } })).body.data;
    expect(triage.recommendations.map((item: { postId: string }) => item.postId)).toEqual([own.id]);
    expect(triage.recommendations[0].duplicate_of).toBeNull();

    const summary = (await t.call("POST", "/api/v1/ai/summary", { body: { period: "quarter" } })).body.data;
    expect(summary.stats).toMatchObject({ new_posts: 1, total_votes: 0 });
    const words = JSON.stringify([summary.summary, summary.highlights, summary.top_themes]).toLowerCase();
    expect(words).not.toContain("zebra");
    expect(words).not.toContain("night theme");

    for (const strategy of ["balanced", "revenue", "popular", "quick-wins"]) {
      const plan = (await t.call("POST", "/api/v1/ai/sprint-plan", { body: { strategy, capacity: 50 } })).body
        .data;
      expect(plan.items.map((item: { postId: string }) => item.postId)).toEqual([own.id]);
      for (const id of theirIds) expect(plan.summary).not.toContain(id);
    }
  });
});

describe("POST /ai/summary stats", () => {
  const t = createAiTestApp();
  afterAll(() => t.close());

  const backdate = (table: string, column: string, id: string, days: number) =>
    t.ctx.db.run(`UPDATE ${table} SET ${column} = ? WHERE id = ?`, [Date.now() - days * DAY_MS, id]);
  const setStatus = async (id: string, status: string, key?: string) => {
    const response = await t.call("PATCH", `/api/v1/posts/${id}`, {
      body: { status },
      ...(key ? { key } : {}),
    });
    expect(response.status).toBe(200);
  };
  const comment = async (postId: string, body: string, key?: string) => {
    const response = await t.call("POST", `/api/v1/posts/${postId}/comments`, {
      body: { body, authorName: "Lin" },
      ...(key ? { key } : {}),
    });
    expect(response.status).toBe(201);
    return response.body.data;
  };

  test("new_comments, status_changes and completed match a hand count of the week", async () => {
    const shipped = await makePost(t, { title: "CSV export" });
    const started = await makePost(t, { title: "Slack alerts" });
    const old = await makePost(t, { title: "Audit log" });
    backdate("posts", "created_at", old.id, 20);

    // This week: 2 comments; a 3rd comment is 20 days old.
    await comment(shipped.id, "Needed for finance");
    await comment(started.id, "Yes please");
    backdate("comments", "created_at", (await comment(old.id, "Old news")).id, 20);

    // This week: shipped PENDING → APPROVED → COMPLETE (2 changes), started → IN_PROGRESS (1).
    await setStatus(shipped.id, "APPROVED");
    await setStatus(shipped.id, "COMPLETE");
    await setStatus(started.id, "IN_PROGRESS");
    // Completed 20 days ago and only edited this week: neither a change nor a completion of this week.
    await setStatus(old.id, "COMPLETE");
    t.ctx.db.run("UPDATE activity SET created_at = ? WHERE entity_id = ? AND action = 'status_changed'", [
      Date.now() - 20 * DAY_MS,
      old.id,
    ]);
    expect(
      (await t.call("PATCH", `/api/v1/posts/${old.id}`, { body: { title: "Audit log v2" } })).status,
    ).toBe(200);

    // Another project's activity counts for nothing here.
    const elsewhere = await makePost(t, { title: "Elsewhere" }, t.other.secretKey);
    await comment(elsewhere.id, "Not ours", t.other.secretKey);
    await setStatus(elsewhere.id, "COMPLETE", t.other.secretKey);

    const stats = (await t.call("POST", "/api/v1/ai/summary")).body.data.stats;
    expect(stats).toEqual({
      period: "week",
      new_posts: 2,
      total_votes: 0,
      new_comments: 2,
      status_changes: 3,
      completed: 1,
    });
    // Over a month everything above counts: 3 posts, 3 comments, 4 changes, 2 completions.
    const month = (await t.call("POST", "/api/v1/ai/summary", { body: { period: "month" } })).body.data.stats;
    expect(month).toMatchObject({ new_posts: 3, new_comments: 3, status_changes: 4, completed: 2 });
  });
});
