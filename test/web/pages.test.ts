import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { countPageViews } from "../../src/analytics/service";
import { createProject } from "../../src/projects/service";
import { BOARD_ASSETS } from "../../src/web/assets";
import { CONTENT_SECURITY_POLICY } from "../../src/web/layout";
import { createTestApp, expectApiError, type JsonBody, type TestApp } from "../support/app";
import { makePost, makeTag } from "../support/board";

const XSS = "<img src=x onerror=alert(1)>";
const ESCAPED_XSS = "&lt;img src=x onerror=alert(1)&gt;";

let t: TestApp;
let xssPost: JsonBody;

const page = (path: string) => t.call("GET", path, { key: null });

beforeAll(async () => {
  t = createTestApp();
  const tag = await makeTag(t, "Mobile");
  xssPost = await makePost(t, {
    title: XSS,
    description: `${XSS}\nsecond line`,
    status: "APPROVED",
    tagIds: [tag.id],
  });
  await t.call("POST", `/api/v1/posts/${xssPost.id}/comments`, { body: { body: XSS, authorName: XSS } });
  const release = await t.call("POST", "/api/v1/releases", {
    body: { title: XSS, content: `${XSS}\n\n**Faster** exports`, isDraft: false, label: "v1.2" },
  });
  expect(release.status).toBe(201);
  await t.call("POST", "/api/v1/releases", { body: { title: "Secret draft", content: "not yet" } });
});
afterAll(() => t.close());

/** The pages of the test board that show posts, and those that show nothing of them. */
const boardPages = () => [
  "/b/acme",
  `/b/acme/posts/${xssPost.id}`,
  "/b/acme/roadmap",
  "/b/acme/submit",
  "/b/acme/changelog",
  "/b/acme?q=img",
  "/b/acme?status=APPROVED&sort=new",
];

