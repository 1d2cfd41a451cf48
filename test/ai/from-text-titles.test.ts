import { afterAll, describe, expect, test } from "bun:test";
import { halfOf, loadTitleCases, localTitle, scoreTitles } from "../../bench/from-text-titles";
import { createProject } from "../../src/projects/service";
import { createAiTestApp } from "./support";

/**
 * Titles of pasted feedback (docs/ai.md, "Titles of pasted feedback"): the sentence that asks, not the one
 * that says who writes. The fixture's held-out half was never looked at while the rules were written; its
 * accuracy and the tuning half's are held at what they reached, less a margin of about three items.
 */
// Lowered from 0.85 when the fifth set came, from 0.83 when the sixth did (120 items in 18 domains no rule
// was written for; its held-out half scored 33 of 60 before the rules of that session) and from 0.77 when
// the seventh did (100 items: other Englishes, one-liners, threads, Slack): each set is fresher text.
const HELD_OUT_AT_LEAST = 0.75; // reached 0.772 (244 of 316)
const TUNING_AT_LEAST = 0.88; // reached 0.906 (288 of 318)

describe("from-text titles of feedback it never saw", () => {
  test("the fixture's held-out and tuning halves keep their accuracy", async () => {
    const items = await loadTitleCases();
    const heldOut = scoreTitles(items.filter((item) => halfOf(item) === "held-out"));
    const tuning = scoreTitles(items.filter((item) => halfOf(item) === "tuning"));
    expect(heldOut.total + tuning.total).toBeGreaterThanOrEqual(200);
    expect(heldOut.accuracy).toBeGreaterThanOrEqual(HELD_OUT_AT_LEAST);
    expect(tuning.accuracy).toBeGreaterThanOrEqual(TUNING_AT_LEAST);
  });
});

describe("notes, transcripts and tickets: the ask where it is written down", () => {
  test("a ticket's subject line names the problem its body tells", () => {
    expect(
      localTitle(
        "Timesheets lose the lunch break after an edit\n\nWhen a foreman edits a day, the break he entered earlier " +
          "is gone from the total. Happened on two sites this week.",
      ),
    ).toBe("Timesheets lose the lunch break after an edit");
  });

  test("what the customer wants, noted without who, wins over what they are happy with", () => {
    expect(
      localTitle(
        "Call w/ Greenway Kennels\n- happy w/ the booking calendar\n- wants to print kennel cards from the stay page",
      ),
    ).toBe("Print kennel cards from the stay page");
  });

  test("an agent's answer in a chat is the scene; the customer's label and greeting go", () => {
    expect(
      localTitle(
        "Visitor: hi do you guys do waiting lists for full classes?\nAgent: Not at the moment, sorry.",
      ),
    ).toBe("Waiting lists for full classes");
  });

  test("a dash's afterthought about how much it matters goes", () => {
    expect(
      localTitle(
        "Field team wishlist:\n- offline photo upload — by far the top ask, signal is awful on site\n- dark mode",
      ),
    ).toBe("Offline photo upload");
  });

  test("a wish that only says how welcome it would be points back at the question before it", () => {
    expect(
      localTitle("Does the stock module let you record batch numbers? Would be great as a proper field."),
    ).toBe("Record batch numbers");
  });

  test("'why do I have to', 'any plans for' and a time of the week are framing", () => {
    expect(localTitle("why do I have to type the vaccine batch again for every dog??")).toBe(
      "No need to type the vaccine batch again for every dog",
    );
    expect(localTitle("any plans for recurring shifts in the rota?")).toBe("Recurring shifts in the rota");
    expect(
      localTitle("Every Friday our managers copy the same rota into next week. Can you make this faster?"),
    ).toBe("Our managers copy the same rota into next week");
  });

  test("a pronoun points at the plural its own sentence began with", () => {
    expect(localTitle("The member invoices are fine but there's no way to send them to QuickBooks.")).toBe(
      "Send the member invoices to QuickBooks",
    );
  });
});

