import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { loadConfig } from "../../src/config";
import { createTestApp, type TestApp } from "../support/app";
import { listen, makePost } from "../support/board";
import { browserMissing, launchBrowser } from "../support/browser";

/**
 * A person clicking through a board with the shipped limits: 40 page loads within a minute never meet a
 * 429 (the API's per-IP budget of 60 a minute, bursts of 20, would have stopped them at the 21st).
 */
const skip = browserMissing();
const shipped = loadConfig({}).rateLimits;

describe.skipIf(skip)("the board's own page budget", () => {
  let t: TestApp;
  let server: { url: string; stop: () => Promise<void> };
  let browser: Browser;
  const postIds: string[] = [];

  beforeAll(async () => {
    t = createTestApp({
      FEATUREBOARD_RATE_LIMIT_IP_PER_MINUTE: String(shipped.publicIp.perMinute),
      FEATUREBOARD_RATE_LIMIT_IP_BURST: String(shipped.publicIp.burst),
      FEATUREBOARD_RATE_LIMIT_PAGE_PER_MINUTE: String(shipped.page.perMinute),
      FEATUREBOARD_RATE_LIMIT_PAGE_BURST: String(shipped.page.burst),
    });
    for (let index = 0; index < 5; index++) {
      postIds.push((await makePost(t, { title: `Request ${index}`, status: "APPROVED" })).id);
    }
    server = listen(t);
    browser = await launchBrowser();
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await server.stop();
    t.close();
  });

  test("40 board pages in a minute, clicked through in Chromium, never answer 429", async () => {
    const page = await browser.newPage();
    const statuses: number[] = [];
    page.on("response", (response) => statuses.push(response.status()));
    const paths = [
      "/b/acme",
      "/b/acme/roadmap",
      "/b/acme/changelog",
      ...postIds.map((id) => `/b/acme/posts/${id}`),
    ];
    const started = Date.now();
    for (let load = 0; load < 40; load++) {
      const response = await page.goto(`${server.url}${paths[load % paths.length]}`);
      expect(response?.status()).toBe(200);
    }
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(statuses).not.toContain(429);
    await page.close();
  }, 90_000);
});
