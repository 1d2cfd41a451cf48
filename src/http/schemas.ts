import { type TSchema, t } from "elysia";
import { FormatRegistry, type IntegerOptions, type SchemaOptions, Type } from "@sinclair/typebox";
import { ApiErrorSchema, ERROR_CODES } from "./errors";
import { LIMITS } from "./limits";

/**
 * A string enum. Elysia's `t.UnionEnum` carries `default: <first value>`, and Elysia fills defaults into
 * fields the client left out, so an omitted optional status would silently become the first one.
 */
export function Enum<const T extends readonly [string, ...string[]]>(values: T, options: SchemaOptions = {}) {
  const { default: _firstValue, ...schema } = t.UnionEnum(values, options);
  return schema as ReturnType<typeof t.UnionEnum<T>>;
}

export const DateTime = t.String({ format: "date-time" });

/**
 * A date-time a client sends (a filter's bound): RFC 3339, as every date-time the API answers. Elysia's
 * "date-time" format alone also takes a date without its time, or a space for the `T`, which would be read
 * as some hour of some time zone nobody chose.
 */
export function DateTimeInput(description: string) {
  return t.String({
    format: "date-time",
    pattern: "^\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?([Zz]|[+-]\\d{2}:\\d{2})$",
    error: "must be a date-time such as 2026-11-26T09:00:00Z (RFC 3339)",
    description,
  });
}

/**
 * What a query's integer may be written as: decimal digits, with a minus sign for a negative number.
 * Elysia's own "integer" format (the text of `t.Integer` in a query) reads the text with `Number()`, so
 * `0x10`, `1e2`, ` 5` or `5.0` passed as 16, 100 and 5: a mistyped page or limit went through as another
 * number instead of being refused. Elysia registers its format only if none is registered; it is loaded
 * before this module (imported above), so this one replaces it.
 */
FormatRegistry.Set("integer", (text) => /^-?[0-9]{1,15}$/.test(text));

/**
 * An integer query parameter. Elysia coerces these one by one and, when a coerced value is out of range,
 * reports only the parameter's own schema: the `title` is how the error message can name the parameter.
 */
export function IntegerParam(
  name: string,
  options: { minimum?: number; maximum?: number; description?: string; serviceDefault?: number },
) {
  const { serviceDefault, ...rest } = options;
  // The service applies the default (pageRequest), so the document states it and the validator does not.
  const annotation = serviceDefault === undefined ? {} : serviceRule({ default: serviceDefault });
  const schemaOptions: IntegerOptions = { ...rest, ...annotation, title: name };
  return t.Integer(schemaOptions);
}

/**
 * An integer field of a JSON body: a JSON number with no fraction. Elysia's `t.Integer` is a transform that
 * also takes numeric strings (which a query needs, a body never), and decoding it rebuilds the body, which
 * dropped a `__proto__` key before the unknown-field check could refuse it.
 */
export function BodyInteger(options: IntegerOptions) {
  return Type.Integer(options);
}
export const Id = t.String({ minLength: 1, maxLength: LIMITS.idLength });
export const SuccessSchema = t.Object({ success: t.Boolean() }, { description: "Done" });

/** The `{ data: … }` envelope every success body uses; `description` becomes the OpenAPI response's. */
export function dataOf<T extends TSchema>(schema: T, description = "Success") {
  return t.Object({ data: schema }, { description });
}

/** What each error status means, as the OpenAPI document describes its response. */
export const ERROR_STATUS_DESCRIPTIONS = {
  400: "Invalid request (VALIDATION_ERROR, INVALID_JSON, …)",
  401: "Missing, publishable, unknown or revoked key (SECRET_KEY_REQUIRED, INVALID_API_KEY)",
  403: "Plan upgrade required or board not public",
  404: "Entity not found in this project",
  409: "Conflict with the current state",
  413: "Body too large (PAYLOAD_TOO_LARGE)",
  429: "Rate limited (RATE_LIMITED); see Retry-After",
  500: "Internal error",
  502: "Upstream provider failed (UPSTREAM_ERROR)",
  503: "Not ready yet (SERVICE_UNAVAILABLE); retry",
} as const;

type ErrorStatus = keyof typeof ERROR_STATUS_DESCRIPTIONS;

export function isErrorStatus(status: number): status is ErrorStatus {
  return Object.hasOwn(ERROR_STATUS_DESCRIPTIONS, status);
}

/**
 * ApiError responses for the OpenAPI document. 400 (an unknown query parameter, an over-long id), 429 and
 * 500 apply to every route; the document adds 401 to every secret-key route and 413 to every route with a
 * body (src/meta/openapi-document.ts), so a keyless route lists 401 only when it says so.
 */
export function errorResponses(...statuses: ErrorStatus[]) {
  const all = new Set<ErrorStatus>([...statuses, 400, 429, 500]);
  return Object.fromEntries(
    [...all]
      .sort()
      .map((status) => [status, { ...ApiErrorSchema, description: ERROR_STATUS_DESCRIPTIONS[status] }]),
  ) as Record<ErrorStatus, typeof ApiErrorSchema>;
}

/** The annotation `serviceRule` writes; src/meta/openapi-document.ts turns it into the schema's keywords. */
export const SERVICE_RULE = "x-service-rule";

/**
 * A rule a service enforces with its own message (an absolute https URL, a known event type), stated in the
 * OpenAPI document without the validator enforcing it a second time with another message: spread it into a
 * schema's options. The validator ignores the annotation.
 */
export function serviceRule(keywords: { format?: "uri"; enum?: readonly string[]; default?: number }) {
  return { [SERVICE_RULE]: keywords };
}

export const ALL_ERROR_CODES = Object.keys(ERROR_CODES);
