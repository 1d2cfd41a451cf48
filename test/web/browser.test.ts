/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { createProject } from "../../src/projects/service";
import { createTestApp, type JsonBody, type TestApp } from "../support/app";
import { makePost, makeTag } from "../support/board";
import { browserMissing, describedText, launchBrowser } from "../support/browser";
import { EMAIL_CONFIRMATION_NOTE } from "../../src/email/message";

/**
 * The board and the widget in headless Chromium, against a real server on a loopback port. Screenshots
 * go to docs/screenshots/ when FEATUREBOARD_SCREENSHOTS=1 (how the README's pictures are made), else to
 * the test's temporary folder, so a plain test run leaves the working tree as it was.
 */
const SCREENSHOTS = process.env.FEATUREBOARD_SCREENSHOTS === "1";
const XSS = "<img src=x onerror=alert(1)>";

let t: TestApp;
let base: string;
let stopServer: () => Promise<void>;
let browser: Browser;
let shotDir: string;

async function vote(postId: string, anonymousId: string) {
  const response = await t.call("POST", `/api/v1/posts/${postId}/votes`, { body: { anonymousId } });
  if (response.status !== 201) throw new Error(response.text);
}

/** A board that looks lived-in, for the screenshots and for the listing to have neighbours. */
async function seedBoard() {
  const [integrations, reporting, mobile] = [
    await makeTag(t, "Integrations"),
    await makeTag(t, "Reporting"),
    await makeTag(t, "Mobile"),
  ];
  const posts: [string, string, string, string[], number][] = [
    [
      "Dark mode",
      "A dark theme for the dashboard and the emails, following the system setting.",
      "IN_PROGRESS",
      [],
      14,
    ],
    [
      "Slack notifications for new requests",
      "Post to a channel when a request arrives or changes status.",
      "APPROVED",
      [integrations.id],
      11,
    ],
    ["Single sign-on with SAML", "Our IT team requires SSO for every tool we buy.", "APPROVED", [], 9],
    [
      "Scheduled PDF reports",
      "Email a weekly summary of the top requests to the leadership team.",
      "APPROVED",
      [reporting.id],
      6,
    ],
    [
      "Offline mode in the mobile app",
      "Vote and comment on the train, synced later.",
      "APPROVED",
      [mobile.id],
      4,
    ],
    [
      "Webhooks for status changes",
      "Signed webhooks so our tools can follow along.",
      "COMPLETE",
      [integrations.id],
      17,
    ],
  ];
  let voter = 0;
  for (const [title, description, status, tagIds, votes] of posts) {
    const post = await makePost(t, { title, description, status, tagIds });
    for (let index = 0; index < votes; index++) await vote(post.id, `seed-${voter++}`);
  }
}

async function pendingPostTitled(title: string): Promise<JsonBody> {
  const response = await t.call("GET", "/api/v1/posts?status=PENDING&limit=100");
  return response.body.data.find((post: JsonBody) => post.title === title);
}

