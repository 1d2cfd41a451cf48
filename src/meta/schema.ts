import { t } from "elysia";
import { Enum } from "../http/schemas";

const Rule = t.Object({
  requests_per_minute: t.Integer(),
  burst: t.Integer(),
  scope: t.String(),
});

export const DiscoverySchema = t.Object(
  {
    name: t.String(),
    version: t.String(),
    description: t.String(),
    docs_url: t.String(),
    openapi_url: t.String(),
    mcp_package: t.String({ description: "How to get the MCP server: this binary's `mcp` command" }),
    mcp_url: t.String(),
    mcp_stdio: t.Object({
      command: t.String(),
      args: t.Array(t.String()),
      env: t.Record(t.String(), t.String()),
      description: t.String(),
    }),
    endpoints: t.Array(
      t.Object({
        method: t.String(),
        path: t.String(),
        summary: t.String(),
        auth: Enum(["secret_key", "none"]),
      }),
    ),
    authentication: t.Object({
      type: t.Literal("bearer"),
      header: t.String(),
      secret_key_prefix: t.String(),
      publishable_key_prefix: t.String(),
      description: t.String(),
    }),
    rate_limits: t.Object({
      secret_key: Rule,
      public_ip: Rule,
      ai: Rule,
      headers: t.Array(t.String()),
    }),
  },
  { description: "What this API offers" },
);

export const HealthSchema = t.Object(
  {
    status: t.Literal("ok"),
    version: t.String(),
    database: t.Literal("ok"),
    sqlite: t.String(),
    sqliteVec: t.String(),
  },
  { description: "The service and its database are up" },
);
