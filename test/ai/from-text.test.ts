import { afterAll, describe, expect, test } from "bun:test";
import { createProject } from "../../src/projects/service";
import { expectApiError } from "../support/app";
import { makePost } from "../support/board";
import { createAiTestApp } from "./support";

const t = createAiTestApp();
afterAll(() => t.close());

let projects = 0;
/** A fresh growth project per test, so posts of one test never match another's. */
const freshKey = () => createProject(t.ctx.db, { slug: `from-text-${++projects}`, plan: "growth" }).secretKey;

const fromText = (key: string, text: string) =>
  t.call("POST", "/api/v1/posts/from-text", { key, body: { text } });

const postCount = (key: string) =>
  t.call("GET", "/api/v1/posts?limit=100", { key }).then((response) => response.body.data.length as number);

const webhooks = {
  title: "Webhooks for integrations",
  description: "Call our endpoint when a post changes status.",
};
const webhooksAgain =
  "Outgoing web hooks. Send an HTTP request to our server on every status update so we can integrate.";

describe("POST /posts/from-text", () => {
  test("text that is only whitespace → 400 VALIDATION_ERROR naming text, and nothing is created", async () => {
    const key = freshKey();
    for (const text of ["   ", "\n\t \n"]) {
      const error = expectApiError(await fromText(key, text), 400, "VALIDATION_ERROR");
      expect(error.message).toContain("'text'");
    }
    expect(await postCount(key)).toBe(0);
  });

  test("a related but different idea → created, with the related post in similar_posts", async () => {
    const key = freshKey();
    const related = await makePost(t, webhooks, key);
    const response = await fromText(
      key,
      "Zapier integration. A ready-made Zapier app so non-developers can connect tools.",
    );
    expect(response.status).toBe(201);
    const { action, post, similar_posts } = response.body.data;
    expect(action).toBe("created");
    expect(post.id).not.toBe(related.id);
    expect(similar_posts.map((hit: { id: string }) => hit.id)).toEqual([related.id]);
    expect(similar_posts[0].similarity).toBeGreaterThanOrEqual(0.5);
    expect(similar_posts[0].similarity).toBeLessThan(0.7);
    expect(await postCount(key)).toBe(2);
  });

  test("feedback asking for another file format than a post's is a new request, listed beside it", async () => {
    const key = freshKey();
    const csv = await makePost(t, { title: "Export CSV" }, key);
    const response = await fromText(key, "exporting invoices to PDF");
    expect(response.status).toBe(201);
    expect(response.body.data.action).toBe("created");
    expect(response.body.data.similar_posts.map((hit: { id: string }) => hit.id)).toContain(csv.id);
    // The same format in other words is still the same request.
    const again = await fromText(
      key,
      "Please let us download everything as an Excel spreadsheet (CSV is fine)",
    );
    expect(again.body.data).toMatchObject({ action: "matched_duplicate", post: { id: csv.id } });
  });

  test("a near duplicate is still matched_duplicate", async () => {
    const key = freshKey();
    // A reviewed request: an unvoted PENDING one absorbs feedback only from a stricter cut (from-text-unreviewed).
    const existing = await makePost(t, { ...webhooks, status: "APPROVED" }, key);
    const response = await fromText(key, webhooksAgain);
    expect(response.body.data).toMatchObject({ action: "matched_duplicate", post: { id: existing.id } });
    expect(await postCount(key)).toBe(1);
  });

  test("a duplicate of a COMPLETE post is matched; of a CLOSED or ARCHIVED post a new PENDING post is created", async () => {
    for (const status of ["COMPLETE", "CLOSED", "ARCHIVED"] as const) {
      const key = freshKey();
      const existing = await makePost(t, { ...webhooks, status }, key);
      const { action, post, similar_posts } = (await fromText(key, webhooksAgain)).body.data;
      if (status === "COMPLETE") {
        expect(action).toBe("matched_duplicate");
        expect(post.id).toBe(existing.id);
      } else {
        expect(action).toBe("created");
        expect(post.status).toBe("PENDING");
        // The declined or archived post is still shown, so the team sees the history.
        expect(similar_posts[0]).toMatchObject({ id: existing.id, status });
        expect(similar_posts[0].similarity).toBeGreaterThanOrEqual(0.7);
      }
    }
  });
});
