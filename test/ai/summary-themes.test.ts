import { afterAll, describe, expect, test } from "bun:test";
import { createProject } from "../../src/projects/service";
import { makePost } from "../support/board";
import { createAiTestApp } from "./support";

/** What a summary calls a theme (docs/ai.md, summary themes): what the period's requests are about. */
const t = createAiTestApp();
afterAll(() => t.close());

let projects = 0;
const freshKey = (name: string) =>
  createProject(t.ctx.db, { slug: `themes-${++projects}`, name, plan: "growth" }).secretKey;

async function themesOf(key: string, posts: [string, string][]): Promise<string[]> {
  for (const [title, description] of posts)
    await makePost(t, { title, description, status: "APPROVED" }, key);
  const response = await t.call("POST", "/api/v1/ai/summary", { key, body: { period: "week" } });
  expect(response.status).toBe(200);
  return response.body.data.top_themes;
}

describe("summary themes", () => {
  test("an invoicing board: repeated phrases, never the product's name, its everyday words, numbers or contractions", async () => {
    const key = freshKey("Billfold");
    const themes = await themesOf(key, [
      [
        "Recurring invoices",
        "I can't keep creating the same invoice for my 2 retainer clients in Billfold every month.",
      ],
      [
        "Recurring invoices with a different amount",
        "Our clients pay monthly but the hours change; recurring invoices should let me edit the amount.",
      ],
      [
        "Pay an invoice by bank transfer",
        "Half our clients don't use cards. Show our bank details so they can pay by bank transfer.",
      ],
      [
        "Bank transfer reconciliation",
        "Match incoming bank transfer payments to the right invoice in Billfold.",
      ],
      ["Late fee on overdue invoices", "Add a 2% late fee to an invoice 30 days overdue."],
      ["Client portal", "Clients can't see their past invoices; they email me for copies."],
      ["Invoice numbering per year", "Invoice numbers should restart at 1 each year, e.g. 2026-001."],
      ["Multi-currency invoices", "We invoice clients in EUR and GBP and Billfold only shows USD."],
    ]);
    expect(themes.slice(0, 2).sort()).toEqual(["bank transfer", "recurring invoices"]);
    for (const theme of themes) {
      const verdict = {
        theme,
        productWord: /^(invoices?|clients?|billfold)$/i.test(theme),
        numberOrShort: /^\S{0,2}$|\d/.test(theme),
        contraction: /^(cant|dont|can|don|t)$/.test(theme),
      };
      expect(verdict).toEqual({ theme, productWord: false, numberOrShort: false, contraction: false });
    }
  });

  test("a project management board: the same rules on other words", async () => {
    const key = freshKey("Taskly");
    const themes = await themesOf(key, [
      ["Gantt chart view", "Plan a project on a gantt chart in Taskly, with the tasks on a timeline."],
      ["Export the gantt chart", "I'd like to print the gantt chart of a task list for the client meeting."],
      ["Task dependencies", "A task can't start before another is done."],
      ["Recurring tasks", "Weekly tasks that come back every Monday, we don't want to retype them."],
      ["Time tracking on tasks", "Log hours on each task and see the total per project."],
      ["Task templates", "Start a task from a template with its checklist."],
    ]);
    expect(themes[0]).toBe("gantt chart");
    expect(themes).not.toContain("taskly");
    expect(themes).not.toContain("tasks");
    expect(themes).not.toContain("task");
    for (const theme of themes) expect(theme).not.toMatch(/^(don|dont|can|cant|i'd|id)$/);
  });

  test("a word most of whose requests ask in one phrase is named by the phrase: 'job boards', not 'job'", async () => {
    const key = freshKey("Hireloop");
    const themes = await themesOf(key, [
      ["Post to several job boards in one click", ""],
      ["Pick which job boards each vacancy goes to", ""],
      ["Job descriptions from a template", ""],
      ["Interview scorecards", "Each interviewer rates the candidate on the same criteria."],
      ["Scorecard reminders for interviewers", ""],
      ["Offer letters with e-signature", ""],
      ["Offer letter templates per country", ""],
      ["Dark mode", ""],
    ]);
    expect(themes.some((theme) => /^job boards?$/.test(theme))).toBe(true);
    expect(themes).not.toContain("job");
  });
});
