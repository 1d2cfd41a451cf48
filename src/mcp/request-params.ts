import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ClientRequestSchema,
  ErrorCode,
  isJSONRPCRequest,
  type JSONRPCErrorResponse,
  type JSONRPCRequest,
} from "@modelcontextprotocol/sdk/types.js";

/** One problem the SDK's request schema found, as its validator reports it. */
interface ParamsIssue {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  expected?: string;
  keys?: readonly string[];
}

interface RequestSchema {
  safeParse(
    value: unknown,
  ): { success: true } | { success: false; error: { issues: readonly ParamsIssue[] } };
}

/** The SDK's schema of every request a client may send, by method (`tools/call` → CallToolRequestSchema). */
const SCHEMA_BY_METHOD = new Map<string, RequestSchema>(
  ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema]),
);

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "a boolean",
  object: "an object",
  record: "an object",
  array: "an array",
};

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined;
    const next: unknown = Reflect.get(current, key);
    current = next;
  }
  return current;
}

/** `params.arguments.idea` is named as the client wrote it inside params: 'arguments.idea'. */
function paramName(path: readonly PropertyKey[]): string {
  const inside = path[0] === "params" && path.length > 1 ? path.slice(1) : path;
  return inside.map(String).join(".") || "params";
}

function problemOf(issue: ParamsIssue, request: JSONRPCRequest): string {
  if (issue.code === "invalid_type") {
    if (valueAt(request, issue.path) === undefined) return "is required";
    const expected = issue.expected ?? "";
    return `must be ${TYPE_NAMES[expected] ?? expected}`;
  }
  if (issue.code === "unrecognized_keys") return `has unknown field(s) ${(issue.keys ?? []).join(", ")}`;
  return `is not valid (${issue.message})`;
}

/** The sentence for a request whose params the SDK's schema refuses, or null when they are valid. */
export function invalidParamsAnswer(request: JSONRPCRequest): JSONRPCErrorResponse | null {
  const checked = SCHEMA_BY_METHOD.get(request.method)?.safeParse(request);
  if (checked === undefined || checked.success) return null;
  const issue = checked.error.issues[0];
  const problem = issue
    ? `'${paramName(issue.path)}' ${problemOf(issue, request)}`
    : "they do not match the method";
  return {
    jsonrpc: "2.0",
    id: request.id,
    error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${problem}` },
  };
}

/**
 * Answers a request whose params do not fit its method as invalid params (-32602), in a sentence naming
 * the param, before the server sees it. The SDK validates them inside its request handling and answered an
 * internal error (-32603) whose message is its validator's issue list as JSON (docs/mcp.md). Each message
 * of a batch is checked on its own, so the others are still answered. Call after `server.connect`.
 */
export function refuseInvalidParams(transport: Transport): void {
  const deliver = transport.onmessage;
  if (deliver === undefined)
    throw new Error("refuseInvalidParams: connect the server to the transport first");
  transport.onmessage = (message, extra) => {
    const refusal = isJSONRPCRequest(message) ? invalidParamsAnswer(message) : null;
    if (refusal === null) {
      deliver(message, extra);
      return;
    }
    transport.send(refusal).catch((error: unknown) => {
      transport.onerror?.(error instanceof Error ? error : new Error(String(error)));
    });
  };
}
