import { afterAll, describe, expect, test } from "bun:test";
import { createProject } from "../../src/projects/service";
import { expectApiError } from "../support/app";
import { createAiTestApp } from "./support";

/**
 * How from-text reads pasted customer feedback (docs/ai.md, "Extraction"): the greeting, the sign-off,
 * mentions and HTML are set aside, and the title is the request. Each text goes to a fresh project, so
 * none is matched to another's post.
 */
const t = createAiTestApp();
afterAll(() => t.close());

let projects = 0;
const freshKey = () => createProject(t.ctx.db, { slug: `reading-${++projects}`, plan: "growth" }).secretKey;

async function extract(text: string): Promise<{ title: string; description: string | null }> {
  const response = await t.call("POST", "/api/v1/posts/from-text", { key: freshKey(), body: { text } });
  expect(response.status).toBe(201);
  expect(response.body.data.action).toBe("created");
  return response.body.data.post;
}

describe("the greeting is the greeting word and a short address, never the request", () => {
  test("a greeting word followed by the question keeps the question", async () => {
    const proposal = await extract(
      "hey is there a way to send my client a price proposal first and then have it become the real invoice " +
        "when they say yes? I do kitchen remodels and always quote first",
    );
    expect(proposal.title).toMatch(/price proposal/i);
    expect(proposal.title).not.toMatch(/kitchen remodels/i);
    expect(proposal.description).toMatch(/^Is there a way to send my client/);

    const footer = await extract(
      "hey can we get a setting to hide the 'Powered by Billfold' footer on invoices? looks unprofessional to our clients",
    );
    expect(footer.title).toMatch(/hide the 'Powered by Billfold' footer/i);

    const attach = await extract(
      "Hi there is no way to attach a file to an invoice. We need to attach signed contracts.",
    );
    expect(attach.title).toMatch(/attach a file to an invoice/i);

    const vat = await extract(
      "Hello can you show the client's VAT number on the invoice PDF? Our German clients need it for their books.",
    );
    expect(vat.title).toMatch(/VAT number on the invoice PDF/);
  });

  test("a greeting with its address goes whole, in several languages", async () => {
    const cases: [string, RegExp, RegExp][] = [
      [
        "Hey folks - we invoice in three currencies and need the totals report split by currency.",
        /totals report split by currency/i,
        /folks/i,
      ],
      [
        "Good morning all!\nCould we set payment terms per client instead of one default for everyone?",
        /payment terms per client/i,
        /morning|all!/i,
      ],
      [
        "Hallo Billfold-Team,\nplease add SEPA direct debit as a payment method.",
        /^Add SEPA direct debit/,
        /team/i,
      ],
      [
        "Greetings from Lisbon! We need invoices in Portuguese for our local clients.",
        /invoices in Portuguese/i,
        /Lisbon/,
      ],
      ["Yo! can we get a dark invoice template for our design studio", /dark invoice template/i, /^Yo/],
      ["Hola equipo,\nWe need to show prices with IVA included.", /prices with IVA included/i, /equipo/],
    ];
    for (const [text, wanted, dropped] of cases) {
      const { title } = await extract(text);
      expect({ text, title, wanted: wanted.test(title), dropped: dropped.test(title) }).toEqual({
        text,
        title,
        wanted: true,
        dropped: false,
      });
    }
  });
});

describe("a sign-off is a short closing line followed only by a signature", () => {
  test("a paragraph that starts with 'Thanks' or 'Best' is not cut", async () => {
    const archive = await extract(
      "Please let us archive old clients.\n\nThanks to the 400 inactive clients in our list, the dropdown is " +
        "unusable when I create an invoice.\n\nThanks,\nDana",
    );
    expect(archive.title).toBe("Archive old clients");
    expect(archive.description).toContain("Thanks to the 400 inactive clients in our list");
    expect(archive.description).not.toMatch(/Dana/);

    const portal = await extract(
      "We need a client portal where clients see all their past invoices.\n\nBest practice in our industry is " +
        "to let clients download receipts themselves, so this matters a lot to us.\n\nCheers, Ann",
    );
    expect(portal.description).toContain("Best practice in our industry");
    expect(portal.description).not.toMatch(/Cheers|Ann$/);
  });

  test("the signature block under a sign-off goes with it", async () => {
    const qr = await extract(
      "Can invoices show the payment link as a QR code? Half our clients pay from their phones.\n\n" +
        "Best regards,\nPriya Natarajan\nOffice Manager | Natarajan Dental\n+44 20 7946 0000",
    );
    expect(qr.title).toMatch(/payment link as a QR code/i);
    expect(qr.description).toContain("Half our clients pay from their phones.");
    expect(qr.description).not.toMatch(/Priya|Office Manager|\+44/);

    const mobile = await extract(
      "Please let me mark an invoice as paid from my phone when a client hands me cash.\n\nSent from my iPhone",
    );
    expect(mobile.description ?? mobile.title).not.toMatch(/iPhone/);
  });
});

