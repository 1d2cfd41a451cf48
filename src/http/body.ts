import { Elysia } from "elysia";
import { ApiError } from "./errors";
import { MCP_PATH, requestPath } from "./request-info";
import { nextTurn } from "../turns";

const MiB = 1024 * 1024;
export const DEFAULT_BODY_LIMIT = MiB;
/**
 * Routes allowed a bigger body than the default (docs/decisions.md, "Body limits"): import takes up to
 * 10 MiB, from the API and from the dashboard's upload form alike.
 */
export const IMPORT_BODY_LIMIT = 10 * MiB;
const LARGE_BODY_LIMITS: Record<string, number> = {
  "/api/v1/import": IMPORT_BODY_LIMIT,
  "/admin/import": IMPORT_BODY_LIMIT,
};
/**
 * Bun itself refuses anything larger with an empty 413 before any hook runs (docs/decisions.md, Errors).
 * It sits above every route limit, so that the routes' own limits answer with the ApiError shape, and low
 * enough that a body Bun buffers for a route that reads forms (the dashboard's, whose chunked bodies no
 * Content-Length announces) stays small: at 64 MiB a 30 MB chunked sign-in form was read whole.
 */
export const SERVER_BODY_LIMIT = 16 * MiB;

/**
 * Deepest nesting of arrays and objects a JSON body may have (docs/decisions.md, Limits). Checked on the
 * text before parsing: validating or serialising a 20,000-level document would exhaust the stack.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * A body at least this large (an import) is checked and parsed in steps with the event loop free between
 * them: for a 3 MB import the depth check and the parse take 4-13 ms each, and run back to back with the
 * validation after them they held every other request ~40 ms (issue 19; docs/performance.md).
 */
const PARSE_IN_STEPS_FROM = 256 * 1024;

/** Whether the quote at `at` is escaped: preceded by an odd number of backslashes. */
function isEscaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === 92 /* \\ */) backslashes++;
  return backslashes % 2 === 1;
}

/**
 * Characters of a large body the depth check reads per turn: ~1–2 ms, where the whole of a 3 MB import
 * held the event loop 12 ms on the service's first import, its code not yet compiled (issue 19).
 */
const DEPTH_CHECK_STEP = 256 * 1024;

/**
 * An array that is the value of a member of the root object: the offsets of its `[`, of the commas between
 * its elements and of its `]`. A large body's big arrays (an import's rows) are parsed a step at a time
 * along these commas (`parseInSteps`).
 */
export interface MemberArray {
  open: number;
  commas: number[];
  close: number;
}

/**
 * Whether the JSON text nests arrays/objects deeper than `max`, read in one pass without recursion. A
 * string is skipped with indexOf to its closing quote: most of a large body is string content, and reading
 * it character by character held the event loop ~16 ms for a 3 MB import (issue 19). The pass can stop
 * and go on, inside a string too: `read(until)` reads up to `until` and says
 * whether the text is too deep, done, or has more to read. On the way it notes the root object's member
 * arrays (`arrays`, complete once `read` says "within"); what it notes of an invalid text only has to be
 * consistent, as the parse rejects that text anyway.
 */
export function depthCheck(
  text: string,
  max: number,
): { read(until: number): "deeper" | "within" | "more"; readSoFar(): number; arrays: MemberArray[] } {
  let depth = 0;
  let index = 0;
  let inString = false;
  let rootIsObject = false;
  let array: MemberArray | null = null;
  const arrays: MemberArray[] = [];
  return {
    arrays,
    /** Characters read so far: never far past the last `until`, a step is a step. */
    readSoFar: () => index,
    read(until) {
      const end = Math.min(until, text.length);
      for (; index < end; index++) {
        if (inString) {
          // A long string with many escaped quotes (a CSV text) is read up to `until` too: read to its
          // end in one step, a 2 MB one held the loop 7-10 ms.
          let close = text.indexOf('"', index);
          while (close !== -1 && close < end && isEscaped(text, close)) close = text.indexOf('"', close + 1);
          if (close === -1) return "within";
          if (close >= end) {
            index = end;
            return "more";
          }
          inString = false;
          index = close;
          continue;
        }
        const char = text.charCodeAt(index);
        if (char === 34 /* " */) inString = true;
        else if (char === 44 /* , */) {
          if (depth === 2 && array) array.commas.push(index);
        } else if (char === 91 /* [ */ || char === 123 /* { */) {
          if (++depth > max) return "deeper";
          if (depth === 1) rootIsObject = char === 123 && arrays.length === 0;
          else if (depth === 2 && char === 91 && rootIsObject) array = { open: index, commas: [], close: -1 };
        } else if (char === 93 /* ] */ || char === 125 /* } */) {
          if (depth === 2 && array) {
            array.close = index;
            arrays.push(array);
            array = null;
          }
          depth--;
        }
      }
      return index < text.length ? "more" : "within";
    },
  };
}

