import { afterAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { createTestApp } from "../support/app";
import { listen, makePost, makeTag, makeUser } from "../support/board";
import { callTool, connectHttp, toolValue } from "../support/mcp";

const t = createTestApp();
const server = listen(t);
const admin = await connectHttp(server.url, { key: t.project.secretKey });
const otherAdmin = await connectHttp(server.url, { key: t.other.secretKey });
afterAll(async () => {
  for (const client of [admin, otherAdmin] as Client[]) await client.close();
  await server.stop();
  t.close();
});

/** The admin-mode tools of docs/mcp.md, besides the four public ones. */
const ADMIN_TOOLS = [
  "list_posts",
  "get_post",
  "create_post",
  "update_post",
  "delete_post",
  "bulk_update_posts",
  "merge_posts",
  "add_vote",
  "get_voters",
  "add_comment",
  "get_comments",
  "delete_comment",
  "list_tags",
  "create_tag",
  "list_users",
  "update_user",
  "get_roadmap",
  "get_analytics",
  "get_activity",
  "list_releases",
  "create_release",
  "search_similar",
  "submit_feedback",
  "triage_inbox",
  "get_summary",
  "plan_sprint",
  "sync_payments",
  "list_webhooks",
  "create_webhook",
];
const PUBLIC_TOOLS = ["submit_feature_request", "browse_board", "upvote_post", "add_public_comment"];

const rest = async (method: string, path: string, body?: unknown) =>
  (await t.call(method, path, { body })).body;

describe("hosted MCP with a secret key (admin mode)", () => {
  test("every admin tool is listed with a title, annotations and an output schema", async () => {
    const { tools } = await admin.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...ADMIN_TOOLS, ...PUBLIC_TOOLS].sort());
    for (const tool of tools) {
      expect(tool.title).toBeTruthy();
      expect(tool.annotations?.title).toBe(tool.title);
      for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
        expect(typeof tool.annotations?.[hint]).toBe("boolean");
      }
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get("list_posts")?.annotations?.readOnlyHint).toBe(true);
    expect(byName.get("delete_post")?.annotations?.destructiveHint).toBe(true);
    expect(byName.get("update_post")?.annotations?.idempotentHint).toBe(true);
  });

  test("list_posts agrees with GET /posts on the same data", async () => {
    await makePost(t, { title: "Listed one", status: "APPROVED" });
    await makePost(t, { title: "Listed two", metadata: { tier: "gold" } });
    const viaTool = await toolValue(admin, "list_posts", { limit: 10 });
    const viaRest = await rest("GET", "/api/v1/posts?limit=10");
    expect(viaTool).toEqual({ posts: viaRest.data, pagination: viaRest.pagination });
    const approved = await toolValue(admin, "list_posts", { status: "APPROVED", sort: "date" });
    expect(approved.posts).toEqual((await rest("GET", "/api/v1/posts?status=APPROVED&sort=date")).data);
    const scan = await toolValue(admin, "list_posts", { cursor: "", limit: 1 });
    expect(scan.pagination.nextCursor).toEqual(expect.any(String));
    // Another project's key sees none of it.
    expect((await toolValue(otherAdmin, "list_posts", {})).posts).toEqual([]);
  });

  test("create_post, get_post and update_post agree with the REST API", async () => {
    const tag = await makeTag(t, "Integrations");
    const user = await makeUser(t, { email: "buyer@example.com", name: "Buyer" });
    const created = await toolValue(admin, "create_post", {
      title: "Zapier integration",
      description: "Trigger zaps on new posts",
      tag_ids: [tag.id],
      metadata: { crm: "hubspot-42" },
      created_by_board_user_id: user.id,
    });
    expect(created.post).toMatchObject({
      title: "Zapier integration",
      status: "PENDING",
      metadata: { crm: "hubspot-42" },
    });
    const viaRest = (await rest("GET", `/api/v1/posts/${created.post.id}`)).data;
    expect(viaRest).toMatchObject({ ...created.post, tags: [tag] });
    expect((await toolValue(admin, "get_post", { post_id: created.post.id })).post).toEqual(viaRest);

    const updated = await toolValue(admin, "update_post", {
      post_id: created.post.id,
      status: "IN_PROGRESS",
      metadata: null,
    });
    expect(updated.post).toMatchObject({ status: "IN_PROGRESS", metadata: null });
    expect((await rest("GET", `/api/v1/posts/${created.post.id}`)).data).toMatchObject({
      status: "IN_PROGRESS",
      metadata: null,
    });
    const noChange = await callTool(admin, "update_post", { post_id: created.post.id, notify: true });
    expect(noChange.value.error_code).toBe("VALIDATION_ERROR");
  });

  test("add_vote and get_voters agree with the votes API; a duplicate is DUPLICATE_VOTE", async () => {
    const post = await makePost(t, { title: "Vote through MCP", status: "APPROVED" });
    const user = await makeUser(t, { email: "fan@example.com", name: "Fan" });
    const vote = await toolValue(admin, "add_vote", { post_id: post.id, board_user_id: user.id });
    expect(vote.vote).toMatchObject({
      boardUserId: user.id,
      boardUserName: "Fan",
      boardUserEmail: "fan@example.com",
    });
    await toolValue(admin, "add_vote", { post_id: post.id, anonymous_id: "visitor-7" });
    const viaRest = (await rest("GET", `/api/v1/posts/${post.id}/votes`)).data;
    expect(viaRest).toHaveLength(2);
    expect((await toolValue(admin, "get_voters", { post_id: post.id })).votes).toEqual(viaRest);
    expect((await rest("GET", `/api/v1/posts/${post.id}`)).data.voteCount).toBe(2);
    const again = await callTool(admin, "add_vote", { post_id: post.id, board_user_id: user.id });
    expect(again).toMatchObject({ isError: true, value: { error_code: "DUPLICATE_VOTE" } });
  });

  test("comments, tags and users round-trip through the same services as REST", async () => {
    const post = await makePost(t, { title: "Discussed", status: "APPROVED" });
    const note = await toolValue(admin, "add_comment", {
      post_id: post.id,
      body: "Est. 3 days",
      is_internal_note: true,
    });
    const reply = await toolValue(admin, "add_comment", {
      post_id: post.id,
      body: "Coming soon",
      author_name: "PM",
    });
    expect((await toolValue(admin, "get_comments", { post_id: post.id })).comments).toEqual([reply.comment]);
    expect((await toolValue(admin, "get_comments", { post_id: post.id, internal: "all" })).comments).toEqual(
      (await rest("GET", `/api/v1/posts/${post.id}/comments?internal=all`)).data,
    );
    // `internal` is a flag to an agent: true is the notes only, as the REST query's "true" is.
    const notes = (await rest("GET", `/api/v1/posts/${post.id}/comments?internal=true`)).data;
    expect(notes).toEqual([note.comment]);
    expect((await toolValue(admin, "get_comments", { post_id: post.id, internal: true })).comments).toEqual(
      notes,
    );
    expect((await toolValue(admin, "get_comments", { post_id: post.id, internal: "true" })).comments).toEqual(
      notes,
    );
    expect((await toolValue(admin, "get_comments", { post_id: post.id, internal: false })).comments).toEqual([
      reply.comment,
    ]);
    expect((await callTool(admin, "get_comments", { post_id: post.id, internal: "yes" })).value.message).toBe(
      `Invalid 'internal': must be true, false or the string "all"`,
    );
    expect(
      await toolValue(admin, "delete_comment", { post_id: post.id, comment_id: note.comment.id }),
    ).toEqual({ success: true });
    expect((await rest("GET", `/api/v1/posts/${post.id}/comments?internal=true`)).data).toEqual([]);

    const tag = await toolValue(admin, "create_tag", { label: "Billing", theme: "#ff0000" });
    expect((await toolValue(admin, "list_tags")).tags).toEqual((await rest("GET", "/api/v1/tags")).data);
    expect((await rest("GET", "/api/v1/tags")).data).toContainEqual(tag.tag);
    expect((await callTool(admin, "create_tag", { label: "billing" })).value.error_code).toBe(
      "TAG_ALREADY_EXISTS",
    );

    const user = await makeUser(t, { email: "whale@example.com" });
    const updated = await toolValue(admin, "update_user", {
      user_id: user.id,
      user_spend: 1234.5,
      name: "Whale",
    });
    expect(updated.user).toMatchObject({ userSpend: "1234.50", name: "Whale" });
    expect((await rest("GET", `/api/v1/users/${user.id}`)).data).toEqual(updated.user);
    const users = await toolValue(admin, "list_users", { limit: 100 });
    const restUsers = await rest("GET", "/api/v1/users?limit=100");
    expect(users).toEqual({ users: restUsers.data, pagination: restUsers.pagination });
  });

  test("bulk_update_posts, merge_posts and delete_post", async () => {
    const a = await makePost(t, { title: "Bulk A" });
    const b = await makePost(t, { title: "Bulk B" });
    const bulk = await toolValue(admin, "bulk_update_posts", {
      items: [
        { id: a.id, status: "APPROVED" },
        { id: "missing", status: "APPROVED" },
        { id: b.id, title: "" },
        { id: b.id, tag_ids: ["no-such-tag"] },
      ],
    });
    expect(bulk.results.map((result: { status: string }) => result.status)).toEqual([
      "updated",
      "error",
      "error",
      "error",
    ]);
    expect(bulk.results[2].error.error_code).toBe("VALIDATION_ERROR");
    expect(bulk.results[3].error.error_code).toBe("TAG_NOT_FOUND");
    expect((await rest("GET", `/api/v1/posts/${a.id}`)).data.status).toBe("APPROVED");

    // An item field the tool does not have, the REST name `tagIds` included, fails that item alone.
    const tag = await toolValue(admin, "create_tag", { label: "Bulk tag" });
    const mixed = await toolValue(admin, "bulk_update_posts", {
      items: [
        { id: b.id, tagIds: [tag.tag.id] },
        { id: a.id, title: "Bulk A, renamed" },
        { id: b.id, colour: "red" },
        { id: b.id, status: "APPROVED" },
      ],
    });
    expect(mixed.results).toEqual([
      {
        index: 0,
        id: b.id,
        status: "error",
        error: { error_code: "VALIDATION_ERROR", message: "Invalid 'tagIds': is not a known field" },
      },
      expect.objectContaining({ index: 1, id: a.id, status: "updated" }),
      {
        index: 2,
        id: b.id,
        status: "error",
        error: { error_code: "VALIDATION_ERROR", message: "Invalid 'colour': is not a known field" },
      },
      expect.objectContaining({ index: 3, id: b.id, status: "updated" }),
    ]);
    const bAfter = (await rest("GET", `/api/v1/posts/${b.id}`)).data;
    expect(bAfter).toMatchObject({ status: "APPROVED", tags: [] });

    await toolValue(admin, "add_vote", { post_id: b.id, anonymous_id: "x" });
    const merged = await toolValue(admin, "merge_posts", { post_id: b.id, into_post_id: a.id });
    expect(merged).toMatchObject({
      post: { status: "CLOSED", mergedIntoId: a.id },
      into: { voteCount: 1 },
      movedVotes: 1,
    });
    expect((await rest("GET", `/api/v1/posts/${a.id}`)).data.voteCount).toBe(1);

    expect(await toolValue(admin, "delete_post", { post_id: b.id })).toEqual({ success: true });
    expect((await t.call("GET", `/api/v1/posts/${b.id}`)).status).toBe(404);
  });

  test("errors: unknown or foreign ids are POST_NOT_FOUND, bad arguments VALIDATION_ERROR naming the argument", async () => {
    const foreign = await makePost(t, { title: "Elsewhere" }, t.other.secretKey);
    expect((await callTool(admin, "get_post", { post_id: foreign.id })).value).toMatchObject({
      error_code: "POST_NOT_FOUND",
      message: "Entity not found in this project",
    });
    const bad = await callTool(admin, "create_post", { title: "" });
    expect(bad.value.error_code).toBe("VALIDATION_ERROR");
    expect(bad.value.message).toContain("title");
    expect((await callTool(admin, "list_posts", { limit: 500 })).value.message).toContain("limit");
    expect((await callTool(admin, "list_posts", { page: 2, cursor: "" })).value.error_code).toBe(
      "VALIDATION_ERROR",
    );
    // The client adds "MCP error <code>: " itself: the server's message must not carry it already.
    await expect(admin.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(
      /^MCP error -32602: Unknown tool: no_such_tool$/,
    );
    await expect(admin.getPrompt({ name: "no_such_prompt" })).rejects.toThrow(
      /^MCP error -32602: Unknown prompt: no_such_prompt$/,
    );
    await expect(admin.readResource({ uri: "featureboard://nowhere" })).rejects.toThrow(
      /^MCP error -32602: Unknown resource: featureboard:\/\/nowhere$/,
    );
  });

  test("a validation error's hint points an agent to the tool's inputSchema, not the OpenAPI document", async () => {
    const post = await makePost(t, { title: "Hinted" });
    const outcomes = [
      await callTool(admin, "create_post", { title: "" }),
      await callTool(admin, "get_post", { post_id: post.id, postId: post.id }),
      await callTool(admin, "merge_posts", { post_id: post.id, into_post_id: post.id }),
      await callTool(admin, "update_post", { post_id: post.id, notify: true }),
      await callTool(admin, "browse_board", { project_slug: "someone-else" }),
    ];
    expect(outcomes.map((outcome) => outcome.value.resolution_hint)).toEqual([
      "Fix 'title' and send the request again; tools/list gives each tool's inputSchema.",
      "Fix 'postId' and send the request again; tools/list gives each tool's inputSchema.",
      "Fix 'into_post_id' and send the request again; tools/list gives each tool's inputSchema.",
      "Fix the arguments and send it again; tools/list gives each tool's inputSchema.",
      "Fix 'project_slug' and send the request again; tools/list gives each tool's inputSchema.",
    ]);
    for (const outcome of outcomes) expect(outcome.value.suggestion).toBe(outcome.value.resolution_hint);
    // The REST API keeps pointing to its OpenAPI document.
    const viaRest = await t.call("POST", "/api/v1/posts", { body: { title: "" } });
    expect(viaRest.body.resolution_hint).toContain("the OpenAPI document lists every field's rules");
  });

  test("a rule's error names the tool's arguments (snake_case), not the REST fields they mirror", async () => {
    const post = await makePost(t, { title: "Named arguments" });
    const empty = await callTool(admin, "update_post", { post_id: post.id, notify: true });
    expect(empty.value.error_code).toBe("VALIDATION_ERROR");
    expect(empty.value.message).toContain("tag_ids");
    expect(empty.value.message).not.toContain("tagIds");
    const self = await callTool(admin, "merge_posts", { post_id: post.id, into_post_id: post.id });
    expect(self.value.message).toContain("'into_post_id'");
    const both = await callTool(admin, "add_vote", { post_id: post.id });
    expect(both.value.message).toContain("board_user_id");
    expect(both.value.message).toContain("anonymous_id");
    expect(both.value.message).not.toMatch(/boardUserId|anonymousId/);
    // A tool has no request body: a rule about its arguments as a whole says "arguments".
    expect(empty.value.message).toStartWith("Invalid arguments: needs at least one of title");
    expect(both.value.message).toStartWith("Invalid arguments: give exactly one of");
    const user = await makeUser(t, { email: "terms@example.com" });
    expect((await callTool(admin, "update_user", { user_id: user.id })).value.message).toBe(
      "Invalid arguments: give at least one of user_spend, name, email",
    );
    // A bulk item's error names the item's fields as the tool takes them.
    const bulk = await toolValue(admin, "bulk_update_posts", { items: [{ id: post.id }] });
    expect(bulk.results[0].error.message).toStartWith("Invalid item: needs at least one of");
    expect(bulk.results[0].error.message).toContain("tag_ids");
    expect(bulk.results[0].error.message).not.toContain("tagIds");
  });

  test("an argument the tool does not have is named as the caller wrote it, a camelCase twin included", async () => {
    const post = await makePost(t, { title: "Stray arguments" });
    const twin = await callTool(admin, "get_post", { post_id: post.id, postId: post.id });
    expect(twin.value.error_code).toBe("VALIDATION_ERROR");
    expect(twin.value.message).toContain("'postId'");
    expect(twin.value.message).not.toContain("'post_id'");
    const camel = await callTool(admin, "create_post", { title: "x", tagIds: [] });
    expect(camel.value.message).toContain("'tagIds'");
    expect(camel.value.message).toContain("is not a known field");
  });

  test("public tools work on the key's own project, even a private board", async () => {
    const board = await toolValue(admin, "browse_board", {});
    expect(board.projectSlug).toBe("acme");
    expect((await callTool(admin, "browse_board", { project_slug: "other-co" })).value.error_code).toBe(
      "VALIDATION_ERROR",
    );
  });

  test("resources read and prompts get in admin mode", async () => {
    const post = await makePost(t, { title: "Resource post", metadata: { secret: 1 } });
    await t.call("POST", `/api/v1/posts/${post.id}/comments`, {
      body: { body: "note", isInternalNote: true },
    });
    const read = async (uri: string) =>
      JSON.parse(((await admin.readResource({ uri })).contents[0] as { text: string }).text);
    expect(await read("featureboard://project")).toMatchObject({
      slug: "acme",
      plan: "growth",
      isPublic: true,
    });
    const full = await read(`featureboard://posts/${post.id}`);
    expect(full).toMatchObject({
      metadata: { secret: 1 },
      comments: [{ body: "note", isInternalNote: true }],
    });
    expect(Object.keys(await read("featureboard://roadmap"))).toEqual([
      "approved",
      "in_progress",
      "complete",
    ]);
    await expect(admin.readResource({ uri: "featureboard://posts/missing" })).rejects.toThrow(/not found/);

    const { prompts } = await admin.listPrompts();
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual([
      "plan_sprint",
      "publish_changelog",
      "submit_public_feedback",
      "weekly_triage",
    ]);
    const sprint = await admin.getPrompt({
      name: "plan_sprint",
      arguments: { capacity: "3", strategy: "revenue" },
    });
    expect((sprint.messages[0]?.content as { text: string }).text).toContain(
      "capacity 3 and strategy revenue",
    );
    // Arguments a prompt hands to a tool are checked as that tool checks them: invalid params, not instructions.
    const refusals: [name: string, args: Record<string, string>, message: string][] = [
      ["plan_sprint", { capacity: "abc" }, "Invalid params: 'arguments.capacity' must be an integer"],
      ["plan_sprint", { capacity: "2.5" }, "Invalid params: 'arguments.capacity' must be an integer"],
      ["plan_sprint", { capacity: "0" }, "Invalid params: 'arguments.capacity' must be at least 1"],
      [
        "plan_sprint",
        { strategy: "cheapest" },
        "Invalid params: 'arguments.strategy' must be one of balanced, revenue, popular, quick-wins",
      ],
      ["weekly_triage", { limit: "many" }, "Invalid params: 'arguments.limit' must be an integer"],
      [
        "weekly_triage",
        { limt: "5" },
        "Invalid params: 'arguments.limt' is not an argument of the prompt weekly_triage",
      ],
    ];
    for (const [name, args, message] of refusals) {
      const refused = await admin.getPrompt({ name, arguments: args }).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: ErrorCode.InvalidParams });
      expect((refused as Error).message).toEndWith(`: ${message}`);
    }
    const { prompts: listed } = await admin.listPrompts();
    expect(listed.find((prompt) => prompt.name === "plan_sprint")?.arguments?.[0]).toEqual({
      name: "capacity",
      description: "How many posts fit in the sprint (default 5)",
      required: false,
    });
  });
});

test("admin mode: upvote_post without anonymous_id votes as a stable id of the connection, never its address", async () => {
  const post = await makePost(t, { title: "Admin toggle", status: "APPROVED" });
  expect((await toolValue(admin, "upvote_post", { post_id: post.id })).voted).toBe(true);
  const votes = (await t.call("GET", `/api/v1/posts/${post.id}/votes`)).body.data;
  expect(votes).toEqual([
    expect.objectContaining({ anonymousId: expect.stringMatching(/^mcp-[0-9a-f]{24}$/) }),
  ]);
  expect((await toolValue(admin, "upvote_post", { post_id: post.id })).voted).toBe(false);
});
