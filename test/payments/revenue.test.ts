import { describe, expect, test } from "bun:test";
import type Stripe from "stripe";
import { monthlyRevenue, UnvaluedSubscription } from "../../src/payments/revenue";

const NOW = 1_800_000_000;

function price(interval: string, unitAmount: number | null, extra: Record<string, unknown> = {}) {
  return {
    id: `price_${interval}`,
    unit_amount: unitAmount,
    unit_amount_decimal: unitAmount === null ? null : String(unitAmount),
    recurring: { interval, interval_count: 1, usage_type: "licensed", ...extra },
  };
}

function subscription(items: unknown[], discounts: unknown[] = []): Stripe.Subscription {
  return { id: "sub_1", discounts, items: { data: items } } as unknown as Stripe.Subscription;
}

function item(priceObject: unknown, quantity = 1, discounts: unknown[] = []) {
  return { price: priceObject, quantity, discounts };
}

function discount(coupon: Record<string, unknown>, end: number | null = null) {
  return {
    id: "di_1",
    end,
    source: {
      type: "coupon",
      coupon: { percent_off: null, amount_off: null, duration: "forever", ...coupon },
    },
  };
}

describe("monthly recurring revenue of a subscription, in cents", () => {
  test("monthly, yearly ÷ 12, weekly × 52 ÷ 12, daily × 365 ÷ 12, every 3 months ÷ 3", () => {
    expect(monthlyRevenue(subscription([item(price("month", 4900))]), new Map(), NOW)).toBe(4900);
    expect(monthlyRevenue(subscription([item(price("year", 120_000))]), new Map(), NOW)).toBe(10_000);
    expect(monthlyRevenue(subscription([item(price("week", 1200))]), new Map(), NOW)).toBeCloseTo(5200, 6);
    expect(monthlyRevenue(subscription([item(price("day", 120))]), new Map(), NOW)).toBeCloseTo(3650, 6);
    const quarterly = price("month", 3000, { interval_count: 3 });
    expect(monthlyRevenue(subscription([item(quarterly)]), new Map(), NOW)).toBe(1000);
  });

  test("quantities multiply; items add up; metered items count 0", () => {
    const metered = price("month", 5, { usage_type: "metered" });
    expect(
      monthlyRevenue(
        subscription([item(price("month", 1000), 3), item(price("month", 500), 2), item(metered, 1)]),
        new Map(),
        NOW,
      ),
    ).toBe(4000);
  });

  test("item discounts apply before subscription discounts; ended and once-only discounts are ignored", () => {
    const withDiscounts = subscription(
      [item(price("month", 10_000), 1, [discount({ amount_off: 2000 })])],
      [
        discount({ percent_off: 25 }),
        discount({ percent_off: 50 }, NOW - 1),
        discount({ percent_off: 100, duration: "once" }),
      ],
    );
    expect(monthlyRevenue(withDiscounts, new Map(), NOW)).toBe(6000);
    const tooMuchOff = subscription([item(price("month", 1000))], [discount({ amount_off: 5000 })]);
    expect(monthlyRevenue(tooMuchOff, new Map(), NOW)).toBe(0);
  });

  test("a coupon named by id is taken from the fetched coupons; a missing one is an error, not a silent 0% off", () => {
    const byId = subscription(
      [item(price("month", 1000))],
      [{ id: "di_2", end: null, source: { coupon: "c_10" } }],
    );
    const coupons = new Map([
      ["c_10", { percent_off: 10, amount_off: null, duration: "forever" } as Stripe.Coupon],
    ]);
    expect(monthlyRevenue(byId, coupons, NOW)).toBe(900);
    expect(() => monthlyRevenue(byId, new Map(), NOW)).toThrow(UnvaluedSubscription);
  });

  test("tiered prices and non-recurring prices are refused", () => {
    expect(() => monthlyRevenue(subscription([item(price("month", null))]), new Map(), NOW)).toThrow(
      UnvaluedSubscription,
    );
    const oneTime = { id: "price_once", unit_amount: 100, unit_amount_decimal: "100", recurring: null };
    expect(() => monthlyRevenue(subscription([item(oneTime)]), new Map(), NOW)).toThrow(UnvaluedSubscription);
  });
});
