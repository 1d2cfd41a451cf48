import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { READ_CACHE_ENTRIES, readCacheSize, readText } from "../../src/ai/text";
import { inSlices } from "../../src/turns";
import type { TestApp } from "../support/app";
import { createAiTestApp } from "./support";

/** How many turns of the event loop pass while `work` runs: one per `setImmediate` that gets to run. */
async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let running = true;
  const tick = () => {
    turns++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  await work();
  running = false;
  return turns;
}

describe("inSlices", () => {
  test("goes on on the same turn within its slice, and on a later turn once the slice is spent", async () => {
    const slices = inSlices(1_000);
    expect(
      await turnsDuring(async () => {
        for (let i = 0; i < 100; i++) await slices.step();
      }),
    ).toBe(0);
    const spent = inSlices(0);
    expect(
      await turnsDuring(async () => {
        for (let i = 0; i < 5; i++) await spent.step();
      }),
    ).toBeGreaterThanOrEqual(5);
  });
});

// Words no other test writes, so that no text of this board has been read (and remembered) before.
const WORDS = Array.from({ length: 60 }, (_, i) => `zq${(i * 7919).toString(36)}x`);

describe("the AI workflows on a board of 150 posts", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = createAiTestApp();
    let seed = 7;
    const word = () => WORDS[(seed = (seed * 16807) % 2147483647) % WORDS.length]!;
    for (let i = 0; i < 150; i++) {
      const title = `Please add ${word()} ${word()} support for ${word()} reports`;
      const description = `Our ${word()} team needs ${word()} and ${word()} every week, because the ${word()} export breaks the ${word()} dashboard for ${word()} managers.`;
      const status = i < 100 ? "PENDING" : "APPROVED";
      await t.call("POST", "/api/v1/posts", { body: { title, description, status } });
    }
    await t.call("GET", "/api/v1/posts/similar?query=warm");
  });
  afterAll(() => t.close());

  // Read on one turn, a 100-post triage or summary held every other request 0.2–0.5 s.
  test.each([
    ["/api/v1/ai/triage", { limit: 100 }],
    ["/api/v1/ai/summary", { period: "quarter" }],
  ])("%s lets the event loop turn while it reads the posts", async (path, body) => {
    let status = 0;
    const turns = await turnsDuring(async () => {
      status = (await t.call("POST", path, { body })).status;
    });
    expect(status).toBe(200);
    // About 30 here; read on one turn, 0 for the summary and 5 for triage (its own waits).
    expect(turns).toBeGreaterThanOrEqual(10);
  });
});

describe("what the local reading of texts remembers", () => {
  test("stays within its bounds however many texts are read, and reads a text again the same", () => {
    const first = readText("Export the roadmap as a PDF for the board meeting");
    for (let i = 0; i < READ_CACHE_ENTRIES + 500; i++) readText(`zq${i.toString(36)} widget ${i}`);
    const size = readCacheSize();
    expect(size.entries).toBeLessThanOrEqual(READ_CACHE_ENTRIES);
    expect(size.chars).toBeLessThanOrEqual(1_000_000);
    // Forgotten by now, and read again to the same answer.
    expect(readText("Export the roadmap as a PDF for the board meeting")).toEqual(first);
  });
});
