import type { InternalRoute } from "elysia";
import { TypeGuard } from "@sinclair/typebox";
import { ApiErrorSchema, ERROR_CODES, isErrorCode } from "../http/errors";
import { HEALTH_CHECK_PATH } from "../http/request-info";
import { ERROR_STATUS_DESCRIPTIONS, SERVICE_RULE, isErrorStatus } from "../http/schemas";

/**
 * The generated document made standard OpenAPI 3.1 and complete about what the service does, which the
 * generator cannot see in the route schemas: the statuses, headers and request rules below. Works on a
 * copy (the plugin's objects may be the route validators' own schemas).
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

const API_ERROR_REF = { $ref: "#/components/schemas/ApiError" };

/** Response headers (docs/decisions.md, "Rate limits" and "Request ids"), referenced by every response. */
const HEADERS = {
  "X-Request-Id": {
    description:
      "The request's id (the caller's own when it sent a valid one); quote it when reporting a problem",
    schema: { type: "string" },
  },
  RateLimit: {
    description: 'What is left of the limit: `"<policy>";r=<requests remaining>;t=<seconds until full>`',
    schema: { type: "string" },
  },
  "RateLimit-Policy": {
    description: 'The limit that applies: `"<policy>";q=<requests per minute>;w=60;burst=<burst>`',
    schema: { type: "string" },
  },
  "Retry-After": {
    description:
      "Seconds to wait before the next request is allowed (on a 429; on a 503 when another process was writing)",
    schema: { type: "integer", minimum: 0 },
  },
};
const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

/** The ApiError body once, referenced by every error response; `error_code` is one of the catalogue's. */
function apiErrorComponent(): Record<string, unknown> {
  const { description: _status, ...schema } = JSON.parse(JSON.stringify(ApiErrorSchema)) as Record<
    string,
    unknown
  >;
  const properties = schema.properties;
  if (isRecord(properties) && isRecord(properties.error_code)) {
    properties.error_code.enum = Object.keys(ERROR_CODES).filter(isErrorCode);
  }
  return { ...schema, title: "ApiError" };
}

function isApiErrorSchema(schema: unknown): boolean {
  return isRecord(schema) && isRecord(schema.properties) && "error_code" in schema.properties;
}

/** What the document needs to know about a route that its generated operation does not say. */
interface RouteFacts {
  /** The route's body schema is `t.Optional(…)`: a request may send none. */
  optionalBody: boolean;
  /** `detail.parameters` the route declares (the generator replaces them by the ones it derives). */
  parameters: unknown[];
}

const operationKey = (method: string, path: string) =>
  `${method.toLowerCase()} ${path.replace(/:([^/]+)/g, "{$1}")}`;

export function routeFacts(routes: InternalRoute[]): Map<string, RouteFacts> {
  const facts = new Map<string, RouteFacts>();
  for (const route of routes) {
    const detail: unknown = route.hooks.detail;
    const parameters = isRecord(detail) && Array.isArray(detail.parameters) ? detail.parameters : [];
    facts.set(operationKey(route.method, route.path), {
      optionalBody: TypeGuard.IsOptional(route.hooks.body),
      parameters,
    });
  }
  return facts;
}

