import { afterAll, describe, expect, test } from "bun:test";
import { createProject } from "../../src/projects/service";
import { makePost, makeUser } from "../support/board";
import { createAiTestApp } from "./support";

/**
 * A summary's themes name what was asked, never who asked or what every request says (docs/ai.md, summary
 * themes). Audits on fresh boards read "pet", "owners", "clients" on a vet clinic's board, and "app",
 * "option", "better", "members" elsewhere, where a product manager expects "booking", "reminders",
 * "invoices".
 */
const t = createAiTestApp();
afterAll(() => t.close());

let projects = 0;
let voters = 0;

/** The week's themes of a fresh board holding these posts: [title, description, votes]. */
async function themesOf(name: string, posts: [string, string, number][]): Promise<string[]> {
  const key = createProject(t.ctx.db, { slug: `audience-${++projects}`, name, plan: "growth" }).secretKey;
  for (const [title, description, votes] of posts) {
    const post = await makePost(t, { title, description, status: "APPROVED" }, key);
    for (let index = 0; index < votes; index++) {
      const user = await makeUser(t, { email: `voter${++voters}@example.com` }, key);
      await t.call("POST", `/api/v1/posts/${post.id}/votes`, { key, body: { boardUserId: user.id } });
    }
  }
  const response = await t.call("POST", "/api/v1/ai/summary", { key, body: { period: "week" } });
  expect(response.status).toBe(200);
  return response.body.data.top_themes;
}

describe("summary themes never name who asks", () => {
  test("a vet clinic's board: booking, reminders and invoices, never pets, owners or clients", async () => {
    const themes = await themesOf("Pawpoint", [
      ["Let pet owners book appointments online", "Pet owners want to book a check-up at night.", 9],
      ["Online booking for grooming", "Clients ask to book grooming slots from their phone.", 5],
      ["Book one appointment for several pets", "Owners with three cats want one visit for all.", 4],
      ["Vaccination reminders by text", "Pet owners forget when the rabies shot is due.", 8],
      ["Vaccination reminders for every pet of a household", "Clients with two dogs get one reminder.", 3],
      ["Remind clients of a pet's annual check-up", "Owners want a reminder a week before.", 2],
      ["Email invoices to pet owners", "Clients ask for a copy of the invoice after each visit.", 6],
      ["Split an invoice between two owners", "A pet with several owners: each pays half.", 2],
      ["Pay invoices online", "Clients want to pay with a card before pick-up.", 5],
      ["Pet medical records portal", "Owners want to see their pet's lab results and vaccines.", 4],
      ["Share a pet's records with another clinic", "Clients moving away want to send records.", 2],
      ["Drug dose calculator", "Vets want the dose from the pet's weight.", 3],
      ["Allergy warnings on the pet's chart", "Clients told us their dog reacts to penicillin.", 2],
      ["Dark mode", "", 1],
    ]);
    expect(themes.slice(0, 3).sort()).toEqual(["booking", "invoices", "reminders"]);
    for (const theme of themes)
      expect({ theme, who: /pet|owner|client|online/.test(theme) }).toEqual({ theme, who: false });
  });

  test("who asks is read from the requests ('Students want…', 'Let students…'), on any board", async () => {
    // "students" is in three titles asking for three different things, and in under a third of the posts:
    // only the way the requests name them tells they are who asks.
    const themes = await themesOf("Lessonly", [
      ["Timed quizzes", "Twenty minutes to finish, then it submits.", 6],
      ["Quizzes with a question bank", "Reuse questions across courses.", 4],
      ["Certificates of completion", "A PDF when a course is finished.", 7],
      ["Certificates with our logo", "", 3],
      ["Students pause a subscription", "Students asked to pause over the summer.", 3],
      ["Students change their email", "", 2],
      ["Let students download receipts", "Students want them for their employer.", 2],
      ["Subtitles on videos", "", 5],
      ["Playback speed for videos", "", 4],
      ["Coupon codes", "", 2],
      ["Dark mode", "", 1],
    ]);
    expect(themes.slice(0, 3).sort()).toEqual(["certificates", "quizzes", "videos"]);
    expect(themes).not.toContain("students");
  });

  test("whom 'let' names, and the phrase naming them ('Let pet owners…'), are no theme", async () => {
    // "pet owners" opens three titles asking for three different things; nothing says "want".
    const themes = await themesOf("Vetly", [
      ["Let pet owners see lab results", "", 4],
      ["Let pet owners cancel a visit", "", 3],
      ["Pet owners loyalty points", "", 2],
      ["Pet insurance claims", "", 1],
      ["Vaccination reminders by text", "", 5],
      ["Vaccination reminders by email", "", 3],
      ["Drug dose calculator", "", 2],
      ["Drug interactions warning", "", 2],
      ["Kennel booking", "", 2],
      ["Kennel cleaning schedule", "", 1],
      ["Dark mode", "", 1],
    ]);
    expect(themes.slice(0, 3).sort()).toEqual(["drug", "kennel", "vaccination reminders"]);
    for (const theme of themes)
      expect({ theme, who: /pet|owner/.test(theme) }).toEqual({ theme, who: false });
  });
});

