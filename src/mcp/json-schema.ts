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
    node[key] = clean(inner);
  }
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
