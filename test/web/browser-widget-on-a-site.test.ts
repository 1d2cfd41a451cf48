/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import type { TestApp } from "../support/app";
import { makePost } from "../support/board";
import { browserMissing, serveInBrowser, stopServed } from "../support/browser";

/**
 * The widget on a customer's site, in Chromium: on a phone a long title wraps inside the panel, every control
 * is big enough to tap and no field makes iOS zoom; the panel keeps to itself (Escape typed on the site is
 * the site's, scrolling the panel past its end does not scroll the site); opened again, it starts afresh
 * (docs/web.md).
 */
const skip = browserMissing();
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 768 };
/** 200 characters, the longest title there may be, without one place to break a line. */
const LONG_URL = `https://example.com/${"integrations-webhooks-".repeat(8)}`.padEnd(200, "x");
/** The smallest side, in CSS pixels, a control may have on a phone (docs/web.md). */
const TAP_TARGET = 40;

describe.skipIf(skip)("the widget on a customer's site, in Chromium", () => {
  let t: TestApp;
  let server: { url: string; stop: () => Promise<void> };
  let browser: Browser;

  beforeAll(async () => {
    ({ t, server, browser } = await serveInBrowser());
    const longPost = await makePost(t, { title: LONG_URL, status: "APPROVED" });
    await t.call("POST", `/api/v1/posts/${longPost.id}/votes`, { body: { anonymousId: "voter" } });
    for (let index = 0; index < 4; index++)
      await makePost(t, { title: `An ordinary request ${index}`, status: "APPROVED" });
  }, 30_000);

  afterAll(() => stopServed({ t, server, browser }));

  function pageAt(viewport: { width: number; height: number }): Promise<Page> {
    return browser.newContext({ viewport }).then((context) => context.newPage());
  }

  /** A customer's site on another origin, with a search box of its own, a long page, and the widget. */
  function hostSite() {
    return Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () =>
        new Response(
          `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Acme Inc</title></head>
<body><h1>Acme Inc</h1><label>Search the site <input id="host-search"></label>
<div style="height: 3000px">A long page.</div>
<script>
  // The site's own use of Escape, claimed before anyone else sees it (a menu of its own, say).
  window.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && window.siteClaimsEscape) event.preventDefault();
  }, true);
</script>
<script src="${server.url}/widget.js" data-key="${t.project.publishableKey}" async></script>
</body></html>`,
          { headers: { "content-type": "text/html; charset=utf-8" } },
        ),
    });
  }

  function panelOpen(page: Page): Promise<boolean> {
    return page.evaluate(() => {
      const panel = document.querySelector("[data-featureboard-widget]")!.shadowRoot!.querySelector(".panel");
      return !(panel as HTMLElement).hidden;
    });
  }

  test("the widget on a phone: a long title wraps in its panel, its controls are big enough to tap, its fields do not make iOS zoom", async () => {
    const site = hostSite();
    const page = await pageAt(PHONE);
    try {
      await page.goto(`http://localhost:${site.port}/`);
      await page.getByRole("button", { name: "Feedback", exact: true }).click();
      await page.locator("[data-featureboard-widget] li a").first().waitFor();
      const measured = await page.evaluate((least) => {
        const shadow = document.querySelector("[data-featureboard-widget]")!.shadowRoot!;
        const panel = shadow.querySelector(".panel")!;
        const panelBox = panel.getBoundingClientRect();
        return {
          panelOverflow: panel.scrollWidth - panel.clientWidth,
          titlesPastPanel: [...shadow.querySelectorAll("li a")].filter(
            (link) => link.getBoundingClientRect().right > panelBox.right,
          ).length,
          small: [...shadow.querySelectorAll("a[href], button, input, textarea")]
            .map((control) => ({ control, box: control.getBoundingClientRect() }))
            .filter(({ box }) => box.width < least || box.height < least)
            .map(
              ({ control, box }) =>
                `${control.outerHTML.slice(0, 60)} ${Math.round(box.width)}×${Math.round(box.height)}`,
            ),
          // iOS Safari zooms the page into a field whose text is under 16 px when it takes the focus.
          fontSizes: [...shadow.querySelectorAll("input, textarea")].map(
            (field) => getComputedStyle(field).fontSize,
          ),
          page: document.documentElement.scrollWidth - window.innerWidth,
        };
      }, TAP_TARGET);
      expect(measured.panelOverflow).toBeLessThanOrEqual(0);
      expect(measured.titlesPastPanel).toBe(0);
      expect(measured.small).toEqual([]);
      expect(measured.fontSizes).toEqual(["16px", "16px", "16px"]);
      expect(measured.page).toBeLessThanOrEqual(0);
    } finally {
      await page.context().close();
      await site.stop(true);
    }
  }, 60_000);

  test("scrolling the widget's panel past its end does not scroll the site under it", async () => {
    const site = hostSite();
    const page = await pageAt({ width: 390, height: 420 });
    try {
      await page.goto(`http://localhost:${site.port}/`);
      await page.getByRole("button", { name: "Feedback", exact: true }).click();
      await page.locator("[data-featureboard-widget] li a").first().waitFor();
      const panel = await page.evaluate(() => {
        const element = document
          .querySelector("[data-featureboard-widget]")!
          .shadowRoot!.querySelector(".panel")!;
        const box = element.getBoundingClientRect();
        return {
          x: box.x + box.width / 2,
          y: box.y + box.height / 2,
          scrolls: element.scrollHeight > element.clientHeight,
        };
      });
      expect(panel.scrolls).toBe(true);
      await page.mouse.move(panel.x, panel.y);
      for (let turn = 0; turn < 6; turn++) {
        await page.mouse.wheel(0, 400);
        await page.waitForTimeout(100);
      }
      const scrolled = await page.evaluate(() => {
        const element = document
          .querySelector("[data-featureboard-widget]")!
          .shadowRoot!.querySelector(".panel")!;
        return { panel: element.scrollTop, site: window.scrollY };
      });
      expect(scrolled.panel).toBeGreaterThan(0);
      expect(scrolled.site).toBe(0);
    } finally {
      await page.context().close();
      await site.stop(true);
    }
  }, 60_000);

  test("Escape closes the widget only from inside it: typed in the site's own box, it stays the site's", async () => {
    const site = hostSite();
    const page = await pageAt(LAPTOP);
    try {
      await page.goto(`http://localhost:${site.port}/`);
      const launcher = page.getByRole("button", { name: "Feedback", exact: true });
      await launcher.click();
      const search = page.getByLabel("Search the site");
      await search.click();
      await page.keyboard.type("inv");
      await page.keyboard.press("Escape");
      await page.keyboard.type("oice");
      expect(await search.inputValue()).toBe("invoice");
      expect(await panelOpen(page)).toBe(true);
      // Nothing focused at all (a click on the page's background) is the site's too.
      await page.locator("h1").click();
      await page.keyboard.press("Escape");
      expect(await panelOpen(page)).toBe(true);

      // Inside the panel Escape closes it and gives the focus to the launcher, unless the site claimed it.
      await page.getByLabel("What would you like?").click();
      await page.evaluate(() => Object.assign(window, { siteClaimsEscape: true }));
      await page.keyboard.press("Escape");
      expect(await panelOpen(page)).toBe(true);
      await page.evaluate(() => Object.assign(window, { siteClaimsEscape: false }));
      await page.keyboard.press("Escape");
      expect(await panelOpen(page)).toBe(false);
      expect(await launcher.evaluate((button) => button.matches(":focus"))).toBe(true);
      // On the launcher, Escape closes the panel opened from it.
      await launcher.press("Enter");
      await launcher.focus();
      await page.keyboard.press("Escape");
      expect(await panelOpen(page)).toBe(false);
    } finally {
      await page.context().close();
      await site.stop(true);
    }
  }, 60_000);

  test("the widget opened again starts afresh: no “Thank you” from the last request; a refused field takes the focus", async () => {
    const site = hostSite();
    const page = await pageAt(PHONE);
    try {
      await page.goto(`http://localhost:${site.port}/`);
      const launcher = page.getByRole("button", { name: "Feedback", exact: true });
      const status = page.locator("[data-featureboard-widget] .status");
      await launcher.click();
      await page.getByLabel("What would you like?").fill("Widget on a phone");
      await page.getByLabel("Email (optional)").fill("lee@example");
      await page.getByRole("button", { name: "Send request" }).click();
      await status.filter({ hasText: "Please check “Email”" }).waitFor();
      expect(await page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.id)).toBe(
        "fb-email",
      );

      await page.getByLabel("Email (optional)").fill("lee@example.com");
      await page.getByRole("button", { name: "Send request" }).click();
      await status.filter({ hasText: "Thank you!" }).waitFor();
      await page.getByRole("button", { name: "Close feedback panel" }).click();
      await launcher.click();
      expect(await status.textContent()).toBe("");
    } finally {
      await page.context().close();
      await site.stop(true);
    }
  }, 60_000);
});
