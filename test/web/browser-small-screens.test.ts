/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import type { JsonBody, TestApp } from "../support/app";
import { makePost, makeTag } from "../support/board";
import { browserMissing, serveInBrowser, stopServed } from "../support/browser";

/**
 * The board's pages on a phone (390×844) and a laptop (1366×768), in Chromium, with the text people write at
 * its worst: one long URL as a title, a tag and a release label of one 50-character word, a 200-character
 * name, a code block wider than the phone. No page is wider than the window, every control is big enough to
 * tap, and a refused field takes the focus (docs/web.md).
 */
const skip = browserMissing();
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 768 };
/** 200 characters, the longest title there may be, without one place to break a line. */
const LONG_URL = `https://example.com/${"integrations-webhooks-".repeat(8)}`.padEnd(200, "x");
const LONG_TAG = "Superlongtaglabelwithoutanyspacesinitatall".padEnd(50, "x");
const LONG_NAME = "Bartholomew".padEnd(200, "w");
/** A tag label as wide as one can be: 50 characters (LIMITS.tagLabelLength), capitals. */
const WIDE_TAG = "WORKFLOW AUTOMATION WITH WEBHOOKS, ZAPIER AND MAKE";
/** The smallest side, in CSS pixels, a control may have on a phone (docs/web.md). */
const TAP_TARGET = 40;

