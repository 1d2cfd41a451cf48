/**
 * A loopback server speaking the part of Stripe's REST API the sync reads: `GET /v1/subscriptions`
 * (list objects, cursor paging with `starting_after`, `expand[]`) and `GET /v1/coupons/{id}`, behind
 * bearer-key authentication, answering Stripe's error body otherwise. Pages hold 2 items whatever the
 * client's `limit`, so every sync walks several pages.
 */
export const FAKE_STRIPE_KEY = "sk_test_fixture0000000000000000abcd";

type Json = Record<string, unknown>;

export interface FixtureCustomer {
  id: string;
  email: string | null;
  name?: string | null;
}

export interface FixtureCoupon {
  id: string;
  percent_off?: number;
  amount_off?: number;
  duration?: "forever" | "once" | "repeating";
}

export interface FixtureDiscount {
  coupon: FixtureCoupon;
  /** Serve the coupon as its id only, so the client must fetch it from /v1/coupons. */
  couponById?: boolean;
  /** Unix seconds when the discount ended, or null. */
  end?: number | null;
}

export interface FixtureItem {
  unitAmount: number | null;
  interval: "day" | "week" | "month" | "year";
  intervalCount?: number;
  quantity?: number;
  discounts?: FixtureDiscount[];
  tiered?: boolean;
}

export interface FixtureSubscription {
  id: string;
  customer: FixtureCustomer;
  items: FixtureItem[];
  discounts?: FixtureDiscount[];
  status?: "active" | "canceled";
}

function customerObject(customer: FixtureCustomer): Json {
  return { id: customer.id, object: "customer", email: customer.email, name: customer.name ?? null };
}

function couponObject(coupon: FixtureCoupon): Json {
  return {
    id: coupon.id,
    object: "coupon",
    percent_off: coupon.percent_off ?? null,
    amount_off: coupon.amount_off ?? null,
    currency: coupon.amount_off === undefined ? null : "usd",
    duration: coupon.duration ?? "forever",
    valid: true,
  };
}

let discountCounter = 0;

function discountObject(discount: FixtureDiscount): Json {
  discountCounter += 1;
  return {
    id: `di_${discountCounter}`,
    object: "discount",
    start: 1_700_000_000,
    end: discount.end ?? null,
    source: {
      type: "coupon",
      coupon: discount.couponById ? discount.coupon.id : couponObject(discount.coupon),
    },
  };
}

function subscriptionObject(subscription: FixtureSubscription, expand: Set<string>): Json {
  const discounts = (list: FixtureDiscount[] | undefined, path: string) =>
    (list ?? []).map((discount) =>
      expand.has(path) ? discountObject(discount) : `di_${discount.coupon.id}`,
    );
  return {
    id: subscription.id,
    object: "subscription",
    status: subscription.status ?? "active",
    customer: expand.has("data.customer") ? customerObject(subscription.customer) : subscription.customer.id,
    discounts: discounts(subscription.discounts, "data.discounts"),
    items: {
      object: "list",
      has_more: false,
      url: `/v1/subscription_items?subscription=${subscription.id}`,
      data: subscription.items.map((item, index) => ({
        id: `si_${subscription.id}_${index}`,
        object: "subscription_item",
        quantity: item.quantity ?? 1,
        discounts: discounts(item.discounts, "data.items.data.discounts"),
        price: {
          id: `price_${subscription.id}_${index}`,
          object: "price",
          billing_scheme: item.tiered ? "tiered" : "per_unit",
          currency: "usd",
          type: "recurring",
          unit_amount: item.tiered ? null : item.unitAmount,
          unit_amount_decimal: item.tiered || item.unitAmount === null ? null : String(item.unitAmount),
          recurring: {
            interval: item.interval,
            interval_count: item.intervalCount ?? 1,
            usage_type: "licensed",
          },
        },
      })),
    },
  };
}

function stripeError(status: number, message: string, type = "invalid_request_error"): Response {
  return Response.json({ error: { type, message } }, { status });
}

export interface FakeStripe {
  url: string;
  /** Replaces what the account holds, between syncs. */
  setSubscriptions(subscriptions: FixtureSubscription[]): void;
  requests: string[];
  stop(): void;
}

export function startFakeStripe(initial: FixtureSubscription[]): FakeStripe {
  let subscriptions = initial;
  const requests: string[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const url = new URL(request.url);
      requests.push(`${request.method} ${url.pathname}${url.search}`);
      if (request.headers.get("authorization") !== `Bearer ${FAKE_STRIPE_KEY}`) {
        return stripeError(401, "Invalid API Key provided: sk_****");
      }
      const coupon = /^\/v1\/coupons\/([^/]+)$/.exec(url.pathname);
      if (request.method === "GET" && coupon) {
        const found = subscriptions
          .flatMap((subscription) => [
            ...(subscription.discounts ?? []),
            ...subscription.items.flatMap((item) => item.discounts ?? []),
          ])
          .find((discount) => discount.coupon.id === decodeURIComponent(coupon[1]!));
        return found ? Response.json(couponObject(found.coupon)) : stripeError(404, "No such coupon");
      }
      if (request.method === "GET" && url.pathname === "/v1/subscriptions") {
        const expand = new Set(
          [...url.searchParams.entries()]
            .filter(([key]) => key.startsWith("expand"))
            .map(([, value]) => value),
        );
        const status = url.searchParams.get("status");
        const matching = subscriptions.filter(
          (subscription) => !status || (subscription.status ?? "active") === status,
        );
        const after = url.searchParams.get("starting_after");
        const start =
          after === null ? 0 : matching.findIndex((subscription) => subscription.id === after) + 1;
        const page = matching.slice(start, start + 2);
        return Response.json({
          object: "list",
          url: "/v1/subscriptions",
          has_more: start + 2 < matching.length,
          data: page.map((subscription) => subscriptionObject(subscription, expand)),
        });
      }
      return stripeError(404, `Unrecognized request URL (${request.method}: ${url.pathname})`);
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    setSubscriptions(next) {
      subscriptions = next;
    },
    requests,
    stop: () => void server.stop(true),
  };
}
