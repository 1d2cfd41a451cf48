import { instanceSecret } from "../db/instance-secrets";
import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { authenticateSecretKey } from "../http/auth";
import { MCP_PATH, requestInfo, requestUrl } from "../http/request-info";
import type { McpSession } from "./tool";

/** A voter id for `upvote_post` calls that give none: stable per client address, never the address itself. */
/**
 * The voter a vote without `anonymous_id` is cast as: an HMAC of the client address under the
 * installation's own secret (docs/mcp.md), stable across restarts, and not computable by anyone else who
 * knows the address (a bare hash of it was: they could have removed the vote through the public API).
 */
function anonymousIdOf(ctx: AppContext, clientIp: string): string {
  const key = instanceSecret(ctx.db, MCP_VOTER_SECRET);
  return `mcp-${new Bun.CryptoHasher("sha256", key).update(`featureboard-mcp:${clientIp}`).digest("hex").slice(0, 24)}`;
}

const MCP_VOTER_SECRET = "mcp-voter";

/**
 * Stateless, the server has nothing to push on a standalone GET stream and no session to DELETE; the
 * Streamable HTTP specification has such servers answer 405, which clients take as "POST only".
 */
function methodNotAllowed(): Response {
  const body = {
    jsonrpc: "2.0",
    error: { code: -32000, message: "Method not allowed: POST JSON-RPC messages to /mcp" },
    id: null,
  };
  return new Response(JSON.stringify(body), {
    status: 405,
    headers: { allow: "POST", "content-type": "application/json" },
  });
}

/**
 * Who the request speaks for: no Authorization header is public mode (metered per IP by the keyless
 * limiter, board from `project_slug` or `?project=`); `Bearer sk_…` is admin mode on the key's project,
 * metered per key. Any other Authorization answers 401 like the REST API.
 */
function sessionOf(ctx: AppContext, request: Request, headers: Record<string, string | number>): McpSession {
  const clientIp = requestInfo(request).clientIp;
  const adminProject = request.headers.has("authorization")
    ? authenticateSecretKey(ctx, request, headers).project
    : null;
  return {
    ctx,
    adminProject,
    urlProjectSlug: requestUrl(request).searchParams.get("project") || null,
    defaultAnonymousId: anonymousIdOf(ctx, clientIp),
  };
}

/**
 * The hosted MCP endpoint: the SDK's web-standard Streamable HTTP transport inside Elysia. Stateless
 * (docs/mcp.md): every request gets its own server and transport, so nothing is shared between clients,
 * and answers are plain JSON so Bun's idle time-out never cuts an SSE stream. The transport is handed the
 * body Elysia already parsed: `parse: "none"` is ignored while the app has a global parse hook (the JSON
 * body plugin), and the transport would otherwise find the body consumed.
 */
export function mcpRoutes(ctx: AppContext) {
  // The MCP SDK (the largest import of the service) loads on the first MCP request, not at start-up.
  let endpoint: Promise<typeof import("./endpoint")> | null = null;
  return new Elysia({ name: "mcp" }).all(
    MCP_PATH,
    async ({ request, body, set }) => {
      if (request.method !== "POST") return methodNotAllowed();
      const session = sessionOf(ctx, request, set.headers);
      endpoint ??= import("./endpoint");
      return (await endpoint).answerMcp(session, request, body);
    },
    { detail: { hide: true } },
  );
}