/** The depth check in one go (a body below PARSE_IN_STEPS_FROM). */
export function nestsDeeperThan(text: string, max: number): boolean {
  return depthCheck(text, max).read(text.length) === "deeper";
}

/**
 * The depth check a step at a time, the event loop free between steps: null when the text nests too
 * deep, else the root object's member arrays.
 */
async function depthCheckInSteps(text: string, max: number): Promise<MemberArray[] | null> {
  const check = depthCheck(text, max);
  for (let until = DEPTH_CHECK_STEP; ; until += DEPTH_CHECK_STEP) {
    const state = check.read(until);
    if (state === "deeper") return null;
    if (state === "within") return check.arrays;
    await nextTurn();
  }
}

/**
 * Characters of a big member array's elements parsed per turn: `JSON.parse` of a 3 MB import held the
 * event loop 11-15 ms on one turn (issue 19; docs/performance.md).
 */
const PARSE_STEP = 256 * 1024;

const JSON_WHITESPACE = /^[ \t\n\r]*$/;

/**
 * `JSON.parse(text)`, the same value or the same SyntaxError, with each member array of the root object
 * longer than `step` characters parsed a few elements per turn. The rest of the document (each big array
 * replaced by a marker) is parsed first, in one go: it is small. An element is never split, and each
 * step must give one element per comma the scan found, so an empty element (`[1,,2]`, `[1,]`) is refused
 * as the whole parse refuses it.
 */
