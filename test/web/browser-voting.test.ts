/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Locator, Page } from "playwright-core";
import type { TestApp } from "../support/app";
import { makePost } from "../support/board";
import { browserMissing, serveInBrowser, stopServed } from "../support/browser";

/**
 * Voting as people do it in Chromium: with the keyboard (the focus stays on the vote button, and a screen
 * reader hears the result), on the board, on a post's page and in the widget; coming Back to the board
 * after voting on a post's page; and what the widget tells whoever installs it with a wrong data-key.
 */
const skip = browserMissing();

describe.skipIf(skip)("voting in Chromium", () => {
  let t: TestApp;
  let server: { url: string; stop: () => Promise<void> };
  let browser: Browser;

  beforeAll(async () => {
    ({ t, server, browser } = await serveInBrowser());
  }, 30_000);

  afterAll(() => stopServed({ t, server, browser }));

  async function votesOf(postId: string): Promise<number> {
    return (await t.call("GET", `/api/v1/posts/${postId}`)).body.data.voteCount;
  }

  async function waitForCount(page: Page, button: Locator, count: string) {
    await page.waitForFunction(
      ([element, expected]) => (element as Element).querySelector(".count")?.textContent === expected,
      [await button.elementHandle(), count] as const,
    );
  }

  const isFocused = (button: Locator) => button.evaluate((element) => element.matches(":focus"));

  /** Focus on the button, Enter votes, Enter again takes the vote back, the focus never leaves. */
  async function voteTwiceWithKeyboard(page: Page, button: Locator, postId: string, before: number) {
    await button.focus();
    await page.keyboard.press("Enter");
    await waitForCount(page, button, String(before + 1));
    expect(await button.getAttribute("aria-pressed")).toBe("true");
    expect(await isFocused(button)).toBe(true);
    await page
      .getByRole("status")
      .filter({ hasText: `Vote counted: ${before + 1} votes` })
      .waitFor({
        state: "attached",
      });
    expect(await votesOf(postId)).toBe(before + 1);
    // Screen readers hear the new count with its word on the button itself too.
    expect(await button.evaluate((element) => element.querySelector(".count-words")?.textContent)).toBe(
      `${before + 1} votes`,
    );
    await page.keyboard.press("Enter");
    await waitForCount(page, button, String(before));
    expect(await button.getAttribute("aria-pressed")).toBe("false");
    expect(await isFocused(button)).toBe(true);
    await page
      .getByRole("status")
      .filter({ hasText: `Vote removed: ${before} votes` })
      .waitFor({ state: "attached" });
    expect(await votesOf(postId)).toBe(before);
  }

  test("on the board and on a post's page, Enter votes and Enter again takes it back: focus stays, the result is announced", async () => {
    const post = await makePost(t, { title: "Keyboard voting", status: "APPROVED" });
    for (const voter of ["a", "b"])
      await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { anonymousId: voter } });
    const page = await browser.newPage();
    try {
      await page.goto(`${server.url}/b/acme`);
      const onBoard = page.locator(`button.vote[data-post="${post.id}"]`);
      await page.waitForFunction(
        () => !document.querySelector("button.vote[data-post]")?.hasAttribute("disabled"),
      );
      await voteTwiceWithKeyboard(page, onBoard, post.id, 2);

      await page.goto(`${server.url}/b/acme/posts/${post.id}`);
      const onPost = page.locator("button.vote");
      await page.waitForFunction(() => !document.querySelector("button.vote")?.hasAttribute("disabled"));
      await voteTwiceWithKeyboard(page, onPost, post.id, 2);
    } finally {
      await page.close();
    }
  }, 60_000);

  test("Back to the board after voting on a post's page shows the new count", async () => {
    const post = await makePost(t, { title: "Counted after Back", status: "APPROVED" });
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/b/acme`);
      const card = page.locator(".post-card", { hasText: "Counted after Back" });
      expect(await card.locator(".count").textContent()).toBe("0");
      await card.getByRole("link", { name: "Counted after Back" }).click();
      await page.waitForURL(`${server.url}/b/acme/posts/${post.id}`);
      const button = page.locator("button.vote");
      await page.waitForFunction(() => !document.querySelector("button.vote")?.hasAttribute("disabled"));
      await button.click();
      await waitForCount(page, button, "1");
      await page.goBack();
      await page.waitForURL(`${server.url}/b/acme`);
      await page.waitForLoadState("load");
      const again = page.locator(`button.vote[data-post="${post.id}"]`);
      await page.waitForFunction(
        (id) =>
          document.querySelector(`button.vote[data-post="${id}"]`)?.getAttribute("aria-pressed") === "true",
        post.id,
      );
      expect(await again.locator(".count").textContent()).toBe("1");
    } finally {
      await context.close();
    }
  }, 60_000);

  test("a board page shown again whole from the back/forward cache reloads when this browser voted elsewhere meanwhile", async () => {
    const post = await makePost(t, { title: "Kept whole", status: "APPROVED" });
    const context = await browser.newContext();
    try {
      const board = await context.newPage();
      await board.goto(`${server.url}/b/acme`);
      const card = board.locator(".post-card", { hasText: "Kept whole" });
      expect(await card.locator(".count").textContent()).toBe("0");
      // Shown again unchanged (nothing voted meanwhile): no reload.
      await board.evaluate(() => {
        (window as unknown as { marker: boolean }).marker = true;
        window.dispatchEvent(new PageTransitionEvent("pageshow", { persisted: true }));
      });
      expect(await board.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBe(true);

      const postPage = await context.newPage();
      await postPage.goto(`${server.url}/b/acme/posts/${post.id}`);
      const button = postPage.locator("button.vote");
      await postPage.waitForFunction(() => !document.querySelector("button.vote")?.hasAttribute("disabled"));
      await button.click();
      await waitForCount(postPage, button, "1");

      // This headless Chromium keeps no page in its back/forward cache, so the restore is played here.
      const reloaded = board.waitForNavigation();
      await board.evaluate(() =>
        window.dispatchEvent(new PageTransitionEvent("pageshow", { persisted: true })),
      );
      await reloaded;
      expect(await card.locator(".count").textContent()).toBe("1");
      expect(await card.locator("button.vote").getAttribute("aria-pressed")).toBe("true");
    } finally {
      await context.close();
    }
  }, 60_000);

  test("in the widget, Enter votes and Enter again takes it back: focus stays, the result is announced", async () => {
    const post = await makePost(t, { title: "Widget keyboard voting", status: "APPROVED" });
    for (const voter of ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"])
      await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { anonymousId: voter } });
    const site = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () =>
        new Response(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Site</title></head>
<body><h1>Site</h1><script src="${server.url}/widget.js" data-key="${t.project.publishableKey}" async></script>
</body></html>`,
          { headers: { "content-type": "text/html; charset=utf-8" } },
        ),
    });
    const page = await browser.newPage();
    try {
      await page.goto(`http://localhost:${site.port}/`);
      await page.getByRole("button", { name: "Feedback", exact: true }).click();
      const item = page.locator("[data-featureboard-widget] li", { hasText: "Widget keyboard voting" });
      await item.waitFor();
      const button = item.getByRole("button");
      await button.focus();
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => {
        const host = document.querySelector("[data-featureboard-widget]")!;
        return host.shadowRoot!.querySelector(".vote")?.getAttribute("aria-pressed") === "true";
      });
      expect(await button.textContent()).toBe("▲ 11");
      expect(await isFocused(button)).toBe(true);
      await page
        .getByRole("status")
        .filter({ hasText: "Vote counted: 11 votes" })
        .waitFor({ state: "attached" });
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => {
        const host = document.querySelector("[data-featureboard-widget]")!;
        return host.shadowRoot!.querySelector(".vote")?.getAttribute("aria-pressed") === "false";
      });
      expect(await button.textContent()).toBe("▲ 10");
      expect(await isFocused(button)).toBe(true);
      await page
        .getByRole("status")
        .filter({ hasText: "Vote removed: 10 votes" })
        .waitFor({ state: "attached" });
      expect(await votesOf(post.id)).toBe(10);
    } finally {
      await page.close();
      await site.stop(true);
    }
  }, 60_000);

  test("the widget without data-key, or given a secret key, says what to do in the console and sends nothing", async () => {
    let keyAttribute = "";
    const site = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () =>
        new Response(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Site</title></head>
<body><script src="${server.url}/widget.js" ${keyAttribute} async></script></body></html>`,
          { headers: { "content-type": "text/html; charset=utf-8" } },
        ),
    });
    const page = await browser.newPage();
    const warnings: string[] = [];
    const apiCalls: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "warning") warnings.push(message.text());
    });
    page.on("request", (request) => {
      if (request.url().includes("/api/")) apiCalls.push(request.url());
    });
    /** Loads the site with `attribute` on the script tag; the console's warnings once the script ran. */
    async function warningsWith(attribute: string): Promise<string[]> {
      keyAttribute = attribute;
      warnings.length = 0;
      await page.goto(`http://localhost:${site.port}/`);
      await page.waitForFunction(() => performance.getEntriesByType("resource").length > 0);
      await page.waitForLoadState("networkidle");
      return [...warnings];
    }
    try {
      expect(await warningsWith("")).toEqual([
        'featureboard widget: the <script> tag needs data-key="pk_…", the board\'s publishable key (API keys ' +
          "screen of the dashboard, or `featureboard keys create --project SLUG --kind publishable`).",
      ]);
      const secret = await warningsWith(`data-key="${t.project.secretKey}"`);
      expect(secret).toHaveLength(1);
      expect(secret[0]).toContain("data-key holds a SECRET key (sk_…). It is now public");
      expect(secret[0]).toContain("Revoke it now");
      expect(secret[0]).not.toContain(t.project.secretKey);
      expect(apiCalls).toEqual([]);
      // A publishable key still mounts the widget, without a warning.
      expect(await warningsWith(`data-key="${t.project.publishableKey}"`)).toEqual([]);
      await page.getByRole("button", { name: "Feedback", exact: true }).waitFor();
      expect(apiCalls.length).toBeGreaterThan(0);
    } finally {
      await page.close();
      await site.stop(true);
    }
  }, 60_000);
});
