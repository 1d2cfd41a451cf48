/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { createTestApp, type TestApp } from "../support/app";
import { browserMissing, launchBrowser } from "../support/browser";

/**
 * The API reference page as a reader sees it: in Chromium, with every request that leaves the loopback
 * host blocked (an air-gapped install), it must list the operations and open an error code's anchor.
 */
const skip = browserMissing();

describe.skipIf(skip)("the API docs page works offline", () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    t = createTestApp({ FEATUREBOARD_PUBLIC_URL: "http://127.0.0.1:1" });
    t.app.listen({ port: 0, hostname: "127.0.0.1" });
    base = `http://127.0.0.1:${t.app.server!.port}`;
    browser = await launchBrowser();
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await t.app.stop();
    t.close();
  });

  test("lists the operations from the absolute spec URL with nothing fetched from elsewhere", async () => {
    const page = await browser.newPage();
    const leftLoopback: string[] = [];
    const failed: string[] = [];
    await page.route("**/*", (route) => {
      const url = new URL(route.request().url());
      if (url.host !== new URL(base).host) {
        leftLoopback.push(url.href);
        return route.abort();
      }
      return route.continue();
    });
    page.on("requestfailed", (request) => failed.push(request.url()));
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));

    await page.goto(`${base}/api/v1/docs`);
    await page.locator(".opblock").first().waitFor({ timeout: 20_000 });
    const operations = await page.locator(".opblock").count();
    expect(operations).toBeGreaterThan(40);
    expect(await page.locator(".opblock-summary-path", { hasText: "/api/v1/posts" }).count()).toBeGreaterThan(
      0,
    );
    expect(leftLoopback).toEqual([]);
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
    // The meta description's quote is escaped: no stray table text at the top of the page.
    const firstText = (await page.locator("body").innerText()).slice(0, 200);
    expect(firstText).not.toContain("error_code |");
    await page.close();
  }, 60_000);

  test("an error's docs_url opens its row of the error table", async () => {
    const refused = await t.call("GET", "/api/v1/tags", { key: "sk_nope" });
    const docsUrl = new URL(refused.body.docs_url);
    expect(docsUrl.pathname).toBe("/api/v1/docs");
    expect(docsUrl.hash).toBe("#errors-INVALID_API_KEY");

    const page = await browser.newPage();
    await page.goto(`${base}${docsUrl.pathname}${docsUrl.hash}`);
    const row = page.locator("#errors-INVALID_API_KEY");
    await row.waitFor();
    expect(await row.innerText()).toContain("401");
    // The row says what the error means and what to do, not only its status.
    expect(await row.innerText()).toContain("The key is unknown, revoked or malformed.");
    expect(await page.evaluate(() => document.querySelector(":target")?.id)).toBe("errors-INVALID_API_KEY");
    await page.close();
  }, 60_000);
});

/** A free TCP port on the loopback interface, so the public URL can name the very port the test serves. */
function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

describe.skipIf(skip)("Try it out works from whatever address the docs page is opened at", () => {
  let t: TestApp;
  let browser: Browser;
  let port: number;

  beforeAll(async () => {
    port = freePort();
    // The public URL says localhost; the page is opened at 127.0.0.1, another origin for the browser.
    t = createTestApp({ FEATUREBOARD_PUBLIC_URL: `http://localhost:${port}` });
    t.app.listen({ port, hostname: "127.0.0.1" });
    browser = await launchBrowser();
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await t.app.stop();
    t.close();
  });

  test("authorize with the secret key, execute GET /api/v1/posts, see a 200", async () => {
    await t.call("POST", "/api/v1/posts", { body: { title: "Dark mode for the dashboard" } });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`http://127.0.0.1:${port}/api/v1/docs`);

    await page.locator(".btn.authorize").first().click();
    const bearer = page.locator(".auth-container", { hasText: "bearerAuth" });
    await bearer.locator("input").fill(t.project.secretKey);
    await bearer.locator("button.authorize").click();
    await page.locator(".btn-done").click();

    const operation = page.locator("#operations-Posts-getApiV1Posts");
    await operation.locator(".opblock-summary").first().click();
    await operation.locator(".try-out__btn").click();
    await operation.locator(".execute").click();
    const status = operation.locator(".live-responses-table tr.response .response-col_status").first();
    await status.waitFor({ timeout: 20_000 });
    expect((await status.innerText()).trim()).toBe("200");
    expect(
      await operation
        .locator(".live-responses-table tr.response .response-col_description")
        .first()
        .innerText(),
    ).toContain("Dark mode for the dashboard");
    // The request went to the page's own address, not the public URL the CSP would refuse.
    expect(await operation.locator(".request-url").innerText()).toContain(
      `http://127.0.0.1:${port}/api/v1/posts`,
    );
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