describe("the title is the request, short, from any paste", () => {
  test("an HTML paste becomes its text before anything else", async () => {
    const timesheets = await extract(
      '<div dir="ltr"><p>Hello Billfold,</p><p>We would love to <b>attach timesheet PDFs</b> to invoices ' +
        "&amp; quotes, so clients see the hours.</p><p>Best,<br>Tom</p></div>",
    );
    expect(timesheets.title).toBe("Attach timesheet PDFs to invoices & quotes");
    expect(timesheets.description).not.toMatch(/[<>]|&amp;|Hello Billfold|Tom/);

    const markPaid = await extract(
      "<p>Hi team,</p><p>Could we get a <i>&quot;Mark as paid&quot;</i> button on the invoice list?</p>" +
        "<p>Right now it takes four clicks per invoice.</p><p>Thanks!<br/>Jo</p>",
    );
    expect(markPaid.title).toBe('A "Mark as paid" button on the invoice list');
    expect(markPaid.description).toContain("\n");
  });

  test("sentences are not broken inside amounts, versions or abbreviations", async () => {
    const approval = await extract("Any invoice over $2.5k should need a second approval from the owner.");
    expect(approval.title).toBe("Any invoice over $2.5k should need a second approval from the owner");
    const deposit = await extract(
      "Since v3.2 we bill about 40 clients a month. Please add partial payments, e.g. a 50% deposit up front.",
    );
    expect(deposit.title).toBe("Add partial payments, e.g. a 50% deposit up front");
  });

  test("mentions, channels and heads-up prefixes are not the request", async () => {
    const whatsapp = await extract(
      "@channel heads up from CS: customer asks if invoices can be sent by WhatsApp",
    );
    expect(whatsapp.title).toBe("Send invoices by WhatsApp");
    const partners = await extract(
      "From our call with Harbor Dental (12 seats): they need every invoice approved by two partners before it goes out.",
    );
    expect(partners.title).toBe("Every invoice approved by two partners before it goes out");
    const weekends = await extract("#billing @marta: a customer wants recurring invoices to skip weekends");
    expect(weekends.title).toMatch(/^Recurring invoices to skip weekends$/);
  });

  test("praise and a tweet's opener are passed over for the sentence that asks", async () => {
    const dueDate = await extract(
      "Been using Billfold for 6 months... love how simple it is. It would be great if I could set a default " +
        "due date of 14 days.",
    );
    expect(dueDate.title).toBe("Set a default due date of 14 days");
    const duplicate = await extract(
      "@billfoldapp seriously. why can't I duplicate an invoice?? every month I retype the same 12 line items",
    );
    expect(duplicate.title).toMatch(/duplicate an invoice/i);
    const filter = await extract(
      "Big fan of the new dashboard! Would love to filter invoices by client tag.",
    );
    expect(filter.title).toBe("Filter invoices by client tag");
    const bcc = await extract(
      "Thanks for the quick fix yesterday, could you also add a BCC field to invoice emails?",
    );
    expect(bcc.title).toBe("Add a BCC field to invoice emails");
  });

  test("a long request is cut to its clause, at most 80 characters", async () => {
    const proposal = await extract(
      "is there a way to send my client a price proposal first and then have it become the real invoice " +
        "when they say yes",
    );
    expect(proposal.title.length).toBeLessThanOrEqual(80);
    expect(proposal.title).toBe(
      "Send my client a price proposal first and then have it become the real invoice",
    );
    const reminders = await extract(
      "We need automatic payment reminders that go out three days before the due date and again every week " +
        "after it until the client pays.",
    );
    expect(reminders.title.length).toBeLessThanOrEqual(80);
    expect(reminders.title).toMatch(/^Automatic payment reminders/);
  });
});

describe("text that makes no request", () => {
  test("punctuation, emoji or a lone greeting → 400 VALIDATION_ERROR naming text, and nothing is created", async () => {
    const key = freshKey();
    for (const text of [
      "...",
      "Hi",
      "🔥🔥🔥🙏💸",
      "Hello team!",
      "hey :)",
      "  👍 !!  ",
      "<p>Hi,</p><p>&nbsp;</p>",
    ]) {
      const error = expectApiError(
        await t.call("POST", "/api/v1/posts/from-text", { key, body: { text } }),
        400,
        "VALIDATION_ERROR",
      );
      expect(error.message).toContain("'text'");
      expect(error.message).toContain("has no words to make a request of");
    }
    const posts = await t.call("GET", "/api/v1/posts?limit=10", { key });
    expect(posts.body.data).toHaveLength(0);
  });
});
