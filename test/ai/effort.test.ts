import { describe, expect, test } from "bun:test";
import { effortOf, productNamedIn } from "../../src/ai/effort";

/** How big a request looks from its words (src/ai/effort.ts, docs/ai.md "Endpoints"). */
const sized = (title: string, description: string | null = null) => effortOf({ title, description });

describe("small changes a product manager recognises", () => {
  const cases: [title: string, description: string | null, words: string][] = [
    ["Rename 'Clients' to 'Customers'", null, 'likely a small change ("rename"): a wording change'],
    ["Change 'Pupil' to 'Student' everywhere", null, "a wording change"],
    [
      "Order history page is confusing",
      "Nobody knows what 'Processed' means. Could we call them 'Paid' and 'Shipped'?",
      "a wording change",
    ],
    ["Let me turn off the weekly summary email", null, "a setting to turn something on or off"],
    ["Option to hide the 'Powered by' footer", null, "a setting to turn something on or off"],
    ["Default due date should be 30 days, not 14", null, "a default value"],
    ["Remember my last selected location", null, "a default value"],
    ["Newest comments first", null, "a sort order"],
    ["Sort projects alphabetically", null, "a sort order"],
    ["Filter the member list by membership type", null, "a filter on an existing list"],
    ["Add a 'Paid on' column to the invoice export", null, "a column on an existing list or export"],
    ["Keyboard shortcut for saving a draft", null, "a keyboard shortcut"],
    ["Make the font in the editor larger", null, "a look-and-feel tweak"],
    ["Link to the help centre from the settings page", null, "a link or button in an existing place"],
    ["Increase the attachment limit to 25 MB", null, "a limit or number changed"],
    ["Show the SKU on the packing slip", null, "a detail shown in an existing place"],
    ["Stop showing past events in the list", null, "something shown no longer"],
    // One request per sign that no other sign catches, so each sign is needed for its own case.
    ["A setting for the week to start on Monday", null, "a setting to turn something on or off"],
    ["Remove the 'Are you sure?' popup when archiving", null, "something shown no longer"],
    ["Email us when a ticket is reopened", null, "a notification for something that happens already"],
    [
      "Member list is too long",
      "I want to filter the list by membership type.",
      "a filter on an existing list",
    ],
    ["Status filter on the orders page", null, "a filter on an existing list"],
    [
      "Invoice export is missing something",
      "Please add a column with the payment date.",
      "a column on an existing list or export",
    ],
    ["Due date column", null, "a column on an existing list or export"],
    ["Timetable is hard to see", "The light text fails contrast checks.", "a look-and-feel tweak"],
    ["Timestamps in local time, not UTC", null, "a display format"],
    ["Help centre is hard to find", "A link to it from the settings page would do.", "a link or button"],
    ["Allow decimals in the quantity field", null, "a field on an existing page"],
    // Changes to something that exists, said without a size word (a fresh set of salons, farms, law firms…).
    ["Warn me when I double-book a stylist", null, "a notification for something that happens already"],
    ["Staff directory", "It is in order of joining date.", "a sort order"],
    ["Unbilled time report should be grouped by client", null, "a grouping of an existing list"],
    ["Invoice numbers should start at 1001", null, "a limit or number changed"],
    ["Reminder emails go out too early", null, "a limit or number changed"],
    ["Reports page opens on the wrong month", null, "a fix to something that exists"],
    ["Let me edit the date of a harvest entry", null, "an edit to an existing record"],
    [
      "Cancellation policy",
      "It's filled in under settings but it doesn't appear on the booking page.",
      "a detail shown in an existing place",
    ],
    ["Matter number on the invoice PDF", null, "a detail shown in an existing place"],
    // Said without a size word in more domains (dealerships, estate agents, nurseries, helpdesks, studios…).
    ["Distances in miles", null, "a display format"],
    ["Country dropdown", null, "a field on an existing page"],
    ["Category list", "Show the ones we use most first.", "a sort order"],
    ["Session timeout after 60 minutes instead of 15", null, "a limit or number changed"],
    ["Late fee", "Change it from 5% to 8%.", "a limit or number changed"],
    [
      "Renewal email",
      "It should go out a week before the renewal, not on the day.",
      "a limit or number changed",
    ],
    ["Renewal date wrong on the membership card", null, "a fix to something that exists"],
    ["Pickup instructions on the order confirmation", null, "a detail shown in an existing place"],
    ["Coach's first name only on the receipt", null, "a detail shown in an existing place"],
    ["Plan names", "'Gold' should be 'Premium' on the pricing page.", "a wording change"],
    ["Closed jobs should be hidden", null, "a setting to turn something on or off"],
    ["Header image is too big", null, "a look-and-feel tweak"],
    ["Venue address should open in Google Maps", null, "a link or button in an existing place"],
    ["Scoreboard", "Make the score bigger so the back row can read it.", "a look-and-feel tweak"],
    ["Heights in centimetres", null, "a display format"],
    ["Quantity should allow decimals", null, "a field on an existing page"],
    ["Invoice footer", "It still shows the old address.", "a fix to something that exists"],
    ["Order email: add the delivery date", null, "a detail shown in an existing place"],
    // The signs added with the development set (test/fixtures/dev-effort.json), in other words.
    ["Flag when the mileage is left empty on a job", null, "a check on what is entered"],
    ["Make the postcode mandatory on sign-up", null, "a check on what is entered"],
    ["Add the booking reference to the search results", null, "a column on an existing list or export"],
    ["Show the member's age next to their birthday", null, "a column on an existing list or export"],
  ];
  for (const [title, description, words] of cases) {
    test(title, () => {
      const effort = sized(title, description);
      expect({ kind: effort.kind, units: effort.units }).toEqual({ kind: "small", units: 1 });
      expect(effort.words).toContain(words);
    });
  }
});