async function screenshot(page: Page, name: string) {
  const path = join(shotDir, `${name}.png`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path, fullPage: false });
  const bytes = new Uint8Array(await Bun.file(path).arrayBuffer());
  // A PNG, and not a blank one: a real page compresses to well over a few kilobytes.
  expect([...bytes.slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
  expect(bytes.length).toBeGreaterThan(8000);
}

/** A page that fails the test on any script error or alert: the board must run clean. */
async function openPage(options: { javaScriptEnabled?: boolean } = {}) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 820 }, ...options });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on("dialog", (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return { page, problems, close: () => context.close() };
}

/**
 * Runs in the page: text whose colour against its nearest painted background falls under the WCAG AA
 * ratio for body text (4.5:1), as "element.class: ratio".
 */
function lowContrastText(): string[] {
  const channels = (colour: string) => (colour.match(/[\d.]+/g) ?? []).map(Number);
  const luminance = ([r = 0, g = 0, b = 0]: number[]) => {
    const linear = (value: number) => {
      const v = value / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  };
  const backgroundOf = (element: Element): number[] => {
    for (let node: Element | null = element; node; node = node.parentElement) {
      const colour = channels(getComputedStyle(node).backgroundColor);
      if (colour.length === 3 || (colour[3] ?? 0) > 0) return colour.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const failures: string[] = [];
  for (const element of document.querySelectorAll("body *")) {
    const ownText = [...element.childNodes].some((node) => node.nodeType === 3 && node.textContent?.trim());
    if (!ownText || element.getClientRects().length === 0) continue;
    const [lighter, darker] = [
      luminance(channels(getComputedStyle(element).color)),
      luminance(backgroundOf(element)),
    ].sort((a, b) => b - a) as [number, number];
    const ratio = (lighter + 0.05) / (darker + 0.05);
    if (ratio < 4.5)
      failures.push(`${element.tagName.toLowerCase()}.${element.className}: ${ratio.toFixed(2)}`);
  }
  return failures;
}

const skip = browserMissing();

describe.skipIf(skip)("the board in Chromium", () => {
  beforeAll(async () => {
    t = createTestApp();
    t.app.listen({ port: 0, hostname: "127.0.0.1" });
    base = `http://127.0.0.1:${t.app.server!.port}`;
    stopServer = async () => void (await t.app.stop());
    shotDir = SCREENSHOTS ? join(import.meta.dir, "../../docs/screenshots") : join(t.dir, "screenshots");
    mkdirSync(shotDir, { recursive: true });
    browser = await launchBrowser();
    await seedBoard();
  });
  afterAll(async () => {
    await browser?.close();
    await stopServer?.();
    t?.close();
  });

  test("a request goes from the submit form through approval to votes, comments, roadmap and changelog", async () => {
    const { page, problems, close } = await openPage();
    const title = "Export requests to CSV";

    // Submitted: stored PENDING, and not on the board.
    await page.goto(`${base}/b/acme/submit`);
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Description (optional)").fill("So we can share them with finance every month.");
    await page.getByLabel("Your name (optional)").fill("Dana");
    const email = page.getByLabel("Email (optional, to hear about progress)");
    await email.fill("dana@example.com");
    // Where the email is typed, the visitor reads (and hears) that it must be confirmed first.
    expect(await page.getByText(EMAIL_CONFIRMATION_NOTE).isVisible()).toBe(true);
    expect(await describedText(email)).toBe(EMAIL_CONFIRMATION_NOTE);
    await page.getByRole("button", { name: "Submit request" }).click();
    await page.getByText("Thank you!").waitFor();
    const submitted = await pendingPostTitled(title);
    expect(submitted.status).toBe("PENDING");
    await page.goto(`${base}/b/acme`);
    expect(await page.getByText(title).count()).toBe(0);

    // Approved through the REST API: listed.
    const approve = await t.call("PATCH", `/api/v1/posts/${submitted.id}`, { body: { status: "APPROVED" } });
    expect(approve.status).toBe(200);
    await page.reload();
    const card = page.locator(".post-card", { hasText: title });
    await card.waitFor();

    // A vote, kept across reloads for this browser, and taken back by a second click.
    const voteButton = card.locator("button.vote");
    await voteButton.click();
    await page.waitForFunction(
      (id) =>
        document.querySelector(`button.vote[data-post="${id}"]`)?.getAttribute("aria-pressed") === "true",
      submitted.id,
    );
    expect(await voteButton.locator(".count").textContent()).toBe("1");
    expect((await t.call("GET", `/api/v1/posts/${submitted.id}`)).body.data.voteCount).toBe(1);
    expect(await page.locator(".script-note").count()).toBe(0);
    await page.reload();
    expect(await voteButton.getAttribute("aria-pressed")).toBe("true");
    expect(await voteButton.locator(".count").textContent()).toBe("1");
    await voteButton.click();
    await page.waitForFunction(
      (id) =>
        document.querySelector(`button.vote[data-post="${id}"]`)?.getAttribute("aria-pressed") === "false",
      submitted.id,
    );
    expect((await t.call("GET", `/api/v1/posts/${submitted.id}`)).body.data.voteCount).toBe(0);
    await voteButton.click();
    await page.waitForFunction(
      (id) => document.querySelector(`button.vote[data-post="${id}"] .count`)?.textContent === "1",
      submitted.id,
    );
    expect((await t.call("GET", `/api/v1/posts/${submitted.id}`)).body.data.voteCount).toBe(1);
    await screenshot(page, "board");

    // A comment on the post page, there after a reload.
    await card.getByRole("link", { name: title }).click();
    await page.waitForURL(`${base}/b/acme/posts/${submitted.id}`);
    await page.getByLabel("Comment", { exact: true }).fill("Finance asks for this every quarter.");
    await page.getByLabel("Your name (optional)").fill("Sam");
    await page.getByRole("button", { name: "Post comment" }).click();
    await page.getByText("Comment posted.").waitFor();
    expect(await page.locator(".comment-count").textContent()).toBe("(1)");
    // The new comment carries its date at once, as the server renders it, not only after a reload.
    const postedDate = page.locator(".comment", { hasText: "Finance asks" }).locator("time");
    expect(await postedDate.getAttribute("datetime")).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await postedDate.textContent()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    expect(await page.getByLabel("Comment", { exact: true }).evaluate((box) => box.matches(":focus"))).toBe(
      true,
    );
    await page.reload();
    await page.locator(".comment", { hasText: "Finance asks for this every quarter." }).waitFor();
    expect(await page.locator(".comment strong").last().textContent()).toBe("Sam");
    const comments = await t.call("GET", `/api/v1/posts/${submitted.id}/comments`);
    expect(comments.body.data.map((comment: JsonBody) => comment.body)).toEqual([
      "Finance asks for this every quarter.",
    ]);
    await screenshot(page, "post");
    // The board list shows each request's public comment count.
    await page.goto(`${base}/b/acme`);
    expect(await page.locator(".post-card", { hasText: title }).locator(".comment-total").textContent()).toBe(
      "1 comment",
    );

    // The roadmap shows it in progress once the team says so.
    await t.call("PATCH", `/api/v1/posts/${submitted.id}`, { body: { status: "IN_PROGRESS" } });
    await page.goto(`${base}/b/acme/roadmap`);
    const inProgress = page.locator('section[aria-labelledby="column-in_progress"]');
    await inProgress.getByRole("link", { name: title }).waitFor();
    expect(await page.locator('section[aria-labelledby="column-approved"]').getByText(title).count()).toBe(0);
    expect(await page.locator(".roadmap > section").count()).toBe(3);
    await screenshot(page, "roadmap");

    // The changelog shows the published release with its notes rendered.
    const release = await t.call("POST", "/api/v1/releases", {
      body: {
        title: "CSV export and faster search",
        label: "v2.4",
        content: "## Highlights\n\n- **CSV export** of every request\n- Search is *twice* as fast",
        isDraft: false,
      },
    });
    expect(release.status).toBe(201);
    await page.goto(`${base}/b/acme/changelog`);
    await page.getByRole("heading", { name: "CSV export and faster search" }).waitFor();
    expect(await page.locator(".release .markdown strong").first().textContent()).toBe("CSV export");
    expect(await page.locator(".release .markdown li").count()).toBe(2);
    const feed = await page.request.get(`${base}/b/acme/changelog.atom`);
    const parsed = await page.evaluate(
      (xml) => {
        const document = new DOMParser().parseFromString(xml, "application/xml");
        return {
          error: document.querySelector("parsererror") !== null,
          entries: [...document.querySelectorAll("entry > title")].map((node) => node.textContent),
        };
      },
      await feed.text(),
    );
    expect(parsed).toEqual({ error: false, entries: ["v2.4: CSV export and faster search"] });

    expect(problems).toEqual([]);
    await close();
  }, 90_000);

  test("a refused vote or comment says so in the visitor's words; blank fields are caught before sending", async () => {
    const { page, problems, close } = await openPage();
    try {
      const post = await makePost(t, { title: "Closing soon", status: "APPROVED" });
      await page.goto(`${base}/b/acme/posts/${post.id}`);
      // A comment of spaces passes the browser's own check; the script names the field instead of sending.
      await page.getByLabel("Comment", { exact: true }).fill("   ");
      await page.getByRole("button", { name: "Post comment" }).click();
      await page.getByText("Please fill in \u201cComment\u201d.").waitFor();

      // The team closes the request while the page is open: the vote answers 404 POST_NOT_FOUND.
      await t.call("PATCH", `/api/v1/posts/${post.id}`, { body: { status: "CLOSED" } });
      await page.locator("button.vote").click();
      const notice = page.getByRole("status").filter({ hasText: "no longer open" });
      await notice.waitFor();
      expect(await notice.textContent()).toBe(
        "This request is no longer open for votes and comments. Reload the page to see where it stands.",
      );
      expect(await page.locator("button.vote").getAttribute("aria-pressed")).toBe("false");
      await page.getByLabel("Comment", { exact: true }).fill("Still want this");
      await page.getByRole("button", { name: "Post comment" }).click();
      await page.locator(".form-status.error").filter({ hasText: "no longer open" }).waitFor();

      // Submitting: a title of spaces is caught; after a success, a field the browser refuses clears it.
      await page.goto(`${base}/b/acme/submit`);
      await page.getByLabel("Title").fill("  ");
      await page.getByRole("button", { name: "Submit request" }).click();
      await page.getByText("Please fill in \u201cTitle\u201d.").waitFor();
      await page.getByLabel("Title").fill("Keyboard shortcuts");
      await page.getByRole("button", { name: "Submit request" }).click();
      await page.getByText("Thank you!", { exact: false }).waitFor();
      await page.getByLabel("Title").fill("Another one");
      await page.getByLabel("Email (optional, to hear about progress)").fill("not-an-email");
      await page.getByRole("button", { name: "Submit request" }).click();
      expect(await page.locator(".form-status").textContent()).toBe("");
      // The two refusals above (which the browser also logs) are the only failed requests.
      const expected = (problem: string) =>
        problem.includes(`/posts/${post.id}/`) || problem.includes("responded with a status of 404");
      expect(problems.filter((problem) => !expected(problem))).toEqual([]);
      expect(problems.filter(expected)).toHaveLength(4);
    } finally {
      await close();
    }
  }, 60_000);

  test("a comment posted on the first of two pages of comments says where it went, and is there", async () => {
    const { page, problems, close } = await openPage();
    try {
      const post = await makePost(t, { title: "Much discussed", status: "APPROVED" });
      for (let i = 1; i <= 21; i++)
        await t.call("POST", `/api/v1/posts/${post.id}/comments`, { body: { body: `Earlier comment ${i}` } });
      await page.goto(`${base}/b/acme/posts/${post.id}`);
      await page.getByLabel("Comment", { exact: true }).fill("The newest word");
      await page.getByRole("button", { name: "Post comment" }).click();
      await page.getByText("Comment posted: it is on the last page of comments.").waitFor();
      expect(await page.locator(".comment-list > li").count()).toBe(20);
      expect(await page.locator(".comment-count").textContent()).toBe("(22)");
      await page.getByRole("link", { name: "See it there" }).click();
      await page.waitForURL(/page=2/);
      expect(await page.locator(".comment-list > li").last().textContent()).toContain("The newest word");
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  test("pages are readable without JavaScript", async () => {
    const { page, close } = await openPage({ javaScriptEnabled: false });
    await page.goto(`${base}/b/acme`);
    expect(await page.locator(".post-card").count()).toBeGreaterThan(3);
    expect(await page.locator(".post-card h2").first().textContent()).toBe("Webhooks for status changes");
    expect(await page.getByText("Voting, commenting and submitting need JavaScript").isVisible()).toBe(true);
    expect(await page.locator("button.vote").first().isDisabled()).toBe(true);
    await page.getByLabel("Search").fill("dark");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/q=dark/);
    expect(await page.locator(".post-card h2").allTextContents()).toEqual(["Dark mode"]);
    await close();
  }, 60_000);

  test("a post titled <img src=x onerror=alert(1)> is text on every page", async () => {
    createProject(t.ctx.db, { slug: "xss-co", name: "XSS Co" });
    const key = (await t.call("GET", "/api/v1/posts", { key: null })).status; // keyless calls are refused
    expect(key).toBe(401);
    const project = createProject(t.ctx.db, { slug: "xss-two", name: XSS });
    const post = await makePost(t, { title: XSS, description: XSS, status: "APPROVED" }, project.secretKey);
    await t.call("POST", `/api/v1/posts/${post.id}/comments`, {
      body: { body: XSS, authorName: XSS },
      key: project.secretKey,
    });
    await t.call("POST", "/api/v1/releases", {
      body: { title: XSS, content: `${XSS}\n\n[x](javascript:alert(1))`, isDraft: false },
      key: project.secretKey,
    });
    const { page, problems, close } = await openPage();
    for (const path of ["", `/posts/${post.id}`, "/roadmap", "/changelog", "/submit"]) {
      await page.goto(`${base}/b/xss-two${path}`);
      await page.waitForLoadState("load");
      expect(await page.locator('img[src="x"]').count(), path).toBe(0);
      expect(await page.locator('a[href^="javascript:"]').count(), path).toBe(0);
      expect(await page.title(), path).toContain(XSS);
      if (path !== "/submit") expect(await page.getByText(XSS).first().isVisible(), path).toBe(true);
    }
    expect(problems).toEqual([]);
    await close();
  }, 60_000);

  test("every form control has a label; pages have lang, title, viewport, AA contrast, visible focus, and fit a phone", async () => {
    const { page, close } = await openPage();
    const postId = (await t.call("GET", "/api/v1/posts?status=APPROVED&limit=1")).body.data[0].id;
    const paths = ["", `/posts/${postId}`, "/submit", "/roadmap", "/changelog", "/no-such-page"];
    for (const path of paths) {
      await page.goto(`${base}/b/acme${path}`);
      expect(await page.evaluate(lowContrastText), path).toEqual([]);
      const audit = await page.evaluate(() => ({
        lang: document.documentElement.lang,
        title: document.title,
        viewport: document.querySelector('meta[name="viewport"]')?.getAttribute("content") ?? null,
        unlabelled: [...document.querySelectorAll("input, select, textarea")]
          .filter((control) => (control as HTMLInputElement).labels?.length === 0)
          .map((control) => control.outerHTML),
      }));
      expect(audit.lang, path).toBe("en");
      expect(audit.title.length, path).toBeGreaterThan(0);
      expect(audit.viewport, path).toBe("width=device-width, initial-scale=1");
      expect(audit.unlabelled, path).toEqual([]);
    }
    await page.goto(`${base}/b/acme`);
    await page.keyboard.press("Tab");
    const skipLink = await page.evaluate(() => {
      const active = document.activeElement as HTMLElement;
      return { text: active.textContent, outline: getComputedStyle(active).outlineStyle };
    });
    expect(skipLink).toEqual({ text: "Skip to content", outline: "solid" });

    await page.setViewportSize({ width: 360, height: 740 });
    for (const path of paths) {
      await page.goto(`${base}/b/acme${path}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
    await close();
  }, 60_000);

  test("the widget on another site submits a request and votes, in a shadow root the site's CSS cannot reach", async () => {
    const site = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () =>
        new Response(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme Inc</title>
<style>
  body { font: 18px Georgia, serif; margin: 40px; background: #fbf7ef; }
  button, ol, form, section { display: none !important; }
  * { color: #c00 !important; }
</style></head>
<body><h1>Acme Inc</h1><p>The product site of a customer, on another origin.</p>
<script src="${base}/widget.js" data-key="${t.project.publishableKey}" async></script>
<script src="${base}/widget.js" data-key="${t.project.publishableKey}" async></script>
</body></html>`,
          { headers: { "content-type": "text/html; charset=utf-8" } },
        ),
    });
    // localhost and 127.0.0.1 are different origins, as are different ports.
    const siteUrl = `http://localhost:${site.port}/`;
    const { page, problems, close } = await openPage();
    try {
      await page.goto(siteUrl);
      const launcher = page.getByRole("button", { name: "Feedback", exact: true });
      await launcher.click();
      expect(await launcher.isVisible()).toBe(true);
      const widgetColour = await page.evaluate(() => {
        const host = document.querySelector("[data-featureboard-widget]")!;
        const send = host.shadowRoot!.querySelector(".send")!;
        return getComputedStyle(send).color;
      });
      expect(widgetColour).toBe("rgb(255, 255, 255)");

      // The top requests, by votes, with a vote button each.
      const top = page.locator("[data-featureboard-widget] li");
      await top.first().waitFor();
      expect(await top.first().textContent()).toContain("Webhooks for status changes");
      const firstVote = top.first().getByRole("button");
      const before = (await t.call("GET", "/api/v1/posts?limit=1")).body.data[0];
      await firstVote.click();
      await page.waitForFunction(() => {
        const host = document.querySelector("[data-featureboard-widget]")!;
        return host.shadowRoot!.querySelector(".vote")?.getAttribute("aria-pressed") === "true";
      });
      expect((await t.call("GET", `/api/v1/posts/${before.id}`)).body.data.voteCount).toBe(
        before.voteCount + 1,
      );
      // Taken back with a DELETE, which crosses origins only after a CORS preflight; then given again.
      await firstVote.click();
      await page.waitForFunction(() => {
        const host = document.querySelector("[data-featureboard-widget]")!;
        return host.shadowRoot!.querySelector(".vote")?.getAttribute("aria-pressed") === "false";
      });
      expect((await t.call("GET", `/api/v1/posts/${before.id}`)).body.data.voteCount).toBe(before.voteCount);
      await firstVote.click();
      await page.waitForFunction(() => {
        const host = document.querySelector("[data-featureboard-widget]")!;
        return host.shadowRoot!.querySelector(".vote")?.getAttribute("aria-pressed") === "true";
      });

      await page.getByLabel("What would you like?").fill("Zapier integration");
      await page.getByLabel("Details (optional)").fill("Connect the board to the rest of our tools.");
      const widgetEmail = page.getByLabel("Email (optional)");
      await widgetEmail.fill("lee@example.com");
      expect(await page.getByText(EMAIL_CONFIRMATION_NOTE).isVisible()).toBe(true);
      expect(await describedText(widgetEmail)).toBe(EMAIL_CONFIRMATION_NOTE);
      await screenshot(page, "widget");
      await page.getByRole("button", { name: "Send request" }).click();
      await page.getByText("Thank you! The team will review your request.").waitFor();
      // Escape closes the panel and gives focus back to the launcher; the script included twice made one.
      await page.keyboard.press("Escape");
      expect(await page.getByText("Top requests").isVisible()).toBe(false);
      expect(await launcher.evaluate((button) => button.matches(":focus"))).toBe(true);
      expect(await page.locator("[data-featureboard-widget]").count()).toBe(1);
      // Once the focus has moved to the host page, Escape is the host's: the panel stays open until closed.
      await launcher.click();
      await page.getByText("Top requests").waitFor();
      await page.locator("body").click({ position: { x: 5, y: 5 } });
      await page.keyboard.press("Escape");
      expect(await page.getByText("Top requests").isVisible()).toBe(true);
      await page.getByRole("button", { name: "Close feedback panel" }).click();
      expect(await page.getByText("Top requests").isVisible()).toBe(false);
      const submitted = await pendingPostTitled("Zapier integration");
      expect(submitted.description).toBe("Connect the board to the rest of our tools.");
      expect(problems).toEqual([]);

      // The team closes the top request while the panel is open: its vote is refused in the visitor's words.
      await launcher.click();
      await page.getByText("Top requests").waitFor();
      await t.call("PATCH", `/api/v1/posts/${before.id}`, { body: { status: "CLOSED" } });
      await firstVote.click();
      await page
        .locator("[data-featureboard-widget] .status.error")
        .filter({ hasText: "This request is no longer open for votes and comments." })
        .waitFor();
      expect(problems.every((problem) => problem.includes("404"))).toBe(true);
    } finally {
      await close();
      await site.stop(true);
    }
  }, 60_000);
});
