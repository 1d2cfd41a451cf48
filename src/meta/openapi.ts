import { type AnyElysia, Elysia } from "elysia";
import type { AppContext } from "../context";
import { DOCS_PATH, OPENAPI_PATH } from "../http/request-info";
import { API_VERSION } from "./version";

// 3.1 schemas are plain JSON Schema, which is what TypeBox emits (const, examples arrays).
const OPENAPI_VERSION = "3.1.0";

const description = `Feature-request board API. Every route except discovery needs \`Authorization: Bearer sk_…\`.

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
 * other request needs). The page that shows it (Swagger UI from assets embedded in the binary) is
 * `docsRoutes` in docs-page.ts.
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
          document: standardDocument({
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
          }),
        };
      }
      return generated?.document ?? {};
    },
    { detail: { hide: true } },
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/**
 * The generated document made standard OpenAPI 3.1, on a copy (the plugin's objects may be the route
 * validators' own schemas): `nullable` (3.0) becomes a `null` member of `type`; TypeBox's custom `error`
 * messages go; a bodiless response (t.Void, the 204s) has no `content` instead of `{type: "void"}`;
 * keyless operations declare `security: []`.
 */
function standardDocument(source: unknown): unknown {
  const document: unknown = structuredClone(source);
  if (!isRecord(document) || !isRecord(document.paths)) return document;
  standardSchemas(document);
  for (const operations of Object.values(document.paths)) {
    if (!isRecord(operations)) continue;
    for (const [method, operation] of Object.entries(operations)) {
      if (!HTTP_METHODS.has(method) || !isRecord(operation)) continue;
      operation.security ??= [];
      if (!isRecord(operation.responses)) continue;
      for (const answer of Object.values(operation.responses)) {
        if (isRecord(answer) && isRecord(answer.content) && typeof answer.content.type === "string") {
          delete answer.content;
        }
      }
    }
  }
  return document;
}

/**
 * Elysia's t.Integer / t.Numeric accept a numeric string so that query strings coerce; the document says
 * what the value is, an integer (or number): `anyOf: [{type: string, format: integer}, {type: integer}]`
 * becomes the numeric member. Coercion stays in the validator.
 */
function collapseNumericString(node: Record<string, unknown>): void {
  const options = node.anyOf;
  if (!Array.isArray(options) || options.length !== 2) return;
  const text = options.find(
    (option) =>
      isRecord(option) &&
      option.type === "string" &&
      (option.format === "integer" || option.format === "numeric"),
  );
  const numeric = options.find(
    (option) => isRecord(option) && (option.type === "integer" || option.type === "number"),
  );
  if (!isRecord(text) || !isRecord(numeric)) return;
  delete node.anyOf;
  Object.assign(node, numeric);
}

/** Walks every object of the document, fixing schema keywords that are not OpenAPI 3.1. */
function standardSchemas(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) standardSchemas(item);
    return;
  }
  if (!isRecord(node)) return;
  if (node.nullable === true) {
    if (typeof node.type === "string") node.type = [node.type, "null"];
    else if (Array.isArray(node.type) && !node.type.includes("null")) node.type = [...node.type, "null"];
    else if (
      Array.isArray(node.anyOf) &&
      !node.anyOf.some((option) => isRecord(option) && option.type === "null")
    ) {
      node.anyOf = [...node.anyOf, { type: "null" }];
    }
  }
  if ("nullable" in node && typeof node.nullable === "boolean") delete node.nullable;
  collapseNumericString(node);
  // A schema's `error` is a string; a property named "error" (the ApiError's) is an object and stays.
  if (typeof node.error === "string") delete node.error;
  for (const value of Object.values(node)) standardSchemas(value);
}
