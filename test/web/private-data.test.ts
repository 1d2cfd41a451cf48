import { afterAll, expect, test } from "bun:test";
import { createTestApp } from "../support/app";
import { plantPrivateData, PRIVATE, PrivateDataScan, publicCaller } from "../support/private-data";

const t = createTestApp();
afterAll(() => t.close());
const scan = new PrivateDataScan();
const get = publicCaller(t, scan);
const plantedPostId = await plantPrivateData(t);
// The planted customer also comments publicly, a release ships the planted post, and a second post carries an email in its metadata.
await t.call("POST", `/api/v1/posts/${plantedPostId}/comments`, {
  body: { body: "Public words of the customer", authorName: "Private Customer" },
});
await t.call("POST", "/api/v1/releases", {
  body: { title: "v3", content: "- Shipped", isDraft: false, postIds: [plantedPostId] },
});
const secondPost = await t.call("POST", "/api/v1/posts", {
  body: { title: "Second post", status: "IN_PROGRESS", metadata: { owner: PRIVATE.email } },
});

const BOARD_PAGES = [
  "/b/acme",
  "/b/acme?sort=new",
  "/b/acme?status=APPROVED",
  "/b/acme?q=planted",
  `/b/acme/posts/${plantedPostId}`,
  `/b/acme/posts/${secondPost.body.data.id}`,
  "/b/acme/roadmap",
  "/b/acme/submit",
  "/b/acme/changelog",
  "/b/acme/changelog.atom",
];

test("no board page and no widget answer shows metadata, an internal note, an email or spend", async () => {
  for (const path of BOARD_PAGES) {
    const response = await get("GET", path);
    expect(response.status, path).toBe(200);
  }
  const planted = await get("GET", `/b/acme/posts/${plantedPostId}`);
  // The page really shows the planted post and its public comment: the scan looks where the data would be.
  expect(planted.text).toContain("Planted post with private context");
  expect(planted.text).toContain("A public reply");

  const widget = await get("GET", "/api/public/widget", {
    headers: { "x-publishable-key": t.project.publishableKey },
  });
  expect(widget.status).toBe(200);
  expect(widget.body.data.slug).toBe("acme");
  for (const path of ["/posts", `/posts/${plantedPostId}`, "/roadmap", "/changelog", ""]) {
    const answer = await get("GET", `/api/public/boards/acme${path}`, {
      headers: { "x-publishable-key": t.project.publishableKey },
    });
    expect(answer.status, path).toBe(200);
  }

  expect(scan.count).toBe(BOARD_PAGES.length + 7);
  expect(scan.findings()).toEqual([]);
});

test("the scan sees private data in a page", () => {
  const probe = new PrivateDataScan();
  probe.record("page", `<p>${PRIVATE.internalNote}</p>`);
  probe.record("page", `<dd>${PRIVATE.spend}</dd>`);
  probe.record("page", `<a href="mailto:${PRIVATE.email}">`);
  expect(probe.findings().length).toBeGreaterThanOrEqual(3);
});
