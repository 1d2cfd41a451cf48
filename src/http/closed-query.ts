import { Elysia, type InternalRoute } from "elysia";
import { validationError } from "./errors";
import { requestPath } from "./request-info";

/**
 * Query strings are closed like bodies (docs/decisions.md): routes with a query schema refuse unknown
 * parameters through it; this closes the API routes that declare no query at all, where any parameter is
 * unknown. `routes` reads the finished app's route table, which exists only once every plugin is added.
 */
export function closedQueries(routes: () => InternalRoute[]) {
  let withoutQuery: Set<string> | null = null;
  return new Elysia({ name: "http.closed-query" }).onBeforeHandle(
    { as: "global" },
    ({ request, route, query }) => {
      const [unknown] = Object.keys(query);
      if (unknown === undefined || !requestPath(request).startsWith("/api/")) return;
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
