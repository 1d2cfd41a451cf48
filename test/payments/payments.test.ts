import { afterAll, describe, expect, test } from "bun:test";
import { setProjectPlan } from "../../src/projects/service";
import { syncAllProjects } from "../../src/payments/schedule";
import { syncPayments } from "../../src/payments/service";
import { createTestApp, expectApiError, type TestApp } from "../support/app";
import { makeUser, watchChanges } from "../support/board";
import { FAKE_STRIPE_KEY, type FixtureSubscription, startFakeStripe } from "./fake-stripe";

/**
 * The fixture account, with each customer's monthly recurring revenue worked out by hand:
 * - ada (already on the board): 49.00 monthly + 1,200.00 yearly (÷ 12 = 100.00) = 149.00
 * - bob: 10.00 × 5 seats, 20% off forever (coupon served by id only) = 40.00
 * - carol: 600.00 yearly less a 120.00 item discount = 480.00 ÷ 12 = 40.00; a `once` coupon is ignored
 * - dave: 30.00 every 3 months = 10.00; a 50% discount that has ended is ignored
 * - a customer without email: skipped
 */
const FIXTURE: FixtureSubscription[] = [
  {
    id: "sub_ada_monthly",
    customer: { id: "cus_ada", email: "Ada@Example.com", name: "Ada from Stripe" },
    items: [{ unitAmount: 4900, interval: "month" }],
  },
  {
    id: "sub_ada_yearly",
    customer: { id: "cus_ada", email: "Ada@Example.com", name: "Ada from Stripe" },
    items: [{ unitAmount: 120_000, interval: "year" }],
  },
  {
    id: "sub_bob",
    customer: { id: "cus_bob", email: "bob@example.com", name: "Bob" },
    items: [{ unitAmount: 1000, interval: "month", quantity: 5 }],
    discounts: [{ coupon: { id: "coupon_20", percent_off: 20 }, couponById: true }],
  },
  {
    id: "sub_carol",
    customer: { id: "cus_carol", email: "carol@example.com", name: "Carol" },
    items: [
      {
        unitAmount: 60_000,
        interval: "year",
        discounts: [{ coupon: { id: "coupon_120_off", amount_off: 12_000 } }],
      },
    ],
    discounts: [{ coupon: { id: "coupon_first_month", percent_off: 100, duration: "once" } }],
  },
  {
    id: "sub_dave",
    customer: { id: "cus_dave", email: "dave@example.com" },
    items: [{ unitAmount: 3000, interval: "month", intervalCount: 3 }],
    discounts: [{ coupon: { id: "coupon_expired", percent_off: 50 }, end: 1_600_000_000 }],
  },
  {
    id: "sub_anonymous",
    customer: { id: "cus_anonymous", email: null },
    items: [{ unitAmount: 9900, interval: "month" }],
  },
  {
    id: "sub_gone",
    status: "canceled",
    customer: { id: "cus_gone", email: "gone@example.com" },
    items: [{ unitAmount: 5000, interval: "month" }],
  },
];

const stripe = startFakeStripe(FIXTURE);

function testApp(): TestApp {
  return createTestApp({ FEATUREBOARD_PAYMENTS_API_URL: stripe.url });
}

async function connect(t: TestApp, body: Record<string, unknown> = { apiKey: FAKE_STRIPE_KEY }) {
  return t.call("PUT", "/api/v1/integrations/payments", { body });
}

async function spendByEmail(t: TestApp): Promise<Record<string, string>> {
  const response = await t.call("GET", "/api/v1/users?limit=100");
  return Object.fromEntries(
    response.body.data.map((user: { email: string; userSpend: string }) => [user.email, user.userSpend]),
  );
}

afterAll(() => stripe.stop());

