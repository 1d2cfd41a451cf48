import { afterAll, describe, expect, test } from "bun:test";
import { appendEvent } from "../../src/events/outbox";
import { createTestApp } from "../support/app";
import { makePost, makeTag } from "../support/board";

/**
 * The event contract is checked at compile time: `npm run typecheck` (CI) fails when a line marked
 * `@ts-expect-error` below compiles, i.e. when appendEvent would accept a payload of the wrong shape.
 */
const t = createTestApp();
afterAll(() => t.close());

function compileTimeChecks(): void {
  const { db } = t.ctx;
  const projectId = t.project.project.id;
  // @ts-expect-error a tag event carries a Tag, not a post
  appendEvent(db, projectId, "tag.created", { id: "p", title: "Not a tag" });
  // @ts-expect-error a vote event needs the post and its vote count
  appendEvent(db, projectId, "vote.created", { id: "v", boardUserId: null, anonymousId: "a" });
  // @ts-expect-error no such event type
  appendEvent(db, projectId, "post.exploded", {});
}

describe("the typed event map", () => {
  test("the writers' payloads have the shape of the map (a catalogue type without a payload does not compile)", async () => {
    expect(typeof compileTimeChecks).toBe("function");

    const tag = await makeTag(t, "Contract");
    await makePost(t, { title: "Contract post", tagIds: [tag.id] });
    const rows = t.ctx.db
      .query<{ type: string; payload: string }, []>("SELECT type, payload FROM events ORDER BY seq")
      .all();
    const byType = new Map(rows.map((row) => [row.type, JSON.parse(row.payload).data]));
    expect(Object.keys(byType.get("tag.created")).sort()).toEqual(Object.keys(tag).sort());
    expect(byType.get("post.created")).toMatchObject({ title: "Contract post", issueLinks: [] });
  });
});
