/** Money crosses the API as a number of currency units and is stored as integer cents, never a float. */
export const MAX_SPEND = 1_000_000_000;

export function toCents(amount: number): number {
  return Math.round(amount * 100);
}

/**
 * A spend as people read it: 2304400 → "$23,044", 4990 → "$49.90". The dollar sign is a label: spend is
 * one number per board user, in whatever currency the payments account bills (docs/dashboard.md).
 */
export function formatMoney(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const [whole, fraction] = formatCents(Math.abs(cents)).split(".");
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}$${grouped}${fraction === "00" ? "" : `.${fraction}`}`;
}

/** 4990 → "49.90", with integer arithmetic so no binary fraction ever shows. */
export function formatCents(cents: number): string {
  const whole = Math.floor(cents / 100);
  return `${whole}.${String(cents % 100).padStart(2, "0")}`;
}
