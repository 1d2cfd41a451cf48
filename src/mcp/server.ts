import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { ProtocolError } from "./protocol-error";
import { ApiError, errorBody } from "../http/errors";
import { describeError } from "../log";
import { APP_VERSION } from "../meta/version";
import { getPrompt, promptsFor } from "./prompts";
import { listedResources, listedTemplates, readResource } from "./resources";
import type { McpSession } from "./tool";
import { findTool, toolsFor } from "./tools";

export const SERVER_INSTRUCTIONS =
  "featureboard: a feature-request board. Read featureboard://guide first. Look for an existing post (browse_board, " +
  "or search_similar in admin mode) before creating one; vote or comment instead of duplicating.";

function internalError(): ApiError {
  return new ApiError(
    "INTERNAL_ERROR",
    "Something went wrong on our side",
    "Retry in a moment; if it keeps failing, report it to the board's operator.",
    { retry: true },
  );
}

/** A tool error carries the ApiError body, as the REST API would answer it. */
function toolError(error: ApiError, publicUrl: string): CallToolResult {
  return {
    isError: true,
    content: [{ type: "text", text: JSON.stringify(errorBody(error, publicUrl), null, 2) }],
  };
}

async function callTool(session: McpSession, name: string, args: unknown): Promise<CallToolResult> {
  const tool = findTool(name);
  if (!tool) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  try {
    const result = await tool.execute(session, args);
    return { structuredContent: result, content: [{ type: "text", text: JSON.stringify(result, null, 2) }] };
  } catch (error) {
    if (error instanceof ApiError) return toolError(error, session.ctx.config.publicUrl);
    session.ctx.log.error("mcp tool failed", { tool: name, ...describeError(error) });
    return toolError(internalError(), session.ctx.config.publicUrl);
  }
}

/** Resource reads report an ApiError as a JSON-RPC error whose data is the ApiError body. */
function asProtocolError(error: unknown, session: McpSession): unknown {
  if (!(error instanceof ApiError)) return error;
  return new ProtocolError(
    ErrorCode.InvalidParams,
    error.message,
    errorBody(error, session.ctx.config.publicUrl),
  );
}

/**
 * One MCP server for one session (docs/mcp.md: the hosted transport is stateless, a server per request).
 * Tools, resources and prompts are the shared definitions; the session only chooses which are offered.
 */
export function createMcpServer(session: McpSession): Server {
  const server = new Server(
    { name: "featureboard", title: "featureboard", version: APP_VERSION },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: SERVER_INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: toolsFor(session).map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema,
      annotations: { title: tool.title, ...tool.annotations },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    callTool(session, request.params.name, request.params.arguments),
  );
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: listedResources(session).map(({ uri, name, title, description, mimeType }) => ({
      uri,
      name,
      title,
      description,
      mimeType,
    })),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: listedTemplates(session).map(
      ({ uriTemplate, name, title, description, mimeType }) => ({
        uriTemplate,
        name,
        title,
        description,
        mimeType,
      }),
    ),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    try {
      return { contents: [readResource(session, request.params.uri)] };
    } catch (error) {
      throw asProtocolError(error, session);
    }
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: promptsFor(session).map((prompt) => ({
      name: prompt.name,
      title: prompt.title,
      description: prompt.description,
      arguments: prompt.arguments.map(({ name, description, required }) => ({ name, description, required })),
    })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    getPrompt(session, request.params.name, request.params.arguments ?? {}),
  );
  return server;
}
