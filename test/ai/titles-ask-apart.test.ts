import { afterAll, describe, expect, test } from "bun:test";
import { createProject } from "../../src/projects/service";
import { makePost } from "../support/board";
import { createAiTestApp } from "./support";

/**
 * Two requests alike but for what they name, a destination, a channel or a language ("export to CSV" /
 * "export to Goodreads", "push" / "SMS", "Italian" / "Portuguese", "by aisle" / "by store"), are never one request: from-text does not
 * file feedback on the other and triage does not propose closing one for the other (docs/ai.md, "Endpoints").
 */
const t = createAiTestApp();
afterAll(() => t.close());

let projects = 0;
const freshKey = () =>
  createProject(t.ctx.db, { slug: `asked-apart-${++projects}`, plan: "growth" }).secretKey;

/** Each pair's earlier request, and a later one naming another thing (reading, booking and grocery apps). */
const PAIRS = [
  ["Export my reading list to CSV", "Goodreads export of my reading list"],
  ["Push notification reminders for appointments", "Appointment reminders by SMS please"],
  ["Italian translation", "Translate the app into Portuguese"],
  // One place apart (0.72 even after onePlaceApart's share): by aisle or by store is another request.
  ["Shopping list sorted by aisle", "Shopping list sorted by store"],
] as const;

async function votedPost(key: string, title: string) {
  const post = await makePost(t, { title, status: "APPROVED" }, key);
  for (const voter of ["reader-1", "reader-2"]) {
    const vote = await t.call("POST", `/api/v1/posts/${post.id}/votes`, {
      key,
      body: { anonymousId: voter },
    });
    expect(vote.status).toBe(201);
  }
  return post;
}

describe("titles that ask for different things", () => {
  test("from-text makes its own post and lists the near one as related", async () => {
    for (const [earlier, later] of PAIRS) {
      const key = freshKey();
      const existing = await votedPost(key, earlier);
      const response = await t.call("POST", "/api/v1/posts/from-text", { key, body: { text: later } });
      expect(response.status).toBe(201);
      const { action, similar_posts } = response.body.data;
      const near = similar_posts.find((hit: { id: string }) => hit.id === existing.id);
      // Close by meaning, yet a request of its own.
      expect({ later, action, close: near?.similarity >= 0.7 }).toEqual({
        later,
        action: "created",
        close: true,
      });
    }
  });

  test("triage names the near request as related and never proposes closing for it", async () => {
    for (const [earlier, later] of PAIRS) {
      const key = freshKey();
      const existing = await votedPost(key, earlier);
      const inbox = await makePost(t, { title: later }, key);
      const response = await t.call("POST", "/api/v1/ai/triage", { key, body: {} });
      expect(response.status).toBe(200);
      const recommendation = response.body.data.recommendations.find(
        (item: { postId: string }) => item.postId === inbox.id,
      );
      expect({ later, duplicate_of: recommendation.duplicate_of }).toEqual({ later, duplicate_of: null });
      expect(recommendation.suggested_status).not.toBe("CLOSED");
      expect(recommendation.reason).toContain(`Related to "${existing.title}"`);
      expect(recommendation.reason).toContain("asks for something else");
    }
  });
});