describe("what is asked stays a theme beside who asks", () => {
  test("the thing named before who asks is no audience ('the reports accountants want')", async () => {
    const themes = await themesOf("Ledgerly", [
      ["Export reports to PDF", "Send the reports accountants want as a PDF.", 5],
      ["Schedule reports weekly", "Email the reports owners want every Monday.", 4],
      ["Reports by project", "", 2],
      ["Bank feeds from more banks", "", 3],
      ["Bank feeds refresh hourly", "", 2],
      ["Dark mode", "", 1],
    ]);
    expect(themes.slice(0, 2).sort()).toEqual(["bank feeds", "reports"]);
  });
});

describe("summary themes never name what every request says", () => {
  test("words of any request ('better', 'members', 'apps') are no theme", async () => {
    const themes = await themesOf("Gymdesk", [
      ["Better calendar view", "", 4],
      ["Better waitlist order", "", 3],
      ["Members pay for class packs", "", 3],
      ["Members can freeze their membership", "", 2],
      ["Class packs of ten", "", 2],
      ["Waitlist notifications", "", 2],
      ["Apps for the front desk tablet", "", 1],
      ["Apps for coaches", "", 1],
    ]);
    for (const theme of themes)
      expect({ theme, generic: /better|members|apps/.test(theme) }).toEqual({ theme, generic: false });
    expect(themes.slice(0, 2).sort()).toEqual(["class packs", "waitlist"]);
  });

  test("a word in a quarter of the requests, mostly in their descriptions, is their setting, not a theme", async () => {
    // "recipe" names what every request is about on a meal planner, in passing: it is in 4 of 12 posts,
    // 2 titles among them, and no request is about recipes as such.
    const themes = await themesOf("Platewise", [
      ["Shopping list by aisle", "Sort the shopping list of a recipe by supermarket aisle.", 6],
      ["Share a shopping list", "My partner shops from the same list.", 4],
      ["Nutrition facts per serving", "Calories and protein for each recipe.", 5],
      ["Nutrition goals", "A daily protein goal.", 3],
      ["Recipe import from a website", "", 2],
      ["Scale a recipe to more servings", "", 2],
      ["Meal plan for the week", "Drag a recipe onto a day.", 4],
      ["Meal plan templates", "", 2],
      ["Pantry tracking", "", 1],
      ["Dark mode", "", 1],
      ["Timers while cooking", "", 1],
      ["Print a week", "", 1],
    ]);
    expect(themes).not.toContain("recipe");
    expect(themes.slice(0, 3).sort()).toEqual(["meal plan", "nutrition", "shopping list"]);
  });

  test("a word running across the other themes' requests is no theme of its own", async () => {
    // "pet" is in the titles of four requests, one of booking, one of reminders, one of records and one
    // more: they are about those, not about pets.
    const themes = await themesOf("Pawpoint", [
      ["Pet booking for grooming", "", 6],
      ["Booking several slots at once", "", 4],
      ["Booking from the website", "", 3],
      ["Pet vaccination reminders", "", 5],
      ["Reminders by text message", "", 3],
      ["Pet records portal", "", 4],
      ["Records shared with another clinic", "", 2],
      ["Pet weight chart", "", 2],
      ["Dark mode", "", 1],
    ]);
    expect(themes).not.toContain("pet");
    expect(themes.slice(0, 3).sort()).toEqual(["booking", "records", "reminders"]);
  });

  test("one theme asked in other words is named once", async () => {
    // "pay" is in three of the rent requests' titles: the same theme, not a second one. Those three say
    // "pay rent", which then names the theme (a word named by the phrase most of its requests use).
    const themes = await themesOf("Keyholder", [
      ["Pay rent by card", "", 8],
      ["Pay rent by bank transfer", "", 5],
      ["Rent reminders", "", 4],
      ["Pay rent in two parts", "", 3],
      ["Lease renewals", "", 4],
      ["Lease templates", "", 2],
      ["Maintenance requests with photos", "", 6],
      ["Maintenance schedule", "", 2],
      ["Dark mode", "", 1],
    ]);
    expect(themes.slice(0, 3).sort()).toEqual(["lease", "maintenance", "pay rent"]);
    expect(themes).not.toContain("pay");
  });
});

