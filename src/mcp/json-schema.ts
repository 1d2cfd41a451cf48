import type { TSchema } from "@sinclair/typebox";

type JsonSchema = { [key: string]: unknown };

/**
 * Elysia's `t.Integer` / `t.Numeric` / `t.BooleanString` accept a string alternative so query strings can
 * be coerced; in a tool's schema that alternative would only mislead an agent.
 */
const COERCION_FORMATS = new Set(["integer", "numeric", "boolean"]);

function isCoercionString(value: unknown): boolean {
  const node = value as JsonSchema;
  return node.type === "string" && COERCION_FORMATS.has(String(node.format));
}

function clean(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clean);
  if (typeof value !== "object" || value === null) return value;
  const node: JsonSchema = {};
  for (const [key, inner] of Object.entries(value)) {
    // OpenAPI 3.0's `nullable` and defaults injected by Elysia are not JSON Schema an agent should see.
    if (key === "nullable") continue;
    // TypeBox's custom validation message is not a JSON Schema keyword: strict validators refuse it.
    if (key === "error" && typeof inner === "string") continue;
    node[key] = clean(inner);
  }
  // Clients validate schemas with a bare Ajv (the MCP Inspector does), which knows no formats and
  // refuses the whole schema over one: the format is said in words instead.
  if (typeof node.format === "string" && !COERCION_FORMATS.has(node.format)) {
    const { format, ...rest } = node;
    const said = format === "date-time" ? "an ISO 8601 date-time" : `format ${format}`;
    rest.description = typeof rest.description === "string" ? `${rest.description} (${said})` : said;
    return collapseCoercion(rest);
  }
  return collapseCoercion(node);
}

function collapseCoercion(node: JsonSchema): JsonSchema {
  if (Array.isArray(node.anyOf) && node.anyOf.some(isCoercionString)) {
    const rest = node.anyOf.filter((member) => !isCoercionString(member));
    if (rest.length === 1) {
      const { anyOf: _coerced, ...outer } = node;
      return { ...outer, ...(rest[0] as JsonSchema) };
    }
    node.anyOf = rest;
  }
  return node;
}

/** A TypeBox schema as the plain JSON Schema an MCP client is given (tool input and output schemas). */
export function toJsonSchema(schema: TSchema): JsonSchema & { type: "object" } {
  // JSON round-trip drops TypeBox's symbol keys and any transform functions.
  return clean(JSON.parse(JSON.stringify(schema))) as JsonSchema & { type: "object" };
}