describe.skipIf(skip)("the board on small screens, in Chromium", () => {
  let t: TestApp;
  let server: { url: string; stop: () => Promise<void> };
  let browser: Browser;
  let longPost: JsonBody;
  let longTag: JsonBody;

  beforeAll(async () => {
    ({ t, server, browser } = await serveInBrowser());
    longTag = await makeTag(t, LONG_TAG);
    longPost = await makePost(t, { title: LONG_URL, status: "APPROVED", tagIds: [longTag.id] });
    for (let index = 0; index < 3; index++)
      await makePost(t, { title: `An ordinary request ${index}`, status: "IN_PROGRESS" });
    const shipped = await makePost(t, { title: LONG_URL.replace("example", "shipped"), status: "COMPLETE" });
    await t.call("POST", `/api/v1/posts/${longPost.id}/votes`, { body: { anonymousId: "voter" } });
    await t.call("POST", `/api/v1/posts/${longPost.id}/comments`, {
      body: { body: "Me too", authorName: LONG_NAME },
    });
    const release = await t.call("POST", "/api/v1/releases", {
      body: {
        title: LONG_URL.replace("example", "release"),
        label: LONG_TAG,
        content: `See ${LONG_URL} for details.\n\n\`\`\`\n${"const wide = 1; ".repeat(20)}\n\`\`\``,
        isDraft: false,
        postIds: [shipped.id],
      },
    });
    expect(release.status).toBe(201);
  }, 30_000);

  afterAll(() => stopServed({ t, server, browser }));

  async function pageAt(viewport: { width: number; height: number }, on: Browser = browser): Promise<Page> {
    const context = await on.newContext({ viewport });
    return context.newPage();
  }

  const boardPaths = () => [
    "",
    `?tag=${longTag.id}`,
    `/posts/${longPost.id}`,
    "/submit",
    "/roadmap",
    "/changelog",
  ];

  test("a long URL as a title, a long tag or release label, a wide code block: no page is wider than a phone or a laptop", async () => {
    for (const viewport of [PHONE, LAPTOP]) {
      const page = await pageAt(viewport);
      for (const path of boardPaths()) {
        await page.goto(`${server.url}/b/acme${path}`);
        const widths = await page.evaluate(() => ({
          page: document.documentElement.scrollWidth,
          window: window.innerWidth,
          // Each request's card is no wider than the list it is in.
          wideCards: [...document.querySelectorAll(".post-card, .release, .column, .comment")].filter(
            (card) => card.getBoundingClientRect().right > window.innerWidth,
          ).length,
        }));
        expect(widths.page, `${viewport.width}px ${path}`).toBeLessThanOrEqual(widths.window);
        expect(widths.wideCards, `${viewport.width}px ${path}`).toBe(0);
      }
      // The filter form's last control, Apply, is on screen and not cut off, with the long tag chosen.
      await page.goto(`${server.url}/b/acme?tag=${longTag.id}`);
      const apply = await page.getByRole("button", { name: "Apply" }).boundingBox();
      expect(apply!.x + apply!.width).toBeLessThanOrEqual(viewport.width);
      await page.context().close();
    }
  }, 60_000);

  test("a 50-character tag label keeps the Tag filter narrow: the filters stay one row on a laptop, inside a phone, and the tag can still be chosen", async () => {
    const wide = await makeTag(t, WIDE_TAG);
    for (const viewport of [LAPTOP, PHONE]) {
      const page = await pageAt(viewport);
      await page.goto(`${server.url}/b/acme`);
      await page.getByLabel("Tag", { exact: true }).selectOption({ label: WIDE_TAG });
      await page.getByRole("button", { name: "Apply" }).click();
      await page.waitForURL(new RegExp(`[?&]tag=${wide.id}`));
      expect(await page.getByLabel("Tag", { exact: true }).inputValue()).toBe(wide.id);
      const fit = await page.evaluate(() => {
        const form = document.querySelector(".filters")!.getBoundingClientRect();
        const select = document.querySelector("#filter-tag")!.getBoundingClientRect();
        const controls = [...document.querySelectorAll(".filters > *")].map((item) =>
          item.getBoundingClientRect(),
        );
        return {
          selectRight: select.right,
          formRight: form.right,
          // Every field and Apply side by side: the lowest top is above the highest bottom.
          oneRow:
            Math.max(...controls.map((box) => box.top)) < Math.min(...controls.map((box) => box.bottom)),
          page: document.documentElement.scrollWidth,
          window: window.innerWidth,
        };
      });
      expect(fit.selectRight, `${viewport.width}px`).toBeLessThanOrEqual(fit.formRight);
      expect(fit.page, `${viewport.width}px`).toBeLessThanOrEqual(fit.window);
      // A phone stacks the fields on purpose (board.css); a laptop has room for them side by side.
      if (viewport === LAPTOP) expect(fit.oneRow).toBe(true);
      await page.context().close();
    }
  }, 60_000);

  test("every control and link of a page is at least 40 px on each side on a phone", async () => {
    const page = await pageAt(PHONE);
    const small: string[] = [];
    for (const path of boardPaths()) {
      await page.goto(`${server.url}/b/acme${path}`);
      const found = await page.evaluate((least) => {
        // Links inside a sentence are exempt, as WCAG's target-size criterion exempts them: making them
        // taller would space the lines of the text apart.
        const inSentence = ".lede a, .markdown a, .empty a, .note a, .merged-into a, .shipped-in a";
        return [...document.querySelectorAll("a[href], button, select, input, textarea")]
          .filter((control) => !control.matches(inSentence) && !control.matches(".skip"))
          .map((control) => ({ control, box: control.getBoundingClientRect() }))
          .filter(({ box }) => box.width > 0 && (box.width < least || box.height < least))
          .map(
            ({ control, box }) =>
              `${control.outerHTML.slice(0, 80)} ${Math.round(box.width)}×${Math.round(box.height)}`,
          );
      }, TAP_TARGET);
      small.push(...found.map((entry) => `${path || "/"}: ${entry}`));
    }
    expect(small).toEqual([]);
    await page.context().close();
  }, 60_000);

  test("a refused submission puts the focus on the field the board named", async () => {
    const page = await pageAt(PHONE);
    await page.goto(`${server.url}/b/acme/submit`);
    await page.getByLabel("Title").fill("Dark mode");
    // The browser takes an address without a dot in its domain; the board does not.
    await page.getByLabel("Email (optional, to hear about progress)").fill("lee@example");
    await page.getByRole("button", { name: "Submit request" }).click();
    await page.locator(".form-status.error").filter({ hasText: "Please check “Email”" }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("submit-email");
    await page.context().close();
  }, 60_000);
});
