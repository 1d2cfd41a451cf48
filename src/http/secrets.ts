/**
 * A stored secret as GET shows it (docs/integrations.md: "last 4 characters only"): `****` plus its last 4
 * characters, and those only when the secret is longer than 8 characters, so a short secret never shows
 * most or all of itself. Every settings view that echoes a secret uses this one rule.
 */
export function maskSecret(secret: string): string;
export function maskSecret(secret: string | null): string | null;
export function maskSecret(secret: string | null): string | null {
  if (secret === null) return null;
  return `****${secret.length > 8 ? secret.slice(-4) : ""}`;
}
