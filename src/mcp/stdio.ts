import { createHash } from "node:crypto";
import { hostname, userInfo } from "node:os";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { ProtocolError } from "./protocol-error";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { Value } from "@sinclair/typebox/value";
import { ConfigError, SECRET_KEY_PATTERN } from "../config";
import { ApiErrorSchema, type ApiErrorBody } from "../http/errors";
import { retryAfterMs } from "../http/outbound";
import { APP_VERSION } from "../meta/version";
import { MCP_PATH } from "../http/request-info";
import { refuseInvalidParams } from "./request-params";
import { SERVER_INSTRUCTIONS } from "./server";
import { startupDone } from "../startup";

export interface StdioConfig {
  /** The service root, such as http://localhost:3000. */
  url: string;
  /** Admin mode when set. */
  apiKey: string | null;
  /** Public mode's board. */
  projectSlug: string | null;
}

type Env = Record<string, string | undefined>;

/** FEATUREBOARD_URL, and FEATUREBOARD_API_KEY (admin) or FEATUREBOARD_PROJECT_SLUG (public). */
export function stdioConfigFrom(env: Env): StdioConfig {
  const rawUrl = env.FEATUREBOARD_URL?.trim() || "http://localhost:3000";
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new ConfigError("FEATUREBOARD_URL", `expected the service's http(s) URL, got "${rawUrl}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError("FEATUREBOARD_URL", `expected the service's http(s) URL, got "${rawUrl}"`);
  }
  const apiKey = env.FEATUREBOARD_API_KEY?.trim() || null;
  if (apiKey !== null && !SECRET_KEY_PATTERN.test(apiKey)) {
    throw new ConfigError(
      "FEATUREBOARD_API_KEY",
      "expected a secret key: sk_ followed by 32 letters or digits",
    );
  }
  const projectSlug = env.FEATUREBOARD_PROJECT_SLUG?.trim() || null;
  return { url: rawUrl.replace(/\/+$/, ""), apiKey, projectSlug };
}

/** The voter id of this machine and user, for `upvote_post` calls that give none: stable, not identifying. */
export function machineAnonymousId(): string {
  const who = `${hostname()}:${userInfo().username}`;
  return `mcp-${createHash("sha256").update(`featureboard-voter:${who}`).digest("hex").slice(0, 24)}`;
}

function unreachableError(config: StdioConfig, error: unknown): ApiErrorBody {
  const message = `featureboard at ${config.url} could not be reached: ${error instanceof Error ? error.message : String(error)}`;
  const hint = "Start the service (featureboard serve) or fix FEATUREBOARD_URL, then try again.";
  return {
    error_code: "SERVICE_UNAVAILABLE",
    message,
    resolution_hint: hint,
    retry: true,
    docs_url: `${config.url}/api/v1/docs#errors-SERVICE_UNAVAILABLE`,
    error: message,
    suggestion: hint,
  };
}

/** The service's own refusal of a relayed request, as it answered it over HTTP. */
type RelayedApiError = ApiErrorBody & {
  /** Seconds to wait before retrying, from the answer's Retry-After header (docs/mcp.md). */
  retry_after?: number;
};

/**
 * The service answered a relayed request with an HTTP error of its own (a wrong or revoked key, a rate
 * limit): its ApiError body, which the relay passes on instead of calling the service unreachable.
 */
class ServiceRefusal extends Error {
  constructor(readonly body: RelayedApiError) {
    super(body.message);
  }
}

async function apiErrorOf(response: Response): Promise<ApiErrorBody | null> {
  try {
    const body: unknown = await response.json();
    return Value.Check(ApiErrorSchema, body) ? body : null;
  } catch {
    return null;
  }
}

/**
 * `fetch` for the upstream transport. The SDK turns an HTTP error into a StreamableHTTPError that keeps
 * the status and the body only as text, and drops the headers; an answer that is the service's ApiError is
 * thrown as a ServiceRefusal instead, Retry-After included. Any other failed answer (a proxy's error page)
 * is left to the SDK: the service itself was not reached.
 */
const fetchKeepingRefusals: FetchLike = async (url, init) => {
  const response = await fetch(url, init);
  if (response.ok) return response;
  const body = await apiErrorOf(response.clone());
  if (body === null) return response;
  const waitMs = retryAfterMs(response.headers.get("retry-after"), Date.now());
  throw new ServiceRefusal(waitMs === undefined ? body : { ...body, retry_after: Math.ceil(waitMs / 1000) });
};

/**
 * Why a relayed request failed, as the agent gets it for anything but a tool call: the service's own
 * JSON-RPC error unchanged; its HTTP refusal as an internal error with its message and ApiError body; and
 * SERVICE_UNAVAILABLE only when no answer came.
 */
