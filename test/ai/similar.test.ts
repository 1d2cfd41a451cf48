import { afterAll, describe, expect, test } from "bun:test";
import { expectApiError } from "../support/app";
import { createAiTestApp } from "./support";
import { makePost } from "../support/board";
import { createProject } from "../../src/projects/service";

const t = createAiTestApp();
afterAll(() => t.close());

const similar = (query: string, extra = "") =>
  t.call("GET", `/api/v1/posts/similar?query=${encodeURIComponent(query)}${extra}`);

describe("GET /posts/similar", () => {
  test("answers {data: [{id, title, similarity, voteCount, status}]} ranked by similarity", async () => {
    const dark = await makePost(t, { title: "Dark mode", description: "A dark theme for the whole app" });
    await makePost(t, { title: "Export reports as PDF", description: "Download a report as a PDF file" });
    const response = await similar("Please add a night mode to the app");
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(["data"]);
    const [first] = response.body.data;
    expect(Object.keys(first).sort()).toEqual(["id", "similarity", "status", "title", "voteCount"]);
    expect(first).toMatchObject({ id: dark.id, title: "Dark mode", voteCount: 0, status: "PENDING" });
    expect(first.similarity).toBeGreaterThanOrEqual(0.7);
    expect(first.similarity).toBeLessThanOrEqual(1);
  });

  test("the default threshold is 0.7: an unrelated query finds nothing, threshold=0 finds everything ranked", async () => {
    expect((await similar("billing address on invoices")).body.data).toEqual([]);
    const all = (await similar("billing address on invoices", "&threshold=0&limit=50")).body.data;
    expect(all.length).toBeGreaterThanOrEqual(2);
    const scores = all.map((hit: { similarity: number }) => hit.similarity);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));
    for (const score of scores) expect(score).toBeLessThan(0.7);
  });

  test("a one- or two-word search finds the titles holding its words, the closest title first", async () => {
    const key = createProject(t.ctx.db, { slug: "word-search", plan: "growth" }).secretKey;
    const make = async (title: string) =>
      (await t.call("POST", "/api/v1/posts", { body: { title }, key })).body.data.id as string;
    const darkMode = await make("Dark mode");
    const mobileApp = await make("Mobile app");
    const darkMobile = await make("Dark theme for the mobile app");
    await make("Keyboard shortcuts for power users");
    const search = async (query: string) =>
      (
        await t.call("GET", `/api/v1/posts/similar?query=${encodeURIComponent(query)}`, { key })
      ).body.data.map((hit: { id: string; similarity: number }) => [hit.id, hit.similarity]);
    // The embedding of a lone word does not meet the phrase's ("dark" scored 0 against "Dark mode").
    const dark = await search("dark");
    expect(dark.map(([id]: [string]) => id)).toEqual([darkMode, darkMobile]);
    for (const [, similarity] of dark) expect(similarity).toBeGreaterThanOrEqual(0.75);
    expect((await search("mobile")).map(([id]: [string]) => id)).toEqual([mobileApp, darkMobile]);
    expect((await search("mobile dark")).map(([id]: [string]) => id)).toEqual([darkMobile]);
    // Stopwords alone, or a longer text, are searched by meaning only.
    expect(await search("the")).toEqual([]);
    expect((await search("dark mode for the app please")).map(([id]: [string]) => id)[0]).toBe(darkMode);
  });

  test("threshold is respected: every result reaches it", async () => {
    for (const threshold of [0.3, 0.7, 0.95]) {
      const hits = (await similar("dark theme", `&threshold=${threshold}&limit=50`)).body.data;
      for (const hit of hits) expect(hit.similarity).toBeGreaterThanOrEqual(threshold);
    }
    expect((await similar("dark theme", "&threshold=1")).body.data.length).toBeLessThanOrEqual(1);
  });

  test("limit defaults to 5 and is respected", async () => {
    for (let i = 0; i < 7; i++) await makePost(t, { title: `Slack notifications for channel ${i}` });
    expect((await similar("slack notifications", "&threshold=0")).body.data).toHaveLength(5);
    expect((await similar("slack notifications", "&threshold=0&limit=2")).body.data).toHaveLength(2);
    expect((await similar("slack notifications", "&threshold=0&limit=9")).body.data).toHaveLength(9);
  });

  test("editing a post's title changes what similar finds", async () => {
    const post = await makePost(t, { title: "Calendar sync with Google Calendar" });
    const found = async (query: string) =>
      (await similar(query)).body.data.some((hit: { id: string }) => hit.id === post.id);
    expect(await found("sync due dates to google calendar")).toBe(true);
    expect(await found("two-factor authentication with an authenticator app")).toBe(false);
    const patched = await t.call("PATCH", `/api/v1/posts/${post.id}`, {
      body: { title: "Two-factor authentication" },
    });
    expect(patched.status).toBe(200);
    expect(await found("two-factor authentication with an authenticator app")).toBe(true);
    expect(await found("sync due dates to google calendar")).toBe(false);
    // The title in the result is the current one.
    const hit = (await similar("2FA login")).body.data.find((h: { id: string }) => h.id === post.id);
    expect(hit.title).toBe("Two-factor authentication");
  });

  test("editing a post's description changes what similar finds", async () => {
    const post = await makePost(t, {
      title: "Request from a customer",
      description: "Send alerts to our Slack channel",
    });
    const scoreOf = async (query: string) =>
      (await similar(query, "&threshold=0&limit=50")).body.data.find(
        (hit: { id: string }) => hit.id === post.id,
      )?.similarity ?? 0;
    const slack = "alerts in our slack channel";
    const push = "push notifications on the iphone app";
    const before = { slack: await scoreOf(slack), push: await scoreOf(push) };
    expect(before.slack).toBeGreaterThan(before.push);
    const patched = await t.call("PATCH", `/api/v1/posts/${post.id}`, {
      body: { description: "Push notifications on the iPhone app" },
    });
    expect(patched.status).toBe(200);
    const after = { slack: await scoreOf(slack), push: await scoreOf(push) };
    expect(after.push).toBeGreaterThan(before.push);
    expect(after.slack).toBeLessThan(before.slack);
    expect(after.push).toBeGreaterThan(after.slack);
  });

  test("deleting a post removes it from results; merging removes the merged duplicate", async () => {
    const post = await makePost(t, { title: "Offline mode", description: "Work without internet" });
    const twin = await makePost(t, { title: "Use the app offline" });
    const ids = async () =>
      (await similar("offline mode without internet", "&threshold=0.5")).body.data.map(
        (h: { id: string }) => h.id,
      );
    expect(await ids()).toContain(post.id);
    expect((await t.call("DELETE", `/api/v1/posts/${post.id}`)).status).toBe(200);
    expect(await ids()).not.toContain(post.id);
    const target = await makePost(t, { title: "Offline support" });
    expect(
      (await t.call("POST", `/api/v1/posts/${twin.id}/merge`, { body: { intoPostId: target.id } })).status,
    ).toBe(200);
    expect(await ids()).not.toContain(twin.id);
    expect(await ids()).toContain(target.id);
    const rows = t.ctx.db
      .query<{ n: number }, [string, string]>(
        "SELECT count(*) AS n FROM post_embeddings WHERE post_id IN (?, ?)",
      )
      .get(post.id, twin.id);
    expect(rows?.n).toBe(0);
  });

  test("a post removed outside the post service (a cascade) takes its signature, and later posts embed", async () => {
    const gone = await makePost(t, { title: "Offline sync for field teams" });
    t.ctx.db.run("DELETE FROM posts WHERE id = ?", [gone.id]);
    const signatures = () =>
      t.ctx.db.query<{ n: number }, []>("SELECT count(*) AS n FROM post_signatures").get()?.n ?? 0;
    const embeddings = () =>
      t.ctx.db.query<{ n: number }, []>("SELECT count(*) AS n FROM post_embeddings").get()?.n ?? 0;
    expect(signatures()).toBe(embeddings());
    const next = await makePost(t, { title: "Offline sync for field teams, again" });
    expect(next.id).toBeString();
    expect(signatures()).toBe(embeddings());
  });

  test("posts of another project are never found", async () => {
    await makePost(t, { title: "Kanban swimlanes for squads" }, t.other.secretKey);
    const hits = (await similar("kanban swimlanes for squads", "&threshold=0&limit=50")).body.data;
    expect(hits.some((hit: { title: string }) => hit.title === "Kanban swimlanes for squads")).toBe(false);
  });

  test("a post whose title is one place apart is related, not a duplicate; a reworded one still is", async () => {
    const tasks = await makePost(t, { title: "Reminders for overdue tasks", description: null });
    const invoices = await makePost(t, {
      title: "Payment reminders when an invoice is overdue",
      description: null,
    });
    // The vectors of "... overdue invoices" and "... overdue tasks" meet at ~0.87: the title rule sets them apart.
    const found = (await similar("Reminders for overdue invoices")).body.data.map(
      (hit: { id: string }) => hit.id,
    );
    expect(found).toContain(invoices.id);
    expect(found).not.toContain(tasks.id);
    const related = (await similar("Reminders for overdue invoices", "&threshold=0.4&limit=50")).body.data;
    const taskHit = related.find((hit: { id: string }) => hit.id === tasks.id);
    expect(taskHit.similarity).toBeGreaterThan(0.6);
    expect(taskHit.similarity).toBeLessThan(0.7);
  });

  test("query is required; threshold and limit are validated", async () => {
    expectApiError(await t.call("GET", "/api/v1/posts/similar"), 400, "VALIDATION_ERROR");
    expectApiError(await similar("x", "&threshold=1.5"), 400, "VALIDATION_ERROR");
    expectApiError(await similar("x", "&limit=0"), 400, "VALIDATION_ERROR");
  });
});
