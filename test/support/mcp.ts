import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { JsonBody } from "./app";
import type { PrivateDataScan } from "./private-data";

/** A real MCP SDK client over Streamable HTTP to `{url}/mcp`, with a secret key (admin) or without (public). */
export async function connectHttp(
  url: string,
  options: { key?: string; project?: string } = {},
): Promise<Client> {
  const endpoint = new URL(`${url}/mcp`);
  if (options.project) endpoint.searchParams.set("project", options.project);
  const transport = new StreamableHTTPClientTransport(endpoint, {
    requestInit: options.key ? { headers: { authorization: `Bearer ${options.key}` } } : {},
  });
  const client = new Client({ name: "featureboard-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

export interface ToolOutcome {
  isError: boolean;
  /** structuredContent on success; the ApiError parsed from the text on a tool error. */
  value: JsonBody;
  raw: CallToolResult;
}

/** Calls a tool; when `scan` is given the whole result is recorded for the private-data scan. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  scan?: PrivateDataScan,
): Promise<ToolOutcome> {
  const raw = (await client.callTool({ name, arguments: args })) as CallToolResult;
  scan?.record(`tool ${name}`, JSON.stringify(raw));
  const text = raw.content.find((item) => item.type === "text")?.text ?? "null";
  return {
    isError: raw.isError === true,
    value: raw.isError ? JSON.parse(text) : raw.structuredContent,
    raw,
  };
}

/** Calls a tool that must succeed and returns its structuredContent. */
export async function toolValue(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  scan?: PrivateDataScan,
): Promise<JsonBody> {
  const outcome = await callTool(client, name, args, scan);
  if (outcome.isError) throw new Error(`${name} failed: ${JSON.stringify(outcome.value)}`);
  // The text rendering says the same as the structured content.
  const text = outcome.raw.content.find((item) => item.type === "text")?.text;
  if (text === undefined || JSON.stringify(JSON.parse(text)) !== JSON.stringify(outcome.value)) {
    throw new Error(`${name}: text content does not match structuredContent`);
  }
  return outcome.value;
}
