import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { SyncResultSchema } from "../../payments/schema";
import { syncPayments } from "../../payments/service";
import { CreatedWebhookSchema, WebhookSchema } from "../../webhooks/schema";
import { createWebhook, listWebhooks } from "../../webhooks/service";
import { ADDS, adminProject, defineTool, READS, type Tool, UPDATES } from "../tool";
import { Args } from "./args";
import { LIMITS } from "../../http/limits";

export const syncPaymentsTool = defineTool({
  name: "sync_payments",
  title: "Sync customer revenue",
  description:
    "Use when spend figures look stale: reads active subscriptions from the connected payment processor and sets each " +
    "board user's monthly spend (creating users for unknown customer emails). Needs a configured payments integration " +
    "and the growth plan.",
  access: "admin",
  // Overwrites spend with the processor's figures: running it twice gives the same result.
  annotations: { ...UPDATES, openWorldHint: true },
  input: Args({}),
  output: SyncResultSchema,
  run: (session) => syncPayments(session.ctx, adminProject(session).id),
});

export const listWebhooksTool = defineTool({
  name: "list_webhooks",
  title: "List webhook endpoints",
  description:
    "Use to see which URLs receive the board's events, which events each takes, and whether it is enabled.",
  access: "admin",
  annotations: READS,
  input: Args({}),
  output: t.Object({ webhooks: t.Array(WebhookSchema) }),
  run: (session) => ({ webhooks: listWebhooks(session.ctx.db, adminProject(session).id) }),
});

export const createWebhookTool = defineTool({
  name: "create_webhook",
  title: "Create a webhook endpoint",
  description:
    "Use to send the board's events (post.created, post.status_changed, vote.created… or * for all) to an https URL. " +
    "The answer carries the signing secret once: pass it on to whoever verifies the deliveries.",
  access: "admin",
  annotations: { ...ADDS, openWorldHint: true },
  input: Args({
    url: Type.String({
      minLength: 1,
      maxLength: LIMITS.urlLength,
      description: "An https URL reachable from the internet",
    }),
    events: Type.Array(Type.String({ minLength: 1, maxLength: LIMITS.eventTypeLength }), {
      minItems: 1,
      maxItems: LIMITS.webhookEvents,
      description: "Event types, or ['*'] for all",
    }),
    description: Type.Optional(Type.String({ maxLength: LIMITS.webhookDescriptionLength })),
  }),
  output: t.Object({ webhook: CreatedWebhookSchema }),
  async run(session, args) {
    const input = {
      url: args.url,
      events: args.events,
      ...(args.description ? { description: args.description } : {}),
    };
    return {
      webhook: await createWebhook(session.ctx.db, adminProject(session).id, input, session.ctx.config),
    };
  },
});

export const INTEGRATION_TOOLS: Tool[] = [syncPaymentsTool, listWebhooksTool, createWebhookTool];
