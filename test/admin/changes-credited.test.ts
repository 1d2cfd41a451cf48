import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../support/app";
import { listen } from "../support/board";
import { memberOverHttp, postForm } from "../support/dashboard";
import { type Receiver, startReceiver } from "../support/receiver";
import { FAKE_STRIPE_KEY, type FakeStripe, startFakeStripe } from "../payments/fake-stripe";

// docs/dashboard.md: every change made from the dashboard runs as the signed-in member, also the changes
// whose service waits before it writes (a URL's DNS check, a test message, a payments sync).
describe("changes that wait before they write name the dashboard member", () => {
  let t: TestApp;
  let server: { url: string; stop: () => Promise<void> };
  let chat: Receiver;
  let stripe: FakeStripe;
  beforeAll(() => {
    chat = startReceiver();
    stripe = startFakeStripe([
      {
        id: "sub_1",
        customer: { id: "cus_1", email: "payer@bigco.example" },
        items: [{ unitAmount: 4900, interval: "month" }],
      },
    ]);
    t = createTestApp({
      FEATUREBOARD_ALLOW_PRIVATE_TARGETS: "true",
      FEATUREBOARD_PAYMENTS_API_URL: stripe.url,
    });
    server = listen(t);
  });
  afterAll(async () => {
    await server.stop();
    t.close();
    chat.stop();
    stripe.stop();
  });

  interface Entry {
    action: string;
    entityType: string;
    entityId: string | null;
    metadata: { teamMember?: { name: string } } | null;
  }
  const activity = async (): Promise<Entry[]> =>
    (await t.call("GET", "/api/v1/activity?limit=100")).body.data as Entry[];

  test("webhook create and edit, integration save and test, payments sync: each entry names Rita", async () => {
    const { cookie, csrf } = await memberOverHttp(t, server.url, {
      email: "rita@example.com",
      role: "admin",
      name: "Rita",
    });
    const send = async (path: string, fields: Record<string, string> = {}) => {
      const response = await postForm(`${server.url}${path}`, { csrf, project: "acme", ...fields }, cookie);
      expect(response.status, path).toBeLessThan(400);
    };

    await send("/admin/webhooks", { url: `${chat.url}/hook`, events: "*" });
    const [webhook] = (await t.call("GET", "/api/v1/integrations/webhooks")).body.data;
    await send(`/admin/webhooks/${webhook.id}/edit`, {
      url: `${chat.url}/hook2`,
      events: "*",
      enabled: "true",
    });
    await send("/admin/integrations/team-chat", { webhookUrl: `${chat.url}/slack`, enabled: "true" });
    await send("/admin/integrations/team-chat/test");
    await send("/admin/integrations/payments", { apiKey: FAKE_STRIPE_KEY, enabled: "true" });
    await send("/admin/integrations/payments/sync");

    const credited = (await activity()).map(
      (entry) => `${entry.entityType} ${entry.action} by ${entry.metadata?.teamMember?.name ?? "nobody"}`,
    );
    expect(credited).toEqual(
      expect.arrayContaining([
        "webhook created by Rita",
        "webhook updated by Rita",
        "integration created by Rita",
        "integration tested by Rita",
        "integration synced by Rita",
        // The customer the sync found is a board user it created, as Rita's change.
        "user created by Rita",
      ]),
    );
    // The one exception is this test's own set-up: Rita's invite, made with no member acting.
    expect(credited.filter((line) => line.endsWith("by nobody"))).toEqual(["invite created by nobody"]);

    // The same change made with an API key afterwards names nobody: the member was not left behind.
    await t.call("PUT", "/api/v1/integrations/community-chat", {
      body: { webhookUrl: `${chat.url}/discord`, enabled: true },
    });
    const latest = (await activity())[0]!;
    expect(`${latest.entityType} ${latest.action}`).toBe("integration created");
    expect(latest.metadata?.teamMember).toBeUndefined();
  });
});
