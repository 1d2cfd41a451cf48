import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { requestUrl } from "../http/request-info";
import { refuseInvalidParams } from "./request-params";
import { createMcpServer } from "./server";
import type { McpSession } from "./tool";

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

/**
 * One MCP request, stateless (docs/mcp.md): its own server and transport, answered as plain JSON. Loaded
 * by src/mcp/routes.ts on the first MCP request, so the SDK costs nothing at start-up.
 */
export async function answerMcp(session: McpSession, request: Request, body: unknown): Promise<Response> {
  const refused = emptyBatch(body);
  if (refused) return refused;
  const server = createMcpServer(session);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  refuseInvalidParams(transport);
  try {
    return await transport.handleRequest(withReadableUrl(request), { parsedBody: body });
  } finally {
    await server.close();
  }
}
