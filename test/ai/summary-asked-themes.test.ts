import { afterAll, describe, expect, test } from "bun:test";
import { createProject } from "../../src/projects/service";
import { makePost, makeUser } from "../support/board";
import { createAiTestApp } from "./support";

/**
 * A summary's themes are what was asked (docs/ai.md, summary themes): the titles of many requests and
 * their votes, never the scene-setting of a few long pasted e-mails. An audit's fitness board read "desk
 * staff, front desk, heart rate, reach out" from two pasted e-mails; this is a restaurant booking board.
 */
const t = createAiTestApp();
afterAll(() => t.close());

const key = createProject(t.ctx.db, { slug: "tablewise", name: "Tablewise", plan: "growth" }).secretKey;

/** Long pasted e-mails: each asks for one thing among a lot of setting the scene, in shared phrases. */
const EMAILS: [string, string][] = [
  [
    "Print kitchen tickets in the order they were taken",
    "Hi there, I run the front of house at a busy bistro downtown and our floor manager asked me to reach " +
      "out. On a busy Friday night the head chef has walk-in guests stacking up at the host stand, the " +
      "floor manager is running between the bar and the dining room, and the head chef keeps shouting for " +
      "tickets. Our front of house team loves the system and the walk-in guests rarely notice. The floor " +
      "manager and the head chef both asked: could the kitchen tickets print in the order they were taken? " +
      "Feel free to reach out to our floor manager any time. Thanks, Marco",
  ],
  [
    "Let us mark a table as needing cleaning",
    "Hello, quick note from our floor manager. Every busy Friday night our front of house gets slammed: " +
      "walk-in guests at the host stand, the head chef calling orders, the floor manager seating people " +
      "wherever there is room. Our front of house staff would love to mark a table as needing cleaning so " +
      "the host stand knows not to seat walk-in guests there. Happy to reach out again, the head chef says " +
      "hi. Best, Priya",
  ],
  [
    "Allergy notes on a reservation",
    "Good morning! I manage the front of house for two restaurants. On a busy Friday night the floor " +
      "manager and the head chef go through every reservation at the host stand before the walk-in guests " +
      "arrive. The head chef wants allergy notes on a reservation so the floor manager can warn the kitchen. " +
      "Please reach out if anything is unclear. Regards, Anna",
  ],
];

/** Short requests with a title that says what is asked, and their votes. */
const REQUESTS: [title: string, description: string, votes: number][] = [
  ["Waitlist by text message", "Text guests when their table is ready", 6],
  ["Join the waitlist online", "Guests add themselves before they arrive", 4],
  ["Show the waitlist position", "Guests see how many parties are ahead", 3],
  ["Waitlist estimates", "Estimate the wait from table turnover", 1],
  ["Split the bill between guests", "Each guest pays their own part", 5],
  ["Split bill by seat", "Assign each dish to a seat", 2],
  ["Split bill evenly", "Divide the total by the number of guests", 1],
  ["Sell gift cards online", "Guests buy a gift card on our website", 3],
  ["Gift cards balance check", "See what is left on a gift card", 1],
  ["Deposit for large parties", "Take a deposit when a party of 8 books", 2],
  ["Deposit refunds", "Refund the deposit when they cancel early", 0],
];

let voters = 0;
async function vote(postId: string, times: number) {
  for (let index = 0; index < times; index++) {
    const user = await makeUser(t, { email: `guest${++voters}@example.com` }, key);
    const response = await t.call("POST", `/api/v1/posts/${postId}/votes`, {
      key,
      body: { boardUserId: user.id },
    });
    expect(response.status).toBe(201);
  }
}

describe("summary themes come from what was asked", () => {
  test("many titled requests outweigh the scene-setting phrases of a few long e-mails", async () => {
    for (const [title, description] of EMAILS)
      await makePost(t, { title, description, status: "PENDING" }, key);
    for (const [title, description, votes] of REQUESTS) {
      const post = await makePost(t, { title, description, status: "APPROVED" }, key);
      await vote(post.id, votes);
    }
    const response = await t.call("POST", "/api/v1/ai/summary", { key, body: { period: "week" } });
    expect(response.status).toBe(200);
    const { top_themes: themes, summary } = response.body.data as { top_themes: string[]; summary: string };
    // The requested topics, most asked and voted first.
    expect(themes.slice(0, 4)).toEqual(["waitlist", "split bill", "gift cards", "deposit"]);
    // Nothing of the e-mails' scene-setting, in any position.
    for (const theme of themes)
      expect({
        theme,
        sceneSetting: /front|house|floor|manager|chef|walk|guests|friday|busy|reach|host/.test(theme),
      }).toEqual({
        theme,
        sceneSetting: false,
      });
    // The sentence says what the requests were about, with the board's own counts.
    expect(summary).toContain("waitlist (4 requests, 14 votes)");
    expect(summary).toContain("split bill (3 requests, 8 votes)");
  });
});

describe("a theme counts every request that asks for it", () => {
  test("in either word order, and with its votes: two themes asked as often are ordered by votes", async () => {
    const board = createProject(t.ctx.db, { slug: "studio", name: "Potter", plan: "growth" }).secretKey;
    const posts: [string, number][] = [
      ["Kiln booking online", 0],
      ["Book the kiln for a weekend", 0],
      ["Cancel a kiln booking", 1],
      ["Glaze inventory alerts", 0],
      ["Glaze inventory by colour", 0],
      ["Student portfolio page", 4],
      ["Student portfolio export", 3],
    ];
    for (const [title, votes] of posts) {
      const post = await makePost(t, { title, status: "APPROVED" }, board);
      for (let index = 0; index < votes; index++) {
        const user = await makeUser(t, { email: `potter${++voters}@example.com` }, board);
        await t.call("POST", `/api/v1/posts/${post.id}/votes`, {
          key: board,
          body: { boardUserId: user.id },
        });
      }
    }
    const response = await t.call("POST", "/api/v1/ai/summary", { key: board, body: { period: "month" } });
    const { top_themes: themes, summary } = response.body.data as { top_themes: string[]; summary: string };
    // Votes are people asking too: two requests with 7 votes lead three with one.
    expect(themes.slice(0, 3)).toEqual(["student portfolio", "kiln booking", "glaze inventory"]);
    expect(summary).toContain("kiln booking (3 requests, 1 vote)");
    expect(summary).toContain("student portfolio (2 requests, 7 votes)");
  });
});
