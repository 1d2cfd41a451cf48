/** Money crosses the API as a number of currency units and is stored as integer cents, never a float. */
export const MAX_SPEND = 1_000_000_000;

export function toCents(amount: number): number {
  return Math.round(amount * 100);
}

/** 4990 → "49.90", with integer arithmetic so no binary fraction ever shows. */
export function formatCents(cents: number): string {
  const whole = Math.floor(cents / 100);
  return `${whole}.${String(cents % 100).padStart(2, "0")}`;
}
