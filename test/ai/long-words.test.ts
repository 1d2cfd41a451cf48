import { afterAll, expect, test } from "bun:test";
import { createAiTestApp } from "./support";

/**
 * Spelling repair took time with the square of a word's length, on the event loop: one public submission
 * holding a 10,000-letter "word" held every request for 11 s, and a summary of the board for 90 s. The
 * bound is generous (a slow machine, other tests beside it); before the fix these took 9 s and more.
 */
const t = createAiTestApp();
afterAll(() => t.close());

test("a post made of one very long word is read in moments by from-text, the summary and triage", async () => {
  const word = "a".repeat(10_000);
  const submitted = await t.call("POST", "/api/public/posts", {
    key: null,
    body: { projectSlug: "acme", title: `Please add ${"b".repeat(150)}`, description: word },
  });
  expect(submitted.status).toBe(201);
  for (const [path, body] of [
    ["/api/v1/posts/from-text", { text: `Please add ${"c".repeat(5_000)}` }],
    ["/api/v1/ai/summary", {}],
    ["/api/v1/ai/triage", {}],
  ] as const) {
    const started = performance.now();
    const response = await t.call("POST", path, { body });
    expect([path, response.status < 300]).toEqual([path, true]);
    expect([path, performance.now() - started < 3_000]).toEqual([path, true]);
  }
});
