import { afterAll, expect, test } from "bun:test";
import { createTestApp } from "../support/app";
import { makePost, makeTag } from "../support/board";

const t = createTestApp();
afterAll(() => t.close());

async function vote(postId: string, times: number) {
  for (let index = 0; index < times; index++) {
    const response = await t.call("POST", `/api/v1/posts/${postId}/votes`, {
      body: { anonymousId: `${postId}-${index}` },
    });
    if (response.status !== 201) throw new Error(response.text);
  }
}

test("roadmap: three groups by status, each by votes, ties newest first, with tags", async () => {
  const tag = await makeTag(t, "Roadmap");
  const approvedFew = await makePost(t, { title: "approved 1 vote", status: "APPROVED" });
  const approvedMany = await makePost(t, { title: "approved 3 votes", status: "APPROVED", tagIds: [tag.id] });
  const approvedTieOld = await makePost(t, { title: "approved 1 vote, newer", status: "APPROVED" });
  const progress = await makePost(t, { title: "in progress", status: "IN_PROGRESS" });
  const completeLow = await makePost(t, { title: "complete 0", status: "COMPLETE" });
  const completeHigh = await makePost(t, { title: "complete 2", status: "COMPLETE" });
  for (const status of ["PENDING", "CLOSED", "ARCHIVED"]) await makePost(t, { title: status, status });
  // Another project's approved post never appears.
  await makePost(t, { title: "elsewhere", status: "APPROVED" }, t.other.secretKey);
  await vote(approvedFew.id, 1);
  await vote(approvedMany.id, 3);
  await vote(approvedTieOld.id, 1);
  await vote(completeHigh.id, 2);

  const response = await t.call("GET", "/api/v1/roadmap");
  expect(response.status).toBe(200);
  const { approved, in_progress, complete } = response.body.data;
  expect(Object.keys(response.body.data).sort()).toEqual(["approved", "complete", "in_progress"]);
  expect(approved.map((post: { id: string }) => post.id)).toEqual([
    approvedMany.id,
    approvedTieOld.id,
    approvedFew.id,
  ]);
  expect(approved.map((post: { voteCount: number }) => post.voteCount)).toEqual([3, 1, 1]);
  expect(approved[0].tags.map((each: { label: string }) => each.label)).toEqual(["Roadmap"]);
  expect(in_progress.map((post: { id: string }) => post.id)).toEqual([progress.id]);
  expect(complete.map((post: { id: string }) => post.id)).toEqual([completeHigh.id, completeLow.id]);
});

test("roadmap needs a secret key", async () => {
  expect((await t.call("GET", "/api/v1/roadmap", { key: null })).status).toBe(401);
});
