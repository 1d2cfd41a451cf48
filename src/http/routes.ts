import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { secretKeyAuth } from "./auth";

// A guard without a callback marks each hook with its scope, which throws on a bare "json" string; the
// hook-container form is what Elysia stores internally and what the OpenAPI generator reads.
const JSON_ONLY = { fn: "json" } as unknown as "json";

/**
 * The start of every secret-key resource: routes under `prefix`, grouped under `tag` in the OpenAPI
 * document, with `project` resolved from the key. `parse: "json"` states that these routes speak JSON
 * only (the global body parser still runs first; this is what the document advertises).
 */
export function secretKeyRoutes<const Prefix extends string>(ctx: AppContext, prefix: Prefix, tag: string) {
  return new Elysia({ prefix, detail: { tags: [tag], security: [{ bearerAuth: [] }] } })
    .guard({ parse: JSON_ONLY })
    .use(secretKeyAuth(ctx));
}

/** Routes that need no key (discovery, health, the public API): JSON only as well. */
export function keylessRoutes<const Prefix extends string>(prefix: Prefix, tag: string) {
  return new Elysia({ prefix, detail: { tags: [tag] } }).guard({ parse: JSON_ONLY });
}
