import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { type DeliveryWorker, startDeliveryWorker } from "../../src/events/worker";
import { issueLinksOfPost } from "../../src/integrations/service";
import { createTestApp, expectApiError, type TestApp } from "../support/app";
import { makePost, makeTag } from "../support/board";
import { type Answer, type Receiver, startReceiver, waitUntil } from "../support/receiver";

const PUBLIC_HOOK = "https://93.184.216.34/services/T000/B000/XXXXsecretpart";

describe("integration settings", () => {
  const t = createTestApp();
  afterAll(() => t.close());

  test("PUT creates (201), PUT again replaces (200), GET masks secrets, DELETE removes (200, then 404)", async () => {
    expectApiError(await t.call("GET", "/api/v1/integrations/team-chat"), 404, "INTEGRATION_NOT_FOUND");
    const created = await t.call("PUT", "/api/v1/integrations/team-chat", {
      body: { webhookUrl: PUBLIC_HOOK, channel: "#feedback" },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ kind: "team-chat", channel: "#feedback", enabled: true });
    const updated = await t.call("PUT", "/api/v1/integrations/team-chat", {
      body: { webhookUrl: PUBLIC_HOOK, enabled: false },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ channel: null, enabled: false });
    const got = await t.call("GET", "/api/v1/integrations/team-chat");
    expect(got.status).toBe(200);
    expect(got.body.data.webhookUrl).toBe("****part");
    expect(got.text).not.toContain("XXXXsecret");
    const removed = await t.call("DELETE", "/api/v1/integrations/team-chat");
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true });
    expectApiError(await t.call("GET", "/api/v1/integrations/team-chat"), 404, "INTEGRATION_NOT_FOUND");
    expectApiError(await t.call("DELETE", "/api/v1/integrations/team-chat"), 404, "INTEGRATION_NOT_FOUND");
  });

  test("code-host and issue-tracker keep their tokens secret; an omitted access token keeps the stored one", async () => {
    const token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    const codeHost = await t.call("PUT", "/api/v1/integrations/code-host", {
      body: {
        repoOwner: "acme",
        repoName: "board",
        accessToken: token,
        syncLabels: true,
        autoCreateIssues: true,
      },
    });
    expect(codeHost.status).toBe(201);
    expect(codeHost.body.data).toEqual({
      kind: "code-host",
      repoOwner: "acme",
      repoName: "board",
      accessToken: "****6789",
      enabled: true,
      syncLabels: true,
      autoCreateIssues: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const again = await t.call("PUT", "/api/v1/integrations/code-host", {
      body: { repoOwner: "acme", repoName: "roadmap" },
    });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({
      repoName: "roadmap",
      accessToken: "****6789",
      autoCreateIssues: false,
    });

    const tracker = await t.call("PUT", "/api/v1/integrations/issue-tracker", {
      body: { apiKey: "lin_api_0123456789abcdefWXYZ", teamId: "team-1", autoCreateIssues: true },
    });
    expect(tracker.status).toBe(201);
    expect(tracker.body.data).toMatchObject({ apiKey: "****WXYZ", teamId: "team-1", autoCreateIssues: true });
    expect((await t.call("GET", "/api/v1/integrations/issue-tracker")).text).not.toContain("lin_api_0123");
  });

  test("a secret of 8 characters or fewer shows as **** alone; a longer one shows its last 4", async () => {
    const short = await t.call("PUT", "/api/v1/integrations/issue-tracker", {
      body: { apiKey: "abcd1234", teamId: "team-1" },
    });
    expect(short.body.data.apiKey).toBe("****");
    expect((await t.call("GET", "/api/v1/integrations/issue-tracker")).body.data.apiKey).toBe("****");
    const tiny = await t.call("PUT", "/api/v1/integrations/code-host", {
      body: { repoOwner: "acme", repoName: "board", accessToken: "abc" },
    });
    expect(tiny.body.data.accessToken).toBe("****");
    const longer = await t.call("PUT", "/api/v1/integrations/issue-tracker", {
      body: { apiKey: "abcd12345", teamId: "team-1" },
    });
    expect(longer.body.data.apiKey).toBe("****2345");
    await t.call("DELETE", "/api/v1/integrations/issue-tracker");
    await t.call("DELETE", "/api/v1/integrations/code-host");
  });

  test("required fields, unknown fields, unsafe URLs → 400 and nothing stored", async () => {
    const cases: [string, unknown][] = [
      ["/api/v1/integrations/community-chat", {}],
      ["/api/v1/integrations/community-chat", { webhookUrl: "https://10.0.0.1/hook" }],
      ["/api/v1/integrations/community-chat", { webhookUrl: "https://169.254.169.254/hook" }],
      ["/api/v1/integrations/community-chat", { webhookUrl: "http://93.184.216.34/hook" }],
      ["/api/v1/integrations/community-chat", { webhookUrl: PUBLIC_HOOK, extra: 1 }],
      ["/api/v1/integrations/code-host", { repoOwner: "acme" }],
      ["/api/v1/integrations/issue-tracker", { teamId: "x" }],
    ];
    for (const [path, body] of cases)
      expectApiError(await t.call("PUT", path, { body }), 400, "VALIDATION_ERROR");
    expectApiError(await t.call("GET", "/api/v1/integrations/community-chat"), 404, "INTEGRATION_NOT_FOUND");
  });

  test("issue tracker with autoCreateIssues needs teamId: 400 naming teamId, nothing stored", async () => {
    for (const body of [
      { apiKey: "lin_api_0123456789", autoCreateIssues: true },
      { apiKey: "lin_api_0123456789", autoCreateIssues: true, teamId: null },
      { apiKey: "lin_api_0123456789", autoCreateIssues: true, teamId: "  " },
    ]) {
      const refused = await t.call("PUT", "/api/v1/integrations/issue-tracker", { body });
      expectApiError(refused, 400, "VALIDATION_ERROR");
      expect(refused.body.message).toContain("teamId");
    }
    expectApiError(await t.call("GET", "/api/v1/integrations/issue-tracker"), 404, "INTEGRATION_NOT_FOUND");
    const withoutAuto = await t.call("PUT", "/api/v1/integrations/issue-tracker", {
      body: { apiKey: "lin_api_0123456789" },
    });
    expect(withoutAuto.status).toBe(201);
    expect(withoutAuto.body.data).toMatchObject({ teamId: null, autoCreateIssues: false });
    await t.call("DELETE", "/api/v1/integrations/issue-tracker");
  });

  test("another project sees none of them", async () => {
    await t.call("PUT", "/api/v1/integrations/community-chat", { body: { webhookUrl: PUBLIC_HOOK } });
    expectApiError(
      await t.call("GET", "/api/v1/integrations/community-chat", { key: t.other.secretKey }),
      404,
      "INTEGRATION_NOT_FOUND",
    );
  });
});

