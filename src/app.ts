import { type AnyElysia, Elysia, type InternalRoute } from "elysia";
import type { AppContext } from "./context";
import { authenticateBeforeRefusingBody } from "./http/auth";
import { jsonBodies, SERVER_BODY_LIMIT } from "./http/body";
import { closedQueries } from "./http/closed-query";
import { commitBeforeAnswering } from "./http/commit";
import { errorHandler, lastResortResponse } from "./http/error-handler";
import { keylessRateLimit } from "./http/rate-limit";
import { requestLog } from "./http/request-info";
import { docsRoutes } from "./meta/docs-page";
import { openApi } from "./meta/openapi";
import { metaRoutes } from "./meta/routes";
import { paymentsRoutes } from "./payments/routes";
import { confirmEmailRoutes, unsubscribeRoutes } from "./email/routes";
import { activityRoutes } from "./activity/routes";
import { adminRoutes } from "./admin/routes";
import { analyticsRoutes } from "./analytics/routes";
import { mcpRoutes } from "./mcp/routes";
import { aiRoutes } from "./ai/routes";
import { commentRoutes } from "./comments/routes";
import { importRoutes } from "./imports/routes";
import { postRoutes } from "./posts/routes";
import { releaseRoutes } from "./releases/routes";
import { roadmapRoutes } from "./roadmap/routes";
import { publicRoutes } from "./public/routes";
import { tagRoutes } from "./tags/routes";
import { userRoutes } from "./users/routes";
import { webRoutes } from "./web/routes";
import { voteRoutes } from "./votes/routes";
import { webhookRoutes } from "./webhooks/routes";
import { integrationRoutes } from "./integrations/routes";

/**
 * How long a connection may carry no bytes, answer included. Elysia's 30 s closed the connection of a
 * request still waiting on the model server (a similar-post search during a model's cold start) with an
 * empty reply, while the log later said 200. It covers the longest a request waits on the model server,
 * from-text's: the words with their retries, then one attempt at the embedding ((2 + retries) time-outs;
 * README.md, the AI time-out), a margin of 10 s, within Bun's own cap of 255 s (docs/ai.md, "Endpoints").
 */
export function idleTimeoutSeconds(config: { ai: { timeoutMs: number; maxRetries: number } }): number {
  const longestWaitMs = (2 + config.ai.maxRetries) * config.ai.timeoutMs;
  return Math.min(255, Math.max(30, Math.ceil(longestWaitMs / 1000) + 10));
}

/** The one place that shows every route: shared plumbing first, then each capability's plugin. */
export function createApp(ctx: AppContext) {
  // Discovery and the API document read the finished app's routes, which exist only once the chain below
  // is built.
  let finished: AnyElysia | null = null;
  const routes = (): InternalRoute[] => finished?.routes ?? [];
  const app = new Elysia({
    // Unknown fields are refused, and a response carrying a field its schema does not list fails closed.
    normalize: false,
    // Elysia's t.Integer is a transform (it coerces query strings), which would make every response with
    // an integer go through a full TypeBox Encode pass; responses never need transforming.
    encodeSchema: false,
    serve: {
      maxRequestBodySize: SERVER_BODY_LIMIT,
      // Bun's development mode (its default unless NODE_ENV=production) answers errors with an HTML page
      // carrying the stack and the working directory; the service never runs in it.
      development: false,
      // A second server on a port in use must fail, not share the port with another database.
      reusePort: false,
      idleTimeout: idleTimeoutSeconds(ctx.config),
      error: (error) => lastResortResponse(ctx, error),
    },
  })
    .use(requestLog(ctx))
    .use(keylessRateLimit(ctx))
    .use(jsonBodies(authenticateBeforeRefusingBody(ctx)))
    .use(errorHandler(ctx))
    .use(commitBeforeAnswering(ctx))
    .use(closedQueries(routes))
    .use(openApi(ctx, () => finished))
    .use(docsRoutes(ctx))
    .use(metaRoutes(ctx, routes))
    .use(tagRoutes(ctx))
    .use(postRoutes(ctx))
    .use(voteRoutes(ctx))
    .use(commentRoutes(ctx))
    .use(paymentsRoutes(ctx))
    .use(unsubscribeRoutes(ctx))
    .use(confirmEmailRoutes(ctx))
    .use(webhookRoutes(ctx))
    .use(integrationRoutes(ctx))
    .use(roadmapRoutes(ctx))
    .use(releaseRoutes(ctx))
    .use(analyticsRoutes(ctx))
    .use(activityRoutes(ctx))
    .use(webRoutes(ctx))
    .use(adminRoutes(ctx))
    .use(publicRoutes(ctx))
    .use(importRoutes(ctx))
    .use(mcpRoutes(ctx))
    .use(aiRoutes(ctx))
    .use(userRoutes(ctx));
  finished = app;
  return app;
}

export type App = ReturnType<typeof createApp>;
