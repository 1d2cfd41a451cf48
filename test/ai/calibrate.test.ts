import { afterAll, expect, test } from "bun:test";
import { aiCommand } from "../../src/cli/ai-commands";
import { makePost } from "../support/board";
import { createAiTestApp } from "./support";

const t = createAiTestApp();
afterAll(() => t.close());

async function calibrate(): Promise<{ report: Record<string, unknown>; lines: string[] }> {
  const run = async (args: string[]) => {
    const lines: string[] = [];
    expect(await aiCommand(args, t.ctx.db, t.ctx.config, (line) => lines.push(line))).toBe(0);
    return lines;
  };
  // The report in words by default; --json gives it whole, on one line.
  const json = await run(["calibrate", "--project", "acme", "--json"]);
  expect(json).toHaveLength(1);
  const lines = await run(["calibrate", "--project", "acme"]);
  expect(lines[0]).toStartWith("calibrate: ");
  return { report: JSON.parse(json[0]!), lines: [json[0]!, ...lines] };
}

test("ai calibrate suggests a boundary from the duplicates the team merged, between them and the nearest others", async () => {
  // Too few merges: it says how many it needs, and suggests nothing.
  const early = await calibrate();
  expect(early.report.suggested).toBeNull();
  expect(early.lines[1]).toContain("at least 5 are needed");

  const pairs: [string, string][] = [
    ["Dark mode", "Night theme for the app"],
    ["Export to CSV", "Download everything as a spreadsheet"],
    ["SAML single sign-on", "Okta SSO login"],
    ["Keyboard shortcuts", "Hotkeys for power users"],
    ["Recurring tasks", "Repeating to-dos every week"],
    ["Android app", "Native app for Android phones"],
  ];
  for (const [kept, duplicate] of pairs) {
    const target = await makePost(t, { title: kept, status: "APPROVED" });
    const source = await makePost(t, { title: duplicate });
    expect(
      (await t.call("POST", `/api/v1/posts/${source.id}/merge`, { body: { intoPostId: target.id } })).status,
    ).toBe(200);
  }
  // Related but different requests, the nearest others a target has.
  for (const title of [
    "Light mode",
    "Import from CSV",
    "SAML single logout",
    "Mouse gestures",
    "Task dependencies",
    "iOS app",
  ]) {
    await makePost(t, { title, status: "APPROVED" });
  }
  const { report, lines } = await calibrate();
  expect(report.mergedPairs).toBe(6);
  const suggested = report.suggested as number;
  const duplicates = report.duplicates as { min: number };
  const neighbours = report.neighbours as { max: number };
  expect(suggested).toBeGreaterThan(0);
  expect(suggested).toBeLessThan(1);
  // The cut falls between the two groups: above most neighbours, below most duplicates, and it separates them
  // better than chance (one reworded pair scores below a neighbour here: the lexical model's limit).
  const duplicateMedian = (report.duplicates as { median: number }).median;
  const neighbourMedian = (report.neighbours as { median: number }).median;
  expect(suggested).toBeGreaterThan(neighbourMedian);
  expect(suggested).toBeLessThanOrEqual(duplicateMedian);
  expect(suggested).toBeGreaterThan(neighbours.max - 0.2);
  expect(suggested).toBeLessThanOrEqual(duplicates.min + 0.5);
  expect(report.precision as number).toBeGreaterThanOrEqual(0.8);
  expect(report.recall as number).toBeGreaterThanOrEqual(0.8);
  expect(lines[1]).toContain(`FEATUREBOARD_EMBED_BOUNDARY=${suggested}`);
});
