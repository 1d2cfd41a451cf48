import type { AppContext } from "../context";
import { secretKeyRoutes } from "../http/routes";
import { dataOf, errorResponses, SuccessSchema } from "../http/schemas";
import { PaymentsConfigInputSchema, PaymentsConfigSchema, SyncResultSchema } from "./schema";
import * as payments from "./service";

export function paymentsRoutes(ctx: AppContext) {
  const { db } = ctx;
  return secretKeyRoutes(ctx, "/api/v1/integrations/payments", "Payments")
    .get("", ({ project }) => ({ data: payments.getPaymentsConfig(db, project.id) }), {
      response: { 200: dataOf(PaymentsConfigSchema, "The payments integration"), ...errorResponses(404) },
      detail: {
        summary: "Show the payments integration",
        description: "The API key shows its last 4 characters only. `lastSync` is the last sync's result.",
      },
    })
    .put(
      "",
      ({ project, body, status }) => {
        const { config, created } = payments.savePaymentsConfig(db, project.id, body);
        return status(created ? 201 : 200, { data: config });
      },
      {
        body: PaymentsConfigInputSchema,
        response: {
          200: dataOf(PaymentsConfigSchema, "Updated"),
          201: dataOf(PaymentsConfigSchema, "Created"),
          ...errorResponses(400),
        },
        detail: {
          summary: "Connect the payment processor",
          description:
            "Stores the processor's API key (Stripe; a read-only restricted key is enough). With `enabled` " +
            "(default true) the sync runs daily; POST /integrations/payments/sync runs it now.",
        },
      },
    )
    .delete(
      "",
      ({ project }) => {
        payments.deletePaymentsConfig(db, project.id);
        return { success: true };
      },
      {
        response: { 200: SuccessSchema, ...errorResponses(404) },
        detail: {
          summary: "Disconnect the payment processor",
          description: "Spend values already synced stay as they are.",
        },
      },
    )
    .post("/sync", async ({ project }) => ({ data: await payments.syncPayments(ctx, project.id) }), {
      response: { 200: dataOf(SyncResultSchema, "What the sync did"), ...errorResponses(403, 404) },
      detail: {
        summary: "Sync customer revenue into board-user spend",
        description:
          "Reads the active subscriptions, computes each customer's monthly recurring revenue (yearly " +
          "prices count a twelfth; quantities and discounts applied), sets the spend of the board user with " +
          "the customer's email and creates missing users. Needs the growth plan. A processor failure " +
          "answers `status: error`; some customers failing answers `partial`.",
      },
    });
}

/** The payments REST routes, and the daily sync while the server listens. */