describe("payments integration settings", () => {
  const t = testApp();
  afterAll(() => t.close());

  test("PUT creates (201) then updates (200); GET never shows the key in full; DELETE removes it", async () => {
    expectApiError(await t.call("GET", "/api/v1/integrations/payments"), 404, "INTEGRATION_NOT_FOUND");
    const created = await connect(t);
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      provider: "stripe",
      apiKey: "****abcd",
      enabled: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      lastSyncAt: null,
      lastSync: null,
    });
    const updated = await connect(t, { apiKey: "rk_live_other1234", enabled: false });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ apiKey: "****1234", enabled: false });
    const shown = await t.call("GET", "/api/v1/integrations/payments");
    expect(shown.status).toBe(200);
    expect(shown.text).not.toContain("rk_live_other1234");
    expect(shown.body.data.createdAt).toBe(created.body.data.createdAt);

    // A key of 8 characters or fewer never shows any of itself (one rule with the other integrations).
    const shortKey = await connect(t, { apiKey: "abcd" });
    expect(shortKey.body.data.apiKey).toBe("****");
    const eightKey = await connect(t, { apiKey: "rk_12345" });
    expect(eightKey.body.data.apiKey).toBe("****");
    expect((await t.call("GET", "/api/v1/integrations/payments")).text).not.toContain("rk_12345");

    const removed = await t.call("DELETE", "/api/v1/integrations/payments");
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true });
    expectApiError(await t.call("GET", "/api/v1/integrations/payments"), 404, "INTEGRATION_NOT_FOUND");
    expectApiError(await t.call("DELETE", "/api/v1/integrations/payments"), 404, "INTEGRATION_NOT_FOUND");
  });

  test("a blank key or an unknown field is a 400, and nothing is stored", async () => {
    expectApiError(await connect(t, { apiKey: "" }), 400, "VALIDATION_ERROR");
    expectApiError(await connect(t, { apiKey: "sk_x", colour: "red" }), 400, "VALIDATION_ERROR");
    expectApiError(await connect(t, {}), 400, "VALIDATION_ERROR");
    expectApiError(await t.call("GET", "/api/v1/integrations/payments"), 404, "INTEGRATION_NOT_FOUND");
  });

  test("settings belong to one project", async () => {
    await connect(t);
    const other = await t.call("GET", "/api/v1/integrations/payments", { key: t.other.secretKey });
    expectApiError(other, 404, "INTEGRATION_NOT_FOUND");
    await t.call("DELETE", "/api/v1/integrations/payments");
  });
});

describe("payments sync", () => {
  const t = testApp();
  afterAll(() => t.close());

  test("404 when no payments integration is configured", async () => {
    expectApiError(await t.call("POST", "/api/v1/integrations/payments/sync"), 404, "INTEGRATION_NOT_FOUND");
  });

  test("403 PLAN_UPGRADE_REQUIRED below growth, naming the plan", async () => {
    await connect(t);
    setProjectPlan(t.ctx.db, "acme", "starter");
    try {
      const body = expectApiError(
        await t.call("POST", "/api/v1/integrations/payments/sync"),
        403,
        "PLAN_UPGRADE_REQUIRED",
      );
      expect(body.resolution_hint).toContain("growth");
    } finally {
      setProjectPlan(t.ctx.db, "acme", "growth");
    }
  });

  test("figures match the fixture, spend is set, missing users are created", async () => {
    const ada = await makeUser(t, { email: "ada@example.com", name: "Ada", userSpend: 0 });
    const response = await t.call("POST", "/api/v1/integrations/payments/sync");
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      status: "success",
      message: expect.any(String),
      totalCustomers: 5,
      matchedUsers: 1,
      createdUsers: 3,
      skippedNoEmail: 1,
      errors: [],
    });
    expect(await spendByEmail(t)).toEqual({
      "ada@example.com": "149.00",
      "bob@example.com": "40.00",
      "carol@example.com": "40.00",
      "dave@example.com": "10.00",
    });
    const adaNow = await t.call("GET", `/api/v1/users/${ada.id}`);
    expect(adaNow.body.data).toMatchObject({ name: "Ada", userSpend: "149.00" });
    const users = (await t.call("GET", "/api/v1/users")).body.data;
    expect(users.find((user: { email: string }) => user.email === "bob@example.com").name).toBe("Bob");
    // Every page was read, each coupon named only by id was fetched once, and nothing else was asked.
    expect(stripe.requests.filter((line) => line.startsWith("GET /v1/subscriptions")).length).toBe(3);
    expect(stripe.requests.filter((line) => line.startsWith("GET /v1/coupons/")).length).toBe(1);

    const shown = await t.call("GET", "/api/v1/integrations/payments");
    expect(shown.body.data.lastSync).toEqual(response.body.data);
    expect(shown.body.data.lastSyncAt).toEqual(expect.any(String));
  });

  test("re-running changes nothing", async () => {
    const before = await t.call("GET", "/api/v1/users?limit=100");
    const changes = watchChanges(t);
    const again = await t.call("POST", "/api/v1/integrations/payments/sync");
    expect(again.body.data).toMatchObject({
      status: "success",
      totalCustomers: 5,
      matchedUsers: 4,
      createdUsers: 0,
      skippedNoEmail: 1,
      errors: [],
    });
    expect((await t.call("GET", "/api/v1/users?limit=100")).body).toEqual(before.body);
    const written = changes();
    expect(written.events).toEqual([]);
    expect(written.activity.map((entry) => `${entry.entityType}.${entry.action}`)).toEqual([
      "integration.synced",
    ]);
  });

  test("a customer who stopped paying drops to 0; spend typed in by hand for others is left alone", async () => {
    const manual = await makeUser(t, { email: "manual@example.com", userSpend: 12.5 });
    stripe.setSubscriptions(FIXTURE.filter((subscription) => subscription.customer.id !== "cus_dave"));
    try {
      const response = await t.call("POST", "/api/v1/integrations/payments/sync");
      expect(response.body.data).toMatchObject({ status: "success", totalCustomers: 4, matchedUsers: 3 });
      const spend = await spendByEmail(t);
      expect(spend["dave@example.com"]).toBe("0.00");
      expect(spend["ada@example.com"]).toBe("149.00");
      expect(spend[manual.email]).toBe("12.50");
    } finally {
      stripe.setSubscriptions(FIXTURE);
    }
  });

  test("partial when some customers fail: the others are still synced", async () => {
    stripe.setSubscriptions([
      ...FIXTURE,
      {
        id: "sub_tiered",
        customer: { id: "cus_erin", email: "erin@example.com" },
        items: [{ unitAmount: null, interval: "month", tiered: true }],
      },
    ]);
    try {
      const response = await t.call("POST", "/api/v1/integrations/payments/sync");
      expect(response.body.data).toMatchObject({
        status: "partial",
        totalCustomers: 6,
        matchedUsers: 4,
        createdUsers: 0,
        skippedNoEmail: 1,
      });
      expect(response.body.data.errors).toHaveLength(1);
      expect(response.body.data.errors[0]).toContain("erin@example.com");
      expect(response.body.data.errors[0]).toContain("sub_tiered");
      expect(Object.keys(await spendByEmail(t))).not.toContain("erin@example.com");
    } finally {
      stripe.setSubscriptions(FIXTURE);
    }
  });

  test("a key the processor refuses answers status error and changes nothing", async () => {
    await connect(t, { apiKey: "sk_test_wrong" });
    const before = await spendByEmail(t);
    const response = await t.call("POST", "/api/v1/integrations/payments/sync");
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      status: "error",
      totalCustomers: 0,
      matchedUsers: 0,
      createdUsers: 0,
      skippedNoEmail: 0,
    });
    expect(response.body.data.message).toContain("Invalid API Key");
    expect(await spendByEmail(t)).toEqual(before);
    await connect(t);
  });

  test("a disabled integration does not sync", async () => {
    await connect(t, { apiKey: FAKE_STRIPE_KEY, enabled: false });
    const response = await t.call("POST", "/api/v1/integrations/payments/sync");
    expect(response.body.data).toMatchObject({ status: "error", totalCustomers: 0 });
    expect(response.body.data.message).toContain("disabled");
    await connect(t);
  });

  test("syncPayments, the function MCP tools call, answers the REST body; concurrent calls share one sync", async () => {
    const requestsBefore = stripe.requests.length;
    const [first, second] = await Promise.all([
      syncPayments(t.ctx, t.project.project.id),
      syncPayments(t.ctx, t.project.project.id),
    ]);
    expect(first).toBe(second);
    expect(first).toMatchObject({ status: "success", totalCustomers: 5, matchedUsers: 4, createdUsers: 0 });
    expect(stripe.requests.length - requestsBefore).toBe(4);
  });
});

