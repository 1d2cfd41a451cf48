import { afterAll, describe, expect, test } from "bun:test";
import { UNREVIEWED_ABSORB_THRESHOLD } from "../../src/ai/service";
import { createProject } from "../../src/projects/service";
import { makePost } from "../support/board";
import { createAiTestApp } from "./support";

/**
 * A PENDING post nobody voted for absorbs pasted feedback only from the stricter cut (docs/ai.md,
 * "Endpoints"): a wrong match on a post nobody has reviewed hides the feedback's demand.
 */
const t = createAiTestApp();
afterAll(() => t.close());

let projects = 0;
const freshKey = () =>
  createProject(t.ctx.db, { slug: `from-text-unreviewed-${++projects}`, plan: "growth" }).secretKey;

async function fromText(key: string, text: string) {
  const response = await t.call("POST", "/api/v1/posts/from-text", { key, body: { text } });
  expect(response.status).toBe(201);
  return response.body.data;
}

const notesOn = async (key: string, postId: string) =>
  (await t.call("GET", `/api/v1/posts/${postId}/comments?internal=all`, { key })).body.data as unknown[];

describe("from-text on a veterinary clinic's board", () => {
  test("feedback is not filed on a post from-text created a minute earlier unless nearly the same", async () => {
    const key = freshKey();
    const vaccinations =
      "Pet owners keep asking if they can see their dog's vaccination record in the app. Could the clinic " +
      "share it with them?";
    const first = await fromText(key, vaccinations);
    expect(first.action).toBe("created");
    expect(first.post).toMatchObject({ status: "PENDING", voteCount: 0 });
    // Another request that shares the clinic, the owners, their dog and the app (0.75 by meaning).
    const second = await fromText(
      key,
      "Pet owners keep asking if they can pay their dog's vet bills in the app. Could the clinic allow that?",
    );
    expect(second.action).toBe("created");
    expect(second.post.id).not.toBe(first.post.id);
    const near = second.similar_posts.find((hit: { id: string }) => hit.id === first.post.id);
    expect(near.similarity).toBeGreaterThanOrEqual(0.7);
    expect(near.similarity).toBeLessThan(UNREVIEWED_ABSORB_THRESHOLD);
    expect(await notesOn(key, first.post.id)).toHaveLength(0);
    // The same feedback pasted again is still matched.
    const again = await fromText(key, vaccinations);
    expect(again).toMatchObject({ action: "matched_duplicate", post: { id: first.post.id } });
  });

  test("a post with a vote is reviewed demand: it absorbs a rewording from the usual 0.7", async () => {
    const reminder = "Could the clinic remind me when my dog's vaccinations are due?";
    const unvoted = freshKey();
    const waiting = await makePost(t, { title: "Vaccination reminders for pets" }, unvoted);
    const created = await fromText(unvoted, reminder);
    expect(created.action).toBe("created");
    expect(created.similar_posts[0]).toMatchObject({ id: waiting.id, status: "PENDING" });
    expect(created.similar_posts[0].similarity).toBeGreaterThanOrEqual(0.7);

    const voted = freshKey();
    const wanted = await makePost(t, { title: "Vaccination reminders for pets" }, voted);
    const vote = await t.call("POST", `/api/v1/posts/${wanted.id}/votes`, {
      key: voted,
      body: { anonymousId: "owner-1" },
    });
    expect(vote.status).toBe(201);
    expect(await fromText(voted, reminder)).toMatchObject({
      action: "matched_duplicate",
      post: { id: wanted.id },
    });
  });
});
