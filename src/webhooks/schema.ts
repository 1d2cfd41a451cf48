import { type Static, t } from "elysia";
import { DateTime, Enum, Id, serviceRule } from "../http/schemas";
import { LIMITS } from "../http/limits";
import { EVENT_TYPES } from "../events/catalogue";

const Url = t.String({
  minLength: 1,
  maxLength: LIMITS.urlLength,
  description: "An https URL reachable from the internet",
  // The service checks the URL (webhooks/service.ts requireSafeUrl); the document states the rule.
  ...serviceRule({ format: "uri" }),
});
const Events = t.Array(
  t.String({
    minLength: 1,
    maxLength: LIMITS.eventTypeLength,
    // The service refuses an unknown type naming the known ones (webhooks/service.ts cleanEvents).
    ...serviceRule({ enum: [...EVENT_TYPES, "*"] }),
  }),
  {
    minItems: 1,
    maxItems: LIMITS.webhookEvents,
    description: "Event types (docs/webhooks.md), or `*` for all",
  },
);
const Description = t.Nullable(t.String({ maxLength: LIMITS.webhookDescriptionLength }));

export const WebhookSchema = t.Object(
  {
    id: Id,
    url: t.String(),
    events: t.Array(t.String()),
    description: t.Nullable(t.String()),
    enabled: t.Boolean(),
    disabledReason: t.Nullable(
      t.String({
        description:
          "Why featureboard disabled it (failing for 5 days, or it answered 410 Gone); cleared on re-enable",
      }),
    ),
    previousSecretExpiresAt: t.Nullable(
      t.String({
        format: "date-time",
        description:
          "Until when deliveries are also signed with the secret the last rotation replaced (24 hours after it); null if never rotated",
      }),
    ),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { title: "Webhook" },
);
export type Webhook = Static<typeof WebhookSchema>;

export const CreatedWebhookSchema = t.Object(
  {
    ...WebhookSchema.properties,
    secret: t.String({
      description: "Signing secret (whsec_…), shown only when it is made: at creation and at each rotation",
    }),
  },
  { title: "CreatedWebhook" },
);
export type CreatedWebhook = Static<typeof CreatedWebhookSchema>;

export const DeliveryAttemptSchema = t.Object(
  {
    webhookId: t.String({
      description: "The `webhook-id` header: one per event and endpoint, kept across retries",
    }),
    eventId: t.String(),
    eventType: t.String(),
    state: Enum(["pending", "delivered", "failed"]),
    attempt: t.Integer({ minimum: 1 }),
    statusCode: t.Nullable(t.Integer()),
    durationMs: t.Integer(),
    error: t.Nullable(t.String()),
    attemptedAt: DateTime,
    finishedAt: DateTime,
    nextAttemptAt: t.Nullable(DateTime),
  },
  { title: "DeliveryAttempt" },
);
export type DeliveryAttempt = Static<typeof DeliveryAttemptSchema>;

export const WebhookWithDeliveriesSchema = t.Object(
  {
    ...WebhookSchema.properties,
    recentDeliveries: t.Array(DeliveryAttemptSchema, { description: "The latest 50 attempts, newest first" }),
  },
  { title: "WebhookWithDeliveries" },
);
export type WebhookWithDeliveries = Static<typeof WebhookWithDeliveriesSchema>;

export const WebhookCreateSchema = t.Object({
  url: Url,
  events: Events,
  description: t.Optional(Description),
  enabled: t.Optional(
    t.Boolean({ description: "Default true; false stores the endpoint without sending to it" }),
  ),
});
export type WebhookCreate = Static<typeof WebhookCreateSchema>;

export const WebhookUpdateSchema = t.Object(
  {
    url: t.Optional(Url),
    events: t.Optional(Events),
    enabled: t.Optional(t.Boolean()),
    description: t.Optional(Description),
  },
  { minProperties: 1, description: "At least one property, no others" },
);
export type WebhookUpdate = Static<typeof WebhookUpdateSchema>;

export const WebhookParams = t.Object({ webhookId: Id });
