import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createMcpServer } from "./server";
import type { McpSession } from "./tool";

/**
 * One MCP request, stateless (docs/mcp.md): its own server and transport, answered as plain JSON. Loaded
 * by src/mcp/routes.ts on the first MCP request, so the SDK costs nothing at start-up.
 */
export async function answerMcp(session: McpSession, request: Request, body: unknown): Promise<Response> {
  const server = createMcpServer(session);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody: body });
  } finally {
    await server.close();
  }
}
