import { createTestApp, type TestApp } from "../support/app";

/** AI requests are limited to 30 a minute per project; these tests make many, except the rate-limit one. */
export const UNLIMITED_AI = {
  FEATUREBOARD_RATE_LIMIT_AI_PER_MINUTE: "1000000",
  FEATUREBOARD_RATE_LIMIT_AI_BURST: "100000",
};

export function createAiTestApp(env: Record<string, string> = {}): TestApp {
  return createTestApp({ ...UNLIMITED_AI, ...env });
}