describe("payments sync, more cases", () => {
  const t = testApp();
  afterAll(() => t.close());

  test("two customers with one email are one board user paying both", async () => {
    await connect(t);
    stripe.setSubscriptions([
      {
        id: "sub_x1",
        customer: { id: "cus_x1", email: "twice@example.com" },
        items: [{ unitAmount: 1000, interval: "month" }],
      },
      {
        id: "sub_x2",
        customer: { id: "cus_x2", email: "TWICE@example.com" },
        items: [{ unitAmount: 2400, interval: "year" }],
      },
    ]);
    try {
      const response = await t.call("POST", "/api/v1/integrations/payments/sync");
      expect(response.body.data).toMatchObject({
        status: "success",
        totalCustomers: 2,
        createdUsers: 1,
        matchedUsers: 0,
      });
      expect(await spendByEmail(t)).toEqual({ "twice@example.com": "12.00" });
    } finally {
      stripe.setSubscriptions(FIXTURE);
    }
  });

  test("the daily run syncs every enabled project on growth or higher, and skips the others", async () => {
    await connect(t);
    const otherKey = { key: t.other.secretKey };
    await t.call("PUT", "/api/v1/integrations/payments", { body: { apiKey: FAKE_STRIPE_KEY }, ...otherKey });
    setProjectPlan(t.ctx.db, "other-co", "starter");
    await syncAllProjects(t.ctx);
    const mine = await t.call("GET", "/api/v1/integrations/payments");
    expect(mine.body.data.lastSync).toMatchObject({ status: "success", totalCustomers: 5 });
    const theirs = await t.call("GET", "/api/v1/integrations/payments", otherKey);
    expect(theirs.body.data.lastSync).toBeNull();

    setProjectPlan(t.ctx.db, "other-co", "growth");
    await t.call("PUT", "/api/v1/integrations/payments", {
      body: { apiKey: FAKE_STRIPE_KEY, enabled: false },
      ...otherKey,
    });
    await syncAllProjects(t.ctx);
    expect((await t.call("GET", "/api/v1/integrations/payments", otherKey)).body.data.lastSync).toBeNull();
  });
});
