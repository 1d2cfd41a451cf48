import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { requestUrl } from "../http/request-info";
import { createMcpServer } from "./server";
import type { McpSession } from "./tool";

/**
 * One MCP request, stateless (docs/mcp.md): its own server and transport, answered as plain JSON. Loaded
 * by src/mcp/routes.ts on the first MCP request, so the SDK costs nothing at start-up.
 */
/**
 * A `tools/call` whose `arguments` is not an object. The SDK answers it as an internal error (-32603)
 * carrying its validator's issue list; it is the caller's mistake, so it is answered as invalid params
 * (-32602) in a sentence, as a tool's own argument errors are worded.
 */
function argumentsNotAnObject(body: unknown): Response | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const message = body as { method?: unknown; params?: unknown; id?: unknown };
  if (message.method !== "tools/call" || typeof message.params !== "object" || message.params === null) {
    return null;
  }
  const args = (message.params as { arguments?: unknown }).arguments;
  if (args === undefined || (typeof args === "object" && args !== null && !Array.isArray(args))) return null;
  const answer = {
    jsonrpc: "2.0",
    id: message.id ?? null,
    error: { code: -32602, message: "Invalid params: 'arguments' must be an object of the tool's arguments" },
  };
  return Response.json(answer);
}

/**
 * An empty JSON-RPC batch is an invalid request (JSON-RPC 2.0, "Batch"): the SDK took it for a batch of
 * notifications and answered 202 with no body.
 */
function emptyBatch(body: unknown): Response | null {
  if (!Array.isArray(body) || body.length > 0) return null;
  const answer = {
    jsonrpc: "2.0",
    id: null,
    error: { code: -32600, message: "Invalid Request: the batch is empty" },
  };
  return Response.json(answer, { status: 400 });
}

/**
 * The transport reads the request's URL; without a usable Host (HTTP/1.0 sends none) Bun's is not one,
 * and the transport answered "Parse error" with "TypeError: Invalid URL". Given the URL the rest of the
 * service reads (`requestUrl`); the body is already parsed, so none is carried over.
 */
function withReadableUrl(request: Request): Request {
  if (URL.canParse(request.url)) return request;
  return new Request(requestUrl(request), { method: request.method, headers: request.headers });
}

export async function answerMcp(session: McpSession, request: Request, body: unknown): Promise<Response> {
  const refused = emptyBatch(body) ?? argumentsNotAnObject(body);
  if (refused) return refused;
  const server = createMcpServer(session);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(withReadableUrl(request), { parsedBody: body });
  } finally {
    await server.close();
  }
}
