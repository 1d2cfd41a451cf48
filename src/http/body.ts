import { Elysia } from "elysia";
import { ApiError } from "./errors";

const MiB = 1024 * 1024;
export const DEFAULT_BODY_LIMIT = MiB;
/** Routes allowed a bigger body than the default (decisions §4: import takes up to 10 MiB). */
const LARGE_BODY_LIMITS: Record<string, number> = { "/api/v1/import": 10 * MiB };
/** Bun itself refuses anything larger, before any hook runs; kept just above the largest route limit. */
export const SERVER_BODY_LIMIT = 11 * MiB;

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
  if (request.headers.has("content-length")) return request.text();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body) {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/**
 * Body limits and JSON parsing for the API. Everything under `/api/` is JSON whatever the Content-Type
 * says (a bare `curl -d` sends form encoding), malformed JSON is INVALID_JSON, and an oversized body is
 * PAYLOAD_TOO_LARGE: refused from its Content-Length before it is read, or while it streams in.
 */
export function jsonBodies() {
  return new Elysia({ name: "http.body" })
    .onRequest(({ request }) => {
      const declared = Number(request.headers.get("content-length") ?? 0);
      const limit = bodyLimitFor(new URL(request.url).pathname);
      if (declared > limit) throw tooLarge(limit);
    })
    .onParse({ as: "global" }, async ({ request }) => {
      const path = new URL(request.url).pathname;
      if (!path.startsWith("/api/")) return;
      const text = await readText(request, bodyLimitFor(path));
      if (text.trim() === "") return null;
      try {
        return JSON.parse(text);
      } catch {
        throw new ApiError(
          "INVALID_JSON",
          "Request body is not valid JSON",
          'Send a JSON document, for example {"label": "Mobile"}, and check quotes and commas.',
        );
      }
    });
}
