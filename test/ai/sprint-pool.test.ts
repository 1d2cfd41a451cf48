import { afterAll, describe, expect, test } from "bun:test";
import { inTransaction } from "../../src/db/connection";
import { createProject } from "../../src/projects/service";
import { makePost } from "../support/board";
import { createAiTestApp } from "./support";

const t = createAiTestApp();
afterAll(() => t.close());

describe("POST /ai/sprint-plan on a large board", () => {
  test("every open post is considered, not only the most voted thousands", async () => {
    const created = createProject(t.ctx.db, { slug: "big-board", plan: "growth" });
    const key = created.secretKey;
    // 6,000 voted, long requests (written directly: the API would take minutes); their votes need no voters.
    // Numbered from 10,000: a title ending "404" reads as a small fix (src/ai/effort.ts).
    const wordy = "This request needs a large amount of work across many parts of the product. ".repeat(20);
    const now = Date.now() - 86_400_000;
    inTransaction(t.ctx.db, () => {
      const insert = t.ctx.db.query(
        `INSERT INTO posts (id, project_id, title, description, status, vote_count, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'PENDING', 1, ?, ?)`,
      );
      for (let i = 0; i < 6000; i++)
        insert.run(`bulk-${i}`, created.project.id, `Large request ${10_000 + i}`, wordy, now + i, now + i);
    });
    // The newest post, with no votes: a one-liner, so the best quick win, but last by votes.
    const quick = await makePost(t, { title: "Rename button" }, key);
    const response = await t.call("POST", "/api/v1/ai/sprint-plan", {
      key,
      body: { strategy: "quick-wins", capacity: 1 },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.items.map((item: { postId: string }) => item.postId)).toEqual([quick.id]);
    expect(response.body.data.summary).toContain("of 6001 open");
  });
});
