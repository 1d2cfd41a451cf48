import { type Static, t } from "elysia";
import { DateTime, Enum } from "../http/schemas";
import { LIMITS } from "../http/limits";

export const PaymentsConfigInputSchema = t.Object({
  apiKey: t.String({
    minLength: 1,
    maxLength: LIMITS.paymentsKeyLength,
    pattern: "^\\S+$",
    error: "must be the processor's secret or restricted API key, without spaces",
    description: "The payment processor's API key (Stripe: sk_… or a read-only rk_… key)",
    examples: ["rk_live_..."],
  }),
  enabled: t.Optional(t.Boolean({ description: "Whether the daily sync runs; default true" })),
});
export type PaymentsConfigInput = Static<typeof PaymentsConfigInputSchema>;

export const SyncResultSchema = t.Object(
  {
    status: Enum(["success", "error", "partial"] as const),
    message: t.String(),
    totalCustomers: t.Integer({ description: "Customers with at least one active subscription" }),
    matchedUsers: t.Integer({ description: "Existing board users whose spend was set" }),
    createdUsers: t.Integer({ description: "Board users created for customers not yet on the board" }),
    skippedNoEmail: t.Integer({ description: "Customers without an email, which cannot be matched" }),
    errors: t.Array(t.String()),
  },
  { title: "PaymentsSyncResult" },
);
export type SyncResult = Static<typeof SyncResultSchema>;

export const PaymentsConfigSchema = t.Object(
  {
    provider: t.Literal("stripe"),
    apiKey: t.String({ description: "Only the last 4 characters, such as ****abcd" }),
    enabled: t.Boolean(),
    createdAt: DateTime,
    updatedAt: DateTime,
    lastSyncAt: t.Nullable(DateTime),
    lastSync: t.Nullable(SyncResultSchema),
  },
  { title: "PaymentsIntegration" },
);
export type PaymentsConfig = Static<typeof PaymentsConfigSchema>;