describe("Slack, other Englishes and the frames of support mail", () => {
  test("an @handle is who is told, an emoji ends what it follows; '@mention' the feature stays", () => {
    expect(
      localTitle("hey @sam.t can you log this: Northside Gym wants towel rental at the front desk"),
    ).toBe("Towel rental at the front desk");
    expect(localTitle("the ops folks want a printable load plan per truck 🚚 not urgent tbh")).toBe(
      "A printable load plan per truck",
    );
    expect(localTitle("I can't @mention a colleague in a job note")).toContain("@mention");
  });

  test("frames of English as written elsewhere go", () => {
    expect(localTitle("Kindly do the needful and provide option to export the stock ledger in Excel.")).toBe(
      "Export the stock ledger in Excel",
    );
    expect(localTitle("We are begging you to add the option to print labels for each crate.")).toBe(
      "Add the option to print labels for each crate",
    );
    expect(localTitle("we would need that guests can cancel their own booking until 24 hours before.")).toBe(
      "Let guests cancel their own booking until 24 hours before",
    );
    expect(localTitle("It would be nice when members can pause their subscription for the summer.")).toBe(
      "Let members pause their subscription for the summer",
    );
  });

  test("what the product will not let them do is what they ask to do", () => {
    expect(localTitle("BUG: the system won't let me move a booking to another room.")).toBe(
      "Move a booking to another room",
    );
  });

  test("'Do let us know the timeline' is a courtesy, not the ask", () => {
    expect(
      localTitle(
        "We are having requirement of sending invoice reminders automatically. Do let us know the timeline for same.",
      ),
    ).toBe("Sending invoice reminders automatically");
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
    ).toBe("Single sign-on with Google");
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
    ).toBe("Sign shift handovers on a tablet");
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

describe("what is wanted wins over who wants it, threats, support demands and explanations", () => {
  test("a third-person or bare lead-in goes", () => {
    expect(
      localTitle(
        "Note from sales: Marco at Lindqvist Dental is tired of re-entering the same check-up appointment " +
          "for every patient twice a year. He wants a 'repeat every six months' option.",
      ),
    ).toBe("A 'repeat every six months' option");
    expect(localTitle("Spoke to the Brightwater team. Customers would like to pay deposits by card.")).toBe(
      "Pay deposits by card",
    );
    expect(localTitle("Demo with Halcyon Foods. Needs purchase orders approved by two people")).toBe(
      "Purchase orders approved by two people",
    );
  });

  test("an ultimatum is never the title; a complaint without a wish keeps its cause", () => {
    expect(
      localTitle(
        "SECOND TIME THIS WEEK. The app erased my whole timesheet again because I had no signal. " +
          "Fix it or I'm cancelling.",
      ),
    ).toBe("The app erased my whole timesheet again because I had no signal");
    expect(
      localTitle(
        "The sync dropped all my notes when the wifi cut out. Please fix this or I will cancel my subscription.",
      ),
    ).toBe("The sync dropped all my notes when the wifi cut out");
    expect(localTitle("Add offline saving or we're switching to another app.")).toBe("Add offline saving");
  });

  test("the explanation of a problem never beats the wish next to it", () => {
    expect(
      localTitle(
        "Dear support,\n\nwe were hoping the receipts could list sales tax separately for every subscription " +
          "charge. At the moment they only show the total, which is a problem for our state tax return.\n\n" +
          "Best regards,\nTomasz",
      ),
    ).toBe("Let the receipts list sales tax separately for every subscription charge");
    expect(
      localTitle(
        "We have 40 clinics and would like appointment reminders by SMS. " +
          "Right now patients only get an email and half of them never read it.",
      ),
    ).toBe("Appointment reminders by SMS");
  });

  test("a refund or another support demand joined with a wish gives the wish", () => {
    expect(
      localTitle(
        "You billed me twice for June!! I want my money back AND I want to be able to download " +
          "my past receipts from the dashboard.",
      ),
    ).toBe("Download my past receipts from the dashboard");
    expect(localTitle("I want a refund. I also want to see my payment history in the app.")).toBe(
      "See my payment history in the app",
    );
  });

  test("a bracketed aside is dropped rather than cut open", () => {
    expect(
      localTitle(
        "For the climbing gym app, members want to book a specific lane on the auto-belay wall (the regulars " +
          "all have a favourite one and get grumpy otherwise) when they reserve a session.",
      ),
    ).toBe("Book a specific lane on the auto-belay wall when they reserve a session");
    expect(
      localTitle(
        "For pottery classes students want to pick a specific wheel (they have favourites)… and see who else booked.",
      ),
    ).toBe("Pick a specific wheel");
    expect(localTitle("Please add export to spreadsheets (CSV or Excel).")).toBe(
      "Add export to spreadsheets (CSV or Excel)",
    );
  });
});

describe("a letter's closing courtesies are never the request", () => {
  test("'reach out', 'feel free', 'let me know' give way to what the letter asks", () => {
    expect(
      localTitle(
        "Hello, our dispatchers would like to print the day's route sheet for each driver. " +
          "Please reach out to me if anything is unclear.",
      ),
    ).toBe("Print the day's route sheet for each driver");
    expect(
      localTitle("Feel free to reach out to me. Could the calendar show public holidays for each country?"),
    ).toBe("Let the calendar show public holidays for each country");
    expect(
      localTitle("Let me know if you need more details. A bulk delete for old tickets would help."),
    ).toBe("A bulk delete for old tickets");
  });
});

describe("a plain 'so' is no reason, and greetings in other languages are greetings", () => {
  test("'not so fluent', 'a contractor so I move' are not cut as 'so that'", () => {
    const contractor = localTitle(
      "Some background: I'm a contractor so I move between three offices every week. " +
        "Could the home screen show the last meeting's minutes at the top?",
    );
    expect(contractor).toContain("minutes");
    expect(contractor).not.toContain("contractor");
    const polish = localTitle(
      "Guten Morgen, our drivers are not so fluent in english. Is it planned to have the app in Polish?",
    );
    expect(polish).toContain("Polish");
    expect(polish).not.toContain("Guten");
    // A reason after a comma still goes to the description.
    expect(localTitle("Please add CSV export, so our accountant can import it.")).toBe("Add CSV export");
  });
});

describe("a title reads as the request itself, not as who asks or how politely", () => {
  test("a request's frame goes: 'Would be great to have', 'Any chance you could', 'We'd really like to', 'can u'", () => {
    expect(localTitle("Would be great to have tide times on the launch screen.")).toBe(
      "Tide times on the launch screen",
    );
    expect(localTitle("Any chance you could show the pitch number on the booking receipt?")).toBe(
      "Show the pitch number on the booking receipt",
    );
    expect(localTitle("we'd really like to be able to tag photos by species")).toBe("Tag photos by species");
    expect(localTitle("pls can u make the kiosk print a queue ticket")).toBe(
      "Make the kiosk print a queue ticket",
    );
  });

  test("who asks whether they can do a thing asks to do it: 'Owners ask if they can see…'", () => {
    expect(
      localTitle(
        "Pet owners keep asking if they can see their dog's vaccination record in the app. Could the clinic " +
          "share it with them?",
      ),
    ).toBe("See their dog's vaccination record in the app");
    expect(localTitle("Owners ask if they can see their pet's weight history in the app.")).toBe(
      "See their pet's weight history in the app",
    );
  });

  test("'is there a way for someone to' keeps who should be able to", () => {
    expect(localTitle("Is there a way for owners to approve a booking from the email?")).toBe(
      "Let owners approve a booking from the email",
    );
  });

  test("a party that wants or needs a thing is not the title: a role, a name, a setting before it", () => {
    expect(localTitle("Per our call, Halden Marinas needs berth invoices split by season.")).toBe(
      "Berth invoices split by season",
    );
    expect(localTitle("At our bakery the staff want to see tomorrow's orders on the tablet.")).toBe(
      "See tomorrow's orders on the tablet",
    );
    expect(localTitle("Client says they need to export timesheets per project.")).toBe(
      "Export timesheets per project",
    );
    // A thing that needs something is the request's subject, not a party.
    expect(localTitle("The export needs a total row at the bottom.")).toBe(
      "The export needs a total row at the bottom",
    );
  });

  test("one list of what who wants it says: 'wanted' and 'wants to know' read the same with or without a party", () => {
    expect(localTitle("Customer wants to know if we can export invoices to Xero.")).toBe(
      "Export invoices to Xero",
    );
    expect(localTitle("Wanted a weekly summary by email.")).toBe("A weekly summary by email");
  });

  test("'what we really need is to …' leaves the verb", () => {
    expect(localTitle("What we really need is to merge duplicate patients.")).toBe(
      "Merge duplicate patients",
    );
  });
});

describe("the ask wins over replies, survey questions, complaints and roadmap talk around it", () => {
  test("a quoted earlier message gives way to what the writer asks now", () => {
    expect(
      localTitle(
        "Thanks Omar.\n\nOn Mon, 3 Nov, Omar (Support) wrote:\n> Would re-sending each one by hand work for " +
          "now?\n\nWhat we really need is to resend all failed payslips at once.",
      ),
    ).toBe("Resend all failed payslips at once");
  });

  test("a question answered after a dash is the answer's scene", () => {
    expect(
      localTitle("What is the one thing we should build next? — Shared shopping lists with my flatmates."),
    ).toBe("Shared shopping lists with my flatmates");
    expect(
      localTitle("How could we make booking easier? — If I could book the same court every Tuesday."),
    ).toBe("Book the same court every Tuesday");
  });

  test("asking for the roadmap or an escalation names nothing", () => {
    expect(
      localTitle("Harbour Dental needs recall letters sent by SMS. Can we get this on the roadmap asap?"),
    ).toBe("Recall letters sent by SMS");
  });

  test("'we'd appreciate', 'why can't I', 'how do I', 'is possible to' are frames too", () => {
    expect(localTitle("We would really appreciate a weekly digest of overdue loans.")).toBe(
      "A weekly digest of overdue loans",
    );
    expect(localTitle("Why can't I duplicate a quote?")).toBe("Duplicate a quote");
    expect(localTitle("How do I hide sold items from the shop page?")).toBe(
      "Hide sold items from the shop page",
    );
    expect(localTitle("Is posible to make the receipt in Portuguese?")).toBe(
      "Make the receipt in Portuguese",
    );
  });

  test("people someone wants to be able to do something become 'Let …'", () => {
    expect(localTitle("They'd like visitors to pay for parking at the gate.")).toBe(
      "Let visitors pay for parking at the gate",
    );
    expect(localTitle("Coach asked if players could swap shifts between themselves.")).toBe(
      "Let players swap shifts between themselves",
    );
    expect(localTitle("Several schools asked to book the hall for a whole term.")).toBe(
      "Book the hall for a whole term",
    );
  });

  test("a title ends on its words: no 'please', emoji or a 'would be' left open", () => {
    expect(localTitle("add a dark mode to the reader please 🙏")).toBe("Add a dark mode to the reader");
    expect(localTitle("Live seat counts would be 🔥")).toBe("Live seat counts");
  });

  test("a complaint gives way to the order next to it", () => {
    expect(
      localTitle(
        "Every time a guest checks out we copy the minibar charges onto the bill by hand. " +
          "Put the minibar charges on the bill automatically.",
      ),
    ).toBe("Put the minibar charges on the bill automatically");
    // Someone who misses the recipe is no request: the wish after it is.
    expect(
      localTitle(
        "I plate the dishes and the waiters miss the allergy notes on the printout. " +
          "Would be great to have allergies printed in bold.",
      ),
    ).toBe("Allergies printed in bold");
  });
});

describe("an ask split over sentences or clauses keeps its object", () => {
  test("'them' in the ask names the plural the sentence before ends on", () => {
    expect(localTitle("We run four food trucks. It would help to see them on one sales report.")).toBe(
      "See four food trucks on one sales report",
    );
  });

  test("'them' or 'it' names what the writer has, of the same number, not the last noun", () => {
    expect(
      localTitle("We have 30 greenhouses with their own sensors. Can we compare them on one screen?"),
    ).toBe("Compare 30 greenhouses on one screen");
    expect(localTitle("We keep a list of trusted suppliers in Excel. Could we import it into the app?")).toBe(
      "Import the list of trusted suppliers into the app",
    );
    expect(localTitle("We have three padel courts. Can members book them by the hour?")).toBe(
      "Let members book three padel courts by the hour",
    );
  });

  test("'this', 'it' or 'what they want' pointing at a situation gives the sentence that tells it", () => {
    expect(
      localTitle(
        "Each term our tutors copy the same reading list into every class. Can you make this quicker?",
      ),
    ).toBe("Our tutors copy the same reading list into every class");
    expect(
      localTitle(
        "Our invoices print every add-on as its own line. Guests should be able to pick what they want at checkout.",
      ),
    ).toBe("Our invoices print every add-on as its own line");
  });

  test("an aside between commas goes before the object is cut away", () => {
    expect(
      localTitle(
        "It would be a huge help to be able to print, for every class and every term, the full register " +
          "with the parents' phone numbers",
      ),
    ).toBe("Print the full register with the parents' phone numbers");
  });

  test("a cut never ends on a word that leaves the object unsaid", () => {
    const title = localTitle(
      "Add a button on the member profile page that exports all past visits of a member into the accounting " +
        "spreadsheet",
    );
    expect(title.length).toBeLessThanOrEqual(80);
    expect(title).toBe("Add a button on the member profile page that exports all past visits…");
  });
});

describe("a teammate restating a customer's ask", () => {
  test("the answer to 'what do they want?' is the ask", () => {
    expect(
      localTitle(
        "Mo: the florist keeps losing wedding orders\nLi: what do they want exactly?\nMo: a deposit taken when the order is placed",
      ),
    ).toBe("A deposit taken when the order is placed");
  });

  test("'asked the same thing —' leads to the ask", () => {
    expect(
      localTitle(
        "FYI four of our bakeries asked the same thing this month — a daily order cut-off per shop.",
      ),
    ).toBe("A daily order cut-off per shop");
  });
});

describe("asks in reviews, sales notes and one-liners, in other words", () => {
  test("'where is the option to', 'ability to', 'tl;dr', 'plz', a rating at the end", () => {
    expect(localTitle("Nice design, fast. But where is the option to export my data? I want a backup.")).toBe(
      "Export my data",
    );
    expect(
      localTitle(
        "Forwarded — Summary: Customer requests ability to set different tax rates per product category.",
      ),
    ).toBe("Set different tax rates per product category");
    expect(localTitle("tl;dr the customer wants bulk edit for prices")).toBe("Bulk edit for prices");
    expect(localTitle("plz add spanish")).toBe("Add spanish");
    expect(localTitle("pdf invoices would be cool")).toBe("Pdf invoices");
  });

  test("'they're asking for' asks; what happens without it only says how much it matters", () => {
    expect(
      localTitle(
        "Acme Corp ($40k ARR, renewal in March) — they're asking for audit trail on permission changes. Without it, security won't sign off.",
      ),
    ).toBe("Audit trail on permission changes");
  });

  test("what a party wants a thing to do reads 'Let the thing …'", () => {
    expect(
      localTitle(
        "Restating what Priya said on the call: Lakeside wants the kiosk to print a name badge at check-in.",
      ),
    ).toBe("Let the kiosk print a name badge at check-in");
  });

  test("'would love it if they could', 'what I'd really like is', 'the feature I'm missing most is', '5/5 with'", () => {
    expect(localTitle("Our clients would love it if they could see the delivery status themselves.")).toBe(
      "See the delivery status themselves",
    );
    expect(localTitle("What I'd really like is for the app to remember my last shipping method.")).toBe(
      "Remember my last shipping method",
    );
    expect(localTitle("The feature I'm missing most is tagging. Everything else works.")).toBe("Tagging");
    expect(localTitle("4/5 - would be 5/5 with Apple Watch support")).toBe("Apple Watch support");
    expect(localTitle("Would be great if we can export the orders to Excel.")).toBe(
      "Export the orders to Excel",
    );
  });

  test("'she's asking (again) whether' is a party's ask", () => {
    expect(
      localTitle(
        "ok so Jen from Coastal Dental called again, she's asking (again) whether patients can fill the medical history form at home",
      ),
    ).toBe("Let patients fill the medical history form at home");
  });

  test("'If you had X, I'd …' asks for X", () => {
    expect(localTitle("If you guys had a Xero integration I'd buy the team plan tomorrow.")).toBe(
      "A Xero integration",
    );
  });
});

describe("non-native English and terse asks", () => {
  test("'is possible that', 'for us is very important the possibility to', a question with no subject", () => {
    expect(localTitle("Hello, is possible that the receipt shows our VAT number at the top? Thanks")).toBe(
      "The receipt shows our VAT number at the top",
    );
    expect(localTitle("For us is very important the possibility to print the menus in Greek.")).toBe(
      "Print the menus in Greek",
    );
    expect(localTitle("Can be in portuguese language? Our drivers not read english.")).toBe(
      "In portuguese language",
    );
    expect(localTitle("would be sick if they could upload photos when they book")).toBe(
      "Upload photos when they book",
    );
  });

  test("'we need that the …', 'is there possibility to', 'why not possible to', 'it's possible', 'make possible to'", () => {
    expect(localTitle("We need that the system sends the invoice to the client after the payment.")).toBe(
      "The system sends the invoice to the client after the payment",
    );
    expect(localTitle("Is there possibility to block some days in the calendar for holidays?")).toBe(
      "Block some days in the calendar for holidays",
    );
    expect(localTitle("Why not possible to change the language of the emails?")).toBe(
      "Change the language of the emails",
    );
    expect(localTitle("It's possible add more users to the free plan?")).toBe(
      "Add more users to the free plan",
    );
    expect(localTitle("Please can you make possible to upload PDF in the chat.")).toBe(
      "Upload PDF in the chat",
    );
    expect(localTitle("It's slow when I open the calendar.")).toBe("It's slow when I open the calendar");
  });

  test("'there's no way to', a long 'the only reason … is that', a terse 'X when?'", () => {
    expect(localTitle("Dislikes: there is no way to lock a timesheet after approval.")).toBe(
      "Lock a timesheet after approval",
    );
    expect(
      localTitle(
        "The only reason we haven't moved the other two warehouses over is that pallets can't be split between bins.",
      ),
    ).toBe("Pallets can't be split between bins");
    expect(localTitle("SAML when??")).toBe("SAML");
  });
});

describe("reviews, support tickets and sales notes", () => {
  test("what a review lists under 'Pros', 'Likes' or 'What do you like best?' is praise", () => {
    expect(
      localTitle(
        "Pros:\n- quick to set up\n- friendly support\nCons:\n- no Sage export for the payroll\n- slow on old phones",
      ),
    ).toBe("No Sage export for the payroll");
    expect(
      localTitle(
        "What do you like best? The timetable view is clear and the staff learned it fast.\n" +
          "What do you dislike? Parents cannot pay term fees in two parts.",
      ),
    ).toBe("Parents cannot pay term fees in two parts");
  });

  test("an agent's summary line is the ticket's ask; what the agent replied is the scene", () => {
    expect(
      localTitle(
        "Summary: member asks if a gym pass can be paused while travelling. Agent replied that's not currently possible.",
      ),
    ).toBe("Pause a gym pass while travelling");
  });

  test("a summary line: who reports goes, and so does asking whether it is planned", () => {
    expect(localTitle("Summary: Client reports the weekly report email arrives empty on Mondays.")).toBe(
      "The weekly report email arrives empty on Mondays",
    );
    expect(
      localTitle("Summary: customer unable to merge two duplicate contacts; asked if this is planned."),
    ).toBe("Unable to merge two duplicate contacts");
  });

  test("a review's 'Wish it had', 'the lack of', 'It would be nice the …'", () => {
    expect(localTitle("★★★☆☆ Solid note app. Syncs fine. Wish it had folders inside folders.")).toBe(
      "Folders inside folders",
    );
    expect(localTitle("The only thing stopping us from going annual is the lack of a proper API.")).toBe(
      "A proper API",
    );
    expect(localTitle("It would be nice the app send notification when the order is ready.")).toBe(
      "The app send notification when the order is ready",
    );
  });

  test("a 'key blocker' or a 'main objection' in a sales note is the ask", () => {
    expect(
      localTitle(
        "Call recap – Oakridge Vineyards, potential 2-year deal, ~$12k. They run 3 estates. Key blocker: harvest logs per block with the picker's name.",
      ),
    ).toBe("Harvest logs per block with the picker's name");
  });
});

describe("a question or a passive wish reads as what to do", () => {
  test("a question about what something could do", () => {
    expect(localTitle("Hello, we grow apples on 5 orchards. Could the map show every orchard at once?")).toBe(
      "Let the map show every orchard at once",
    );
    expect(localTitle("Could drivers see tomorrow's route the evening before?")).toBe(
      "Let drivers see tomorrow's route the evening before",
    );
    expect(localTitle("Can it remember the last warehouse I picked?")).toBe(
      "Remember the last warehouse I picked",
    );
    expect(localTitle("Are there any plans to support Apple Wallet passes?")).toBe(
      "Support Apple Wallet passes",
    );
    expect(localTitle("Is there an export of all bookings for the accountant?")).toBe(
      "Export of all bookings for the accountant",
    );
  });

  test("what a thing 'can' do, said as a statement, is asked as the question is; not when it complains", () => {
    expect(
      localTitle(
        "We have 14 vans and 30 drivers. The dispatch screen can show which van each driver has today.",
      ),
    ).toBe("Let the dispatch screen show which van each driver has today");
    expect(localTitle("The report could include refunds.")).toBe("Let the report include refunds");
    expect(localTitle("The app can show the total but not per item.")).toBe(
      "The app can show the total but not per item",
    );
  });

  test("a question's verb from the one verb list, or any verb after 'the …' or people's role", () => {
    expect(localTitle("Can members choose their own locker when they sign up?")).toBe(
      "Let members choose their own locker when they sign up",
    );
    expect(localTitle("Could the scale beep when the dough reaches its weight?")).toBe(
      "Let the scale beep when the dough reaches its weight",
    );
    expect(localTitle("Can customers reschedule their own appointments?")).toBe(
      "Let customers reschedule their own appointments",
    );
    expect(localTitle("Could you guys translate the booking page into Dutch?")).toBe(
      "Translate the booking page into Dutch",
    );
    expect(localTitle("Would the label printer trim the tape after each parcel?")).toBe(
      "Let the label printer trim the tape after each parcel",
    );
  });

  test("a passive wish names the doing first, whatever the participle", () => {
    expect(localTitle("would be nice if quotes could be sent by WhatsApp")).toBe("Send quotes by WhatsApp");
    expect(localTitle("Ideally old tickets would be archived after 90 days.")).toBe(
      "Archive old tickets after 90 days",
    );
    expect(localTitle("Could the receipts be copied to our shared drive?")).toBe(
      "Copy the receipts to our shared drive",
    );
    expect(localTitle("Orders should be scanned at the door.")).toBe("Scan orders at the door");
    expect(localTitle("Members are always asking if the timetable could be printed.")).toBe(
      "Print the timetable",
    );
    // What "will" be done is news, not a wish.
    expect(localTitle("Old reports will be deleted after 30 days.")).toBe(
      "Old reports will be deleted after 30 days",
    );
  });

  test("'how about', 'any way to', 'is it possible for X to' and a 'Missing:' label are frames", () => {
    expect(localTitle("How about showing the remaining seats on each bus?")).toBe(
      "Show the remaining seats on each bus",
    );
    expect(localTitle("What about sharing the playlist with the whole class?")).toBe(
      "Share the playlist with the whole class",
    );
    expect(localTitle("Missing: a notes field on the delivery")).toBe("A notes field on the delivery");
    expect(
      localTitle("The gym has 6 squash courts. Any way to show them as booked or free on the screen?"),
    ).toBe("Show 6 squash courts as booked or free on the screen");
    expect(localTitle("Is it possible for reviews to be approved by a manager before they go live?")).toBe(
      "Approve reviews by a manager before they go live",
    );
  });

  test("a passive wish asks more than what a party is said to want", () => {
    expect(
      localTitle(
        "The waitlist is first come first served but families want slots together. " +
          "Families should be kept together on the waitlist.",
      ),
    ).toBe("Keep families together on the waitlist");
  });

  test("'dietary needs' is a thing, not a need: the wish after it is the request", () => {
    expect(
      localTitle(
        "Parents fill in dietary needs on paper at the gate. Ideally, dietary needs would be entered in the app when booking.",
      ),
    ).toBe("Enter dietary needs in the app when booking");
  });
});

describe("a list is titled by its first item", () => {
  test("whatever the words of the items after it, numbered or not", () => {
    expect(
      localTitle(
        "Wishlist from the front desk:\n1. loyalty points on the guest profile\n2. a way to text all guests\n3. bigger fonts",
      ),
    ).toBe("Loyalty points on the guest profile");
    expect(
      localTitle(
        "Ideas from the volunteers:\n- shared rota for the weekend\n- please add shift swapping\n- a newsletter",
      ),
    ).toBe("Shared rota for the weekend");
  });
});

describe("a sentence that asks wins over one that only complains or bargains", () => {
  test("someone asking whether they can do a thing asks for it, over how they manage today", () => {
    expect(
      localTitle(
        "Our head chef keeps asking whether he can print the weekly staff rota on a single page. Right now " +
          "he redraws it by hand, which takes him most of a Monday.",
      ),
    ).toBe("Print the weekly staff rota on a single page");
    expect(
      localTitle(
        "Hi, our driver asked whether he can mark a parcel as damaged from the scan screen. Right now he " +
          "phones the office every time.",
      ),
    ).toBe("Mark a parcel as damaged from the scan screen");
  });

  test("'One thing:' only introduces a complaint: the wish after it is the request", () => {
    expect(
      localTitle(
        "Love the product. One thing: when I'm on the train there's no signal and I can't open my tasks. " +
          "Offline access would be huge for us.",
      ),
    ).toBe("Offline access would be huge for us");
  });

  test("a complaint gives way to a question anywhere in the message", () => {
    expect(
      localTitle(
        "The export can't be filtered by date. Our auditors complain every quarter. " +
          "Could exports be limited to one financial year?",
      ),
    ).toBe("Limit exports to one financial year");
  });

  test("an order said with please wins over a need stated with a complaint", () => {
    expect(
      localTitle(
        "Event bookings need the number of children, but the form only asks for adults. " +
          "Please add a children field to event bookings.",
      ),
    ).toBe("Add a children field to event bookings");
  });

  test("whoever keeps asking is a party, not the title", () => {
    expect(
      localTitle("Our choir leaders keep asking whether rehearsal notes can be pinned to the top."),
    ).toBe("Pin rehearsal notes to the top");
  });

  test("a better rating promised for the request is no part of it", () => {
    expect(
      localTitle(
        "2 stars. Reports load slowly on big accounts. Add a cached summary and I will happily update my review.",
      ),
    ).toBe("Add a cached summary");
  });
});

describe("POST /posts/from-text creates the post under the request's title", () => {
  const t = createAiTestApp();
  afterAll(() => t.close());

  test("a sales rep's forwarded note becomes a post titled by what the customer asks", async () => {
    const { secretKey } = createProject(t.ctx.db, { slug: "from-text-titles-http", plan: "growth" });
    const response = await t.call("POST", "/api/v1/posts/from-text", {
      key: secretKey,
      body: {
        text:
          "@product per our call, Halden Marinas needs berth invoices split by season. " +
          "Can we get this on the roadmap? They renew in May 🙏",
      },
    });
    expect(response.status).toBe(201);
    expect(response.body.data.action).toBe("created");
    expect(response.body.data.post.title).toBe("Berth invoices split by season");
  });
});