describe("integrations at work, against real loopback servers", () => {
  let t: TestApp;
  let worker: DeliveryWorker;
  let servers: Receiver[] = [];

  function start(env: Record<string, string> = {}) {
    t = createTestApp({ FEATUREBOARD_ALLOW_PRIVATE_TARGETS: "true", ...env });
    worker = startDeliveryWorker(t.ctx);
  }
  function server(answer?: Answer) {
    const created = startReceiver(answer);
    servers.push(created);
    return created;
  }
  /**
   * A loopback code host speaking enough of GitHub's issues API: POST opens issue `firstNumber`, then the
   * next; GET lists them newest first. The first `lostAnswers` POSTs open their issue and then answer 502,
   * as when the answer is lost after GitHub created the issue.
   */
  function codeHost(firstNumber: number, lostAnswers = 0) {
    const issues: { number: number; html_url: string; title: string; body: string }[] = [];
    let created = 0;
    const receiver = server((request) => {
      if (request.path !== "/repos/acme/board/issues") return new Response("not found", { status: 404 });
      if (request.method === "GET") return Response.json([...issues].reverse());
      const { title, body } = JSON.parse(request.body);
      const number = firstNumber + created++;
      const issue = { number, html_url: `https://github.example/acme/board/issues/${number}`, title, body };
      issues.push(issue);
      return created <= lostAnswers
        ? new Response("bad gateway", { status: 502 })
        : Response.json(issue, { status: 201 });
    });
    const creates = () => receiver.received.filter((request) => request.method === "POST");
    return { url: receiver.url, receiver, issues, creates };
  }
  async function put(kind: string, body: Record<string, unknown>) {
    const response = await t.call("PUT", `/api/v1/integrations/${kind}`, { body });
    if (response.status !== 201) throw new Error(response.text);
  }
  /** Waits until every delivery made so far is settled: nothing is left to arrive. */
  async function settled() {
    const pending = () =>
      t.ctx.db.query<{ n: number }, []>("SELECT count(*) AS n FROM deliveries WHERE state = 'pending'").get()!
        .n +
      t.ctx.db.query<{ n: number }, []>("SELECT count(*) AS n FROM events WHERE dispatched_at IS NULL").get()!
        .n;
    await waitUntil(() => pending() === 0);
  }

  afterEach(async () => {
    await worker.stop();
    t.close();
    for (const each of servers) each.stop();
    servers = [];
  });

  test("chats get new posts and public comments, never metadata, internal notes or PATCH status changes", async () => {
    start();
    const teamChat = server();
    const communityChat = server();
    const webhook = server();
    await put("team-chat", { webhookUrl: `${teamChat.url}/slack`, channel: "#feedback" });
    await put("community-chat", { webhookUrl: `${communityChat.url}/discord` });
    await t.call("POST", "/api/v1/integrations/webhooks", { body: { url: webhook.url, events: ["*"] } });

    const post = await makePost(t, {
      title: "Export to CSV",
      description: "Monthly reports",
      status: "APPROVED",
      metadata: { secretCrmNote: "churn-risk-account" },
    });
    await t.call("POST", `/api/v1/posts/${post.id}/comments`, {
      body: { body: "We need this too", authorName: "Ann" },
    });
    await t.call("POST", `/api/v1/posts/${post.id}/comments`, {
      body: { body: "internal: big customer", isInternalNote: true },
    });
    const patched = await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { status: "IN_PROGRESS" } });
    expect(patched.status).toBe(200);
    await settled();

    const webhookTypes = webhook.received.map((request) => JSON.parse(request.body).type);
    expect(webhookTypes).toContain("post.status_changed");

    expect(teamChat.received).toHaveLength(2);
    const slack = teamChat.received.map((request) => JSON.parse(request.body));
    expect(slack[0]).toEqual({ text: "New post: *Export to CSV*\nMonthly reports", channel: "#feedback" });
    expect(slack[1].text).toBe("New comment from Ann on *Export to CSV*:\nWe need this too");

    expect(communityChat.received).toHaveLength(2);
    const discord = communityChat.received.map((request) => JSON.parse(request.body));
    expect(discord[0].content).toBe("New post: **Export to CSV**\nMonthly reports");

    for (const request of [...teamChat.received, ...communityChat.received]) {
      expect(request.body).not.toContain("churn-risk-account");
      expect(request.body).not.toContain("metadata");
      expect(request.body).not.toContain("internal: big customer");
      expect(request.body).not.toContain("IN_PROGRESS");
    }
  });

  test("the community chat hears only of what the public board shows; the team chat of every new post", async () => {
    start();
    const teamChat = server();
    const communityChat = server();
    await put("team-chat", { webhookUrl: teamChat.url });
    await put("community-chat", { webhookUrl: communityChat.url });
    const pending = await makePost(t, {
      title: "Spam: buy pills",
      description: "billed to jane@bigcorp.com",
    });
    await t.call("POST", `/api/v1/posts/${pending.id}/comments`, { body: { body: "On a pending post" } });
    await makePost(t, { title: "Listed request", status: "APPROVED" });
    await settled();
    expect(teamChat.received).toHaveLength(3);
    const shown = communityChat.received.map((request) => JSON.parse(request.body).content as string);
    expect(shown).toEqual(["New post: **Listed request**"]);

    // A private board has no public community: nothing reaches it.
    t.ctx.db.run("UPDATE projects SET is_public = 0 WHERE slug = 'acme'");
    await makePost(t, { title: "Confidential: churn risk", status: "APPROVED" });
    await settled();
    expect(communityChat.received).toHaveLength(1);
    expect(teamChat.received).toHaveLength(4);
  });

  test("what people wrote cannot ping a chat's channel or show a link under another name", async () => {
    start();
    const teamChat = server();
    const communityChat = server();
    await put("team-chat", { webhookUrl: teamChat.url });
    await put("community-chat", { webhookUrl: communityChat.url });
    await makePost(t, {
      title: "<!channel> Your SSO expires today",
      description:
        "Re-verify: <https://evil.example/login|https://board.acme.com/admin> & [Admin login](https://evil.example)",
      status: "APPROVED",
    });
    await settled();
    const slack = JSON.parse(teamChat.received[0]!.body).text as string;
    expect(slack).toBe(
      "New post: *&lt;!channel&gt; Your SSO expires today*\nRe-verify: &lt;https://evil.example/login|https://board.acme.com/admin&gt; &amp; [Admin login](https://evil.example)",
    );
    const discord = JSON.parse(communityChat.received[0]!.body);
    expect(discord.allowed_mentions).toEqual({ parse: [] });
    expect(discord.content).toContain("\\[Admin login\\]\\(https://evil.example\\)");
    expect(discord.content).not.toContain("[Admin login](");
  });

  test("a disabled chat integration gets nothing", async () => {
    start();
    const teamChat = server();
    await put("team-chat", { webhookUrl: teamChat.url, enabled: false });
    await makePost(t);
    await settled();
    expect(teamChat.received).toHaveLength(0);
  });

  test("code host with autoCreateIssues: approving opens exactly one issue, approving again opens none", async () => {
    const github = codeHost(17);
    start({ FEATUREBOARD_CODE_HOST_API_URL: github.url });
    await put("code-host", {
      repoOwner: "acme",
      repoName: "board",
      accessToken: "ghp_token_for_tests",
      syncLabels: true,
      autoCreateIssues: true,
    });
    const tag = await makeTag(t, "billing");
    const post = await makePost(t, { title: "Invoices in PDF", description: "Per month", tagIds: [tag.id] });
    await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { status: "APPROVED" } });
    await settled();
    expect(github.creates()).toHaveLength(1);
    const call = github.creates()[0]!;
    expect(call.headers.authorization).toBe("Bearer ghp_token_for_tests");
    const issue = JSON.parse(call.body);
    expect(issue).toMatchObject({ title: "Invoices in PDF", labels: ["billing"] });
    expect(issue.body).toContain("Per month");
    expect(issueLinksOfPost(t.ctx.db, post.id)).toEqual([
      { provider: "code-host", externalId: "17", url: "https://github.example/acme/board/issues/17" },
    ]);

    // The same status again is no change; leaving APPROVED and coming back finds the link and opens nothing.
    await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { status: "APPROVED" } });
    await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { status: "IN_PROGRESS" } });
    await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { status: "APPROVED" } });
    await settled();
    expect(github.creates()).toHaveLength(1);

    // A post created already APPROVED opens its own issue; other posts open none.
    await makePost(t, { title: "Not approved" });
    await makePost(t, { title: "Pre-approved", status: "APPROVED" });
    await settled();
    expect(github.creates().map((request) => JSON.parse(request.body).title)).toEqual([
      "Invoices in PDF",
      "Pre-approved",
    ]);
  });

  test("the opened issue shows on the post: GET, the list, later webhook payloads; never the public API", async () => {
    const github = codeHost(42);
    start({ FEATUREBOARD_CODE_HOST_API_URL: github.url });
    await put("code-host", {
      repoOwner: "acme",
      repoName: "board",
      accessToken: "t",
      autoCreateIssues: true,
    });
    const post = await makePost(t, { title: "Gantt view" });
    const other = await makePost(t, { title: "No issue here" });
    expect((await t.call("GET", `/api/v1/posts/${post.id}`)).body.data.issueLinks).toEqual([]);
    await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { status: "APPROVED" } });
    await settled();
    const link = {
      provider: "code-host",
      url: "https://github.example/acme/board/issues/42",
      externalId: "42",
    };

    const read = await t.call("GET", `/api/v1/posts/${post.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.issueLinks).toEqual([link]);
    const list = await t.call("GET", "/api/v1/posts?sort=date");
    const listed = new Map(
      (list.body.data as { id: string; issueLinks: unknown }[]).map((entry) => [entry.id, entry.issueLinks]),
    );
    expect(listed.get(post.id)).toEqual([link]);
    expect(listed.get(other.id)).toEqual([]);
    const cursor = await t.call("GET", "/api/v1/posts?sort=date&cursor=");
    expect(cursor.body.data.find((entry: { id: string }) => entry.id === post.id).issueLinks).toEqual([link]);

    // A webhook endpoint subscribed afterwards hears the link with the post's next change.
    const hook = server();
    await t.call("POST", "/api/v1/integrations/webhooks", {
      body: { url: hook.url, events: ["post.updated"] },
    });
    await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { title: "Gantt chart view" } });
    const [delivery] = await hook.waitFor(1);
    expect(JSON.parse(delivery!.body).data).toMatchObject({ id: post.id, issueLinks: [link] });

    // The public board is for end users: the issue tracker's addresses stay private.
    const publicPost = await t.call("GET", `/api/public/boards/acme/posts/${post.id}`, { key: null });
    expect(publicPost.status).toBe(200);
    expect(publicPost.body.data.issueLinks).toBeUndefined();
    expect(publicPost.text).not.toContain("github.example");
    const publicList = await t.call("GET", "/api/public/boards/acme/posts", { key: null });
    expect(publicList.status).toBe(200);
    expect(publicList.text).not.toContain("github.example");
  });

  test("an issue opened whose answer was lost is found by its marker on the retry, not opened twice", async () => {
    const github = codeHost(7, 1);
    start({ FEATUREBOARD_CODE_HOST_API_URL: github.url, FEATUREBOARD_WEBHOOK_RETRY_SCHEDULE: "10ms" });
    await put("code-host", {
      repoOwner: "acme",
      repoName: "board",
      accessToken: "t",
      autoCreateIssues: true,
    });
    const earlier = await makePost(t, { title: "Opened by hand, mentions nothing" });
    github.issues.push({
      number: 3,
      html_url: "https://github.example/acme/board/issues/3",
      title: "x",
      body: earlier.id,
    });
    const post = await makePost(t, { title: "Kanban view" });
    await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { status: "APPROVED" } });
    await settled();
    expect(github.creates()).toHaveLength(1);
    expect(github.issues.filter((issue) => issue.title === "Kanban view")).toHaveLength(1);
    expect(issueLinksOfPost(t.ctx.db, post.id)).toEqual([
      { provider: "code-host", externalId: "7", url: "https://github.example/acme/board/issues/7" },
    ]);
    // Every attempt looked first: the first found nothing and opened #7, the retry found #7.
    const lookups = github.receiver.received.filter((request) => request.method === "GET");
    expect(lookups).toHaveLength(2);
    const query = new URLSearchParams(lookups[0]!.search);
    expect(query.get("state")).toBe("all");
    expect(Date.parse(query.get("since")!)).toBeLessThanOrEqual(Date.now());
    const attempts = t.ctx.db
      .query<{ error: string | null }, []>("SELECT error FROM delivery_attempts ORDER BY started_at, attempt")
      .all();
    expect(attempts.map((attempt) => attempt.error === null)).toEqual([false, true]);
  });

  test("a failing look-up is a failed attempt: nothing is opened until the code host can be read", async () => {
    const issues: unknown[] = [];
    const github = server((request, index) => {
      if (request.method === "GET")
        return index === 0 ? new Response("down", { status: 503 }) : Response.json(issues);
      const issue = { number: 1, html_url: "https://github.example/acme/board/issues/1" };
      issues.push(issue);
      return Response.json(issue, { status: 201 });
    });
    start({ FEATUREBOARD_CODE_HOST_API_URL: github.url, FEATUREBOARD_WEBHOOK_RETRY_SCHEDULE: "10ms" });
    await put("code-host", {
      repoOwner: "acme",
      repoName: "board",
      accessToken: "t",
      autoCreateIssues: true,
    });
    await makePost(t, { status: "APPROVED" });
    await settled();
    expect(github.received.map((request) => request.method)).toEqual(["GET", "GET", "POST"]);
  });

  test("code host with syncLabels false sends no labels", async () => {
    const github = codeHost(1);
    start({ FEATUREBOARD_CODE_HOST_API_URL: github.url });
    await put("code-host", {
      repoOwner: "acme",
      repoName: "board",
      accessToken: "t",
      syncLabels: false,
      autoCreateIssues: true,
    });
    const tag = await makeTag(t, "billing");
    await makePost(t, { title: "Tagged", status: "APPROVED", tagIds: [tag.id] });
    await settled();
    expect(github.creates()).toHaveLength(1);
    const issue = JSON.parse(github.creates()[0]!.body);
    expect(issue.title).toBe("Tagged");
    expect(issue.labels).toBeUndefined();
    expect(github.creates()[0]!.body).not.toContain("billing");
  });

  test("code host without autoCreateIssues opens nothing", async () => {
    const github = server(() => Response.json({ number: 1, html_url: "https://x/1" }, { status: 201 }));
    start({ FEATUREBOARD_CODE_HOST_API_URL: github.url });
    await put("code-host", { repoOwner: "acme", repoName: "board", accessToken: "t" });
    await makePost(t, { status: "APPROVED" });
    await settled();
    expect(github.received).toHaveLength(0);
  });

  test("issue tracker with autoCreateIssues: one GraphQL issueCreate per approved post, link stored", async () => {
    const linear = server((request) => {
      const { query, variables } = JSON.parse(request.body);
      if (request.path !== "/graphql" || !String(query).includes("issueCreate")) {
        return Response.json({ errors: [{ message: "unexpected" }] });
      }
      return Response.json({
        data: {
          issueCreate: {
            success: true,
            issue: {
              id: "iss-1",
              identifier: "FB-1",
              url: `https://linear.example/FB-1/${variables.input.teamId}`,
            },
          },
        },
      });
    });
    start({ FEATUREBOARD_ISSUE_TRACKER_API_URL: linear.url });
    await put("issue-tracker", { apiKey: "lin_api_key", teamId: "team-9", autoCreateIssues: true });
    const post = await makePost(t, { title: "Audit log", metadata: { internal: "do-not-leak" } });
    await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { status: "APPROVED" } });
    await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { status: "PENDING" } });
    await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { status: "APPROVED" } });
    await settled();
    expect(linear.received).toHaveLength(1);
    expect(linear.received[0]!.headers.authorization).toBe("lin_api_key");
    expect(JSON.parse(linear.received[0]!.body).variables.input).toMatchObject({
      teamId: "team-9",
      title: "Audit log",
    });
    expect(linear.received[0]!.body).not.toContain("do-not-leak");
    // The issue tracker has no syncLabels: its issues never carry labels.
    expect(JSON.parse(linear.received[0]!.body).variables.input.labelIds).toBeUndefined();
    expect(issueLinksOfPost(t.ctx.db, post.id)).toEqual([
      { provider: "issue-tracker", externalId: "iss-1", url: "https://linear.example/FB-1/team-9" },
    ]);
  });

  test("a GraphQL error is a failed attempt, retried", async () => {
    const linear = server((_, index) =>
      index === 0
        ? Response.json({ errors: [{ message: "rate limited" }] })
        : Response.json({ data: { issueCreate: { success: true, issue: { id: "i", url: "https://l/i" } } } }),
    );
    start({ FEATUREBOARD_ISSUE_TRACKER_API_URL: linear.url, FEATUREBOARD_WEBHOOK_RETRY_SCHEDULE: "10ms" });
    await put("issue-tracker", { apiKey: "k", teamId: "t", autoCreateIssues: true });
    const post = await makePost(t, { status: "APPROVED" });
    await settled();
    expect(linear.received).toHaveLength(2);
    const attempts = t.ctx.db
      .query<{ attempt: number; error: string | null }, []>(
        "SELECT attempt, error FROM delivery_attempts ORDER BY attempt",
      )
      .all();
    expect(attempts[0]!.error).toContain("rate limited");
    expect(attempts[1]!.error).toBeNull();
    expect(issueLinksOfPost(t.ctx.db, post.id)).toHaveLength(1);
  });
});