/** `postApiV1PostsFrom-text` → `postApiV1PostsFromText`: an identifier in every client generator's language. */
function camelOperationId(operationId: string): string {
  return operationId.replace(/-+([a-zA-Z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

/** Methods that never write, so never wait for another process's write (src/http/commit.ts). */
const READ_METHODS = new Set(["get", "head", "options"]);

/** Statuses every operation of its kind can answer, whatever its route declared. */
function addImpliedStatuses(
  method: string,
  operation: Record<string, unknown>,
  responses: Record<string, unknown>,
): void {
  const implied: number[] = [];
  // A bearer key that is missing, publishable, unknown or revoked (src/http/auth.ts).
  if (Array.isArray(operation.security) && operation.security.length > 0) implied.push(401);
  // Every JSON body is capped before it is read (src/http/body.ts, docs/limits.md).
  if (operation.requestBody !== undefined) implied.push(413);
  // A request that may write waits at most 5 s for another process's write (docs/decisions.md, "Another
  // process writing"), then answers 503 with Retry-After.
  if (!READ_METHODS.has(method)) implied.push(503);
  for (const status of implied) {
    if (responses[status] !== undefined || !isErrorStatus(status)) continue;
    responses[status] = {
      description: ERROR_STATUS_DESCRIPTIONS[status],
      content: { "application/json": { schema: API_ERROR_REF } },
    };
  }
}

/**
 * Headers each response carries: X-Request-Id on all; the RateLimit pair wherever the request was metered
 * (every path but the health check, src/http/rate-limit.ts; a secret-key route's 413 is refused before its
 * key is read, so before it is metered); Retry-After on 429 and 503.
 */
function responseHeaders(path: string, status: string, secured: boolean): Record<string, unknown> {
  const headers: Record<string, unknown> = { "X-Request-Id": headerRef("X-Request-Id") };
  const metered = path !== HEALTH_CHECK_PATH && !(secured && status === "413");
  if (metered) {
    headers.RateLimit = headerRef("RateLimit");
    headers["RateLimit-Policy"] = headerRef("RateLimit-Policy");
  }
  if (status === "429" || status === "503") headers["Retry-After"] = headerRef("Retry-After");
  return headers;
}

function shapeResponses(path: string, method: string, operation: Record<string, unknown>): void {
  if (!isRecord(operation.responses)) return;
  const responses = operation.responses;
  addImpliedStatuses(method, operation, responses);
  const secured = Array.isArray(operation.security) && operation.security.length > 0;
  const sorted: Record<string, unknown> = {};
  for (const status of Object.keys(responses).sort()) {
    const answer = responses[status];
    if (!isRecord(answer)) continue;
    // A bodiless response (t.Void, the 204s) has no `content` instead of `{type: "void"}`.
    if (isRecord(answer.content) && typeof answer.content.type === "string") delete answer.content;
    if (Number(status) >= 400 && isRecord(answer.content)) {
      const json = answer.content["application/json"];
      if (isRecord(json) && isApiErrorSchema(json.schema)) {
        answer.content = { "application/json": { schema: API_ERROR_REF } };
      }
    }
    answer.headers = responseHeaders(path, status, secured);
    sorted[status] = answer;
  }
  operation.responses = sorted;
}

/**
 * Request bodies are closed: Elysia's `normalize: false` refuses a field the body's schema does not list
 * (docs/decisions.md), which the document states as `additionalProperties: false` on the body's object.
 * A body the route declares `t.Optional` is not required.
 */
function shapeRequestBody(operation: Record<string, unknown>, facts: RouteFacts | undefined): void {
  const body = operation.requestBody;
  if (!isRecord(body)) return;
  if (facts?.optionalBody) body.required = false;
  if (!isRecord(body.content)) return;
  for (const media of Object.values(body.content)) {
    if (!isRecord(media) || !isRecord(media.schema)) continue;
    if (media.schema.type === "object" && media.schema.additionalProperties === undefined) {
      media.schema = { ...media.schema, additionalProperties: false };
    }
  }
}

function shapeParameters(operation: Record<string, unknown>, facts: RouteFacts | undefined): void {
  if (!facts?.parameters.length) return;
  const generated = Array.isArray(operation.parameters) ? operation.parameters : [];
  const declared = (parameter: unknown) =>
    isRecord(parameter) ? `${String(parameter.in)} ${String(parameter.name)}`.toLowerCase() : "";
  const names = new Set(facts.parameters.map(declared));
  operation.parameters = [
    ...generated.filter((parameter) => !names.has(declared(parameter))),
    ...facts.parameters,
  ];
}

export function shapeDocument(source: unknown, facts: Map<string, RouteFacts>): unknown {
  const document: unknown = structuredClone(source);
  if (!isRecord(document) || !isRecord(document.paths)) return document;
  standardSchemas(document);
  const components = isRecord(document.components) ? document.components : {};
  document.components = {
    ...components,
    schemas: { ...(isRecord(components.schemas) ? components.schemas : {}), ApiError: apiErrorComponent() },
    headers: HEADERS,
  };
  for (const [path, operations] of Object.entries(document.paths)) {
    if (!isRecord(operations)) continue;
    for (const [method, operation] of Object.entries(operations)) {
      if (!HTTP_METHODS.has(method) || !isRecord(operation)) continue;
      // Keyless operations say so: no security requirement rather than none stated.
      operation.security ??= [];
      if (typeof operation.operationId === "string") {
        operation.operationId = camelOperationId(operation.operationId);
      }
      const routeFact = facts.get(`${method} ${path}`);
      shapeParameters(operation, routeFact);
      shapeRequestBody(operation, routeFact);
      shapeResponses(path, method, operation);
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

/**
 * Walks every object of the document, fixing schema keywords that are not OpenAPI 3.1: `nullable` (3.0)
 * becomes a `null` member of `type`; TypeBox's custom `error` messages go; a rule a service enforces
 * (`serviceRule` in src/http/schemas.ts) becomes the schema's own keywords.
 */
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
  const rule = node[SERVICE_RULE];
  if (isRecord(rule)) {
    delete node[SERVICE_RULE];
    Object.assign(node, rule);
  }
  for (const value of Object.values(node)) standardSchemas(value);
}
