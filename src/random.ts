/**
 * Random tokens from the platform's CSPRNG (Web Crypto). Used instead of node:crypto, whose module costs
 * ~13 ms at start-up in Bun for what one getRandomValues call does (issue 19, cold start).
 */
export function randomToken(bytes: number, encoding: "base64" | "base64url"): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString(encoding);
}
