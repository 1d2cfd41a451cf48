import { swagger } from "@elysiajs/swagger";
import type { AppContext } from "../context";
import { ERROR_CODES } from "../http/errors";
import { API_VERSION } from "./version";

function errorCatalogue(): string {
  const rows = Object.entries(ERROR_CODES).map(
    ([code, status]) => `| <a id="errors-${code}"></a>\`${code}\` | ${status} |`,
  );
  return ["| error_code | status |", "|---|---|", ...rows].join("\n");
}

const description = `Feature-request board API. Every route except discovery needs \`Authorization: Bearer sk_…\`.

Every error answers with the ApiError body: \`error_code\`, \`message\`, \`resolution_hint\`, \`retry\`,
\`docs_url\`, and the legacy aliases \`error\` (= message) and \`suggestion\` (= resolution_hint).

## Errors

${errorCatalogue()}`;

/** The OpenAPI 3 document at /api/v1/openapi.json, generated from the route schemas, and Swagger UI. */
export function openApi(ctx: AppContext) {
  return swagger({
    path: "/api/v1/docs",
    specPath: "/api/v1/openapi.json",
    provider: "swagger-ui",
    exclude: ["/api/v1/docs", "/api/v1/openapi.json"],
    documentation: {
      // 3.1 schemas are plain JSON Schema, which is what TypeBox emits (const, examples arrays).
      openapi: "3.1.0",
      info: { title: "featureboard API", version: API_VERSION, description },
      servers: [{ url: ctx.config.publicUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: "http", scheme: "bearer", description: "A project secret key, sk_…" },
        },
      },
      tags: [
        { name: "Discovery", description: "What this API offers; no key needed" },
        { name: "Posts", description: "Feature requests" },
        { name: "Votes", description: "One per voter per post" },
        { name: "Comments", description: "Discussion and internal notes on a post" },
        { name: "Tags", description: "Labels that group posts" },
        { name: "Board users", description: "The customers behind the votes" },
        { name: "Payments", description: "Customer revenue from the payment processor, as board-user spend" },
        { name: "Webhooks", description: "Signed event deliveries to your endpoints (docs/webhooks.md)" },
        { name: "Integrations", description: "Team chat, community chat, code host and issue tracker" },
        { name: "Roadmap", description: "Planned, in-progress and shipped posts" },
        { name: "Releases", description: "Changelog entries and the posts they ship" },
        { name: "Analytics", description: "What moved on the board over a period" },
        { name: "Activity", description: "The audit log of every change" },
        { name: "Public", description: "The keyless public API of public boards (/api/public)" },
        { name: "Import and export", description: "CSV and board-export in, the whole project out" },
        { name: "AI", description: "Triage, summaries and sprint plans (growth plan)" },
      ],
    },
  });
}
