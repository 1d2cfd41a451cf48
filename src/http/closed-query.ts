import { Elysia, type InternalRoute } from "elysia";
import { validationError } from "./errors";
import { DOCS_PATH, OPENAPI_PATH, requestPath } from "./request-info";

/**
 * The API's documents are pages and files, not calls: a link or a tool may add its own parameters (a
 * cache buster, a tracking tag), which a closed query would refuse with a JSON error instead of the page.
 */
function isDocument(path: string): boolean {
  return path === OPENAPI_PATH || path === DOCS_PATH || path.startsWith(`${DOCS_PATH}/`);
}

/**
 * A parameter the query string gives twice: no parameter of the API takes a list, and keeping one of the
 * values (Elysia keeps the last) would answer a question the client did not ask (`status=A&status=B`).
 */
function repeatedParameter(url: string): string | null {
  const start = url.indexOf("?");
  if (start === -1 || !url.includes("&", start)) return null;
  const seen = new Set<string>();
  for (const name of new URLSearchParams(url.slice(start + 1)).keys()) {
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return null;
}

/** The routes of the finished app that declare no schema for `part`, as "METHOD /path" (HEAD read as GET). */
function routesWithout(routes: InternalRoute[], part: "query" | "body"): Set<string> {
  return new Set(
    routes
      .filter((candidate) => !candidate.hooks[part])
      .map((candidate) => `${candidate.method} ${candidate.path}`),
  );
}

/** The first field of a JSON body, when there is one: `{}` and no body at all carry none. */
function firstField(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  return Object.keys(body)[0];
}

/**
 * Query strings and bodies are closed (docs/decisions.md): routes with a schema refuse unknown parameters
 * and fields through it; this closes the API routes that declare none, where any parameter or body field
 * is unknown (a `{"reason": …}` sent to a DELETE was silently dropped), and refuses a query parameter
 * given twice anywhere. `routes` reads the finished app's route table, which exists only once every plugin
 * is added.
 */
export function closedQueries(routes: () => InternalRoute[]) {
  let withoutQuery: Set<string> | null = null;
  let withoutBody: Set<string> | null = null;
  return new Elysia({ name: "http.closed-query" }).onBeforeHandle(
    { as: "global" },
    ({ request, route, query, body }) => {
      const path = requestPath(request);
      if (!path.startsWith("/api/") || isDocument(path)) return;
      const method = request.method === "HEAD" ? "GET" : request.method;
      const field = firstField(body);
      if (field !== undefined) {
        withoutBody ??= routesWithout(routes(), "body");
        if (withoutBody.has(`${method} ${route}`))
          throw validationError(field, "is not a known field: this operation takes no body");
      }
      const [unknown] = Object.keys(query);
      if (unknown === undefined) return;
      const repeated = repeatedParameter(request.url);
      if (repeated !== null) throw validationError(repeated, "is given more than once");
      withoutQuery ??= routesWithout(routes(), "query");
      if (withoutQuery.has(`${method} ${route}`))
        throw validationError(unknown, "is not a known query parameter");
    },
  );
}
