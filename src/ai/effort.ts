/**
 * How big a feature request looks from its own words, as a product manager would read it: a small change
 * (a wording change, a toggle, a default, a sort order, a column…), a larger build (an integration with
 * another product, offline use, a native app, roles, SSO, payments…), or a size the text leaves unclear.
 * Pure: the sprint plan (src/ai/service.ts) ranks quick wins by it and writes its reasons from it
 * (docs/ai.md, "Endpoints").
 */

/** What the size of a request is judged from: its own words. */
export interface SizedRequest {
  title: string;
  description: string | null;
}

/**
 * A request's size as its text shows it: a small change, a larger build, or unknown (a one-line request, or
 * a longer one whose size the text leaves unclear).
 */
export type EffortKind = "small" | "one-line" | "unclear" | "large";

export interface Effort {
  kind: EffortKind;
  /** Ranks quick wins: 1 for a small change, 2 for an unknown size, 4 for a larger build. */
  units: number;
  /** Why, naming the signal it read: `likely a small change ("rename"): a wording change`. */
  words: string;
}

/**
 * One kind of work a product manager recognises, and the words that show it. A sign that is a bare noun
 * ("a label", "the default", "a column") is read in the title only, where it is the request; a description
 * mentions a setting or a button in passing ("there is a setting for the default currency"). A sign that
 * is an action on an object ("rename", "turn off", "sort by", "sync with") is read in both.
 */
export interface EffortSign {
  /** What the work is, as the reason names it: "a wording change". */
  concept: string;
  pattern: RegExp;
  inDescription: boolean;
  /**
   * The phrasing of a wish rather than the work ("Option to …"): a new capability named after it is the
   * work ("Option to connect a card reader" is a device, not a setting).
   */
  weak?: boolean;
}

/** Other products whose name in a request means connecting to them: an integration (or a move from them). */
export const OTHER_PRODUCTS: readonly string[] = [
  "QuickBooks",
  "Xero",
  "Sage",
  "FreshBooks",
  "Salesforce",
  "HubSpot",
  "Pipedrive",
  "Zapier",
  "Make.com",
  "IFTTT",
  "Google Calendar",
  "Google Sheets",
  "Google Drive",
  "Outlook",
  "Office 365",
  "Microsoft Teams",
  "Slack",
  "Discord",
  "Mailchimp",
  "Klaviyo",
  "Shopify",
  "WooCommerce",
  "Trello",
  "Jira",
  "Asana",
  "Notion",
  "Airtable",
  "Zoom",
  "Dropbox",
  "OneDrive",
  "Zendesk",
  "Intercom",
  "GitHub",
  "GitLab",
  "DocuSign",
  "Twilio",
  "WhatsApp",
  "UPS",
  "FedEx",
  "DHL",
  "USPS",
  "Amazon",
  "eBay",
  "Etsy",
  "Google Classroom",
  "Canvas",
  "Moodle",
  "Booking.com",
  "Expedia",
  "Airbnb",
];

/** Product names that are also common words count only when written with their capital: "pinch and zoom". */
const COMMON_WORDS = new Set(["zoom", "sage", "notion", "slack", "canvas", "teams", "make.com"]);

const escaped = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+");
const PRODUCT_PATTERN = new RegExp(`\\b(${OTHER_PRODUCTS.map(escaped).join("|")})\\b`, "gi");

const title = (concept: string, pattern: RegExp): EffortSign => ({ concept, pattern, inDescription: false });
const anywhere = (concept: string, pattern: RegExp): EffortSign => ({
  concept,
  pattern,
  inDescription: true,
});

const INTEGRATION = "a new integration";
const MIGRATION = "an import from another system";

/**
 * Pieces of work that are never small, in the order their names are preferred when a text shows several.
 * "export", "dashboard" and "workflow" are no signs: "a column on the invoice export" is small and "the
 * dashboard is slow" names a page, not the work. Nouns said in passing ("after our import last year",
 * "I approve them weekly") count in the title only.
 */