export async function parseInSteps(text: string, arrays: MemberArray[], step = PARSE_STEP): Promise<unknown> {
  const big = arrays.filter((array) => array.close - array.open > step);
  if (big.length === 0) return JSON.parse(text);
  // A string no body holds: it carries a random UUID made for this parse.
  const marker = `\u0000featureboard-${crypto.randomUUID()}-`;
  let skeleton = "";
  let from = 0;
  for (const [position, array] of big.entries()) {
    skeleton += `${text.slice(from, array.open + 1)}${JSON.stringify(marker + position)}`;
    from = array.close;
  }
  const root: unknown = JSON.parse(skeleton + text.slice(from));
  const parsed: unknown[][] = [];
  for (const array of big) {
    const bounds = [array.open, ...array.commas, array.close];
    const elements: unknown[] = [];
    if (array.commas.length > 0 || !JSON_WHITESPACE.test(text.slice(array.open + 1, array.close))) {
      for (let first = 0; first < bounds.length - 1;) {
        await nextTurn();
        let last = first + 1;
        while (last < bounds.length - 1 && bounds[last]! - bounds[first]! < step) last++;
        const some: unknown = JSON.parse(`[${text.slice(bounds[first]! + 1, bounds[last])}]`);
        if (!Array.isArray(some) || some.length !== last - first) {
          throw new SyntaxError("JSON Parse error: an array element is missing");
        }
        for (const element of some) elements.push(element);
        first = last;
      }
    }
    parsed.push(elements);
  }
  if (typeof root !== "object" || root === null) return root;
  for (const [key, value] of Object.entries(root)) {
    const position = markerPosition(value, marker);
    // The member is an own property (JSON.parse made it), even one named "__proto__": its value is replaced.
    if (position !== null) {
      Object.defineProperty(root, key, {
        value: parsed[position],
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
  }
  return root;
}

/** Which big array a skeleton value stands for, if it is a marker. */
function markerPosition(value: unknown, marker: string): number | null {
  if (!Array.isArray(value) || value.length !== 1) return null;
  const only: unknown = value[0];
  if (typeof only !== "string" || !only.startsWith(marker)) return null;
  return Number(only.slice(marker.length));
}

export function bodyLimitFor(path: string): number {
  return LARGE_BODY_LIMITS[path] ?? DEFAULT_BODY_LIMIT;
}

function tooLarge(limit: number): ApiError {
  return new ApiError(
    "PAYLOAD_TOO_LARGE",
    `Request body exceeds the ${limit / MiB} MiB limit`,
    "Send a smaller body; split large imports or bulk updates into several requests.",
    // The rest of the body is never read, so the connection cannot carry another request.
    { headers: { connection: "close" } },
  );
}

/**
 * Reads the body as text. A declared length was checked on arrival, so such a body is read at once; a
 * chunked one (no length) is counted as it streams in and refused as soon as it passes `limit`.
 */
async function readText(request: Request, limit: number): Promise<string> {
  if (!request.body) return "";
  if (request.headers.has("content-length")) return decodeUtf8(await request.arrayBuffer());
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body) {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return decodeUtf8(Buffer.concat(chunks));
}

/**
 * JSON text is UTF-8 (RFC 8259). Bytes that are not were decoded into U+FFFD and stored so, a title
 * changed without a word; they are refused instead.
 */
function decodeUtf8(bytes: ArrayBuffer | Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError(
      "INVALID_JSON",
      "Request body is not valid UTF-8",
      "Send the JSON document encoded in UTF-8; other encodings, or bytes cut in the middle of a character, are refused.",
    );
  }
}

/**
 * Run before a body is refused: the body is parsed before the route's own hooks, so a refusal would
 * otherwise skip the key check and its rate limit (docs/decisions.md, "Rate limits").
 */
export type BeforeRefusingBody = (request: Request, headers: Record<string, string | number>) => void;

/**
 * Body limits and JSON parsing for the API. Everything under `/api/` is JSON whatever the Content-Type
 * says (a bare `curl -d` sends form encoding), malformed JSON is INVALID_JSON, and an oversized body is
 * PAYLOAD_TOO_LARGE: refused from its Content-Length before it is read, or while it streams in.
 */
export function jsonBodies(beforeRefusing: BeforeRefusingBody) {
  return new Elysia({ name: "http.body" })
    .onRequest(({ request, set }) => {
      const declared = Number(request.headers.get("content-length") ?? 0);
      const limit = bodyLimitFor(requestPath(request));
      if (declared <= limit) return;
      beforeRefusing(request, set.headers);
      throw tooLarge(limit);
    })
    .onParse({ as: "global" }, async ({ request, set }) => {
      const path = requestPath(request);
      // The MCP endpoint's JSON-RPC gets the same limits (size while it streams in, depth), not the
      // object-only rule: a JSON-RPC batch is an array.
      const mcp = path === MCP_PATH;
      if (!path.startsWith("/api/") && !mcp) return;
      try {
        return await parseApiBody(request, path, mcp);
      } catch (refusal) {
        beforeRefusing(request, set.headers);
        throw refusal;
      }
    });
}

/** The parsed JSON of an API (or MCP) request's body, or the ApiError that refuses it. */
async function parseApiBody(request: Request, path: string, mcp: boolean): Promise<unknown> {
  const text = await readText(request, bodyLimitFor(path));
  if (text.trim() === "") return null;
  const inSteps = text.length >= PARSE_IN_STEPS_FROM;
  if (inSteps) await nextTurn();
  const arrays = inSteps ? await depthCheckInSteps(text, MAX_JSON_DEPTH) : [];
  if (arrays === null || (!inSteps && nestsDeeperThan(text, MAX_JSON_DEPTH))) {
    throw new ApiError(
      "VALIDATION_ERROR",
      `Request body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels`,
      `Flatten the document: no value may sit more than ${MAX_JSON_DEPTH} arrays or objects deep.`,
    );
  }
  let parsed: unknown;
  try {
    parsed = inSteps ? await parseInSteps(text, arrays) : JSON.parse(text);
  } catch {
    throw new ApiError(
      "INVALID_JSON",
      "Request body is not valid JSON",
      'Send a JSON document, for example {"label": "Mobile"}, and check quotes and commas.',
    );
  }
  // Every API body is an object (docs/decisions.md); an optional body schema would let 42 through.
  if (!mcp && (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))) {
    throw new ApiError(
      "VALIDATION_ERROR",
      "Request body must be a JSON object",
      'Send a JSON object, for example {"label": "Mobile"}, or no body where the body is optional.',
    );
  }
  // Validation of the parsed body comes next, on the same turn.
  if (inSteps) await nextTurn();
  return parsed;
}
