import type Stripe from "stripe";

/** Months in one billing interval: what turns an amount per interval into an amount per month. */
const MONTHS_PER_INTERVAL: Record<string, number> = { day: 12 / 365, week: 12 / 52, month: 1, year: 12 };

/** A subscription the sync cannot value (tiered prices, unknown intervals): reported, never guessed. */
export class UnvaluedSubscription extends Error {}

/** The coupon behind a discount: `source.coupon` on current API versions, `coupon` on older ones. */
export function couponOf(discount: Stripe.Discount): string | Stripe.Coupon | null {
  const legacy = (discount as unknown as { coupon?: string | Stripe.Coupon | null }).coupon;
  return discount.source?.coupon ?? legacy ?? null;
}

/** The sync asks for discounts expanded; a bare id would hide an amount, so it is refused, not skipped. */
function expandedDiscounts(discounts: Array<string | Stripe.Discount> | null | undefined): Stripe.Discount[] {
  return (discounts ?? []).map((discount) => {
    if (typeof discount === "string") throw new UnvaluedSubscription(`discount ${discount} was not expanded`);
    return discount;
  });
}

/**
 * The coupons that still shape recurring revenue: a discount that has ended, or a `once` coupon (it
 * reduces one invoice, not the monthly run rate), does not count.
 */
function activeCoupons(
  discounts: Array<string | Stripe.Discount> | null | undefined,
  coupons: ReadonlyMap<string, Stripe.Coupon>,
  nowSeconds: number,
): Stripe.Coupon[] {
  const active: Stripe.Coupon[] = [];
  for (const discount of expandedDiscounts(discounts)) {
    if (discount.end !== null && discount.end <= nowSeconds) continue;
    const ref = couponOf(discount);
    const coupon = typeof ref === "string" ? coupons.get(ref) : ref;
    if (!coupon) throw new UnvaluedSubscription(`the coupon of discount ${discount.id} could not be read`);
    if (coupon.duration === "once") continue;
    active.push(coupon);
  }
  return active;
}

/** Applies coupons to an amount per billing interval: percentages first, then fixed amounts, never below 0. */
function discounted(amount: number, coupons: Stripe.Coupon[]): number {
  let result = amount;
  for (const coupon of coupons) if (coupon.percent_off !== null) result *= 1 - coupon.percent_off / 100;
  for (const coupon of coupons) if (coupon.amount_off !== null) result -= coupon.amount_off;
  return Math.max(0, result);
}

function unitAmount(price: Stripe.Price): number {
  if (price.unit_amount !== null) return price.unit_amount;
  const decimal = price.unit_amount_decimal === null ? NaN : Number(String(price.unit_amount_decimal));
  if (Number.isFinite(decimal)) return decimal;
  throw new UnvaluedSubscription(`price ${price.id} has no unit amount (tiered pricing is not supported)`);
}

function monthsOf(price: Stripe.Price): number {
  const recurring = price.recurring;
  const months = recurring ? MONTHS_PER_INTERVAL[recurring.interval] : undefined;
  if (!recurring || months === undefined) {
    throw new UnvaluedSubscription(`price ${price.id} is not a recurring price`);
  }
  return months * recurring.interval_count;
}

/**
 * Monthly recurring revenue of one subscription, in the currency's minor unit (cents), unrounded: each
 * item's unit amount × quantity per billing interval, less the item's own discounts, then the
 * subscription's discounts (Stripe applies them in that order), divided by the interval's months
 * (a yearly price counts a twelfth). Metered items have no fixed amount and count 0.
 */
export function monthlyRevenue(
  subscription: Stripe.Subscription,
  coupons: ReadonlyMap<string, Stripe.Coupon>,
  nowSeconds: number,
): number {
  let perInterval = 0;
  let months: number | null = null;
  for (const item of subscription.items.data) {
    const price = item.price;
    const itemMonths = monthsOf(price);
    // Stripe bills every item of a subscription on the same interval; mixed ones would be a corrupt fixture.
    if (months !== null && Math.abs(months - itemMonths) > 1e-9) {
      throw new UnvaluedSubscription(`subscription ${subscription.id} mixes billing intervals`);
    }
    months = itemMonths;
    if (price.recurring?.usage_type === "metered") continue;
    const gross = unitAmount(price) * (item.quantity ?? 1);
    perInterval += discounted(gross, activeCoupons(item.discounts, coupons, nowSeconds));
  }
  if (months === null) return 0;
  return discounted(perInterval, activeCoupons(subscription.discounts, coupons, nowSeconds)) / months;
}

/** Coupon ids a subscription names without the coupon itself, so the sync can fetch them once each. */
export function unresolvedCouponIds(subscription: Stripe.Subscription): string[] {
  const discounts = [
    ...expandedDiscounts(subscription.discounts),
    ...subscription.items.data.flatMap((item) => expandedDiscounts(item.discounts)),
  ];
  return discounts.map(couponOf).filter((coupon): coupon is string => typeof coupon === "string");
}
