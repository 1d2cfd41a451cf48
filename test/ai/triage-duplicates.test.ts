import { afterAll, describe, expect, test } from "bun:test";
import { TRIAGE_DUPLICATE_THRESHOLD } from "../../src/ai/service";
import { createProject } from "../../src/projects/service";
import { makePost } from "../support/board";
import { createAiTestApp } from "./support";

/** When triage proposes closing a request as a duplicate (docs/ai.md, "Endpoints"). */
const t = createAiTestApp();
afterAll(() => t.close());

let projects = 0;

/** A board of two posts: the earlier one on the board, the later one waiting in the inbox; its recommendation. */
async function triagePair(earlier: string, later: string) {
  const key = createProject(t.ctx.db, { slug: `triage-dup-${++projects}`, plan: "growth" }).secretKey;
  const first = await makePost(t, { title: earlier, status: "APPROVED" }, key);
  const second = await makePost(t, { title: later }, key);
  const response = await t.call("POST", "/api/v1/ai/triage", { key, body: {} });
  expect(response.status).toBe(200);
  const recommendation = response.body.data.recommendations.find(
    (item: { postId: string }) => item.postId === second.id,
  );
  return { first, recommendation };
}

describe("triage duplicates", () => {
  test("a related request between 0.7 and the stricter cut is named, not proposed for closing", async () => {
    for (const [earlier, later] of [
      ["Multi-language invoices", "Add PO number field to invoice"],
      ["Export invoices to Excel", "Export clients to CSV"],
      ["Stripe payouts in the dashboard", "Show Stripe fees on invoices"],
    ]) {
      const { recommendation } = await triagePair(earlier!, later!);
      const similarity = Number(/similarity (\d\.\d+)/.exec(recommendation.reason)?.[1]);
      expect({ later, similarity: similarity >= 0.7 && similarity < TRIAGE_DUPLICATE_THRESHOLD }).toEqual({
        later,
        similarity: true,
      });
      expect(recommendation).toMatchObject({ duplicate_of: null });
      expect(recommendation.suggested_status).not.toBe("CLOSED");
      expect(recommendation.reason).toContain(`Related to "${earlier}"`);
      expect(recommendation.reason).not.toContain("Likely duplicate");
    }
  });

  test("a request asked again in other words is still proposed for closing as a duplicate", async () => {
    const { first, recommendation } = await triagePair("Duplicate an invoice", "Copy last month's invoice");
    expect(recommendation).toMatchObject({ duplicate_of: first.id, suggested_status: "CLOSED" });
    expect(recommendation.reason).toStartWith('Likely duplicate of "Duplicate an invoice"');
  });
});
