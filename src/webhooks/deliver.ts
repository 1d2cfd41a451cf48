import type { Config } from "../config";
import { type CallOutcome, callOnce } from "../http/outbound";
import { signatureHeaders } from "./signing";
import type { WebhookRow } from "./store";

/** The endpoint's secret, and the one its last rotation replaced while that still signs (docs/webhooks.md). */
function signingSecrets(endpoint: WebhookRow, now: number): string[] {
  const previous = endpoint.previous_secret;
  const expiresAt = endpoint.previous_secret_expires_at;
  return previous !== null && expiresAt !== null && now < expiresAt
    ? [endpoint.secret, previous]
    : [endpoint.secret];
}

/**
 * One signed attempt: the body is the stored event payload as is (with post `metadata`: endpoints are
 * created with a secret key, hence trusted), signed per Standard Webhooks with this attempt's timestamp.
 */
export function sendWebhook(
  endpoint: WebhookRow,
  messageId: string,
  body: string,
  config: Config,
  signal: AbortSignal,
): Promise<CallOutcome> {
  const now = Date.now();
  return callOnce(
    endpoint.url,
    {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "featureboard-webhooks",
        ...signatureHeaders(signingSecrets(endpoint, now), messageId, body, now),
      },
      body,
    },
    // Any 2xx is success whatever it says: the answer is not read (docs/webhooks.md).
    { allowPrivate: config.allowPrivateTargets, timeoutMs: config.delivery.timeoutMs, answerBytes: 0 },
    signal,
  );
}
