import { afterAll, describe, expect, test } from "bun:test";
import { createProject } from "../../src/projects/service";
import { makePost } from "../support/board";
import { createAiTestApp } from "./support";

/** What the quick-wins plan calls small, and why (docs/ai.md, "Endpoints"). */
const t = createAiTestApp();
afterAll(() => t.close());

let projects = 0;
const freshKey = () =>
  createProject(t.ctx.db, { slug: `quick-wins-${++projects}`, plan: "growth" }).secretKey;

async function withVotes(key: string, title: string, description: string, votes: number) {
  const post = await makePost(t, { title, description, status: "APPROVED" }, key);
  for (let index = 0; index < votes; index++) {
    const response = await t.call("POST", `/api/v1/posts/${post.id}/votes`, {
      key,
      body: { anonymousId: `${post.id}-${index}` },
    });
    expect(response.status).toBe(201);
  }
  return post;
}

async function quickWins(key: string): Promise<Map<string, string>> {
  const response = await t.call("POST", "/api/v1/ai/sprint-plan", {
    key,
    body: { strategy: "quick-wins", capacity: 50 },
  });
  expect(response.status).toBe(200);
  return new Map(
    response.body.data.items.map((item: { title: string; reason: string }) => [item.title, item.reason]),
  );
}

describe("quick-wins on an invoicing board", () => {
  test("a word in passing in the description is no sign of size; the title's signs are", async () => {
    const key = freshKey();
    await withVotes(
      key,
      "Apple Pay on the payment page",
      "Clients open the invoice link on their phone and want to pay with Apple Pay instead of typing a card.",
      12,
    );
    await withVotes(
      key,
      "Show the client's tax ID on invoices",
      "There is a setting for the default currency but nowhere to put a tax ID, and the filter on the client list can't find it either.",
      8,
    );
    await withVotes(
      key,
      "Rename 'Bill to' to 'Client' on invoices",
      "Our clients find 'Bill to' confusing.",
      5,
    );
    await withVotes(
      key,
      "Dark invoice template",
      "A darker template for invoices; the Pay button could stay green.",
      4,
    );
    const reasons = await quickWins(key);
    const all = [...reasons.values()].join("\n");
    expect(all).not.toMatch(/\(a (link|setting|default|filter)\)/);
    expect(reasons.get("Rename 'Bill to' to 'Client' on invoices")).toStartWith(
      'Quick win: likely a small change ("rename"): a wording change',
    );
    // The button is in its description, not its title: the request is a template.
    expect(reasons.get("Dark invoice template")).not.toContain("(a button)");
  });

  test("never a quick win whose reason says to size it first, nor one called a larger build", async () => {
    const key = freshKey();
    await withVotes(
      key,
      "Recurring invoices",
      "We bill most of our clients the same amount every month and create each invoice by hand, copying " +
        "the last one and changing the date, which takes an afternoon at the start of every month.",
      40,
    );
    await withVotes(key, "Xero integration", "Push paid invoices to Xero.", 30);
    await withVotes(key, "Bigger logo on invoices", "", 2);
    await withVotes(key, "Late fees", "", 3);
    await withVotes(
      key,
      "Tax ID on invoices",
      "There is a setting for the default currency but nowhere for a tax ID, and the filter on the client " +
        "list can't find it; after our import last year half of them are missing.",
      20,
    );
    const reasons = await quickWins(key);
    for (const [title, reason] of reasons) {
      const verdict = {
        title,
        contradicts: reason.startsWith("Quick win") && /size it before|larger build/.test(reason),
      };
      expect(verdict).toEqual({ title, contradicts: false });
    }
    // Something that recurs is the product acting on its own: a larger build.
    expect(reasons.get("Recurring invoices")).toStartWith(
      "Picked for its votes, not a known quick win: likely a larger build (it involves recurring)",
    );
    expect(reasons.get("Tax ID on invoices")).toStartWith(
      "Picked for its votes, not a known quick win: a 38-word request: size it before committing",
    );
    expect(reasons.get("Xero integration")).toStartWith(
      "Picked for its votes, not a known quick win: likely a larger build",
    );
    // A short text says nothing of the work by its length (docs/ai.md, "Endpoints"): what it asks for does.
    expect(reasons.get("Late fees")).toStartWith(
      "Picked for its votes, not a known quick win: size unknown (a one-line request)",
    );
    expect(reasons.get("Bigger logo on invoices")).toStartWith(
      'Quick win: likely a small change ("bigger"): a look-and-feel tweak',
    );
  });
});

