import { Elysia } from "elysia";
import type { AppContext } from "../context";
import { type Authenticated, authenticateKey } from "../projects/service";
import { ApiError } from "./errors";
import type { BeforeRefusingBody } from "./body";
import { enforceRateLimit, meteredByKeyCheck } from "./rate-limit";
import { requestInfo } from "./request-info";

function bearerToken(header: string | null): string | null {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1] ?? null;
}

const secretKeyRequired = () =>
  new ApiError(
    "SECRET_KEY_REQUIRED",
    "Secret API key required",
    "Send 'Authorization: Bearer sk_…' with a secret key of the project; publishable pk_ keys only work on the public API.",
  );

const invalidKey = () =>
  new ApiError(
    "INVALID_API_KEY",
    "The API key is unknown or has been revoked",
    "Check the key, or create a new one with: featureboard keys create --project <slug> --kind secret",
  );

/** No key, or a publishable one, is "secret key required"; anything else that fails is an invalid key. */
function rejection(token: string | null): ApiError {
  return token === null || token.startsWith("pk_") ? secretKeyRequired() : invalidKey();
}

type HeaderBag = Record<string, string | number>;

/**
 * Authenticates `Authorization: Bearer sk_…` and meters the request against that key's rate limit; a
 * request with a bad key is metered per client IP, so guessing keys is rate limited too. Shared by the
 * secret-key routes and the MCP endpoint's admin mode.
 */
export function authenticateSecretKey(ctx: AppContext, request: Request, headers: HeaderBag): Authenticated {
  const info = requestInfo(request);
  const header = request.headers.get("authorization");
  const token = bearerToken(header);
  const authenticated = token?.startsWith("sk_") ? authenticateKey(ctx.db, token) : null;
  if (authenticated?.kind !== "secret") {
    // Without any key there is nothing to guess: the 401 is not metered (`meteredByKeyCheck`).
    if (header !== null) enforceRateLimit(ctx.rateLimits.publicIp, info.clientIp, headers);
    throw rejection(token);
  }
  enforceRateLimit(ctx.rateLimits.secretKey, authenticated.keyId, headers);
  info.projectId = authenticated.project.id;
  return authenticated;
}

/** Resolves `project` from the secret key for the routes of the plugin that uses it. */
export function secretKeyAuth(ctx: AppContext) {
  return new Elysia().derive({ as: "scoped" }, ({ request, set }) => ({
    project: authenticateSecretKey(ctx, request, set.headers).project,
  }));
}

/**
 * A body refused before its route runs (malformed, too deep, too large) still meets the key check first:
 * a missing or bad key answers 401, and a good one is metered and gets its RateLimit headers
 * (docs/decisions.md, "Rate limits").
 */
export function authenticateBeforeRefusingBody(ctx: AppContext): BeforeRefusingBody {
  return (request: Request, headers: HeaderBag): void => {
    if (meteredByKeyCheck(request)) authenticateSecretKey(ctx, request, headers);
  };
}