export const LARGE_SIGNS: readonly EffortSign[] = [
  anywhere(
    "single sign-on",
    /\b(((log|sign)\s*-?\s*in)\s+with\s+(\S+\s+){0,2}(google|microsoft|facebook|apple|github|linkedin)|(google|microsoft|facebook|apple|github|linkedin|social)\s+(log\s*-?\s*in|sign[\s-]?in)|sso|saml|oidc|openid|single[\s-]sign[\s-]?on|okta|azure\s+ad|entra\s+id|active\s+directory|ldap)\b/i,
  ),
  anywhere(
    MIGRATION,
    /\b(migrat\w*|import(s|ed|ing)?\s+(\S+\s+){0,4}from|move\s+(over\s+)?from|switch(ing)?\s+(over\s+)?from|bring\s+(\S+\s+){0,4}over|bulk\s+(upload|import))\b/i,
  ),
  title(
    MIGRATION,
    /\b(import(s|ed|ing|er)?|upload\w*\s+(\S+\s+){0,3}from\s+(a\s+)?(spreadsheet|csv|excel))\b/i,
  ),
  anywhere(
    INTEGRATION,
    /\b(integrat\w*|two[\s-]way(\s+sync\w*)?|(re)?sync(s|ed|ing|hroni[sz]\w*)?|connect(ed|ion)?\s+(to|with)|telephony|voip|dial(l)?er|log\s+(my\s+|our\s+)?(phone\s+)?calls|phone\s+calls|voice\s+(support|calls?)|carriers?|bank\s+feeds?|open\s+banking|channel\s+manager|(from|to|into|with)\s+(my|our|the|their)\s+bank\b|straight\s+(to|from|into)\s+(the|their|our)\s+(\S+\s+){0,2}(system|court|insurers?|labs?|bank|government|council|portal))\b/i,
  ),
  anywhere(
    "offline use",
    /\b(offline|no\s+(signal|reception|internet|connection)|without\s+(a\s+)?(signal|internet|connection))\b/i,
  ),
  anywhere(
    "a native app",
    /\b((mobile|native|desktop|iphone|ipad|ios|android|mac|windows)\s+(app|application|client|version)s?|app\s+for\s+(ios|android|iphone|ipad|mac|windows)|app\s+store|play\s+store|(add\w*|sav\w*|pin\w*|put)\s+(\S+\s+){0,3}to\s+(the\s+|my\s+|their\s+|your\s+)?home[\s-]screen|home[\s-]screen\s+(widgets?|icons?|shortcuts?)|push\s+notifications?|apple\s+watch|widgets?\s+for\s+(the\s+)?(iphone|ipad|android|ios))\b/i,
  ),
  anywhere(
    "real-time collaboration or messaging",
    /\b(real[\s-]?time|co-?edit\w*|collaborat\w*|live\s+(chat|editing|cursors?|updates?)|chat|messaging|message\s+(their\s+|the\s+|our\s+)?(parents|clients|customers|patients|members|students|users|guests|teachers|staff))\b/i,
  ),
  anywhere(
    "sharing between people",
    /\b(share\s+(\S+\s+){0,3}with\s+(my|our|a|another|other)\s+\w+|both\s+(\S+\s+){0,3}edit)\b/i,
  ),
  anywhere("text messages (SMS)", /\b(sms|text\s+messages?|texts\s+to)\b/i),
  anywhere(
    "automated messages",
    /\b(abandoned\s+carts?|email\s+campaigns?|drip\s+campaigns?|newsletters?|automat\w*\s+(\S+\s+){0,2}(reminders?|emails?|messages?|follow[\s-]?ups?))\b/i,
  ),
  anywhere(
    "more than one currency",
    /\b(multi[\s-]?currenc\w*|currencies|(euros?|dollars|pounds)\s+and\s+(euros?|dollars|pounds))\b/i,
  ),
  anywhere(
    "more than one language",
    /\b(multi[\s-]?lingual|multi[\s-]?language|translat\w*|locali[sz]\w*|internationali[sz]\w*|i18n|(spanish|french|german|italian|portuguese|dutch|japanese|chinese|arabic)\s+(version|translation|language))\b/i,
  ),
  anywhere(
    "separate accounts for each client or location",
    /\b(multi[\s-]?(tenant|tenancy|company|companies|location|site|store|brand|entity|account)s?|workspaces|sub[\s-]?accounts?|franchise\w*|only\s+see\s+their\s+own)\b/i,
  ),
  anywhere(
    "roles and permissions",
    /\b(permissions?|roles?|access\s+levels?|access\s+control|(should\s+not|shouldn't|must\s+not|mustn't)\s+(be\s+able\s+to\s+)?see)\b/i,
  ),
  anywhere(
    "a portal for another kind of user",
    /\b((client|customer|parent|patient|guest|student|supplier|vendor)s?\s+portal|(parents|clients|customers|patients|guests|students|suppliers|vendors|tenants|residents|volunteers|donors|landlords|owners|contractors)\s+(should\s+)?(be\s+able\s+to|can)\s+(log\s*in|sign\s*in|see|view|access|book|submit|upload|request|pay))\b/i,
  ),
  title("an approval workflow", /\b(approv(e|es|al|als|ing)|sign[\s-]off)\b/i),
  anywhere(
    "a report builder",
    /\b(custom\s+reports?|report\s+builder|reporting|build\s+(my|our|your|their)\s+own\s+reports?|custom\s+dashboards?)\b/i,
  ),
  anywhere("an API", /\b(public\s+api|api|apis|webhooks?|sdk)\b/i),
  anywhere(
    "payments or billing",
    /\b(accept\s+(\S+\s+){0,2}payments|take\s+payments|pay(ing)?\s+(\S+\s+){0,2}(online|by\s+card|with|in\s+instal\w*|later|through|via)|instal(l)?ments|card\s+payments?|credit\s+cards?|apple\s+pay|google\s+pay|stripe|paypal|klarna|afterpay|billing|subscriptions?|payouts?|recurring\s+(donations?|payments?|charges?))\b/i,
  ),
  title(
    "payments or billing",
    // "Payment terms", "payment date": a detail of an invoice, not taking payments.
    /\b(payments?(?!\s+(terms?|dates?|due|reference|status|methods?|numbers?)\b)|refunds?|donations?)\b/i,
  ),
  anywhere(
    "online booking",
    /\b(online\s+booking|book\w*\s+(\S+\s+){0,4}online|self[\s-]service\s+booking)\b/i,
  ),
  anywhere(
    "a new area of the product",
    /\b(payroll|inventory|stock\s+management|accounting|crm|marketplace|e-?commerce|point\s+of\s+sale|loyalty\s+programme?)\b/i,
  ),
  anywhere(
    "security or hosting work",
    /\b(hipaa|soc\s*2|iso\s*27001|encrypt\w*|self[\s-]hosted|on[\s-]prem\w*|data\s+residency)\b/i,
  ),
  title("security or hosting work", /\b(compliance|gdpr)\b/i),
  anywhere(
    "an AI feature",
    /\b(ai|a\.i\.|artificial\s+intelligence|machine\s+learning|gpt|chatgpt|llm|auto[\s-]?(tag|categori[sz]e|suggest)\w*|suggest\w*\s+(\w+\s+){0,3}automatically|scan(ning)?\s+(receipts?|documents?|invoices?|business\s+cards?)|(fill|read)\s+(in\s+)?(\S+\s+){0,5}automatically)\b/i,
  ),
  anywhere("search inside documents", /\b(full[\s-]text\s+search|search\s+inside|ocr)\b/i),
];

