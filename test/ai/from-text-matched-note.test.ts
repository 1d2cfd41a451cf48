import { afterAll, describe, expect, test } from "bun:test";
import { LIMITS } from "../../src/http/limits";
import { createProject } from "../../src/projects/service";
import { makePost } from "../support/board";
import { createAiTestApp } from "./support";

/** Feedback matched to an existing request is kept there as an internal note (docs/ai.md, "Endpoints"). */
const t = createAiTestApp();
afterAll(() => t.close());

let projects = 0;
const freshKey = () =>
  createProject(t.ctx.db, { slug: `matched-note-${++projects}`, plan: "growth" }).secretKey;

const notesOf = async (key: string, postId: string, internal: "true" | "all" | null) =>
  (await t.call("GET", `/api/v1/posts/${postId}/comments${internal ? `?internal=${internal}` : ""}`, { key }))
    .body.data as { body: string; isInternalNote: boolean; authorName: string | null }[];

describe("from-text keeps the customer's words when it matches an existing request", () => {
  test("the pasted text, its source and link become an internal note on the matched post; the answer keeps its shape", async () => {
    const key = freshKey();
    const recurring = await makePost(
      t,
      {
        title: "Recurring invoices",
        description: "Send the same invoice to a client every month automatically.",
      },
      key,
    );
    const email =
      "Hi Billfold team,\n\nWe bill our retainer clients the same amount on the 1st of every month. " +
      "Could invoices repeat automatically every month?\n\nThanks,\nGreg";
    const response = await t.call("POST", "/api/v1/posts/from-text", {
      key,
      body: {
        text: email,
        source: "help-scout",
        source_url: "https://secure.helpscout.example/conversation/881",
      },
    });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body.data).sort()).toEqual(["action", "post", "similar_posts"]);
    expect(response.body.data).toMatchObject({ action: "matched_duplicate", post: { id: recurring.id } });

    const notes = await notesOf(key, recurring.id, "true");
    expect(notes).toHaveLength(1);
    expect(notes[0]!.isInternalNote).toBe(true);
    expect(notes[0]!.body).toContain("help-scout");
    expect(notes[0]!.body).toContain("https://secure.helpscout.example/conversation/881");
    expect(notes[0]!.body).toContain(
      "We bill our retainer clients the same amount on the 1st of every month.",
    );
    expect(notes[0]!.body).toContain("Thanks,\nGreg");
    // Visitors never see it.
    expect(await notesOf(key, recurring.id, null)).toHaveLength(0);
  });

  test("a long e-mail is kept up to the comment limit, and each match adds its own note", async () => {
    const key = freshKey();
    const reminders = await makePost(
      t,
      {
        title: "Automatic payment reminders",
        description: "Email clients when an invoice is overdue.",
        status: "APPROVED",
      },
      key,
    );
    const ask = "Please send automatic payment reminders to clients whose invoice is overdue.";
    const long = `${ask}\n\n${"Our clients are slow to pay and chasing them by hand takes hours. ".repeat(150)}`;
    expect(long.length).toBeGreaterThan(LIMITS.commentLength);
    for (const text of [long, "Could Billfold email my clients a reminder when an invoice is overdue?"]) {
      const response = await t.call("POST", "/api/v1/posts/from-text", { key, body: { text } });
      expect(response.body.data).toMatchObject({ action: "matched_duplicate", post: { id: reminders.id } });
    }
    const notes = await notesOf(key, reminders.id, "true");
    expect(notes).toHaveLength(2);
    const bodies = notes.map((note) => note.body);
    const kept = bodies.find((body) => body.includes(ask))!;
    expect(kept.length).toBeLessThanOrEqual(LIMITS.commentLength);
    expect(kept.endsWith("…")).toBe(true);
    expect(bodies.some((body) => body.includes("email my clients a reminder"))).toBe(true);
  });

  test("a created post gets no note: its description already holds the text", async () => {
    const key = freshKey();
    const response = await t.call("POST", "/api/v1/posts/from-text", {
      key,
      body: { text: "Can we add our bank details as a footer on every invoice PDF?" },
    });
    expect(response.body.data.action).toBe("created");
    expect(await notesOf(key, response.body.data.post.id, "all")).toHaveLength(0);
  });
});
