import { afterAll, describe, expect, test } from "bun:test";
import type { TestApp } from "../support/app";
import { makePost } from "../support/board";
import fixture from "../fixtures/duplicates.json";
import holdout from "../fixtures/duplicates-holdout.json";
import { createAiTestApp } from "./support";

interface Pair {
  a: { title: string; description: string };
  b: { title: string; description: string };
  duplicate: boolean;
}

const apps: TestApp[] = [];
afterAll(() => apps.forEach((app) => app.close()));

/**
 * Each pair's `a` is a post of the board; `b` is asked for through GET /posts/similar with the default
 * threshold. A pair is predicted duplicate when `a` comes back.
 */
async function score(pairs: Pair[]) {
  const t = createAiTestApp();
  apps.push(t);
  const ids = new Map<string, string>();
  for (const { a } of pairs) {
    if (!ids.has(a.title)) ids.set(a.title, (await makePost(t, a)).id);
  }
  let truePositives = 0;
  let falsePositives = 0;
  const missed: string[] = [];
  for (const pair of pairs) {
    const query = encodeURIComponent(`${pair.b.title}. ${pair.b.description}`);
    const response = await t.call("GET", `/api/v1/posts/similar?query=${query}`);
    expect(response.status).toBe(200);
    const found = response.body.data.some((hit: { id: string }) => hit.id === ids.get(pair.a.title));
    if (found && pair.duplicate) truePositives++;
    if (found && !pair.duplicate) falsePositives++;
    if (!found && pair.duplicate) missed.push(pair.b.title);
  }
  const duplicates = pairs.filter((pair) => pair.duplicate).length;
  return {
    precision: truePositives / Math.max(1, truePositives + falsePositives),
    recall: truePositives / duplicates,
    missed,
  };
}

describe("duplicate detection with the local provider at the default threshold", () => {
  test("the fixture has at least 40 pairs, half duplicates", () => {
    const pairs = fixture.pairs as Pair[];
    expect(pairs.length).toBeGreaterThanOrEqual(40);
    expect(pairs.filter((pair) => pair.duplicate).length).toBe(pairs.length / 2);
  });

  test("precision >= 0.9 and recall >= 0.8 on test/fixtures/duplicates.json", async () => {
    const result = await score(fixture.pairs as Pair[]);
    expect(result.precision).toBeGreaterThanOrEqual(0.9);
    expect(result.recall).toBeGreaterThanOrEqual(0.8);
  });

  test("the calibration holds on the holdout pairs it was not fitted on", async () => {
    const result = await score(holdout.pairs as Pair[]);
    expect(result.precision).toBeGreaterThanOrEqual(0.9);
    expect(result.recall).toBeGreaterThanOrEqual(0.8);
  });
});
