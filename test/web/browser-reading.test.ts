/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import type { TestApp } from "../support/app";
import { makePost, makeTag } from "../support/board";
import { browserMissing, serveInBrowser, stopServed } from "../support/browser";

/**
 * Reading the board in Chromium where a link or the text is unusual: a tag that is gone, a page past the
 * last one, counts of one, and text written right to left or carrying a direction override.
 */
const skip = browserMissing();
const RLO = "\u202E";

describe.skipIf(skip)("reading the board in Chromium", () => {
  let t: TestApp;
  let server: { url: string; stop: () => Promise<void> };
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ({ t, server, browser } = await serveInBrowser());
    page = await browser.newPage();
  }, 30_000);

  afterAll(() => stopServed({ t, server, browser }));

  const titles = () => page.locator(".post-card h2").allTextContents();

  test("a tag link naming an unknown or deleted tag shows every request, and the Tag select says All tags", async () => {
    const tag = await makeTag(t, "Soon gone");
    const other = await makeTag(t, "Staying");
    await makePost(t, { title: "Tagged request", status: "APPROVED", tagIds: [tag.id] });
    await makePost(t, { title: "Untagged request", status: "APPROVED", tagIds: [other.id] });
    await page.goto(`${server.url}/b/acme?tag=${tag.id}`);
    expect(await titles()).toEqual(["Tagged request"]);

    expect((await t.call("DELETE", `/api/v1/tags/${tag.id}`)).status).toBe(200);
    for (const link of [`?tag=${tag.id}`, "?tag=no-such-tag"]) {
      await page.goto(`${server.url}/b/acme${link}`);
      expect((await titles()).sort(), link).toEqual(["Tagged request", "Untagged request"]);
      expect(await page.getByLabel("Tag").evaluate((select) => (select as HTMLSelectElement).value)).toBe("");
      expect(await page.locator("#filter-tag option:checked").textContent()).toBe("All tags");
      expect(await page.locator(".lede").textContent()).not.toContain("match");
    }
  }, 60_000);

  test("a page past the last one says so, with a link back, and no pager pointing further out", async () => {
    for (let index = 0; index < 21; index++)
      await makePost(t, { title: `Paged request ${index}`, status: "APPROVED" });
    await page.goto(`${server.url}/b/acme?page=999`);
    expect(await page.locator(".empty").textContent()).toContain("This page is past the last one");
    expect(await page.locator(".pager").count()).toBe(0);
    await page.getByRole("link", { name: "back to the first page" }).click();
    await page.waitForURL(`${server.url}/b/acme`);
    expect(await page.locator(".pager").textContent()).toContain("Page 1 of 2");

    const release = await t.call("POST", "/api/v1/releases", {
      body: { title: "The only release", content: "Notes.", isDraft: false },
    });
    expect(release.status).toBe(201);
    await page.goto(`${server.url}/b/acme/changelog?page=2`);
    expect(await page.locator(".empty").textContent()).toContain("This page is past the last one");
    expect(await page.getByText("Nothing published yet.").count()).toBe(0);
    expect(await page.locator(".pager").count()).toBe(0);
    await page.getByRole("link", { name: "back to the first page" }).click();
    await page.waitForURL(`${server.url}/b/acme/changelog`);
    await page.getByRole("heading", { name: "The only release" }).waitFor();

    const post = await makePost(t, { title: "Talked about", status: "APPROVED" });
    await t.call("POST", `/api/v1/posts/${post.id}/comments`, { body: { body: "One comment" } });
    await page.goto(`${server.url}/b/acme/posts/${post.id}?page=5`);
    expect(await page.locator(".comments .empty").first().textContent()).toContain(
      "This page is past the last one",
    );
    expect(await page.locator(".pager").count()).toBe(0);
    await page.getByRole("link", { name: "back to the first page" }).click();
    await page.getByText("One comment").waitFor();
  }, 60_000);

  test("a vote button says “1 vote” to screen readers, and “2 votes”", async () => {
    const one = await makePost(t, { title: "Voted once", status: "APPROVED" });
    const two = await makePost(t, { title: "Voted twice", status: "APPROVED" });
    for (const [post, voters] of [
      [one, ["a"]],
      [two, ["a", "b"]],
    ] as const)
      for (const voter of voters)
        await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { anonymousId: voter } });
    for (const path of ["/b/acme?q=Voted", `/b/acme/posts/${one.id}`]) {
      await page.goto(`${server.url}${path}`);
      await page.getByRole("button", { name: "1 vote. Vote for “Voted once”", exact: true }).waitFor();
    }
    await page.goto(`${server.url}/b/acme?q=Voted`);
    await page.getByRole("button", { name: "2 votes. Vote for “Voted twice”", exact: true }).waitFor();
  }, 60_000);

  /** Runs in the page: whether `text`, inside `selector`, is laid out left to right (first glyph left of the last). */
  function laidOutLeftToRight([selector, text]: string[]): boolean {
    if (selector === undefined || text === undefined) throw new Error("a selector and a text");
    const container = document.querySelector(selector)!;
    const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent!.indexOf(text);
      if (at < 0) continue;
      const glyph = (offset: number) => {
        const range = document.createRange();
        range.setStart(node!, offset);
        range.setEnd(node!, offset + 1);
        return range.getBoundingClientRect().left;
      };
      return glyph(at) < glyph(at + text.length - 1);
    }
    throw new Error(`no "${text}" in ${selector}`);
  }

  test("text written right to left reads right to left; an override character in a title stops at the title", async () => {
    const target = await makePost(t, { title: `Sneaky ${RLO}title`, status: "APPROVED" });
    const source = await makePost(t, { title: "Merged away", status: "APPROVED" });
    const merged = await t.call("POST", `/api/v1/posts/${source.id}/merge`, {
      body: { intoPostId: target.id },
    });
    expect(merged.status, merged.text).toBe(200);
    await page.goto(`${server.url}/b/acme/posts/${source.id}`);
    // The page's own words after the title keep their order.
    expect(await page.evaluate(laidOutLeftToRight, [".merged-into", "comment there"])).toBe(true);

    const release = await t.call("POST", "/api/v1/releases", {
      body: { title: `Release ${RLO}one`, label: `v${RLO}2`, postIds: [target.id], isDraft: false },
    });
    expect(release.status).toBe(201);
    await page.goto(`${server.url}/b/acme/posts/${target.id}`);
    expect(await page.evaluate(laidOutLeftToRight, [".shipped-in", "on "])).toBe(true);

    const arabic = "أضيفوا الوضع الليلي من فضلكم";
    const post = await makePost(t, { title: arabic, description: arabic, status: "APPROVED" });
    await t.call("POST", `/api/v1/posts/${post.id}/comments`, {
      body: { body: arabic, authorName: "سارة" },
    });
    await t.call("POST", `/api/v1/posts/${post.id}/comments`, { body: { body: "An English comment" } });
    await page.goto(`${server.url}/b/acme/posts/${post.id}`);
    const direction = (selector: string) =>
      page
        .locator(selector)
        .evaluateAll((elements) => elements.map((element) => getComputedStyle(element).direction));
    expect(await direction("h1")).toEqual(["rtl"]);
    expect(await direction(".description")).toEqual(["rtl"]);
    expect(await direction(".comment-body")).toEqual(["rtl", "ltr"]);
    expect(await direction(".comment .meta strong")).toEqual(["rtl", "ltr"]);
    // A comment the script adds reads the same way.
    await page.getByLabel("Comment", { exact: true }).fill(arabic);
    await page.getByRole("button", { name: "Post comment" }).click();
    await page.getByText("Comment posted.").waitFor();
    expect(await direction(".comment-body")).toEqual(["rtl", "ltr", "rtl"]);

    await page.goto(`${server.url}/b/acme?q=${encodeURIComponent(arabic)}`);
    expect(await direction(".post-card h2 a")).toEqual(["rtl"]);
    expect(await direction(".post-card .excerpt")).toEqual(["rtl"]);

    await t.call("POST", "/api/v1/releases", {
      body: { title: arabic, content: `${arabic}\n\nAn English paragraph.`, isDraft: false },
    });
    await page.goto(`${server.url}/b/acme/changelog`);
    expect(await direction(".release h2")).toContain("rtl");
    const notes = page.locator(".release", { hasText: "An English paragraph." }).locator(".markdown p");
    expect(await notes.evaluateAll((ps) => ps.map((p) => getComputedStyle(p).direction))).toEqual([
      "rtl",
      "ltr",
    ]);
  }, 60_000);
});
