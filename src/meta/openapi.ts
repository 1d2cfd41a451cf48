import { type AnyElysia, Elysia } from "elysia";
import type { AppContext } from "../context";
import { DOCS_PATH, OPENAPI_PATH } from "../http/request-info";
import { routeFacts, shapeDocument } from "./openapi-document";
import { API_VERSION } from "./version";

// 3.1 schemas are plain JSON Schema, which is what TypeBox emits (const, examples arrays).
const OPENAPI_VERSION = "3.1.0";

const description = `Feature-request board API. Every /api/v1 route except discovery needs \`Authorization: Bearer sk_…\`;
the public API (/api/public) and the health check need no key.

Every error answers with the ApiError body: \`error_code\`, \`message\`, \`resolution_hint\`, \`retry\`,
\`docs_url\`, and the legacy aliases \`error\` (= message) and \`suggestion\` (= resolution_hint). The
page at /api/v1/docs lists every error code under "Errors"; each \`docs_url\` links to its row.`;

const TAGS = [
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
];

/**
 * The OpenAPI 3.1 document at /api/v1/openapi.json, generated from the route schemas of the finished app
 * by @elysiajs/openapi's generator. The generator is loaded with the first request for the document, not
 * at start-up (issue 19: the plugin module and its dependencies cost start-up time and memory that no
 * other request needs). openapi-document.ts then adds what the route schemas cannot say (implied statuses,
 * response headers, closed and optional bodies). The page that shows it (Swagger UI from assets embedded
 * in the binary) is `docsRoutes` in docs-page.ts.
 */
export function openApi(ctx: AppContext, finishedApp: () => AnyElysia | null) {
  let generated: { routeCount: number; document: unknown } | null = null;
  return new Elysia({ name: "meta.openapi" }).get(
    OPENAPI_PATH,
    async () => {
      const app = finishedApp();
      const routeCount = app?.routes.length ?? 0;
      if (app && generated?.routeCount !== routeCount) {
        const { toOpenAPISchema } = await import("@elysiajs/openapi/openapi");
        const { paths, components } = toOpenAPISchema(
          app,
          { paths: [DOCS_PATH, OPENAPI_PATH, new RegExp(`^${DOCS_PATH}/`)] },
          undefined,
          undefined,
          OPENAPI_VERSION,
        );
        generated = {
          routeCount,
          document: shapeDocument(
            {
              openapi: OPENAPI_VERSION,
              info: { title: "featureboard API", version: API_VERSION, description },
              servers: [{ url: ctx.config.publicUrl }],
              tags: TAGS,
              paths,
              components: {
                securitySchemes: {
                  bearerAuth: { type: "http", scheme: "bearer", description: "A project secret key, sk_…" },
                },
                schemas: components.schemas,
              },
            },
            routeFacts(app.routes),
          ),
        };
      }
      return generated?.document ?? {};
    },
    { detail: { hide: true } },
  );
}
