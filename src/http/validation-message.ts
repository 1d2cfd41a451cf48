import type { Static, TSchema } from "@sinclair/typebox";
import { type ValueError, ValueErrorType } from "@sinclair/typebox/errors";
import { Value } from "@sinclair/typebox/value";
import { validationError } from "./errors";

/**
 * Where a failed value sits, as a client would name it: `label`, `items.3.title`; null when the problem is
 * the whole value at the location (a missing body), which must not read like a field of that name (a
 * comment's `body`, the similar search's `query`).
 */
export function fieldName(error: ValueError, location: string): string | null {
  const path = error.path.replace(/^\//, "").replaceAll("/", ".");
  if (path !== "") return path;
  // A query parameter checked on its own after coercion has no path; IntegerParam titles it.
  if (location === "property" && typeof error.schema.title === "string") return error.schema.title;
  return null;
}

function describeType(schema: TSchema): string {
  if (schema.const !== undefined) return `exactly ${JSON.stringify(schema.const)}`;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.join(", ")}`;
  if (Array.isArray(schema.anyOf)) {
    const options = schema.anyOf as TSchema[];
    if (options.every((option) => option.const !== undefined)) {
      return `one of ${options.map((option) => String(option.const)).join(", ")}`;
    }
    return [...new Set(options.map(describeType))].join(" or ");
  }
  if (schema.format === "numeric") return "a number";
  if (schema.format === "boolean") return "a boolean";
  switch (schema.type) {
    case "integer":
      return "an integer";
    case "object":
      return "an object";
    case "array":
      return "an array";
    case "null":
      return "null";
    case undefined:
      return "a valid value";
    default:
      return `a ${String(schema.type)}`;
  }
}

/** Errors that only say the value is of another type than one option of a union wants. */
const WRONG_TYPE = new Set<ValueErrorType>([
  ValueErrorType.Array,
  ValueErrorType.BigInt,
  ValueErrorType.Boolean,
  ValueErrorType.Date,
  ValueErrorType.Integer,
  ValueErrorType.Literal,
  ValueErrorType.Null,
  ValueErrorType.Number,
  ValueErrorType.Object,
  ValueErrorType.String,
  ValueErrorType.Undefined,
]);

/**
 * For a value that failed every option of a union, the first complaint of an option whose type it has:
 * 51 against Elysia's body `t.Integer` (a numeric string or an integer) is "at most 50", not "must be a
 * string or an integer"; a too-long value of `t.Nullable(t.String(...))` is "at most N characters".
 */
function closestOption(firsts: readonly (ValueError | undefined)[]): ValueError | null {
  return firsts.find((first) => first !== undefined && !WRONG_TYPE.has(first.type)) ?? null;
}

/**
 * For a value that failed every option of a union only by the type of some part of it, the complaint of
 * an option whose own type it has, about that part: `[5]` against "rows or a document" is an array whose
 * item 1 is not an object, not "must be an array or an object".
 */
function insideOption(
  error: ValueError,
  firsts: readonly (ValueError | undefined)[],
): { where: string; problem: ValueError } | null {
  for (const first of firsts) {
    if (!first || !first.path.startsWith(`${error.path}/`)) continue;
    const where = first.path
      .slice(error.path.length + 1)
      .split("/")
      .map((segment) => (/^\d+$/.test(segment) ? `item ${Number(segment) + 1}` : `'${segment}'`))
      .join(", ");
    return { where, problem: first };
  }
  return null;
}

/** A short sentence about what is wrong with the value, for a VALIDATION_ERROR message. */
export function describeProblem(error: ValueError): string {
  const schema = error.schema;
  if (typeof schema.error === "string") return schema.error;
  if (error.type === ValueErrorType.Union) {
    // Each option's errors are an iterator: read its first error once.
    const firsts = error.errors.map((option) => option.First());
    const closest = closestOption(firsts);
    if (closest) return describeProblem(closest);
    const inside = insideOption(error, firsts);
    if (inside) return `${inside.where}: ${describeProblem(inside.problem)}`;
  }
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return "is required";
    case ValueErrorType.ObjectAdditionalProperties:
      return "is not a known field";
    case ValueErrorType.ObjectMinProperties:
      return `must contain at least ${schema.minProperties} field(s)`;
    case ValueErrorType.StringMaxLength:
      return `must be at most ${schema.maxLength} characters`;
    case ValueErrorType.StringMinLength:
      return schema.minLength === 1 ? "must not be empty" : `must be at least ${schema.minLength} characters`;
    case ValueErrorType.StringPattern:
      return `must match ${schema.pattern}`;
    case ValueErrorType.StringFormat:
      return `must be a valid ${schema.format}`;
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
      return `must be at least ${schema.minimum}`;
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum:
      return `must be at most ${schema.maximum}`;
    case ValueErrorType.ArrayMaxItems:
      return `must have at most ${schema.maxItems} items`;
    case ValueErrorType.ArrayMinItems:
      return `must have at least ${schema.minItems} item(s)`;
    case ValueErrorType.ArrayUniqueItems:
      return "must not contain duplicates";
    default:
      return `must be ${describeType(schema)}`;
  }
}

/**
 * Checks a value that no route schema checked (an MCP tool's arguments, one item of a bulk request, one
 * entity of an import) and returns it typed, or throws the VALIDATION_ERROR a route would have answered.
 * `location` names the value when the problem is the value itself rather than one of its fields.
 */
export function requireValid<S extends TSchema>(schema: S, value: unknown, location: string): Static<S> {
  if (Value.Check(schema, value)) return value;
  const first = Value.Errors(schema, value).First();
  if (!first) throw validationError(location, "is not valid");
  throw validationError(fieldName(first, location) ?? location, describeProblem(first));
}
