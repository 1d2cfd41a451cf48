import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { machineAnonymousId } from "../../src/mcp/stdio";
import { type JsonBody, tempDir } from "../support/app";
import { callTool, connectHttp, toolValue } from "../support/mcp";
import { PrivateDataScan } from "../support/private-data";
import { runCommand, type ServiceProcess, SOURCE_COMMAND, startServiceProcess } from "../support/process";

const SECRET_KEY = `sk_${"S".repeat(16)}${"9".repeat(16)}`;
const dir = tempDir();
const scan = new PrivateDataScan();
let service: ServiceProcess;
const clients: Client[] = [];

/** `featureboard mcp` launched by the SDK's stdio client transport, as an agent's host would. */
async function stdioClient(env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: SOURCE_COMMAND[0]!,
    args: [...SOURCE_COMMAND.slice(1), "mcp"],
    env: { FEATUREBOARD_URL: service.url, ...env },
    stderr: "pipe",
  });
  const client = new Client({ name: "featureboard-stdio-test", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function rest(method: string, path: string, body?: unknown): Promise<JsonBody> {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${SECRET_KEY}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response.json();
}

beforeAll(async () => {
  service = await startServiceProcess(SOURCE_COMMAND, {
    FEATUREBOARD_DB: join(dir, "stdio.db"),
    FEATUREBOARD_BOOTSTRAP_SECRET_KEY: SECRET_KEY,
  });
});

afterAll(async () => {
  for (const client of clients) await client.close();
  service.proc.kill("SIGTERM");
  await service.exited;
  rmSync(dir, { recursive: true, force: true });
});

describe("featureboard mcp over stdio", () => {
  test("an agent that closes stdin right after its requests still gets every answer", async () => {
    const lines = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "pipe", version: "1" },
        },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
    ];
    const proc = Bun.spawn([...SOURCE_COMMAND, "mcp"], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "/tmp",
        FEATUREBOARD_URL: service.url,
        FEATUREBOARD_API_KEY: SECRET_KEY,
      },
      stdin: new TextEncoder().encode(lines.map((line) => JSON.stringify(line)).join("\n") + "\n"),
      stdout: "pipe",
      stderr: "pipe",
    });
    const out = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    const answers = out
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id: number; result?: { tools?: unknown[] } });
    expect(answers.map((answer) => answer.id)).toEqual([1, 2]);
    expect(answers[1]!.result!.tools!.length).toBeGreaterThan(10);
  }, 30_000);

  test("admin mode (FEATUREBOARD_API_KEY): list_posts works and agrees with the REST API", async () => {
    await rest("POST", "/api/v1/posts", {
      title: "From REST",
      status: "APPROVED",
      metadata: { private: true },
    });
    const client = await stdioClient({ FEATUREBOARD_API_KEY: SECRET_KEY });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("list_posts");
    const listed = await toolValue(client, "list_posts", {});
    const viaRest = await rest("GET", "/api/v1/posts");
    expect(listed).toEqual({ posts: viaRest.data, pagination: viaRest.pagination });
    expect(listed.posts[0]).toMatchObject({ title: "From REST", metadata: { private: true } });

    const created = await toolValue(client, "create_post", { title: "From stdio" });
    expect((await rest("GET", `/api/v1/posts/${created.post.id}`)).data.title).toBe("From stdio");
    expect((await callTool(client, "get_post", { post_id: "missing" })).value.error_code).toBe(
      "POST_NOT_FOUND",
    );

    const { prompts } = await client.listPrompts();
    expect(prompts).toHaveLength(4);
    const triage = await client.getPrompt({ name: "weekly_triage", arguments: { limit: "5" } });
    expect((triage.messages[0]?.content as { text: string }).text).toContain("limit 5");
    const project = await client.readResource({ uri: "featureboard://project" });
    expect(JSON.parse((project.contents[0] as { text: string }).text)).toMatchObject({
      slug: "default",
      plan: "growth",
    });
  });

  test("public mode (FEATUREBOARD_PROJECT_SLUG): browse_board, and upvote_post twice toggles one vote", async () => {
    const client = await stdioClient({ FEATUREBOARD_PROJECT_SLUG: "default" });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "add_public_comment",
      "browse_board",
      "submit_feature_request",
      "upvote_post",
    ]);
    const board = await toolValue(client, "browse_board", {}, scan);
    expect(board.projectSlug).toBe("default");
    const post = board.posts.find((item: { title: string }) => item.title === "From REST");
    expect(post).toBeDefined();

    const first = await toolValue(client, "upvote_post", { post_id: post.id }, scan);
    expect(first).toEqual({ postId: post.id, voted: true, voteCount: 1 });
    const votes = (await rest("GET", `/api/v1/posts/${post.id}/votes`)).data;
    expect(votes).toEqual([expect.objectContaining({ anonymousId: machineAnonymousId() })]);
    const second = await toolValue(client, "upvote_post", { post_id: post.id }, scan);
    expect(second).toEqual({ postId: post.id, voted: false, voteCount: 0 });
    expect((await rest("GET", `/api/v1/posts/${post.id}/votes`)).data).toEqual([]);

    expect((await callTool(client, "list_posts", {}, scan)).value.error_code).toBe("SECRET_KEY_REQUIRED");

    const guide = await client.readResource({ uri: "featureboard://guide" });
    scan.record("resource guide", JSON.stringify(guide));
    expect((guide.contents[0] as { text: string }).text).toContain("featureboard");
    const roadmap = await client.readResource({ uri: "featureboard://roadmap" });
    scan.record("resource roadmap", JSON.stringify(roadmap));
    expect(JSON.parse((roadmap.contents[0] as { text: string }).text).approved[0].title).toBe("From REST");
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      "featureboard://posts/{post_id}",
    ]);
    const postResource = await client.readResource({ uri: `featureboard://posts/${post.id}` });
    scan.record("resource post", JSON.stringify(postResource));
    expect(JSON.parse((postResource.contents[0] as { text: string }).text)).toMatchObject({
      id: post.id,
      title: "From REST",
      comments: [],
    });
    const prompt = await client.getPrompt({
      name: "submit_public_feedback",
      arguments: { idea: "Keyboard shortcuts" },
    });
    expect((prompt.messages[0]?.content as { text: string }).text).toContain("Keyboard shortcuts");
    expect(scan.findings()).toEqual([]);
  });

  test("a service that cannot be reached is a tool error that says so", async () => {
    const transport = new StdioClientTransport({
      command: SOURCE_COMMAND[0]!,
      args: [...SOURCE_COMMAND.slice(1), "mcp"],
      env: { FEATUREBOARD_URL: "http://127.0.0.1:9", FEATUREBOARD_PROJECT_SLUG: "default" },
      stderr: "pipe",
    });
    const client = new Client({ name: "featureboard-stdio-test", version: "1.0.0" });
    await client.connect(transport);
    clients.push(client);
    const outcome = await callTool(client, "browse_board", {});
    expect(outcome).toMatchObject({
      isError: true,
      value: { error_code: "SERVICE_UNAVAILABLE", retry: true },
    });
  });

  test("a wrong key is the service's INVALID_API_KEY, for a tool call and for any other request", async () => {
    const client = await stdioClient({ FEATUREBOARD_API_KEY: `sk_${"W".repeat(32)}` });
    const outcome = await callTool(client, "list_posts", {});
    expect(outcome).toMatchObject({
      isError: true,
      value: {
        error_code: "INVALID_API_KEY",
        message: "The API key is unknown or has been revoked",
        retry: false,
      },
    });
    const refused = await client.listTools().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect(refused).toMatchObject({
      code: ErrorCode.InternalError,
      message: "MCP error -32603: The API key is unknown or has been revoked",
      data: { error_code: "INVALID_API_KEY", retry: false },
    });
  });

  test("the service's own JSON-RPC errors come through exactly as the hosted endpoint answers them", async () => {
    const client = await stdioClient({ FEATUREBOARD_API_KEY: SECRET_KEY });
    const hosted = await connectHttp(service.url, { key: SECRET_KEY });
    clients.push(hosted);
    const unknownPrompt = { name: "no_such_prompt" };
    const viaStdio = await client.getPrompt(unknownPrompt).catch((error: unknown) => error);
    const viaHttp = await hosted.getPrompt(unknownPrompt).catch((error: unknown) => error);
    expect(viaHttp).toMatchObject({ code: ErrorCode.InvalidParams });
    expect(viaStdio).toBeInstanceOf(McpError);
    expect({ ...(viaStdio as McpError), message: (viaStdio as McpError).message }).toEqual({
      ...(viaHttp as McpError),
      message: (viaHttp as McpError).message,
    });
  });

  test("a request whose params do not fit its method is invalid params, in a sentence naming the param", async () => {
    const client = await stdioClient({ FEATUREBOARD_API_KEY: SECRET_KEY });
    const refused = await client
      .request({ method: "tools/call", params: { arguments: {} } }, CallToolResultSchema)
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({
      code: ErrorCode.InvalidParams,
      message: "MCP error -32602: Invalid params: 'name' is required",
    });
  });

  test("a rate limit is the service's RATE_LIMITED with its wait, not an unreachable service", async () => {
    const limited = await startServiceProcess(SOURCE_COMMAND, {
      FEATUREBOARD_DB: join(dir, "limited.db"),
      FEATUREBOARD_RATE_LIMIT_IP_PER_MINUTE: "1",
      FEATUREBOARD_RATE_LIMIT_IP_BURST: "4",
    });
    try {
      const client = await stdioClient({
        FEATUREBOARD_URL: limited.url,
        FEATUREBOARD_PROJECT_SLUG: "default",
      });
      let outcome = await callTool(client, "browse_board", {});
      for (let call = 0; call < 5 && !outcome.isError; call++)
        outcome = await callTool(client, "browse_board", {});
      expect(outcome).toMatchObject({ isError: true, value: { error_code: "RATE_LIMITED", retry: true } });
      expect(outcome.value.retry_after).toBeGreaterThanOrEqual(1);
      const refused = await client.listTools().catch((error: unknown) => error);
      expect(refused).toMatchObject({
        code: ErrorCode.InternalError,
        data: { error_code: "RATE_LIMITED", retry: true },
      });
      expect((refused as McpError).message).toContain("Rate limit exceeded");
    } finally {
      limited.proc.kill("SIGTERM");
      await limited.exited;
    }
  });

  test("a bad setting stops it with one line naming the variable", () => {
    const result = runCommand([...SOURCE_COMMAND, "mcp"], { FEATUREBOARD_API_KEY: "pk_not_a_secret_key" });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("FEATUREBOARD_API_KEY");
    expect(result.stdout).toBe("");
  });
});