function relayedError(config: StdioConfig, error: unknown): ProtocolError {
  if (error instanceof McpError) {
    const message = error.message.replace(`MCP error ${error.code}: `, "");
    return new ProtocolError(error.code, message, error.data);
  }
  const body = error instanceof ServiceRefusal ? error.body : unreachableError(config, error);
  return new ProtocolError(ErrorCode.InternalError, body.message, body);
}

/**
 * `featureboard mcp`: the installable MCP server. It speaks MCP over stdio to the agent and relays every
 * request to the service's hosted endpoint (`{FEATUREBOARD_URL}/mcp`) over HTTP, so the tools, resources
 * and prompts are exactly the service's own, in the mode its key (or slug) gives. The one thing it adds is
 * a voter id for `upvote_post`, derived from this machine and user.
 */
export function createStdioProxy(
  config: StdioConfig,
  anonymousId = machineAnonymousId(),
): { server: Server; settled: () => Promise<void> } {
  const endpoint = new URL(config.url + MCP_PATH);
  /** Requests being relayed: an agent that closes stdin right after its last request still gets the answer. */
  const inFlight = new Set<Promise<unknown>>();
  const tracked = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    const done = () => inFlight.delete(work);
    work.then(done, done);
    return work;
  };
  if (config.projectSlug && !config.apiKey) endpoint.searchParams.set("project", config.projectSlug);
  let connecting: Promise<Client> | null = null;

  const upstream = (): Promise<Client> => {
    connecting ??= (async () => {
      const client = new Client({ name: "featureboard-stdio", version: APP_VERSION });
      const headers: Record<string, string> = config.apiKey
        ? { authorization: `Bearer ${config.apiKey}` }
        : {};
      const transport = new StreamableHTTPClientTransport(endpoint, {
        requestInit: { headers },
        fetch: fetchKeepingRefusals,
      });
      await client.connect(transport);
      return client;
    })().catch((error: unknown) => {
      connecting = null;
      throw error;
    });
    return connecting;
  };

  /** A failed relay that was not the service's own JSON-RPC answer connects afresh next time. */
  const forgetConnection = (error: unknown) => {
    if (!(error instanceof McpError)) connecting = null;
  };

  /** Relays one request; its failure as `relayedError` words it. */
  const relay = <T>(work: (client: Client) => Promise<T>): Promise<T> =>
    tracked(
      (async () => {
        try {
          return await work(await upstream());
        } catch (error) {
          forgetConnection(error);
          throw relayedError(config, error);
        }
      })(),
    );

  const server = new Server(
    { name: "featureboard", title: "featureboard", version: APP_VERSION },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: SERVER_INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, (request) =>
    relay((client) => client.listTools(request.params)),
  );
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const params = { ...request.params, arguments: { ...request.params.arguments } };
    if (params.name === "upvote_post" && params.arguments.anonymous_id === undefined) {
      params.arguments.anonymous_id = anonymousId;
    }
    return tracked(
      (async (): Promise<CallToolResult> => {
        try {
          return (await (await upstream()).callTool(params)) as CallToolResult;
        } catch (error) {
          forgetConnection(error);
          // The service's refusal (INVALID_API_KEY, RATE_LIMITED) is the tool error it would have been
          // hosted; a JSON-RPC error of the service (an unknown tool) stays one.
          if (error instanceof McpError) throw relayedError(config, error);
          const body = error instanceof ServiceRefusal ? error.body : unreachableError(config, error);
          return { isError: true, content: [{ type: "text", text: JSON.stringify(body, null, 2) }] };
        }
      })(),
    );
  });
  server.setRequestHandler(ListResourcesRequestSchema, (request) =>
    relay((client) => client.listResources(request.params)),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) =>
    relay((client) => client.listResourceTemplates(request.params)),
  );
  server.setRequestHandler(ReadResourceRequestSchema, (request) =>
    relay((client) => client.readResource(request.params)),
  );
  server.setRequestHandler(ListPromptsRequestSchema, (request) =>
    relay((client) => client.listPrompts(request.params)),
  );
  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    relay((client) => client.getPrompt(request.params)),
  );
  /** Resolves once every request relayed so far has been answered. */
  const settled = async () => {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  };
  return { server, settled };
}

/** Runs the stdio server until the agent closes stdin. Nothing but MCP messages goes to stdout. */
export async function runStdioServer(config: StdioConfig): Promise<void> {
  const { server, settled } = createStdioProxy(config);
  const transport = new StdioServerTransport();
  await server.connect(transport);
  startupDone();
  refuseInvalidParams(transport);
  process.stdin.once("end", () => {
    void (async () => {
      // Answer what was asked before stdin closed: the relayed requests, then their answers written
      // (the SDK sends each on a later microtask), then stdout flushed.
      await settled();
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
      await server.close();
    })().finally(() => process.exit(0));
  });
}