describe("larger builds a product manager recognises", () => {
  const cases: [title: string, description: string | null, words: string][] = [
    [
      "Two-way sync with QuickBooks",
      null,
      "likely a larger build (it involves two-way sync): a new integration with QuickBooks",
    ],
    ["Xero", null, "likely a larger build (it involves Xero): a new integration with Xero"],
    ["Salesforce", "Our sales team lives in it.", "a new integration with Salesforce"],
    ["Offline mode for the field app", null, "offline use"],
    ["iPhone app", null, "a native app"],
    ["Real-time co-editing of notes", null, "real-time collaboration or messaging"],
    ["Invoices in multiple currencies", null, "more than one currency"],
    ["Spanish version of the member app", null, "more than one language"],
    ["Separate workspaces for each of our clients", null, "separate accounts for each client or location"],
    ["Roles for accountants vs. staff", null, "roles and permissions"],
    ["Login with our company Okta", null, "single sign-on"],
    ["Facebook login", null, "single sign-on"],
    ["Move from Trello", "Three years of boards.", "an import from Trello"],
    ["Custom reports", null, "a report builder"],
    ["Public API", null, "an API"],
    ["Accept card payments on invoices", null, "payments or billing"],
    ["Suggest tags automatically", null, "an AI feature"],
    // One request per sign that no other sign catches, so each sign is needed for its own case.
    ["Product import", null, "an import from another system"],
    ["Share a meal plan with my partner", null, "sharing between people"],
    ["Reminder text message the day before", null, "text messages (SMS)"],
    ["Abandoned cart emails", null, "automated messages"],
    [
      "Maintenance requests",
      "Tenants should be able to submit a repair request with photos.",
      "a portal for another kind of user",
    ],
    ["Let managers approve timesheets", null, "an approval workflow"],
    ["Tenants pay rent through the app", null, "payments or billing"],
    ["Refunds", null, "payments or billing"],
    ["Patients book their own appointments online", null, "online booking"],
    ["Payroll", null, "a new area of the product"],
    ["Self-hosted version", null, "security or hosting work"],
    ["GDPR compliance", null, "security or hosting work"],
    ["Full-text search inside attached PDFs", null, "search inside documents"],
    // New capabilities said without a size word (a fresh set of hotels, gyms, farms, ticketing…).
    ["Bank feeds", null, "a new integration"],
    ["Booking.com", null, "a new integration with Booking.com"],
    ["Trainer pay", "Trainers get 40% of the sessions they deliver.", "a calculation that follows rules"],
    ["Spray records", "Every application has to be logged for the audit.", "compliance with a law"],
    [
      "Room rates",
      "Rates should go up on their own when we're nearly full.",
      "the product acting on its own",
    ],
    ["Count stock with a barcode scanner", null, "a device"],
    [
      "Wedding parties",
      "They book 15 rooms at once and we enter each one.",
      "a bulk operation across records",
    ],
    ["Yield forecast", null, "a forecast or a recommendation"],
    ["Reserved seats", "Buyers need a seating chart of the hall.", "a new tool of its own"],
    ["Calving calendar", null, "a new tool of its own"],
    ["Let guests choose their room", null, "self-service for another kind of user"],
    // Said without a size word in more domains (dealerships, estate agents, nurseries, helpdesks, studios…).
    ["TikTok", null, "a new integration with TikTok"],
    ["Address from postcode", "It should look up the street from the postcode.", "a new integration"],
    [
      "Course dates on partner sites",
      "We copy each date manually into two partner sites.",
      "a new integration",
    ],
    ["RSS feed of new episodes", null, "a new integration"],
    ["Appointment confirmations", "Clients should get them by email or text.", "text messages (SMS)"],
    ["Due-date reminders", "Send members a reminder when their book is overdue.", "automated messages"],
    [
      "Rooms for guest teachers",
      "Guest teachers need their own calendar and logins.",
      "separate accounts for each client or location",
    ],
    ["Mug design proofs", "Clients approve the design before we order the mugs.", "an approval workflow"],
    [
      "Insurance documents",
      "Patients upload their insurance card before the visit.",
      "a portal for another kind of user",
    ],
    ["Holding a place", "Students pay a deposit to hold their place.", "payments or billing"],
    ["Equipment rental", "We lend laptops to staff and charge them monthly.", "payments or billing"],
    ["Tee times", "Golfers want to book a tee time through our website.", "online booking"],
    ["Parent evenings", "Parents pick a time slot with each teacher.", "online booking"],
    ["Hours per project", "Designers log their hours against each client.", "a new area of the product"],
    ["Delivery charges", "The charge should be based on distance.", "a calculation that follows rules"],
    ["Tip pooling", "Split tips as percentages of each person's hours.", "a calculation that follows rules"],
    ["Recurring lessons", null, "the product acting on its own"],
    ["Download all invoices", "Right now it is invoice by invoice.", "a bulk operation across records"],
    [
      "Year-end statements",
      "Every donor gets a statement of what they gave.",
      "a bulk operation across records",
    ],
    [
      "Price rise letters",
      "Raise fees for all members who joined before 2020.",
      "a bulk operation across records",
    ],
    ["Loan equipment", "We need to know who has which tablet.", "a new tool of its own"],
    ["Opening checklists", null, "a new tool of its own"],
    ["Mileage tracking", null, "a new tool of its own"],
    ["Password resets", "Users should do it themselves.", "self-service for another kind of user"],
    ["Shift swaps", "Staff can swap shifts with each other.", "self-service for another kind of user"],
    ["Order ready", "Text the customer when it's ready to collect.", "text messages (SMS)"],
    ["Quotes", "The customer gets a link to say yes or no.", "an approval workflow"],
    ["Flour for next week", "So we can order from the supplier on Friday.", "a new area of the product"],
    ["Pitch fees", "The fee depends on the pitch size and the season.", "a calculation that follows rules"],
    ["Fridge temperatures", "Our inspectors ask to see them every visit.", "compliance with a law"],
    [
      "Class photos",
      "Photos should be emailed to the parents automatically.",
      "the product acting on its own",
    ],
    [
      "Exclusive hire",
      "Companies want to book all the lanes for a night.",
      "a bulk operation across records",
    ],
    ["Loaner laptops", "We need to know who has it and for how long.", "a new tool of its own"],
    ["Pitches", "See which pitches are free on which days.", "a new tool of its own"],
    ["Court availability", null, "a new tool of its own"],
    ["Job adverts", "Publish each vacancy on our website.", "a new tool of its own"],
    ["Intake", "New clients fill in a questionnaire before their first session.", "a new tool of its own"],
    ["Liability forms", "Every climber signs a waiver before their first visit.", "a new tool of its own"],
    // The signs added with the development set (test/fixtures/dev-effort.json), in other words.
    ["Hebrew support", null, "more than one language"],
    ["Right-to-left layout for the booking form", null, "more than one language"],
    [
      "Rota editing",
      "Let two managers edit the same rota at the same time without overwriting each other.",
      "sharing between people",
    ],
    ["Post vacancies to LinkedIn", null, "a new integration with LinkedIn"],
    ["Parse supplier invoices into line items", null, "reading documents into fields"],
    ["See our vans on a map", null, "maps and location tracking"],
    ["Video consultations", null, "video"],
    ["Version history for lesson plans", null, "a change history"],
    ["Timed-entry slots", "Cap visitors per slot at 40.", "capacity by time slot"],
    ["Volunteer management", null, "a new tool of its own"],
  ];
  for (const [title, description, words] of cases) {
    test(title, () => {
      const effort = sized(title, description);
      expect({ kind: effort.kind, units: effort.units }).toEqual({ kind: "large", units: 4 });
      expect(effort.words).toContain(words);
    });
  }

  test("a larger build said only in the description is read there", () => {
    const effort = sized(
      "Technicians lose their notes",
      "Our technicians work in basements with no signal and lose what they typed.",
    );
    expect(effort.kind).toBe("large");
    expect(effort.words).toBe("likely a larger build (it involves no signal): offline use");
  });
});

