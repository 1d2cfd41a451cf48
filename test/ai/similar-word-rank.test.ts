import { afterAll, describe, expect, test } from "bun:test";
import { createProject } from "../../src/projects/service";
import { createAiTestApp } from "./support";

/** A short search's literal title hits rank above matches by meaning alone (docs/ai.md, "Search"). */
const t = createAiTestApp();
afterAll(() => t.close());

describe("GET /posts/similar, one or two words", () => {
  test("a title holding the searched word ranks above a post that only means it", async () => {
    const key = createProject(t.ctx.db, { slug: "word-rank", name: "Billfold", plan: "growth" }).secretKey;
    const ids = new Map<string, string>();
    for (const title of [
      "Sales tax by state",
      "VAT / GST handling",
      "Export invoices to Excel",
      "Import clients from CSV",
      "Download invoices as PDF",
      "Monthly reconciliation report of paid and unpaid invoices per client",
    ]) {
      const response = await t.call("POST", "/api/v1/posts", { key, body: { title, status: "APPROVED" } });
      ids.set(title, response.body.data.id);
    }
    const titlesFor = async (query: string) =>
      (
        await t.call("GET", `/api/v1/posts/similar?query=${encodeURIComponent(query)}`, { key })
      ).body.data.map((hit: { title: string; similarity: number }) => [hit.title, hit.similarity]);

    for (const [query, literal, meaningOnly] of [
      ["vat", "VAT / GST handling", "Sales tax by state"],
      ["excel", "Export invoices to Excel", "Import clients from CSV"],
      ["download", "Download invoices as PDF", "Export invoices to Excel"],
    ]) {
      const hits: [string, number][] = await titlesFor(query!);
      const names = hits.map(([title]) => title);
      expect({ query, first: names[0] }).toEqual({ query, first: literal });
      // The post found by meaning is still listed, under the literal one.
      expect({ query, listed: names.includes(meaningOnly!) }).toEqual({ query, listed: true });
      expect(hits[0]![1]).toBeGreaterThan(hits.find(([title]) => title === meaningOnly)![1]);
      // Four decimals, as every similarity reads ("0.8900", never "0.8899999999999999").
      for (const [, similarity] of hits) expect(Math.round(similarity * 10_000) / 10_000).toBe(similarity);
    }
    // One word of an eight-word title (0.87125), to four decimals as every similarity.
    expect(await titlesFor("reconciliation")).toEqual([
      ["Monthly reconciliation report of paid and unpaid invoices per client", 0.8713],
    ]);
    // With no title holding the word, matches by meaning keep their similarity.
    const spreadsheet: [string, number][] = await titlesFor("spreadsheet");
    expect(spreadsheet.map(([title]) => title)).toContain("Export invoices to Excel");
    for (const [, similarity] of spreadsheet) expect(similarity).toBeGreaterThanOrEqual(0.7);
  });
});