/**
 * A new capability of the product, named by the domain work it does: a calculation that follows rules, a
 * device, a forecast, a new tool… Its words also name what exists already ("Commission column on the sales
 * report", "Default printer for receipts"), so a small change the title names wins over them; they are
 * read after the title's small signs and, in a description, after the signs above.
 */
export const CAPABILITY_SIGNS: readonly EffortSign[] = [
  anywhere(
    "a calculation that follows rules",
    /\b(commissions?|prorat\w*|pro[\s-]rata|(statutory|late[\s-]payment)\s+interest|(city|tourist|sales|income|payroll|council|withholding)\s+tax(es)?|(work|works|working)\s+out\s+(the|how|what)\s+\w+|calculat\w*\s+(the|how|what)\s+\w+|\d+(\.\d+)?\s*%\s+(of|above|below)\s+(the\s+)?\w+)\b/i,
  ),
  anywhere(
    "compliance with a law or a scheme's rules",
    /\b(legally\s+required|required\s+by\s+law|statutory|regulat(or|ors|ion|ions|ory)|(for|pass)\s+(the|an|our)\s+(\S+\s+)?audit|auditors?|e-?invoic\w*|e-?filing|electronic\s+filing|making\s+tax\s+digital|wcag|accessibility\s+audit)\b/i,
  ),
  anywhere(
    "the product acting on its own",
    /\b((get|gets|pull|pulls|go|goes|come|comes|charge|charges|move|moves|adjust|adjusts|assign|assigns|reorder|reorders|match|matches|reconcile|reconciles|generate|generates)\s+(\S+\s+){0,5}?(automatically|on\s+(its|their)\s+own|by\s+itself)|without\s+(us\s+|me\s+|anyone\s+)?(having\s+to\s+)?(typ|re-?typ|re-?enter|copy|key)\w*)\b/i,
  ),
  anywhere(
    "a device (scanner, printer, card reader, kiosk)",
    /\b((barcode\s+)?scanners?|(thermal|label|receipt)\s+printers?|printers?|card\s+(readers?|terminals?)|kiosks?|turnstiles?|encoders?|key\s*cards?|rfid|nfc|bluetooth|ticket\s+machines?|scan\w*\s+(\S+\s+){0,3}?(tickets?|codes?|qr|barcodes?|badges?)|(ipad|tablet)s?\s+(at|in|on)\s+(the\s+)?(reception|front\s+desk|door|entrance|counter|foyer))\b/i,
  ),
  anywhere(
    "a bulk operation across records",
    /\b(in\s+bulk|bulk\s+\w+|in\s+one\s+go|(all|\d+\s+\w+)\s+at\s+once|each\s+one\s+separately|one\s+by\s+one|mass\s+(email|update|edit|delete|message)\w*|across\s+(all|every|past)\s+\w+)\b/i,
  ),
  anywhere(
    "a forecast or a recommendation",
    /\b(forecast\w*|predict\w*|recommendations|optimi[sz]\w*|dynamic\s+pricing|estimate\s+(this|next|the|how|what|our|my)\b)/i,
  ),
  anywhere(
    "a new tool of its own",
    /\b(seating\s+(charts?|plans?)|seat\s+maps?|floor\s+plans?|draw\w*\s+(\S+\s+){0,3}on\s+(a|the)\s+map|generat\w*\s+(\S+\s+){0,3}from\s+(a\s+)?templates?|mail\s+merge|sell\w*\s+(\S+\s+){0,3}(online|on\s+(our|the|my)\s+(web)?site))\b/i,
  ),
  title(
    "a new tool of its own",
    /^(?!.*\b(on|in|to|of|for|at|from|with|the)\b)(\S+\s+){0,3}?(calendar|planner|tracker|register|ledger|log|scheme|programme|module|portal|marketplace|engine|builder|wait\s*list|waiting\s+list)s?$/i,
  ),
  anywhere(
    "self-service for another kind of user",
    /\b((let|allow)\s+(guests|visitors|attendees|buyers|members|customers|clients|patients|students|parents|tenants|teachers)\s+(to\s+)?(choose|pick|book|join|resell|sell|redeem|request|submit|upload|pay|log\s*in|sign\s*in)|(guests|visitors|attendees|buyers|members|customers|clients|patients|students|parents|tenants|teachers)\s+((should\s+be\s+able\s+to|can)\s+)?(choose|pick|join|resell|redeem)|(guests|visitors|attendees|buyers|teachers)\s+(book|request)s?)\b/i,
  ),
];

