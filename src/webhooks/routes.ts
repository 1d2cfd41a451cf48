import { t } from "elysia";
import type { AppContext } from "../context";
import { secretKeyRoutes } from "../http/routes";
import { dataOf, errorResponses, SuccessSchema } from "../http/schemas";
import {
  CreatedWebhookSchema,
  WebhookCreateSchema,
  WebhookParams,
  WebhookSchema,
  WebhookUpdateSchema,
  WebhookWithDeliveriesSchema,
} from "./schema";
import * as webhooks from "./service";

export function webhookRoutes(ctx: AppContext) {
  const { db, config } = ctx;
  return secretKeyRoutes(ctx, "/api/v1/integrations/webhooks", "Webhooks")
    .get("", ({ project }) => ({ data: webhooks.listWebhooks(db, project.id) }), {
      response: { 200: dataOf(t.Array(WebhookSchema), "The webhook endpoints"), ...errorResponses() },
      detail: { summary: "List webhook endpoints" },
    })
    .post(
      "",
      async ({ project, body, status }) =>
        status(201, { data: await webhooks.createWebhook(db, project.id, body, config) }),
      {
        body: WebhookCreateSchema,
        response: {
          201: dataOf(CreatedWebhookSchema, "The created endpoint, with its secret"),
          ...errorResponses(400),
        },
        detail: {
          summary: "Create a webhook endpoint",
          description:
            "The URL must be https and must not resolve to a loopback, private, link-local or metadata address. " +
            "Deliveries are signed per Standard Webhooks (docs/webhooks.md); the `whsec_` secret is shown only here.",
        },
      },
    )
    .get(
      "/:webhookId",
      ({ project, params }) => ({ data: webhooks.getWebhook(db, project.id, params.webhookId) }),
      {
        params: WebhookParams,
        response: {
          200: dataOf(WebhookWithDeliveriesSchema, "The endpoint and its recent attempts"),
          ...errorResponses(404),
        },
        detail: { summary: "Get a webhook endpoint with its recent deliveries" },
      },
    )
    .patch(
      "/:webhookId",
      async ({ project, params, body }) => ({
        data: await webhooks.updateWebhook(db, project.id, params.webhookId, body, config),
      }),
      {
        params: WebhookParams,
        body: WebhookUpdateSchema,
        response: { 200: dataOf(WebhookSchema, "The updated endpoint"), ...errorResponses(400, 404) },
        detail: {
          summary: "Update a webhook endpoint",
          description: "`enabled: true` re-enables an endpoint featureboard disabled.",
        },
      },
    )
    .post(
      "/:webhookId/rotate-secret",
      ({ project, params }) => ({ data: webhooks.rotateSigningSecret(db, project.id, params.webhookId) }),
      {
        params: WebhookParams,
        response: {
          200: dataOf(CreatedWebhookSchema, "The endpoint, with its new secret"),
          ...errorResponses(404),
        },
        detail: {
          summary: "Rotate a webhook endpoint's signing secret",
          description:
            "Makes a new `whsec_` secret, shown only here. For 24 hours (`previousSecretExpiresAt`) every " +
            "delivery is signed with both the new and the replaced secret, so the receiver can switch without " +
            "a delivery failing verification; a secret replaced earlier stops signing at once (docs/webhooks.md).",
        },
      },
    )
    .delete(
      "/:webhookId",
      ({ project, params }) => {
        webhooks.deleteWebhook(db, project.id, params.webhookId);
        return { success: true };
      },
      {
        params: WebhookParams,
        response: { 200: SuccessSchema, ...errorResponses(404) },
        detail: { summary: "Delete a webhook endpoint" },
      },
    );
}