describe("reading title and description", () => {
  test("the title wins: a small change whose description names a big product stays small", () => {
    const effort = sized("Sort contacts by company", "We import them from Salesforce every week.");
    expect(effort.kind).toBe("small");
    expect(effort.words).toContain("a sort order");
  });

  test("a larger build in the title wins over a small sign beside it", () => {
    expect(sized("A toggle to turn on SAML single sign-on").kind).toBe("large");
  });

  test("a larger build named only as the place of a change is the place, not the work", () => {
    const effort = sized("The 'Submit' button says 'Send' on the donation form");
    expect(effort.kind).toBe("small");
    expect(effort.words).toContain("a wording change");
  });

  test("nouns a description mentions in passing are no signs", () => {
    // "setting", "default", "filter" and "import" in passing: the request's size is still unknown.
    expect(
      sized(
        "Tax ID on invoices",
        "There is a setting for the default currency but nowhere for a tax ID, and the filter on the client " +
          "list can't find it; after our import last year half of them are missing.",
      ).kind,
    ).toBe("unclear");
  });

  test("a product name that is also a common word counts only with its capital", () => {
    expect(productNamedIn("you have to pinch and zoom")).toBeUndefined();
    expect(productNamedIn("calls on Zoom")).toBe("Zoom");
    expect(productNamedIn("two-way sync with quickbooks online")).toBe("QuickBooks");
  });

  test("quoted words are the wording discussed, not the work", () => {
    const effort = sized("Order confirmation page still says 'Thanks for your donation'");
    expect(effort.kind).toBe("small");
    expect(effort.words).toContain("a wording change");
  });

  test("the app's own home screen is no native app; adding to the phone's home screen is", () => {
    expect(sized("Check-in resets", "After 30 seconds it jumps back to the home screen.").kind).not.toBe(
      "large",
    );
    expect(sized("Members want to add the timetable to their home screen").words).toContain("a native app");
  });

  test("someone who can't see a thing reports it missing; only 'should not see' asks for permissions", () => {
    expect(sized("Clients can't see our cancellation policy").kind).not.toBe("large");
    expect(sized("Trainers should not see each other's clients").words).toContain("roles and permissions");
  });

  test("a small change the title names wins over a new capability's words: they name what exists too", () => {
    const effort = sized("Commission column on the sales report");
    expect(effort.kind).toBe("small");
    expect(effort.words).toContain("a column on an existing list or export");
    expect(sized("Receipt text is cut off on the printer").kind).toBe("small");
  });

  test("'Option to …' is the phrasing of a wish: a new capability named after it is the work", () => {
    expect(sized("Option to connect a card reader").words).toContain("a device");
  });

  test("a short title with a place in it names no new tool: 'Notes on calendar'", () => {
    expect(sized("Notes on calendar").kind).not.toBe("large");
  });

  test("a compound is no sign: payment terms are a detail of an invoice, not payments", () => {
    expect(sized("Payment terms should include Net 45").kind).not.toBe("large");
    expect(sized("Refunds").kind).toBe("large");
  });

  test("a link someone receives is no link on a page", () => {
    expect(sized("Receipts", "Customers get a link to download it.").kind).not.toBe("small");
  });

  test("a compound is no sign: a white-label report is not a label", () => {
    expect(sized("White-label the client reports").kind).not.toBe("small");
  });
});

describe("length is no sign of size", () => {
  const longStory =
    " It has been like this since we started two years ago, and I have asked support about it twice. " +
    "Customers complained, one left a review mentioning it, and my staff apologise for it every week.";

  test("a long description does not make a small change big", () => {
    const effort = sized("Change the wording of the cancellation email", `It sounds rude.${longStory}`);
    expect({ kind: effort.kind, units: effort.units }).toEqual({ kind: "small", units: 1 });
  });

  test("an unclear request counts the same short or long, and says it is unclear", () => {
    const short = sized("Gift cards");
    const long = sized("Gift cards", `We sell a lot around the holidays.${longStory}`);
    expect(short).toEqual({ kind: "one-line", units: 2, words: "size unknown (a one-line request)" });
    expect(long.kind).toBe("unclear");
    expect(long.units).toBe(short.units);
    expect(long.words).toMatch(/^a \d+-word request: size it before committing$/);
  });
});
