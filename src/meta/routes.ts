import type { InternalRoute, Static } from "elysia";
import type { AppContext } from "../context";
import { sqliteVersions } from "../db/connection";
import { ApiError, ApiErrorSchema } from "../http/errors";
import { keylessRoutes } from "../http/routes";
import { DOCS_PATH, HEALTH_CHECK_PATH } from "../http/request-info";
import { ERROR_STATUS_DESCRIPTIONS, errorResponses } from "../http/schemas";
import { listProjects } from "../projects/service";
import { DiscoverySchema, HealthSchema } from "./schema";
import { API_VERSION, APP_VERSION } from "./version";

type Endpoint = Static<typeof DiscoverySchema>["endpoints"][number];

/** The endpoint list comes from the composed app itself, so it can never drift from the real routes. */
function endpointsOf(routes: InternalRoute[]): Endpoint[] {
  return routes
    .filter(
      (route) => route.path.startsWith("/api/") && !route.path.includes("/docs") && route.method !== "HEAD",
    )
    .map((route) => {
      const detail = route.hooks.detail as { summary?: string; security?: unknown[] } | undefined;
      return {
        method: route.method,
        path: route.path,
        summary: detail?.summary ?? "",
        auth: detail?.security?.length ? ("secret_key" as const) : ("none" as const),
      };
    });
}

/**
 * Where a person who opens the server's root lands: the oldest public board (the bootstrap project's on a
 * fresh install), else the API documentation.
 */
function landingPath(ctx: AppContext): string {
  const board = listProjects(ctx.db).find((project) => project.isPublic);
  return board ? `/b/${encodeURIComponent(board.slug)}` : DOCS_PATH;
}

export function metaRoutes(ctx: AppContext, routes: () => InternalRoute[]) {
  const { config } = ctx;
  let discovery: Static<typeof DiscoverySchema> | null = null;
  const rule = (limits: { perMinute: number; burst: number }, scope: string) => ({
    requests_per_minute: limits.perMinute,
    burst: limits.burst,
    scope,
  });

  return keylessRoutes("", "Discovery")
    .get("/", ({ redirect }) => redirect(landingPath(ctx), 302), { detail: { hide: true } })
    .get(
      // Served at /api/v1/ as the specification says, and at /api/v1 (Elysia matches both; no trailing slash
      // in the document).
      "/api/v1",
      () => {
        discovery ??= {
          name: "featureboard",
          version: API_VERSION,
          description:
            "Feature-request board API: collect posts, votes and comments, prioritise by votes and customer revenue, publish a roadmap and changelog, and let AI agents work the board over MCP.",
          docs_url: `${config.publicUrl}/api/v1/docs`,
          openapi_url: `${config.publicUrl}/api/v1/openapi.json`,
          // No npm package exists: the MCP server is this binary, over stdio or hosted at mcp_url.
          mcp_package: "featureboard mcp",
          mcp_url: `${config.publicUrl}/mcp`,
          mcp_stdio: {
            command: "featureboard",
            args: ["mcp"],
            env: {
              FEATUREBOARD_URL: config.publicUrl,
              FEATUREBOARD_API_KEY: "sk_… (admin tools), or FEATUREBOARD_PROJECT_SLUG for the public tools",
            },
            description:
              "Run this binary as `featureboard mcp` (from a checkout: `bun src/main.ts mcp`); it relays to mcp_url. See docs/mcp.md.",
          },
          endpoints: endpointsOf(routes()),
          authentication: {
            type: "bearer",
            header: "Authorization: Bearer sk_…",
            secret_key_prefix: "sk_",
            publishable_key_prefix: "pk_",
            description:
              "Secret keys (sk_) authenticate every /api/v1 route except this one and identify the project. Publishable keys (pk_) only install the widget on the public API.",
          },
          rate_limits: {
            secret_key: rule(config.rateLimits.secretKey, "per secret key"),
            public_ip: rule(config.rateLimits.publicIp, "per client IP, for requests without a key"),
            ai: rule(config.rateLimits.ai, "per project, for AI workflows"),
            headers: ["RateLimit-Policy", "RateLimit", "Retry-After (on 429)"],
          },
        };
        return discovery;
      },
      {
        response: { 200: DiscoverySchema, ...errorResponses() },
        detail: {
          summary: "Discover the API",
          description: "No authentication. Endpoints, auth and rate limits.",
        },
      },
    )
    .get(
      HEALTH_CHECK_PATH,
      () => {
        try {
          const versions = sqliteVersions(ctx.db);
          return { status: "ok" as const, version: APP_VERSION, database: "ok" as const, ...versions };
        } catch {
          throw new ApiError(
            "SERVICE_UNAVAILABLE",
            "The database is not reachable",
            "Check the database file and disk.",
            {
              retry: true,
            },
          );
        }
      },
      {
        response: {
          200: HealthSchema,
          503: { ...ApiErrorSchema, description: ERROR_STATUS_DESCRIPTIONS[503] },
        },
        detail: {
          summary: "Health check",
          description: "200 when the database answers; reports SQLite and sqlite-vec versions.",
        },
      },
    );
}