describe("quick-wins on a recipe app", () => {
  test("a one-line request is not small for being short: a known small change ranks above it", async () => {
    const key = freshKey();
    // Weeks of work each, in a handful of words.
    await withVotes(key, "Live cooking classes", "", 6);
    await withVotes(key, "French version", "", 5);
    // A small change, said so by its title.
    await withVotes(key, "Rename 'Pantry' to 'Cupboard'", "", 1);
    await withVotes(
      key,
      "Scale a recipe to any number of servings",
      "When I cook for eight I redo every quantity on paper; the recipe could do the multiplication for me " +
        "and round the spoons sensibly.",
      6,
    );
    const response = await t.call("POST", "/api/v1/ai/sprint-plan", {
      key,
      body: { strategy: "quick-wins", capacity: 2 },
    });
    expect(response.status).toBe(200);
    const items: { title: string; reason: string }[] = response.body.data.items;
    expect(Object.keys(response.body.data).sort()).toEqual(["items", "strategy", "summary"]);
    // The known small change first, though the one-liners have more votes.
    expect(items[0]!.title).toBe("Rename 'Pantry' to 'Cupboard'");
    expect(items[0]!.reason).toStartWith('Quick win: likely a small change ("rename"): a wording change');
    const reasons = await quickWins(key);
    expect(reasons.get("Live cooking classes")).toStartWith(
      "Picked for its votes, not a known quick win: size unknown (a one-line request)",
    );
    // A translation is a larger build, one line or not.
    expect(reasons.get("French version")).toStartWith(
      "Picked for its votes, not a known quick win: likely a larger build (it involves french version): more than one language",
    );
  });
});

describe("quick-wins on a bookings board: what a request asks for, not how long it is", () => {
  test("a wording change with one vote ranks above an equally voted integration, and each reason names its sign", async () => {
    const key = freshKey();
    // Oldest first, so an estimate that cannot tell them apart (one line each) would rank the integration first.
    await withVotes(
      key,
      "Two-way sync with QuickBooks",
      "We re-enter every booking in QuickBooks by hand.",
      1,
    );
    await withVotes(
      key,
      "Change the wording of the cancellation email",
      "It sounds rude: 'Your booking has been terminated.' We would like it to say cancelled and invite them " +
        "to rebook. Customers have complained about it, one left a review mentioning it, and it has been " +
        "like this since we started two years ago; I have asked support about it twice.",
      1,
    );
    await withVotes(key, "Offline mode", "", 1);
    const response = await t.call("POST", "/api/v1/ai/sprint-plan", {
      key,
      body: { strategy: "quick-wins", capacity: 3 },
    });
    expect(response.status).toBe(200);
    const items: { title: string; reason: string }[] = response.body.data.items;
    expect(items.map((item) => item.title)).toEqual([
      "Change the wording of the cancellation email",
      "Two-way sync with QuickBooks",
      "Offline mode",
    ]);
    expect(items[0]!.reason).toStartWith(
      'Quick win: likely a small change ("wording"): a wording change, with 1 vote',
    );
    expect(items[1]!.reason).toStartWith(
      "Picked for its votes, not a known quick win: likely a larger build (it involves two-way sync): " +
        "a new integration with QuickBooks;",
    );
    expect(items[2]!.reason).toStartWith(
      "Picked for its votes, not a known quick win: likely a larger build (it involves offline): offline use;",
    );
  });
});
