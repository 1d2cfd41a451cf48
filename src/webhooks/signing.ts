import { randomToken } from "../random";

/** A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
export function generateSecret(): string {
  return `whsec_${randomToken(32, "base64")}`;
}

/** A fresh Standard Webhooks message id; one per event and endpoint, kept across retries. */
export function newMessageId(): string {
  return `msg_${Bun.randomUUIDv7().replaceAll("-", "")}`;
}

/**
 * The three Standard Webhooks headers for one attempt. The timestamp is the attempt's own, so a retry
 * hours later still passes a receiver's freshness check; the id stays the same so it can deduplicate.
 * One `v1,` signature per secret, space-separated: after a rotation the new and the previous secret both
 * sign, and a receiver holding either verifies (docs/webhooks.md).
 */
export function signatureHeaders(
  secrets: readonly string[],
  messageId: string,
  body: string,
  now: number,
): Record<string, string> {
  const timestamp = Math.floor(now / 1000).toString();
  const signatures = secrets.map((secret) => {
    const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
    const signature = new Bun.CryptoHasher("sha256", key)
      .update(`${messageId}.${timestamp}.${body}`)
      .digest("base64");
    return `v1,${signature}`;
  });
  return {
    "webhook-id": messageId,
    "webhook-timestamp": timestamp,
    "webhook-signature": signatures.join(" "),
  };
}
