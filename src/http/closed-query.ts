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

/**
 * Query strings are closed like bodies (docs/decisions.md): routes with a query schema refuse unknown
 * parameters through it; this closes the API routes that declare no query at all, where any parameter is
 * unknown, and refuses a parameter given twice anywhere. `routes` reads the finished app's route table,
 * which exists only once every plugin is added.
 */
export function closedQueries(routes: () => InternalRoute[]) {
  let withoutQuery: Set<string> | null = null;
  return new Elysia({ name: "http.closed-query" }).onBeforeHandle(
    { as: "global" },
    ({ request, route, query }) => {
      const [unknown] = Object.keys(query);
      const path = requestPath(request);
      if (unknown === undefined || !path.startsWith("/api/") || isDocument(path)) return;
      const repeated = repeatedParameter(request.url);
      if (repeated !== null) throw validationError(repeated, "is given more than once");
      withoutQuery ??= new Set(
        routes()
          .filter((candidate) => !candidate.hooks.query)
          .map((candidate) => `${candidate.method} ${candidate.path}`),
      );
      const method = request.method === "HEAD" ? "GET" : request.method;
      if (withoutQuery.has(`${method} ${route}`))
        throw validationError(unknown, "is not a known query parameter");
    },
  );
}
