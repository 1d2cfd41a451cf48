import { afterAll, describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { t as types } from "elysia";
import { PUBLIC_TOOLS } from "../../src/mcp/tools/public";
import { defineTool, READS } from "../../src/mcp/tool";
import { PublicPostSchema } from "../../src/public/schema";
import { createTestApp } from "../support/app";
import { PRIVATE } from "../support/private-data";
import { listen, makePost, makeUser } from "../support/board";
import { callTool, connectHttp, toolValue } from "../support/mcp";
import { UNLIMITED_AI } from "../ai/support";
import { FAKE_STRIPE_KEY, startFakeStripe } from "../payments/fake-stripe";

const stripe = startFakeStripe([
  {
    id: "sub_ada",
    customer: { id: "cus_ada", email: "ada@example.com" },
    items: [{ unitAmount: 4900, interval: "month" }],
  },
]);
const t = createTestApp({
  ...UNLIMITED_AI,
  FEATUREBOARD_PAYMENTS_API_URL: stripe.url,
  FEATUREBOARD_ALLOW_PRIVATE_TARGETS: "true",
});
const server = listen(t);
const admin = await connectHttp(server.url, { key: t.project.secretKey });
// The SDK client checks each tool's structuredContent against the output schema it was listed with, so
// listing first makes every call below also a check of the declared output schemas.
const listedTools = (await admin.listTools()).tools;
afterAll(async () => {
  await admin.close();
  await server.stop();
  t.close();
  stripe.stop();
});

const rest = async (method: string, path: string, body?: unknown) => {
  const response = await t.call(method, path, { body });
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.text}`);
  return response.body;
};

describe("AI tools agree with the REST API", () => {
  test("search_similar finds the same posts, ranked the same, as GET /posts/similar", async () => {
    const dark = await makePost(t, { title: "Dark mode", description: "A dark theme for the whole app" });
    await makePost(t, { title: "Export reports as PDF", description: "Download a report as a PDF file" });
    const query = "Please add a night mode to the app";
    const viaTool = await toolValue(admin, "search_similar", { query });
    const viaRest = await rest("GET", `/api/v1/posts/similar?query=${encodeURIComponent(query)}`);
    expect(viaTool.posts).toEqual(viaRest.data);
    expect(viaTool.posts[0]).toMatchObject({ id: dark.id, title: "Dark mode" });
    expect(viaTool.posts[0].similarity).toBeGreaterThanOrEqual(0.7);

    const everything = await toolValue(admin, "search_similar", { query, threshold: 0, limit: 50 });
    const everythingRest = await rest(
      "GET",
      `/api/v1/posts/similar?query=${encodeURIComponent(query)}&threshold=0&limit=50`,
    );
    expect(everything.posts).toEqual(everythingRest.data);
    expect(everything.posts.length).toBeGreaterThanOrEqual(2);
    expect((await callTool(admin, "search_similar", { query: "" })).value.error_code).toBe(
      "VALIDATION_ERROR",
    );
  });

  test("triage_inbox recommends for the PENDING posts exactly as POST /ai/triage does", async () => {
    const original = await makePost(t, {
      title: "Android mobile app",
      description: "A native app for Android phones",
      status: "APPROVED",
    });
    await makePost(t, { title: "Mobile app for Android", description: "Please build an Android app" });
    await makePost(t, { title: "Invoices in euros", description: "Billing in EUR for European customers" });
    const viaTool = await toolValue(admin, "triage_inbox", { limit: 10 });
    const viaRest = (await rest("POST", "/api/v1/ai/triage", { limit: 10 })).data;
    expect(viaTool).toEqual(viaRest);
    const pending = (await rest("GET", "/api/v1/posts?status=PENDING&limit=100")).data as { id: string }[];
    expect(viaTool.triaged).toBe(Math.min(10, pending.length));
    for (const recommendation of viaTool.recommendations) {
      expect(pending.map((post) => post.id)).toContain(recommendation.postId);
      expect(["high", "medium", "low"]).toContain(recommendation.priority);
    }
    const duplicate = viaTool.recommendations.find(
      (item: { title: string }) => item.title === "Mobile app for Android",
    );
    expect(duplicate.duplicate_of).toBe(original.id);
  });

  test("submit_feedback files raw text like POST /posts/from-text; get_summary and plan_sprint answer the REST shapes", async () => {
    const filed = await toolValue(admin, "submit_feedback", {
      text: "Could you add two-factor authentication with an authenticator app? Our security team requires it.",
      source: "intercom",
    });
    expect(filed.action).toBe("created");
    expect(filed.post.metadata).toEqual({ source: "intercom" });
    expect((await rest("GET", `/api/v1/posts/${filed.post.id}`)).data.title).toBe(filed.post.title);
    const again = await toolValue(admin, "submit_feedback", {
      text: "Could you add two-factor authentication with an authenticator app? Our security team requires it.",
    });
    expect(again).toMatchObject({ action: "matched_duplicate", post: { id: filed.post.id } });

    const summary = await toolValue(admin, "get_summary", { period: "month" });
    const summaryRest = (await rest("POST", "/api/v1/ai/summary", { period: "month" })).data;
    expect(summary.stats).toEqual(summaryRest.stats);
    expect(Object.keys(summary).sort()).toEqual(["highlights", "stats", "summary", "top_themes"]);

    const plan = await toolValue(admin, "plan_sprint", { capacity: 2, strategy: "popular" });
    expect(plan).toEqual(
      (await rest("POST", "/api/v1/ai/sprint-plan", { capacity: 2, strategy: "popular" })).data,
    );
    expect(plan.items.length).toBeLessThanOrEqual(2);
  });

  test("the plan gate and the AI rate limit apply to the tools too", async () => {
    const starter = createTestApp({
      FEATUREBOARD_RATE_LIMIT_AI_PER_MINUTE: "60",
      FEATUREBOARD_RATE_LIMIT_AI_BURST: "1",
    });
    const starterServer = listen(starter);
    try {
      const client = await connectHttp(starterServer.url, { key: starter.project.secretKey });
      expect((await callTool(client, "get_summary", {})).isError).toBe(false);
      const limited = await callTool(client, "get_summary", {});
      expect(limited.value).toMatchObject({ error_code: "RATE_LIMITED", retry: true });
      starter.ctx.db
        .query("UPDATE projects SET plan = 'starter' WHERE id = ?")
        .run(starter.project.project.id);
      // Below growth the answer is "upgrade", never "wait", even with the AI budget spent.
      for (const tool of ["triage_inbox", "get_summary"]) {
        const gated = await callTool(client, tool, {});
        expect(gated.value).toMatchObject({ error_code: "PLAN_UPGRADE_REQUIRED" });
      }
      await client.close();
    } finally {
      await starterServer.stop();
      starter.close();
    }
  });
});

describe("roadmap, analytics, activity and releases tools agree with the REST API", () => {
  test("get_roadmap, get_analytics and get_activity", async () => {
    await makePost(t, { title: "Shipped thing", status: "COMPLETE" });
    await makePost(t, { title: "Building thing", status: "IN_PROGRESS" });
    expect(await toolValue(admin, "get_roadmap")).toEqual((await rest("GET", "/api/v1/roadmap")).data);
    // Analytics and activity are read twice in a row; nothing changes in between.
    expect(await toolValue(admin, "get_analytics", { period: "month" })).toEqual(
      (await rest("GET", "/api/v1/analytics?period=month")).data,
    );
    const activity = await toolValue(admin, "get_activity", { entity_type: "post", limit: 5 });
    const activityRest = await rest("GET", "/api/v1/activity?entityType=post&limit=5");
    expect(activity).toEqual({ entries: activityRest.data, pagination: activityRest.pagination });
  });

  test("create_release publishes and ships posts; list_releases shows it like GET /releases", async () => {
    const shipped = await makePost(t, { title: "CSV export", status: "COMPLETE" });
    const draft = await toolValue(admin, "create_release", { title: "Draft notes" });
    expect(draft.release).toMatchObject({ isDraft: true, publishedAt: null });
    const published = await toolValue(admin, "create_release", {
      title: "v2.0",
      content: "- CSV export",
      label: "v2.0",
      is_draft: false,
      post_ids: [shipped.id],
    });
    expect(published.release).toMatchObject({ isDraft: false, label: "v2.0", postIds: [shipped.id] });
    expect((await rest("GET", `/api/v1/posts/${shipped.id}`)).data).toMatchObject({
      status: "ARCHIVED",
      releaseId: published.release.id,
    });
    const listed = await toolValue(admin, "list_releases", {});
    const listedRest = await rest("GET", "/api/v1/releases");
    expect(listed).toEqual({ releases: listedRest.data, pagination: listedRest.pagination });
    expect(listed.releases.map((release: { id: string }) => release.id)).toEqual([published.release.id]);
  });
});

describe("payments and webhooks tools", () => {
  test("sync_payments: 404 before the processor is connected, then the REST result and spend", async () => {
    const missing = await callTool(admin, "sync_payments");
    expect(missing.value).toMatchObject({ error_code: "INTEGRATION_NOT_FOUND" });
    await makeUser(t, { email: "ada@example.com", name: "Ada" });
    await rest("PUT", "/api/v1/integrations/payments", { apiKey: FAKE_STRIPE_KEY });
    const synced = await toolValue(admin, "sync_payments");
    expect(synced).toMatchObject({ status: "success", totalCustomers: 1, matchedUsers: 1, createdUsers: 0 });
    const users = (await rest("GET", "/api/v1/users?limit=100")).data as {
      email: string;
      userSpend: string;
    }[];
    expect(users.find((user) => user.email === "ada@example.com")?.userSpend).toBe("49.00");
  });

  test("create_webhook answers the secret once; list_webhooks agrees with GET /integrations/webhooks", async () => {
    const created = await toolValue(admin, "create_webhook", {
      url: "http://127.0.0.1:9/hooks",
      events: ["post.created", "vote.created"],
      description: "CRM sync",
    });
    expect(created.webhook).toMatchObject({
      url: "http://127.0.0.1:9/hooks",
      events: ["post.created", "vote.created"],
      enabled: true,
    });
    expect(created.webhook.secret).toMatch(/^whsec_/);
    const listed = await toolValue(admin, "list_webhooks");
    expect(listed.webhooks).toEqual((await rest("GET", "/api/v1/integrations/webhooks")).data);
    expect(JSON.stringify(listed)).not.toContain(created.webhook.secret);
    const unknownEvent = await callTool(admin, "create_webhook", {
      url: "http://127.0.0.1:9/x",
      events: ["post.exploded"],
    });
    expect(unknownEvent.value.error_code).toBe("VALIDATION_ERROR");
  });
});

describe("public tools fail closed on a field their strict output schema does not list", () => {
  test("every public tool's output schema refuses unknown fields in every object", () => {
    const loose: string[] = [];
    const visit = (node: unknown, path: string): void => {
      if (Array.isArray(node)) return node.forEach((item, index) => visit(item, `${path}[${index}]`));
      if (typeof node !== "object" || node === null) return;
      const schema = node as { type?: unknown; properties?: unknown; additionalProperties?: unknown };
      if (schema.type === "object" && schema.properties && schema.additionalProperties !== false)
        loose.push(path);
      for (const [key, inner] of Object.entries(node)) visit(inner, `${path}.${key}`);
    };
    const publicNames = PUBLIC_TOOLS.map((tool) => tool.name);
    const listedPublic = listedTools.filter((tool) => publicNames.includes(tool.name));
    expect(listedPublic).toHaveLength(4);
    for (const tool of listedPublic) visit(tool.outputSchema, tool.name);
    expect(loose).toEqual([]);
  });

  test("a public tool whose result carries a nested private field is an error, not a leak", async () => {
    const leaky = defineTool({
      name: "leaky_browse",
      title: "Leaky",
      description: "Test only",
      access: "public",
      annotations: READS,
      input: Type.Object({}),
      output: types.Object({ posts: types.Array(PublicPostSchema) }, { additionalProperties: false }),
      run: () =>
        ({
          posts: [
            {
              id: "p1",
              title: "Leaky",
              description: null,
              status: "APPROVED",
              voteCount: 0,
              tags: [],
              createdAt: "2026-01-01T00:00:00.000Z",
              updatedAt: "2026-01-01T00:00:00.000Z",
              metadata: { note: PRIVATE.metadataValue },
            },
          ],
        }) as never,
    });
    const session = { ctx: t.ctx, adminProject: null, urlProjectSlug: "acme", defaultAnonymousId: "x" };
    await expect(leaky.execute(session, {})).rejects.toThrow("does not match its public schema");
  });
});
