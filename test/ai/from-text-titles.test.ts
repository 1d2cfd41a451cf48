import { describe, expect, test } from "bun:test";
import { halfOf, loadTitleCases, localTitle, scoreTitles } from "../../bench/from-text-titles";

/**
 * Titles of pasted feedback (docs/ai.md, "Titles of pasted feedback"): the sentence that asks, not the one
 * that says who writes. The fixture's held-out half was never looked at while the rules were written; its
 * accuracy and the tuning half's are held at what they reached, less a margin of about three items.
 */
const HELD_OUT_AT_LEAST = 0.86; // reached 0.908 (69 of 76)
const TUNING_AT_LEAST = 0.93; // reached 0.969 (62 of 64)

describe("from-text titles of feedback it never saw", () => {
  test("the fixture's held-out and tuning halves keep their accuracy", async () => {
    const items = await loadTitleCases();
    const heldOut = scoreTitles(items.filter((item) => halfOf(item) === "held-out"));
    const tuning = scoreTitles(items.filter((item) => halfOf(item) === "tuning"));
    expect(heldOut.total + tuning.total).toBeGreaterThanOrEqual(120);
    expect(heldOut.accuracy).toBeGreaterThanOrEqual(HELD_OUT_AT_LEAST);
    expect(tuning.accuracy).toBeGreaterThanOrEqual(TUNING_AT_LEAST);
  });
});

describe("the sentence that asks wins over the one that sets the scene", () => {
  test("a wish without a request word, after who is writing", () => {
    expect(
      localTitle(
        "We're a 30-person architecture firm and have used you for two years. " +
          "Being able to lock a drawing while someone edits it would save us a lot of rework.",
      ),
    ).toBe("Lock a drawing while someone edits it");
    expect(
      localTitle("I run three bike shops. Seeing repair jobs grouped by mechanic is a must for us."),
    ).toBe("Seeing repair jobs grouped by mechanic");
  });

  test("a question or a complaint, after a self-description", () => {
    expect(
      localTitle("I'm the IT admin at a school with 900 pupils. Any chance of single sign-on with Google?"),
    ).toBe("Any chance of single sign-on with Google");
    expect(
      localTitle(
        "Our studio has 12 editors on the Pro plan. The timeline export only does MP4; ProRes would be far better.",
      ),
    ).toBe("The timeline export only does MP4; ProRes would be far better");
  });

  test("a described reporter and a condition are framing, not the request", () => {
    expect(
      localTitle(
        "Head of nursing at St Anne's (240 beds) asked whether shift handovers can be signed on a tablet.",
      ),
    ).toBe("Shift handovers can be signed on a tablet");
    expect(localTitle("Happy overall. Would upgrade to the team plan if we had shared templates.")).toBe(
      "Shared templates",
    );
  });

  test("a list under a heading is titled by its first item, a reply that names nothing by what it answers", () => {
    expect(
      localTitle(
        "Wishlist from the warehouse crew:\n- label printing from the phone\n- ability to scan pallets",
      ),
    ).toBe("Label printing from the phone");
    expect(localTitle("The last update removed the weekly digest email. Please bring it back!")).toBe(
      "The last update removed the weekly digest email",
    );
  });

  test("'support' naming a team is no request", () => {
    expect(
      localTitle(
        "Refunds can't be split across two payment methods. Support staff handle these by hand every day.",
      ),
    ).toBe("Refunds can't be split across two payment methods");
  });
});
