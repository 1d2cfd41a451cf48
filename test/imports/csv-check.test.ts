import { describe, expect, test } from "bun:test";
import { checkCsvImport } from "../../src/imports/csv-import";
import { MAX_VOTES_PER_IMPORT } from "../../src/imports/schema";

/**
 * The check of a whole CSV import before any row is written (src/imports/csv-import.ts): one pass that
 * stops between steps, so 10,000 rows never hold the event loop in one piece (docs/performance.md).
 */
describe("checking a CSV import's rows before writing", () => {
  const rows = (count: number, votes = 1) =>
    Array.from({ length: count }, (_, index) => ({ title: `Row ${index}`, id: `r-${index % 700}`, votes }));

  test("the pass stops for a pause whenever a step has run its time, and still sees every row", async () => {
    let pauses = 0;
    const plan = await checkCsvImport(rows(2_000), async () => void pauses++, 0);
    // A step ends at each look at the clock (every 256 rows) once its time (0 ms here) is up.
    expect(pauses).toBeGreaterThanOrEqual(7);
    // Ids repeat every 700 rows: rows 700-1999 each name an earlier row, across the pauses.
    expect(plan.earlierRowWithId.size).toBe(1_300);
    expect(plan.earlierRowWithId.get(1_999)).toBe(599);
  });

  test("a step within its time does not pause", async () => {
    let pauses = 0;
    await checkCsvImport(rows(300), async () => void pauses++, 60_000);
    expect(pauses).toBe(0);
  });

  test("the vote cap counts every row, across pauses, and refuses before anything is written", async () => {
    const perRow = Math.ceil(MAX_VOTES_PER_IMPORT / 1_000) + 1;
    await expect(checkCsvImport(rows(1_000, perRow), async () => undefined, 0)).rejects.toThrow(
      `${perRow * 1_000} votes in total`,
    );
  });

  test("columns the import does not read are listed once, in the order met", async () => {
    const plan = await checkCsvImport(
      [
        { title: "A", colour: "red" },
        { title: "B", colour: "blue", size: "L" },
      ],
      async () => undefined,
      0,
    );
    expect(plan.unreadColumns).toEqual(["colour", "size"]);
  });
});