describe("every board page", () => {
  test("is HTML with lang, title, viewport, the Content-Security-Policy and no inline script or style", async () => {
    for (const path of boardPages()) {
      const response = await page(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
      expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
      expect(CONTENT_SECURITY_POLICY).not.toContain("unsafe-inline");
      const text = response.text;
      expect(text.startsWith("<!doctype html>")).toBe(true);
      expect(text).toMatch(/<html lang="en">/);
      expect(text).toMatch(/<title>[^<]+<\/title>/);
      expect(text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"');
      // Every script is an external file of the same origin; no element carries an event handler or style.
      for (const script of text.match(/<script\b[^>]*>/g) ?? [])
        expect(script).toMatch(/ src="\/b\/_assets\//);
      for (const tag of text.match(/<[a-z][^>]*>/gi) ?? []) {
        // Quoted values hold only escaped text, so what is left outside quotes is the attribute names.
        const names = tag.replace(/"[^"]*"/g, '""');
        expect(names, path).not.toMatch(/\s(on[a-z]+|style)\s*=/i);
      }
    }
  });

  test("shows a post titled <img src=x onerror=alert(1)> as text", async () => {
    for (const path of boardPages().filter((path) => !path.endsWith("/submit"))) {
      const { text } = await page(path);
      expect(text, path).not.toContain(XSS);
      expect(text, path).toContain(ESCAPED_XSS);
    }
  });

  test("labels every form control", async () => {
    for (const path of boardPages()) {
      const { text } = await page(path);
      const labelled = new Set([...text.matchAll(/<label for="([^"]+)"/g)].map((match) => match[1]));
      const controls = [...text.matchAll(/<(input|select|textarea)\b[^>]*>/g)].map((match) => match[0]);
      for (const control of controls) {
        const id = control.match(/\sid="([^"]+)"/)?.[1];
        expect(id && labelled.has(id), `${path}: ${control}`).toBe(true);
      }
    }
  });

  test("stays under 100 KB with its stylesheet and script, on a full board", async () => {
    const full = createTestApp();
    try {
      const long = "A long description that says a lot. ".repeat(280).slice(0, 10000);
      const posts: JsonBody[] = [];
      for (let index = 0; index < 25; index++)
        posts.push(
          await makePost(full, {
            title: `${"Feature ".repeat(25)}${index}`.slice(0, 200),
            description: long,
            status: "APPROVED",
          }),
        );
      for (let index = 0; index < 25; index++)
        await full.call("POST", `/api/v1/posts/${posts[0].id}/comments`, {
          body: { body: "A thoughtful comment & more. ".repeat(60), authorName: "Somebody" },
        });
      const notes = "- **Faster exports** for [everyone](https://example.com/notes)\n".repeat(50);
      for (let index = 0; index < 12; index++)
        await full.call("POST", "/api/v1/releases", {
          body: { title: `Release ${index}`, content: notes, isDraft: false },
        });
      const assets = Object.values(BOARD_ASSETS).reduce(
        (sum, asset) => sum + Buffer.byteLength(asset.body),
        0,
      );
      for (const path of [
        "/b/acme",
        `/b/acme/posts/${posts[0].id}`,
        "/b/acme/roadmap",
        "/b/acme/submit",
        "/b/acme/changelog",
      ]) {
        const response = await full.call("GET", path, { key: null });
        expect(response.status).toBe(200);
        const total = Buffer.byteLength(response.text) + assets;
        expect(total, path).toBeLessThan(100 * 1024);
      }
    } finally {
      full.close();
    }
  });
});

describe("what a board does not show", () => {
  test("a private board answers 404 and shows nothing of it", async () => {
    const secret = createProject(t.ctx.db, { slug: "hush-co", name: "Hush Company", isPublic: false });
    const post = await makePost(
      t,
      { title: "Confidential roadmap item", status: "APPROVED" },
      secret.secretKey,
    );
    const unknown = await page("/b/no-such-board");
    expect(unknown.status).toBe(404);
    for (const path of [
      "/b/hush-co",
      `/b/hush-co/posts/${post.id}`,
      "/b/hush-co/roadmap",
      "/b/hush-co/submit",
      "/b/hush-co/changelog",
      "/b/hush-co/changelog.atom",
    ]) {
      const response = await page(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.text).toBe(unknown.text);
      expect(response.text).not.toMatch(/hush|Confidential/i);
    }
  });

  test("pending posts, other projects' posts and unknown pages answer 404", async () => {
    const pending = await makePost(t, { title: "Not yet reviewed" });
    const foreign = await makePost(t, { title: "Elsewhere", status: "APPROVED" }, t.other.secretKey);
    expect((await page("/b/acme")).text).not.toContain("Not yet reviewed");
    for (const path of [
      `/b/acme/posts/${pending.id}`,
      `/b/acme/posts/${foreign.id}`,
      "/b/acme/nothing-here",
      "/b/acme/posts",
    ]) {
      const response = await page(path);
      expect(response.status, path).toBe(404);
      expect(response.text).toContain("Page not found");
    }
  });
});

describe("closed and archived posts", () => {
  test("keep their page, so shared links live on, but are never listed", async () => {
    const closed = await makePost(t, { title: "Retired idea", status: "CLOSED" });
    const archived = await makePost(t, { title: "Shipped long ago", status: "ARCHIVED" });
    for (const [post, label] of [
      [closed, "Closed"],
      [archived, "Archived"],
    ] as const) {
      const response = await page(`/b/acme/posts/${post.id}`);
      expect(response.status).toBe(200);
      expect(response.text).toContain(`>${label}</span`);
      // The public API refuses votes and comments on them, so the page offers neither.
      expect(response.text).not.toContain('data-form="comment"');
      expect(response.text).not.toContain(`data-post="${post.id}"`);
      expect(response.text).toContain("votes and comments are closed");
    }
    const open = await page(`/b/acme/posts/${xssPost.id}`);
    expect(open.text).toContain('data-form="comment"');
    expect(open.text).toContain(`data-post="${xssPost.id}"`);
    for (const path of ["/b/acme", "/b/acme/roadmap", "/b/acme?q=idea"]) {
      const { text } = await page(path);
      expect(text).not.toContain("Retired idea");
      expect(text).not.toContain("Shipped long ago");
    }
  });
});

describe("the board listing", () => {
  test("filters by status, tag and search, sorts by votes or date, and pages", async () => {
    const board = createTestApp();
    try {
      const tag = await makeTag(board, "Exports");
      const older = await makePost(board, {
        title: "Older CSV export",
        status: "APPROVED",
        tagIds: [tag.id],
      });
      const newer = await makePost(board, { title: "Newer dark mode", status: "IN_PROGRESS" });
      await makePost(board, { title: "Hidden pending idea" });
      const vote = await board.call("POST", `/api/v1/posts/${older.id}/votes`, {
        body: { anonymousId: "a1" },
      });
      expect(vote.status).toBe(201);
      const titles = async (query: string) => {
        const { text } = await board.call("GET", `/b/acme${query}`, { key: null });
        return [...text.matchAll(/<h2><a href="\/b\/acme\/posts\/[^"]+" dir="auto">([^<]+)<\/a><\/h2>/g)].map(
          (match) => match[1],
        );
      };
      expect(await titles("")).toEqual(["Older CSV export", "Newer dark mode"]);
      expect(await titles("?sort=new")).toEqual(["Newer dark mode", "Older CSV export"]);
      expect(await titles("?status=IN_PROGRESS")).toEqual(["Newer dark mode"]);
      expect(await titles(`?tag=${tag.id}`)).toEqual(["Older CSV export"]);
      expect(await titles(`?tag=${tag.id}&q=csv+older`)).toEqual(["Older CSV export"]);
      expect(await titles(`?tag=${tag.id}&q=dark`)).toEqual([]);
      expect(await titles(`?tag=${tag.id}&status=IN_PROGRESS`)).toEqual([]);
      expect(await titles("?q=dark")).toEqual(["Newer dark mode"]);
      expect(await titles("?q=pending")).toEqual([]);
      expect((await board.call("GET", "/b/acme?q=pending", { key: null })).text).toContain(
        "No requests match these filters.",
      );
      const pastTheEnd = (await board.call("GET", "/b/acme?page=9", { key: null })).text;
      expect(pastTheEnd).toContain("This page is past the last one:");
      expect(pastTheEnd).toContain('<a href="/b/acme">back to the first page</a>');
      // Odd values are ignored rather than refused: a page URL is typed and shared by people.
      expect(await titles("?status=PENDING&sort=sideways&page=-3")).toEqual([
        "Older CSV export",
        "Newer dark mode",
      ]);

      for (let index = 0; index < 21; index++)
        await makePost(board, { title: `Bulk ${index}`, status: "COMPLETE" });
      const first = await board.call("GET", "/b/acme?sort=new", { key: null });
      expect(first.text).toContain("Page 1 of 2");
      expect(first.text).toContain('href="/b/acme?sort=new&amp;page=2"');
      expect(await titles("?sort=new&page=2")).toEqual(["Bulk 0", "Newer dark mode", "Older CSV export"]);
      expect(newer.id).toBeString();
    } finally {
      board.close();
    }
  });
});

describe("the changelog", () => {
  test("shows published releases with their notes rendered, never drafts", async () => {
    const { text } = await page("/b/acme/changelog");
    expect(text).toContain("<strong>Faster</strong> exports");
    expect(text).toContain('<span class="tag" dir="auto">v1.2</span>');
    expect(text).not.toContain("Secret draft");
  });

  test("has an Atom feed of the published releases, escaped", async () => {
    const response = await page("/b/acme/changelog.atom");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
    const xml = response.text;
    expect(xml).toStartWith(
      '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">',
    );
    expect(xml.match(/<entry>/g)?.length).toBe(1);
    expect(xml).toContain(`<id>${t.ctx.config.publicUrl}/b/acme/changelog</id>`);
    expect(xml).toContain("<title>v1.2: &lt;img src=x onerror=alert(1)&gt;</title>");
    // The rendered notes are escaped once more inside the feed: readers unescape them to safe HTML.
    expect(xml).toContain("&lt;strong&gt;Faster&lt;/strong&gt;");
    expect(xml).toContain("&amp;lt;img src=x onerror=alert(1)&amp;gt;");
    expect(xml).not.toContain("Secret draft");
    expect(xml).not.toContain("<img");
  });
});

test("the Atom feed drops characters XML forbids, so a control character cannot break the feed", async () => {
  const feedApp = createTestApp();
  try {
    const created = await feedApp.call("POST", "/api/v1/releases", {
      body: {
        title: "Bell\u0001 rings",
        content: "Notes\u0001 with\u000b controls",
        label: "v\u00012",
        isDraft: false,
      },
    });
    expect(created.status).toBe(201);
    const feed = (await feedApp.call("GET", "/b/acme/changelog.atom", { key: null })).text;
    // eslint-disable-next-line no-control-regex
    expect(feed).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    expect(feed).toContain("<title>v2: Bell rings</title>");
    expect(feed).toContain("Notes with controls");
  } finally {
    feedApp.close();
  }
});

describe("page views", () => {
  test("every board page view counts once; assets, feeds and 404s do not", async () => {
    const board = createTestApp();
    try {
      const { id } = board.project.project;
      const before = countPageViews(board.ctx.db, id, Date.now());
      for (const path of ["/b/acme", "/b/acme/roadmap", "/b/acme/submit", "/b/acme/changelog"])
        await board.call("GET", path, { key: null });
      for (const path of [
        "/b/acme/posts/nope",
        "/b/_assets/board.css",
        "/widget.js",
        "/b/acme/nothing",
        "/b/acme/changelog.atom",
      ])
        await board.call("GET", path, { key: null });
      expect(countPageViews(board.ctx.db, id, Date.now()) - before).toBe(4);
    } finally {
      board.close();
    }
  });
});

describe("assets and the widget", () => {
  test("assets are served with their type, long-cached at the version the pages link", async () => {
    const { text } = await page("/b/acme");
    const href = text.match(/href="(\/b\/_assets\/board\.css\?v=[0-9a-f]+)"/)![1]!;
    const css = await page(href);
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(css.headers.get("cache-control")).toContain("immutable");
    const script = await page(text.match(/src="(\/b\/_assets\/board\.js\?v=[0-9a-f]+)"/)![1]!);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect((await page("/b/_assets/board.css?v=old")).headers.get("cache-control")).not.toContain(
      "immutable",
    );
    expect((await page("/b/_assets/nothing.js")).status).toBe(404);
  });

  test("widget.js is a script any site may load", async () => {
    const response = await page("/widget.js");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.text).toContain("data-key");
  });

  test("the widget finds its board from the publishable key, and only from it; no page view", async () => {
    const widgetBoard = (key?: string) =>
      t.call("GET", "/api/public/widget", {
        key: null,
        headers:
          key === undefined
            ? { origin: "https://customer.example" }
            : { "x-publishable-key": key, origin: "https://customer.example" },
      });
    const views = () =>
      t.ctx.db.query<{ n: number }, []>("SELECT coalesce(sum(views), 0) AS n FROM page_views").get()?.n ?? 0;
    const viewsBefore = views();
    const found = await widgetBoard(t.project.publishableKey);
    expect(found.status).toBe(200);
    expect(found.headers.get("access-control-allow-origin")).toBeTruthy();
    expect(found.body.data).toMatchObject({ slug: "acme", name: "Acme" });
    expect(views()).toBe(viewsBefore);

    const secretKey = await widgetBoard(t.project.secretKey);
    expectApiError(secretKey, 401, "INVALID_API_KEY");
    expect(secretKey.text).not.toContain("acme");
    expectApiError(await widgetBoard("pk_unknown"), 401, "INVALID_API_KEY");
    expectApiError(await widgetBoard(), 400, "VALIDATION_ERROR");
    const hidden = createProject(t.ctx.db, { slug: "quiet-co", isPublic: false });
    expectApiError(await widgetBoard(hidden.publishableKey), 403, "BOARD_NOT_PUBLIC");
  });
});