/** Quotation marks users write around a wording: 'Pupil', "Bill to", ‘Client’, “Paid”. */
const QUOTE = `['"\u2018\u2019\u201c\u201d]`;

/** Small changes to something that exists, in the order their names are preferred. */
export const SMALL_SIGNS: readonly EffortSign[] = [
  anywhere(
    "a wording change",
    /\b(renam\w*|relabel\w*|reword\w*|wording|typos?|spelling|misspel\w*|call\s+(it|them|this|that)|(change|fix|update)\s+the\s+(text|title|name|copy|heading|message)|should\s+(say|read|mention))\b/i,
  ),
  anywhere(
    "a wording change",
    new RegExp(
      `${QUOTE}[^'"\u2018\u2019\u201c\u201d]{1,40}${QUOTE}\\s+(to|into|with|instead\\s+of)\\s+${QUOTE}`,
      "i",
    ),
  ),
  title(
    "a wording change",
    new RegExp(
      `(?<!(print|shipping|address|mailing)\\s+|white-)\\blabels?\\b|\\b(say|says|show|display|read|reads)\\s+${QUOTE}`,
      "i",
    ),
  ),
  anywhere(
    "a setting to turn something on or off",
    /\b(toggle|turn\s+(it\s+|this\s+|that\s+)?(off|on)|(don't|do\s+not|stop)\s+(send(ing)?|email(ing)?|notify(ing)?)|switch\s+(it\s+)?off|opt[\s-]out|disable|hide|unhide|optional)\b/i,
  ),
  {
    concept: "a setting to turn something on or off",
    pattern: /\b(option|setting|preference|checkbox)\s+(to|for)\b/i,
    inDescription: false,
    weak: true,
  },
  anywhere(
    "something shown no longer",
    /\b(stop\s+showing|(don't|do\s+not|no\s+longer)\s+show|get\s+rid\s+of)\b/i,
  ),
  title("something shown no longer", /^remove\s+the\b/i),
  title(
    "a notification for something that happens already",
    /^(email|notify|alert|tell|warn|remind)\s+(me|us|the\s+\w+)\s+(when|if|before)\b/i,
  ),
  anywhere(
    "a default value",
    /\b(default\s+(to|should\s+be|is)|by\s+default|remember\s+(my|the|our)\s+(last|previous)|pre-?fill\w*|pre-?select\w*|(week|calendar|picker)\s+(starts?|begins?)\s+on|first\s+day\s+of\s+the\s+week)\b/i,
  ),
  title("a default value", /\bdefaults?\b/i),
  anywhere(
    "a sort order",
    /\b(sort(ed|ing)?(\s+by)?|re-?order\w*|alphabetical\w*|(newest|oldest|latest|most\s+recent)\s+(\w+\s+)?first|in\s+(the\s+)?order\s+of|ordered\s+by)\b/i,
  ),
  anywhere("a grouping of an existing list", /\bgroup(ed|ing)?\s+by\b/i),
  anywhere("a filter on an existing list", /\b(?<!the\s+)filter(ed|ing)?\s+(\S+\s+){0,3}?by\b/i),
  title("a filter on an existing list", /\bfilters?\b/i),
  anywhere(
    "a column on an existing list or export",
    /\b(add|show|include)\s+(a|an|the)\s+(\S+\s+){0,3}columns?\b/i,
  ),
  title("a column on an existing list or export", /\bcolumns?\b/i),
  anywhere("a keyboard shortcut", /\b((keyboard\s+)?shortcuts?|hotkeys?|(ctrl|cmd)\+\w)/i),
  title(
    "a look-and-feel tweak",
    /\b(colou?rs?|fonts?|text\s+size|bigger|larger|smaller|bold|contrast|spacing|padding|tap\s+targets?|icons?|tooltips?|placeholders?|logo|collaps\w+|gr[ae]y(ed)?(-out)?|hard\s+to\s+read|cut\s+off|overlap\w*|misaligned|truncat\w*)\b/i,
  ),
  anywhere("a look-and-feel tweak", /\b(contrast|font\s+size|text\s+size)\b/i),
  title("a display format", /\b(format|local\s+time|utc|24[\s-]hour|12[\s-]hour|decimal\s+(comma|point))\b/i),
  anywhere("a link or button in an existing place", /\b(a|an|the)\s+(link|button|menu\s+item)\s+(to|for)\b/i),
  title("a link or button in an existing place", /\b(link|button|menu\s+item)s?\b/i),
  title("a field on an existing page", /(?<!custom\s+)\bfields?\b/i),
  title(
    "a limit or number changed",
    /\b(limits?|maximum|minimum)\b|\b(increase|raise|lower|reduce|extend|shorten)\s+(\S+\s+){0,4}(to|from|by)\s+\d|\b(should\s+)?(start|begin)s?\s+(at|from)\s+\d|\btoo\s+(fast|quickly|soon|strict|early|late|often)\b/i,
  ),
  title(
    "a fix to something that exists",
    /\b(is|are)\s+(wrong|broken|incorrect)\b|\bwrong\s+(month|day|date|time|year|total|amount|number|name|page|order|address)\b|\b404\b|\bbroken\s+links?\b|\btimes?\s+out\b/i,
  ),
  title(
    "an edit to an existing record",
    /^(let\s+(me|us)|allow\s+(me|us)\s+to|can\s+(i|we))\s+(edit|change|correct|undo|delete|remove)\b/i,
  ),
  anywhere(
    "a detail shown in an existing place",
    /\b(doesn't|does\s+not|don't|do\s+not|isn't|is\s+not|aren't|are\s+not|never)\s+(appear|show(\s+up)?|shown|displayed|visible)\s+(on|in)\s+(the|our|my|their)\b/i,
  ),
  title(
    "a detail shown in an existing place",
    /^(show|display|include|print|put)\s+(the\s+|a\s+|an\s+)?[\w' -]{1,40}?\s+(on|in|at|next\s+to|under|below|above|beside)\s+(the|each|every|our|my|their|its|his|her|a|an)\b|^[\w' -]{0,40}?\b(number|name|date|time|icon|photo|picture|count|total|price|address|phone|note|status|code|id|reference|balance)s?\s+(on|in|at|next\s+to|under|below|above|beside)\s+(the|each|every|our|my|their|a|an)\b|\b(export|list|csv|report|table|page|email|invoice|receipt|slip|profile)\s+(should\s+)?(include|show|display|list|say|mention)s?\b/i,
  ),
];

/** The small signs that name the work itself, not the phrasing of a wish: a new capability yields to them. */
const SMALL_WORK_SIGNS = SMALL_SIGNS.filter((sign) => !sign.weak);

/**
 * Where a change goes, in a title: "on the donation form", "in the mobile app". A larger build named only
 * there is the place, not the work: "The 'Submit' button says 'Send' on the donation form" is a wording
 * change.
 */
const PLACE =
  /\b(on|in|at|from|to|inside)\s+(the|our|my|each|every)\s+(\S+\s+){0,3}?(page|form|screen|tab|list|view|menu|email|app|window|dialog|popup|sidebar|settings|panel|slip|receipt)s?\b/gi;

/**
 * A wording quoted in a title: "still says 'Thanks for your donation'". Quoted words are the text being
 * discussed, not the work, so no large sign is read inside them. An apostrophe inside a word ("Client's")
 * opens no quotation.
 */
const QUOTED = new RegExp(
  `(?<=^|[\\s(])${QUOTE}[^'"\u2018\u2019\u201c\u201d]{1,60}${QUOTE}(?=$|[\\s.,;:!?)])`,
  "g",
);

/** At most this many words (title and description) is a one-line request. */
const ONE_LINE_WORDS = 12;

interface Found {
  concept: string;
  evidence: string;
}

function firstSign(signs: readonly EffortSign[], text: string, inDescription: boolean): Found | undefined {
  for (const sign of signs) {
    if (inDescription && !sign.inDescription) continue;
    const match = sign.pattern.exec(text);
    if (match) return { concept: sign.concept, evidence: match[0].replace(/\s+/g, " ") };
  }
  return undefined;
}

/** The other product a text names, spelled as the product spells itself: "quickbooks" is QuickBooks. */
export function productNamedIn(text: string): string | undefined {
  for (const match of text.matchAll(PRODUCT_PATTERN)) {
    const written = match[0].replace(/\s+/g, " ");
    const product = OTHER_PRODUCTS.find((name) => name.toLowerCase() === written.toLowerCase());
    if (!product) continue;
    if (COMMON_WORDS.has(written.toLowerCase()) && written.charAt(0) === written.charAt(0).toLowerCase())
      continue;
    return product;
  }
  return undefined;
}

/** A bare product name ("Xero", "Zapier") is an integration with it. */
function productIn(text: string): Found | undefined {
  const product = productNamedIn(text);
  return product ? { concept: INTEGRATION, evidence: product } : undefined;
}

/** The integration or the import names the other product when the request does: "a new integration with QuickBooks". */
function named(found: Found, text: string): Found {
  const product = productNamedIn(text);
  if (!product) return found;
  if (found.concept === INTEGRATION) return { ...found, concept: `a new integration with ${product}` };
  if (found.concept === MIGRATION) return { ...found, concept: `an import from ${product}` };
  return found;
}

/** A product's own name keeps its spelling; any other sign is shown in lower case. */
function shown(evidence: string): string {
  return productNamedIn(evidence) ?? evidence.toLowerCase();
}

/**
 * How big a request looks from its text. The title is the request and wins: a sign of a larger build in
 * it, else of a small change, else of a new capability (`CAPABILITY_SIGNS`), else a sign in the description (a larger build before a small change: a
 * small touch inside a big request is part of it). A bare product name ("Xero", "Zapier") is an
 * integration. Length is no sign: a long description of a wording change is still a wording change, and a
 * one-line "Offline mode" is not small for being short. One estimate for the rank and the reason, so a
 * plan never ranks as quick what its reason calls large.
 */
export function effortOf(request: SizedRequest): Effort {
  const description = request.description ?? "";
  const text = `${request.title} ${description}`;
  const titleSmall = firstSign(SMALL_SIGNS, request.title, false);
  const titleWork = request.title.replace(QUOTED, " ").replace(PLACE, " ");
  const large =
    firstSign(LARGE_SIGNS, titleWork, false) ??
    (firstSign(SMALL_WORK_SIGNS, request.title, false)
      ? undefined
      : firstSign(CAPABILITY_SIGNS, titleWork, false)) ??
    (titleSmall
      ? undefined
      : (productIn(request.title) ??
        firstSign(LARGE_SIGNS, description, true) ??
        firstSign(CAPABILITY_SIGNS, description, true) ??
        productIn(description)));
  if (large) {
    const { concept, evidence } = named(large, text);
    return {
      kind: "large",
      units: 4,
      words: `likely a larger build (it involves ${shown(evidence)}): ${concept}`,
    };
  }
  const small = titleSmall ?? firstSign(SMALL_SIGNS, description, true);
  if (small) {
    return {
      kind: "small",
      units: 1,
      words: `likely a small change ("${small.evidence.toLowerCase()}"): ${small.concept}`,
    };
  }
  const length = text.split(/\s+/).filter(Boolean).length;
  if (length <= ONE_LINE_WORDS)
    return { kind: "one-line", units: 2, words: "size unknown (a one-line request)" };
  return { kind: "unclear", units: 2, words: `a ${length}-word request: size it before committing` };
}
