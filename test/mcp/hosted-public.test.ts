import { afterAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createProject } from "../../src/projects/service";
import { createTestApp, readJson } from "../support/app";
import { listen, makePost } from "../support/board";
import { callTool, connectHttp, toolValue } from "../support/mcp";
import { plantPrivateData, PrivateDataScan, privateFieldsInSchema } from "../support/private-data";

const t = createTestApp();
const server = listen(t);
const scan = new PrivateDataScan();
const plantedPostId = await plantPrivateData(t);
createProject(t.ctx.db, { slug: "hidden", name: "Hidden", isPublic: false });
const clients: Client[] = [];
afterAll(async () => {
  for (const client of clients) await client.close();
  await server.stop();
  t.close();
});

async function publicClient(project?: string): Promise<Client> {
  const client = await connectHttp(server.url, project ? { project } : {});
  clients.push(client);
  return client;
}

const PUBLIC_TOOLS = ["add_public_comment", "browse_board", "submit_feature_request", "upvote_post"];

describe("hosted MCP without a key (public mode)", () => {
  test("lists exactly the four public tools, each with title, annotations and both schemas", async () => {
    const { tools } = await (await publicClient()).listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(PUBLIC_TOOLS);
    for (const tool of tools) {
      expect(tool.title).toBeTruthy();
      expect(tool.description?.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
        expect(typeof tool.annotations?.[hint]).toBe("boolean");
      }
    }
    expect(tools.find((tool) => tool.name === "browse_board")?.annotations?.readOnlyHint).toBe(true);
    // upvote_post toggles: a second identical call removes the vote the first one cast.
    expect(tools.find((tool) => tool.name === "upvote_post")?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
    });
    // What public tools answer cannot even describe private fields.
    expect(tools.flatMap((tool) => privateFieldsInSchema(tool.outputSchema, tool.name))).toEqual([]);
  });

  test("browse_board answers the visible posts by votes, the board URL and the slug", async () => {
    const client = await publicClient();
    const popular = await makePost(t, { title: "Popular", status: "IN_PROGRESS" });
    const client2 = await publicClient("acme");
    for (const anonymousId of ["a", "b"])
      await toolValue(client2, "upvote_post", { post_id: popular.id, anonymous_id: anonymousId });
    const pending = await makePost(t, { title: "Not yet approved" });

    const board = await toolValue(client, "browse_board", { project_slug: "acme" }, scan);
    expect(board.projectSlug).toBe("acme");
    expect(board.boardUrl).toBe(`${t.ctx.config.publicUrl}/b/acme`);
    const ids = board.posts.map((post: { id: string }) => post.id);
    expect(ids[0]).toBe(popular.id);
    expect(ids).toContain(plantedPostId);
    expect(ids).not.toContain(pending.id);
    // The board may also come from the URL: /mcp?project=acme.
    expect(await toolValue(client2, "browse_board", {}, scan)).toEqual(board);
    expect((await toolValue(client2, "browse_board", { q: "popular" }, scan)).posts).toHaveLength(1);
  });

  test("a connection to /mcp?project=<slug> is fixed to that board: naming another one is refused", async () => {
    const fixed = await publicClient("acme");
    const elsewhere = await callTool(fixed, "browse_board", { project_slug: "other-co" });
    expect(elsewhere.isError).toBe(true);
    expect(elsewhere.value).toMatchObject({ error_code: "VALIDATION_ERROR" });
    expect(elsewhere.value.message).toContain("acme");
    expect((await callTool(fixed, "browse_board", { project_slug: "acme" })).isError).toBe(false);
    // Without ?project=, the argument chooses the board.
    expect((await callTool(await publicClient(), "browse_board", { project_slug: "other-co" })).isError).toBe(
      false,
    );
  });

  test("browse_board pages like the public API and says how many posts there are", async () => {
    const client = await publicClient("acme");
    const first = await toolValue(client, "browse_board", { limit: 1 }, scan);
    expect(first.posts).toHaveLength(1);
    expect(first.pagination.total).toBeGreaterThan(1);
    expect(first.pagination).toEqual({
      page: 1,
      limit: 1,
      total: first.pagination.total,
      totalPages: first.pagination.total,
    });
    const second = await toolValue(client, "browse_board", { limit: 1, page: 2 }, scan);
    const viaApi = (await t.call("GET", "/api/public/boards/acme/posts?limit=1&page=2")).body;
    expect({ posts: second.posts, pagination: second.pagination }).toEqual({
      posts: viaApi.data,
      pagination: viaApi.pagination,
    });
    expect(second.posts[0].id).not.toBe(first.posts[0].id);
  });

  test("a malformed email is refused in words, as the REST API says it", async () => {
    const client = await publicClient("acme");
    const refused = await callTool(
      client,
      "submit_feature_request",
      { title: "Mail me", email: "bad" },
      scan,
    );
    expect(refused.value.error_code).toBe("VALIDATION_ERROR");
    expect(refused.value.message).toBe("Invalid 'email': must be an email address");
  });

  test("submit_feature_request files a PENDING post, with source kept in private metadata", async () => {
    const client = await publicClient("acme");
    const result = await toolValue(
      client,
      "submit_feature_request",
      {
        title: "Slack digest",
        description: "Weekly summary",
        email: "asker@example.com",
        source: "claude-code",
      },
      scan,
    );
    expect(result.post).toMatchObject({ title: "Slack digest", status: "PENDING", voteCount: 0 });
    expect(result.boardUrl).toBe(`${t.ctx.config.publicUrl}/b/acme`);
    const stored = (await t.call("GET", `/api/v1/posts/${result.post.id}`)).body.data;
    expect(stored.metadata).toEqual({ source: "claude-code" });
    expect(stored.createdByBoardUserId).toEqual(expect.any(String));
    const listed = await toolValue(client, "browse_board", {}, scan);
    expect(listed.posts.map((post: { id: string }) => post.id)).not.toContain(result.post.id);
  });

  test("upvote_post toggles one vote; add_public_comment adds a public comment", async () => {
    const client = await publicClient("acme");
    const post = await makePost(t, { title: "Toggle me", status: "APPROVED" });
    expect(
      await toolValue(client, "upvote_post", { post_id: post.id, anonymous_id: "agent-1" }, scan),
    ).toEqual({
      postId: post.id,
      voted: true,
      voteCount: 1,
    });
    expect(
      await toolValue(client, "upvote_post", { post_id: post.id, anonymous_id: "agent-1" }, scan),
    ).toEqual({
      postId: post.id,
      voted: false,
      voteCount: 0,
    });
    // anonymous_id is optional (docs/mcp.md): without it the vote is the connection's, under an id only this
    // installation can compute from the address: not a bare hash of it, which anyone could compute.
    const withoutId = await toolValue(client, "upvote_post", { post_id: post.id }, scan);
    expect(withoutId).toEqual({ postId: post.id, voted: true, voteCount: 1 });
    const [vote] = (await t.call("GET", `/api/v1/posts/${post.id}/votes`)).body.data;
    expect(vote.anonymousId).toMatch(/^mcp-[0-9a-f]{24}$/);
    for (const address of ["127.0.0.1", "::1", "::ffff:127.0.0.1", "unknown"]) {
      const bare = new Bun.CryptoHasher("sha256").update(`featureboard-mcp:${address}`).digest("hex");
      expect(vote.anonymousId).not.toBe(`mcp-${bare.slice(0, 24)}`);
    }
    expect((await toolValue(client, "upvote_post", { post_id: post.id }, scan)).voted).toBe(false);

    const comment = await toolValue(
      client,
      "add_public_comment",
      { post_id: post.id, body: "We need it too", author_name: "Agent" },
      scan,
    );
    expect(comment.comment).toMatchObject({ postId: post.id, body: "We need it too", authorName: "Agent" });
    const stored = (await t.call("GET", `/api/v1/posts/${post.id}/comments`)).body.data;
    expect(stored).toEqual([expect.objectContaining({ id: comment.comment.id, isInternalNote: false })]);
  });

  test("admin tools are refused with SECRET_KEY_REQUIRED; errors are tool errors carrying the ApiError", async () => {
    const client = await publicClient("acme");
    const refused = await callTool(client, "list_posts", {}, scan);
    expect(refused.isError).toBe(true);
    expect(refused.value).toMatchObject({ error_code: "SECRET_KEY_REQUIRED", retry: false });
    expect(refused.value.resolution_hint).toContain("Bearer sk_");
    expect(refused.value.error).toBe(refused.value.message);

    const hidden = await callTool(await publicClient(), "browse_board", { project_slug: "hidden" }, scan);
    expect(hidden.value.error_code).toBe("BOARD_NOT_PUBLIC");
    const noBoard = await callTool(await publicClient(), "browse_board", {}, scan);
    expect(noBoard.value).toMatchObject({ error_code: "VALIDATION_ERROR" });
    expect(noBoard.value.message).toContain("project_slug");
    const tooLong = await callTool(
      client,
      "add_public_comment",
      { post_id: plantedPostId, body: "x".repeat(5001), author_name: "A" },
      scan,
    );
    expect(tooLong.value.error_code).toBe("VALIDATION_ERROR");
    expect(tooLong.value.message).toContain("body");
    const unknownArgument = await callTool(client, "browse_board", { colour: "red" }, scan);
    expect(unknownArgument.value.error_code).toBe("VALIDATION_ERROR");
    const pending = await makePost(t, { title: "Pending" });
    expect(
      (await callTool(client, "upvote_post", { post_id: pending.id, anonymous_id: "a" }, scan)).value
        .error_code,
    ).toBe("POST_NOT_FOUND");
  });

  test("resources read and prompts get", async () => {
    const client = await publicClient("acme");
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual([
      "featureboard://changelog",
      "featureboard://guide",
      "featureboard://project",
      "featureboard://roadmap",
    ]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      "featureboard://posts/{post_id}",
    ]);
    const read = async (uri: string) => {
      const result = await client.readResource({ uri });
      scan.record(`resource ${uri}`, JSON.stringify(result));
      return (result.contents[0] as { text: string }).text;
    };
    expect(await read("featureboard://guide")).toContain("browse_board");
    expect(JSON.parse(await read("featureboard://project"))).toMatchObject({ slug: "acme", name: "Acme" });
    expect(Object.keys(JSON.parse(await read("featureboard://roadmap")))).toEqual([
      "approved",
      "in_progress",
      "complete",
    ]);
    const post = JSON.parse(await read(`featureboard://posts/${plantedPostId}`));
    expect(post.comments.map((comment: { body: string }) => comment.body)).toEqual(["A public reply"]);
    // A PENDING post answers like an unknown one: the same error, nothing about it.
    const errorOf = (reading: Promise<unknown>) =>
      reading.then(
        () => null,
        (error: { data?: { error_code?: string; message?: string } }) => error.data,
      );
    const pendingPost = await makePost(t, { title: "Pending resource secret title" });
    const pendingRead = await errorOf(client.readResource({ uri: `featureboard://posts/${pendingPost.id}` }));
    const unknownRead = await errorOf(client.readResource({ uri: "featureboard://posts/no-such-post" }));
    expect(pendingRead?.error_code).toBe("POST_NOT_FOUND");
    expect(pendingRead?.message).toBe(unknownRead?.message);
    expect(JSON.stringify(pendingRead)).not.toContain("Pending resource secret title");
    // A private board named in the URL: every resource of it is refused with BOARD_NOT_PUBLIC.
    const hiddenClient = await publicClient("hidden");
    for (const uri of [
      "featureboard://project",
      "featureboard://roadmap",
      "featureboard://changelog",
      `featureboard://posts/${pendingPost.id}`,
    ]) {
      expect((await errorOf(hiddenClient.readResource({ uri })))?.error_code).toBe("BOARD_NOT_PUBLIC");
    }

    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(["submit_public_feedback"]);
    const prompt = await client.getPrompt({
      name: "submit_public_feedback",
      arguments: { idea: "Offline mode" },
    });
    const text = (prompt.messages[0]?.content as { text: string }).text;
    expect(text).toContain("Offline mode");
    expect(text).toContain("browse_board");
    await expect(client.getPrompt({ name: "weekly_triage", arguments: {} })).rejects.toThrow(/admin/);

    // Without a board in the URL, only the guide is offered.
    const bare = await publicClient();
    expect((await bare.listResources()).resources.map((resource) => resource.uri)).toEqual([
      "featureboard://guide",
    ]);
    await expect(bare.readResource({ uri: "featureboard://project" })).rejects.toThrow(/project=/);
  });

  test("stateless: GET and DELETE answer 405 (nothing to stream, no session); a malformed body is INVALID_JSON", async () => {
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(`${server.url}/mcp`, { method, headers: { accept: "text/event-stream" } });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
    }
    const malformed = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
      body: "{not json",
    });
    expect(malformed.status).toBe(400);
    expect((await readJson(malformed)).error_code).toBe("INVALID_JSON");
  });

  test("a JSON-RPC body gets the API's limits: too deep is refused before any tool runs, too large while it streams in", async () => {
    const headers = { accept: "application/json, text/event-stream", "content-type": "application/json" };
    const deep = `${"[".repeat(20_000)}${"]".repeat(20_000)}`;
    const call = (metadata: string) =>
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"submit_feature_request",` +
      `"arguments":{"title":"Deep","project_slug":"acme","metadata":${metadata}}}}`;
    const refused = await fetch(`${server.url}/mcp`, { method: "POST", headers, body: call(deep) });
    expect(refused.status).toBe(400);
    expect((await readJson(refused)).message).toContain("deeper than 64 levels");
    // Chunked, with no Content-Length to refuse it by: counted as it arrives.
    const large = new ReadableStream<Uint8Array>({
      start(controller) {
        const chunk = new TextEncoder().encode(" ".repeat(256 * 1024));
        for (let part = 0; part < 8; part++) controller.enqueue(chunk);
        controller.enqueue(new TextEncoder().encode(call("{}")));
        controller.close();
      },
    });
    const tooLarge = await fetch(`${server.url}/mcp`, { method: "POST", headers, body: large });
    expect(tooLarge.status).toBe(413);
    expect((await t.call("GET", "/api/v1/posts?limit=100")).body.data).not.toContainEqual(
      expect.objectContaining({ title: "Deep" }),
    );
  });

  test("an HTTP/1.0 request without a Host header is answered like any other", async () => {
    const { hostname, port } = new URL(server.url);
    const body = '{"jsonrpc":"2.0","id":3,"method":"tools/list"}';
    const raw =
      `POST /mcp?project=acme HTTP/1.0\r\nContent-Type: application/json\r\n` +
      `Accept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const received: string[] = [];
    const closed = Promise.withResolvers<void>();
    const socket = await Bun.connect({
      hostname,
      port: Number(port),
      socket: {
        data: (_socket, chunk) => void received.push(chunk.toString()),
        close: () => closed.resolve(),
        error: (_socket, error) => closed.reject(error),
      },
    });
    socket.write(raw);
    await Promise.race([closed.promise, Bun.sleep(5_000)]);
    socket.end();
    const answer = received.join("");
    expect(answer).toStartWith("HTTP/1.1 200");
    const json = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
    expect(json.id).toBe(3);
    expect(json.result.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(PUBLIC_TOOLS);
  });

  test("an empty JSON-RPC batch is an invalid request", async () => {
    const response = await fetch(`${server.url}/mcp?project=acme`, {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
      body: "[]",
    });
    expect(response.status).toBe(400);
    expect(await readJson(response)).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Invalid Request: the batch is empty" },
    });
  });

  test("a request whose params do not fit its method is invalid params, in a sentence naming the param", async () => {
    const post = (body: unknown) =>
      fetch(`${server.url}/mcp?project=acme`, {
        method: "POST",
        headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const cases: [method: string, params: unknown, message: string][] = [
      ["tools/call", { arguments: {} }, "Invalid params: 'name' is required"],
      ["tools/call", undefined, "Invalid params: 'params' is required"],
      [
        "tools/call",
        { name: "browse_board", arguments: [] },
        "Invalid params: 'arguments' must be an object",
      ],
      [
        "tools/call",
        { name: "browse_board", arguments: "text" },
        "Invalid params: 'arguments' must be an object",
      ],
      [
        "tools/call",
        { name: "browse_board", arguments: 42 },
        "Invalid params: 'arguments' must be an object",
      ],
      ["resources/read", {}, "Invalid params: 'uri' is required"],
      [
        "prompts/get",
        { name: "submit_public_feedback", arguments: { idea: 5 } },
        "Invalid params: 'arguments.idea' must be a string",
      ],
    ];
    for (const [index, [method, params, message]] of cases.entries()) {
      const request = { jsonrpc: "2.0", id: index, method, ...(params === undefined ? {} : { params }) };
      const response = await post(request);
      expect(response.status).toBe(200);
      expect(await readJson(response)).toEqual({
        jsonrpc: "2.0",
        id: index,
        error: { code: -32602, message },
      });
    }
    // In a batch each request is answered on its own: the malformed ones as above, the others normally.
    const batch = cases.map(([method, params], index) => ({ jsonrpc: "2.0", id: index, method, params }));
    const answers = (await readJson(
      await post([...batch, { jsonrpc: "2.0", id: 99, method: "tools/list" }]),
    )) as {
      id: number;
      error?: { code: number; message: string };
      result?: { tools: unknown[] };
    }[];
    const byId = new Map(answers.map((answer) => [answer.id, answer]));
    for (const [index, [, , message]] of cases.entries()) {
      expect(byId.get(index)?.error).toEqual({ code: -32602, message });
    }
    expect(byId.get(99)?.result?.tools).toHaveLength(PUBLIC_TOOLS.length);
  });

  test("public mode is rate limited per client IP, like the public API", async () => {
    const limited = createTestApp({
      FEATUREBOARD_RATE_LIMIT_IP_PER_MINUTE: "60",
      FEATUREBOARD_RATE_LIMIT_IP_BURST: "3",
    });
    const limitedServer = listen(limited);
    try {
      // Connecting takes some of the burst of 3 (initialize, initialized, the client's GET probe); the
      // calls after it run the bucket dry.
      const client = await connectHttp(limitedServer.url, { project: "acme" });
      let refusal: unknown = null;
      for (let call = 0; call < 4 && refusal === null; call++) {
        await client.listTools().catch((error: unknown) => (refusal = error));
      }
      expect(String(refusal)).toContain("RATE_LIMITED");
      await client.close();
    } finally {
      await limitedServer.stop();
      limited.close();
    }
  });

  test("a key that is not a secret key is refused at the door", async () => {
    await expect(connectHttp(server.url, { key: t.project.publishableKey })).rejects.toThrow(
      /SECRET_KEY_REQUIRED/,
    );
    await expect(connectHttp(server.url, { key: "sk_unknownunknownunknownunknown12" })).rejects.toThrow(
      /INVALID_API_KEY/,
    );
  });
});

test("no public-mode MCP response carried metadata, an internal note, an email or spend", () => {
  expect(scan.count).toBeGreaterThan(15);
  expect(scan.findings()).toEqual([]);
});
