import { afterAll, describe, expect, test } from "bun:test";
import { createProject } from "../../src/projects/service";
import { makePost, makeUser } from "../support/board";
import { createAiTestApp } from "./support";

const t = createAiTestApp();
afterAll(() => t.close());

let projects = 0;
const freshKey = () =>
  createProject(t.ctx.db, { slug: `plan-spend-${++projects}`, plan: "growth" }).secretKey;

async function customer(key: string, email: string, spend: number) {
  const user = await makeUser(t, { email, name: email }, key);
  const patched = await t.call("PATCH", `/api/v1/users/${user.id}`, { key, body: { userSpend: spend } });
  expect(patched.status).toBe(200);
  return user;
}

async function vote(key: string, postId: string, boardUserId: string) {
  const response = await t.call("POST", `/api/v1/posts/${postId}/votes`, { key, body: { boardUserId } });
  expect(response.status).toBe(201);
}

describe("sprint plan summary: the customers' spend behind the plan", () => {
  test("a customer who voted on several picks counts once", async () => {
    const key = freshKey();
    const recurring = await makePost(t, { title: "Recurring invoices", status: "APPROVED" }, key);
    const reminders = await makePost(t, { title: "Automatic late payment reminders" }, key);
    const payouts = await makePost(t, { title: "Show Stripe payouts next to invoices" }, key);
    const dental = await customer(key, "office@harbordental.example", 199);
    const plumbing = await customer(key, "books@acmeplumbing.example", 49);
    const kitchens = await customer(key, "lee@leeskitchens.example", 29);
    for (const post of [recurring, reminders, payouts]) await vote(key, post.id, dental.id);
    for (const post of [recurring, reminders]) await vote(key, post.id, plumbing.id);
    await vote(key, payouts.id, kitchens.id);

    for (const strategy of ["revenue", "balanced", "popular"]) {
      const response = await t.call("POST", "/api/v1/ai/sprint-plan", { key, body: { strategy } });
      expect(response.status).toBe(200);
      const { summary } = response.body.data;
      // 199 + 49 + 29, not 3 × 199 + 2 × 49 + 29 = 724.
      expect(summary).toContain("3 paying customers spending $277/month between them");
      expect(summary).toContain("6 votes");
    }
    // The whole board's customers pay $277/month, so no plan of a part of it can claim more.
    const one = (
      await t.call("POST", "/api/v1/ai/sprint-plan", { key, body: { strategy: "revenue", capacity: 1 } })
    ).body.data;
    expect(one.items[0].postId).toBe(recurring.id);
    expect(one.summary).toContain("2 paying customers spending $248/month between them");
  });

  test("a plan whose voters pay nothing says so rather than $0.00", async () => {
    const key = freshKey();
    const post = await makePost(t, { title: "Dark invoice template" }, key);
    await t.call("POST", `/api/v1/posts/${post.id}/votes`, { key, body: { anonymousId: "visitor-1" } });
    const { summary } = (await t.call("POST", "/api/v1/ai/sprint-plan", { key, body: {} })).body.data;
    expect(summary).toContain("1 vote; no paying customers among their voters");
  });
});