describe("summary themes read who acts and what groups requests (a later audit)", () => {
  test("whoever opens a request as the one who acts is who asks ('Trainers see…'), not a theme", async () => {
    // No "want", no "let": "trainers" and "stylists" open the titles and descriptions as the ones who act.
    const themes = await themesOf("Snipsy", [
      ["Stylists see their earnings for the month", "Stylists check the numbers every Friday.", 6],
      ["Stylists block time for lunch", "Stylists book their own breaks.", 5],
      ["Stylists swap shifts", "", 4],
      ["Colour formulas on the client card", "", 8],
      ["Colour formulas with photos", "", 5],
      ["Commission per service", "", 6],
      ["Commission for retail sales", "", 3],
      ["Deposits for long visits", "", 4],
      ["Deposits refunded on time", "", 2],
      ["Dark mode", "", 1],
    ]);
    expect(themes).not.toContain("stylists");
    expect(themes.slice(0, 3).sort()).toEqual(["colour formulas", "commission", "deposits"]);
  });

  test("what they do keeps its word when who acts shares its stem ('housekeeping' beside 'Housekeepers…')", async () => {
    const themes = await themesOf("Innkeep", [
      ["Housekeeping board by floor", "Housekeepers walk to the desk to ask which rooms are next.", 9],
      ["Housekeeping status on the room list", "Housekeepers count the minibar on paper.", 6],
      ["Housekeeping notes for long stays", "", 3],
      ["Late checkout on request", "", 7],
      ["Late checkout fee", "", 4],
      ["Deposits when a guest reserves", "", 5],
      ["Deposits refunded on cancellation", "", 3],
      ["Dark mode for the night audit", "", 1],
    ]);
    expect(themes).toContain("housekeeping");
  });

  test("where and when a request's words stand ('after', 'months', 'page') is no theme", async () => {
    const themes = await themesOf("Rackly", [
      ["Freeze a plan for three months", "", 7],
      ["Expire unused sessions after six months", "", 5],
      ["Discount on the next month after a referral", "", 4],
      ["Lock the doors after closing", "", 3],
      ["Waitlist for full classes", "", 8],
      ["Waitlist position", "", 5],
      ["Workout logs on the progress page", "", 6],
      ["Workout plans on the member page", "", 4],
      ["Dark mode", "", 1],
    ]);
    for (const theme of themes)
      expect({ theme, where: /^(after|months?|page)$/.test(theme) }).toEqual({ theme, where: false });
    expect(themes[0]).toBe("waitlist");
  });

  test("hours logged are a theme; 'for six hours' is a duration, not one", async () => {
    const themes = await themesOf("Helpinghand", [
      ["Log volunteer hours from the phone", "", 9],
      ["Approve hours in bulk", "", 6],
      ["Hours report for funders", "", 5],
      ["Shifts longer than six hours flagged", "", 2],
      ["Badges for milestones", "", 4],
      ["Badges on profiles", "", 3],
      ["Emergency contacts", "", 2],
      ["Welsh language version", "", 2],
      ["Dark mode", "", 1],
    ]);
    expect(themes[0]).toBe("hours");
  });

  test("a ticket, an item, a card and a checkout are each themselves, not one folded task or payment", async () => {
    // text.ts folds "ticket", "item" and "card" into one task, and "checkout" into payment, for similarity.
    const themes = await themesOf("Tablefox", [
      ["Reprint a ticket for the kitchen", "", 6],
      ["Tickets grouped by station", "", 5],
      ["Ticket colours by course", "", 3],
      ["Sold-out items greyed out", "", 7],
      ["Items with photos", "", 4],
      ["Items with modifiers", "", 2],
      ["Late checkout for hotel guests", "", 5],
      ["Express checkout at the table", "", 3],
      ["Pay by phone", "", 4],
      ["Pay with gift cards", "", 3],
      ["Dark mode", "", 1],
    ]);
    for (const word of ["ticket", "item", "checkout"])
      expect({ word, named: themes.some((theme) => theme.includes(word)) }).toEqual({ word, named: true });
  });

  test("a site's address names the site ('Booking.com'), not a theme of bookings", async () => {
    const themes = await themesOf("Staylane", [
      ["Sync rates with Booking.com", "", 9],
      ["Import reservations from Booking.com", "", 6],
      ["Room blocks for weddings", "", 5],
      ["Room blocks released on the cut-off date", "", 3],
      ["Late checkout fee", "", 4],
      ["Late checkout in the app", "", 3],
      ["Dark mode", "", 1],
    ]);
    for (const theme of themes)
      expect({ theme, site: /booking|reservation/.test(theme) }).toEqual({ theme, site: false });
  });

  test("a theme half inside a wider word's requests is still named ('cleaning' after 'room')", async () => {
    // "room" holds two cleaning requests among four; "cleaning" is no other word for it.
    const themes = await themesOf("Innline", [
      ["Which rooms are clean, on one board", "", 12],
      ["Mark a room as cleaned from a phone", "", 9],
      ["Room blocks for weddings", "", 6],
      ["Room blocks released on the cut-off date", "", 4],
      ["Skip daily cleaning for a discount", "", 5],
      ["Cleaning checklist per floor", "", 4],
      ["Late checkout fee", "", 4],
      ["Late checkout in the app", "", 3],
      ["Deposits taken on arrival", "", 2],
      ["Deposits refunded on cancellation", "", 2],
      ["Dark mode", "", 1],
    ]);
    expect(themes).toContain("cleaning");
  });

  test("the widest word across the themes goes first, and a theme it crossed is named ('timer' after 'matter')", async () => {
    const themes = await themesOf("Docketly", [
      ["Conflict check when opening a new matter", "", 9],
      ["Conflicts of interest across former clients", "", 6],
      ["A timer that keeps running when I switch matters", "", 8],
      ["Timer on the phone at court", "", 5],
      ["Timer rounding to six minutes", "", 3],
      ["Court deadline calculator", "", 7],
      ["Court dates on each matter", "", 4],
      ["Matter number in the browser tab", "", 2],
      ["Dark mode", "", 1],
    ]);
    // "matter" runs across conflict, timer and court; "timer" crosses "matter" and "court" only through it.
    expect(themes).toContain("timer");
    expect(themes).not.toContain("matter");
  });

  test("the board's subject, in a fifth of its posts asking unrelated things, is no theme ('ticket')", async () => {
    // "ticket" is in five titles of 16 posts, and no two of them share another word.
    const themes = await themesOf("Turnstyle", [
      ["Transfer a ticket to a friend", "", 9],
      ["Scan tickets offline at the door", "", 8],
      ["Change the name on a ticket", "", 6],
      ["Give away tickets I cannot use", "", 4],
      ["Refund only the ticket, keep the fee", "", 3],
      ["Seat map for theatre shows", "", 9],
      ["Seat picking by section", "", 5],
      ["Accessible seats marked", "", 3],
      ["Promo codes for early birds", "", 7],
      ["Promo codes limited to 100 uses", "", 4],
      ["Daily payouts to our bank", "", 6],
      ["Payouts in euros", "", 3],
      ["Wristbands for re-entry", "", 2],
      ["Custom questions at checkout", "", 2],
      ["Waitlist when sold out", "", 2],
      ["Dark mode", "", 1],
    ]);
    for (const theme of themes)
      expect({ theme, subject: /ticket/.test(theme) }).toEqual({ theme, subject: false });
    expect(themes.slice(0, 3).sort()).toEqual(["payouts", "promo codes", "seat"]);
  });

  test("two themes sharing one of their two requests are two themes ('retail', 'commission')", async () => {
    const themes = await themesOf("Clipjoint", [
      ["Sell retail products at checkout", "", 9],
      ["Commission on services and retail", "", 7],
      ["Commission rates for juniors", "", 5],
      ["Formulas saved per client", "", 6],
      ["Formulas with photos", "", 4],
      ["Dark mode", "", 1],
    ]);
    expect(themes).toEqual(expect.arrayContaining(["retail", "commission", "formulas"]));
  });
});
