/**
 * How big a feature request looks from its own words, as a product manager would read it: a small change
 * (a wording change, a toggle, a default, a sort order, a column…), a larger build (an integration with
 * another product, offline use, a native app, roles, SSO, payments…), or a size the text leaves unclear.
 * Pure: the sprint plan (src/ai/service.ts) ranks quick wins by it and writes its reasons from it
 * (docs/ai.md, "Endpoints").
 *
 * The checklists below are read in order, and the first sign found names the work in the reason, so a
 * list puts first the sign whose name says most.
 */

/** What the size of a request is judged from: its own words. */
export interface SizedRequest {
  title: string;
  description: string | null;
}

/**
 * A request's size as its text shows it: a small change, a larger build, or unknown (a one-line request,
 * or a longer one whose size the text leaves unclear).
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
 * Words that show a kind of work, and where they are read. An action on an object ("rename", "turn off",
 * "sort by", "sync with") is read in the title and the description. A bare noun ("a label", "the
 * default", "a column") is read in the title only, where it is the request: a description mentions a
 * setting or a button in passing ("there is a setting for the default currency").
 */
interface SignWords {
  pattern: RegExp;
  inDescription: boolean;
  /**
   * The phrasing of a wish rather than the work ("Option to …"): a new capability named after it is the
   * work ("Option to connect a card reader" is a device, not a setting).
   */
  wish: boolean;
}

/** One kind of work a product manager recognises, and the words that show it, tried in order. */
interface Sign {
  /** What the work is, as the reason names it: "a wording change". */
  concept: string;
  words: readonly SignWords[];
}

const sign = (concept: string, ...words: SignWords[]): Sign => ({ concept, words });
const anywhere = (pattern: RegExp): SignWords => ({ pattern, inDescription: true, wish: false });
const inTitle = (pattern: RegExp): SignWords => ({ pattern, inDescription: false, wish: false });
const wishInTitle = (pattern: RegExp): SignWords => ({ pattern, inDescription: false, wish: true });

/** Any of these patterns, in any case: one group of alternatives a line, so a long list stays readable. */
const oneOf = (...patterns: RegExp[]) => new RegExp(patterns.map((pattern) => pattern.source).join("|"), "i");
/** Any of these phrases as whole words, in any case. */
const phrases = (...patterns: RegExp[]) => new RegExp(`\\b(${oneOf(...patterns).source})\\b`, "i");

/** Other products whose name in a request means connecting to them: an integration (or a move from them). */
export const OTHER_PRODUCTS: readonly string[] = [
  ...["QuickBooks", "Xero", "Sage", "FreshBooks"],
  ...["Salesforce", "HubSpot", "Pipedrive"],
  ...["Zapier", "Make.com", "IFTTT"],
  ...["Google Calendar", "Google Sheets", "Google Drive", "Outlook", "Office 365", "Microsoft Teams"],
  ...["Slack", "Discord", "Mailchimp", "Klaviyo"],
  ...["Shopify", "WooCommerce"],
  ...["Trello", "Jira", "Asana", "Notion", "Airtable"],
  ...["Zoom", "Dropbox", "OneDrive", "Zendesk", "Intercom", "GitHub", "GitLab", "DocuSign", "Twilio"],
  ...["WhatsApp", "Instagram", "TikTok"],
  ...["UPS", "FedEx", "DHL", "USPS", "Amazon", "eBay", "Etsy"],
  ...["Google Classroom", "Canvas", "Moodle"],
  ...["Booking.com", "Expedia", "Airbnb"],
  ...[
    "Stripe",
    "PayPal",
    "Square",
    "Apple Pay",
    "Google Pay",
    "Klarna",
    "GoCardless",
    "MYOB",
    "Gusto",
    "ADP",
  ],
  ...["LinkedIn", "Indeed", "Glassdoor", "Greenhouse", "Workday", "BambooHR", "Calendly", "Eventbrite"],
  ...["OverDrive", "Libby", "YouTube", "Spotify", "Apple Podcasts", "Vimeo", "Facebook", "Google Analytics"],
  ...["Monday.com", "ClickUp", "Basecamp", "Freshdesk", "ServiceNow", "NetSuite", "SAP", "Dynamics 365"],
];

/** Product names that are also common words count only when written with their capital: "pinch and zoom". */
const COMMON_WORDS = new Set([
  "zoom",
  "sage",
  "notion",
  "slack",
  "canvas",
  "teams",
  "make.com",
  "square",
  "indeed",
  "greenhouse",
]);

const escaped = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+");
const PRODUCT_PATTERN = new RegExp(`\\b(${OTHER_PRODUCTS.map(escaped).join("|")})\\b`, "gi");

/** The two concepts whose reason names the other product: "a new integration with QuickBooks". */
const INTEGRATION = "a new integration";
const MIGRATION = "an import from another system";

/**
 * Pieces of work that are never small. "export", "dashboard" and "workflow" are no signs: "a column on the
 * invoice export" is small and "the dashboard is slow" names a page, not the work. Nouns said in passing
 * ("after our import last year", "I approve them weekly") count in the title only.
 */
export const LARGER_BUILDS: readonly Sign[] = [
  sign(
    "single sign-on",
    anywhere(
      phrases(
        /((log|sign)\s*-?\s*in)\s+with\s+(\S+\s+){0,2}(google|microsoft|facebook|apple|github|linkedin)/,
        /(google|microsoft|facebook|apple|github|linkedin|social)\s+(log\s*-?\s*in|sign[\s-]?in)/,
        /sso|saml|oidc|openid|single[\s-]sign[\s-]?on/,
        /okta|azure\s+ad|entra\s+id|active\s+directory|ldap/,
      ),
    ),
  ),
  sign(
    MIGRATION,
    anywhere(
      phrases(
        /migrat\w*/,
        /import(s|ed|ing)?\s+(\S+\s+){0,4}from|move\s+(over\s+)?from|switch(ing)?\s+(over\s+)?from/,
        /bring\s+(\S+\s+){0,4}over|bulk\s+(upload|import)/,
      ),
    ),
    inTitle(
      phrases(/import(s|ed|ing|er)?/, /upload\w*\s+(\S+\s+){0,3}from\s+(a\s+)?(spreadsheet|csv|excel)/),
    ),
  ),
  sign(
    INTEGRATION,
    anywhere(
      phrases(
        /integrat\w*|two[\s-]way(\s+sync\w*)?|(re)?sync(s|ed|ing|hroni[sz]\w*)?|connect(ed|ion)?\s+(to|with)/,
        // a phone system
        /telephony|voip|dial(l)?er|log\s+(my\s+|our\s+)?(phone\s+)?calls|phone\s+calls|voice\s+(support|calls?)/,
        // shipping carriers, banks, hotels' channel managers, a court's or an insurer's own system
        /carriers?|bank\s+feeds?|open\s+banking|channel\s+manager|(from|to|into|with)\s+(my|our|the|their)\s+bank\b/,
        /straight\s+(to|from|into)\s+(the|their|our)\s+(\S+\s+){0,2}(system|court|insurers?|labs?|bank|government|council|portal)/,
        // "looked up the market value from the reg plate", "we upload every property by hand to both portals"
        /look(s|ed|ing)?\s+up\s+(\S+\s+){0,5}?from/,
        /(upload|enter|type|copy|re-?enter|key|add|post)\w*\s+(\S+\s+){0,5}?(by\s+hand|manually)\s+(to|into|on)/,
        // a feed other apps read: "it goes on the podcast feed"
        /rss|podcast\s+feeds?|ical|calendar\s+feeds?/,
      ),
    ),
  ),
  sign(
    "offline use",
    anywhere(
      phrases(
        /offline/,
        /no\s+(signal|reception|internet|connection)|without\s+(a\s+)?(signal|internet|connection)/,
      ),
    ),
  ),
  sign(
    "a native app",
    anywhere(
      phrases(
        /(mobile|native|desktop|iphone|ipad|ios|android|mac|windows)\s+(app|application|client|version)s?/,
        /app\s+for\s+(ios|android|iphone|ipad|mac|windows)|app\s+store|play\s+store/,
        // the phone's home screen, not the app's own first screen
        /(add\w*|sav\w*|pin\w*|put)\s+(\S+\s+){0,3}to\s+(the\s+|my\s+|their\s+|your\s+)?home[\s-]screen/,
        /home[\s-]screen\s+(widgets?|icons?|shortcuts?)/,
        /push\s+notifications?|apple\s+watch|widgets?\s+for\s+(the\s+)?(iphone|ipad|android|ios)/,
      ),
    ),
  ),
  sign(
    "real-time collaboration or messaging",
    anywhere(
      phrases(
        /real[\s-]?time|co-?edit\w*|collaborat\w*|live\s+(chat|editing|cursors?|updates?)|chat|messaging/,
        /message\s+(their\s+|the\s+|our\s+)?(parents|clients|customers|patients|members|students|users|guests|teachers|staff)/,
      ),
    ),
  ),
  sign(
    "sharing between people",
    anywhere(
      phrases(
        /share\s+(\S+\s+){0,3}with\s+(my|our|a|another|other)\s+\w+|both\s+(\S+\s+){0,3}edit/,
        // two people changing one thing together: "let two people edit the same rota at once"
        /(two|several|multiple|many)\s+(people|users|staff|members|managers|editors)\s+(\S+\s+){0,2}?(edit|change|work\s+on|update)\s+(\S+\s+){0,4}?(at\s+once|at\s+the\s+same\s+time|simultaneously|together)/,
      ),
    ),
  ),
  sign(
    "text messages (SMS)",
    anywhere(
      phrases(
        /sms|text\s+messages?|texts\s+to|e-?mail\s+or\s+text|text\s+or\s+e-?mail/,
        /a\s+text\s+to|text\s+(the\s+)?(customer|client|parent|patient|member|guest|owner)s?/,
      ),
    ),
  ),
  sign(
    "automated messages",
    anywhere(
      phrases(
        /abandoned\s+carts?|email\s+campaigns?|drip\s+campaigns?|newsletters?/,
        /automat\w*\s+(\S+\s+){0,2}(reminders?|emails?|messages?|follow[\s-]?ups?)/,
        // "send customers a reminder when their car is due": the product writes to them on its own
        /(send|email|text)\s+(customers|clients|parents|patients|members|tenants|guests|students|pupils|users|them|people)\s+(a\s+|an\s+)?(reminders?|messages?|emails?|texts?|letters?)\s+(when|before|if|after|once)/,
      ),
    ),
  ),
  sign(
    "more than one currency",
    anywhere(
      phrases(/multi[\s-]?currenc\w*|currencies|(euros?|dollars|pounds)\s+and\s+(euros?|dollars|pounds)/),
    ),
  ),
  sign(
    "more than one language",
    anywhere(
      phrases(
        /multi[\s-]?lingual|multi[\s-]?language|translat\w*|locali[sz]\w*|internationali[sz]\w*|i18n/,
        /(spanish|french|german|italian|portuguese|dutch|polish|turkish|russian|greek|hebrew|hindi|japanese|chinese|mandarin|korean|thai|vietnamese|arabic|welsh)\s+(version|translation|language|support|interface|ui)/,
        // a script written the other way: every screen's layout changes
        /right[\s-]to[\s-]left|rtl/,
      ),
    ),
  ),
  sign(
    "separate accounts for each client or location",
    anywhere(
      phrases(
        /multi[\s-]?(tenant|tenancy|company|companies|location|site|store|brand|entity|account)s?/,
        /workspaces|sub[\s-]?accounts?|franchise\w*|only\s+see\s+their\s+own/,
        /(need|needs|want|wants|get|gets|have|has)\s+(their|his|her)\s+own\s+(calendar|account|login|bookings?|diary|schedule|workspace|dashboard|page)s?/,
      ),
    ),
  ),
  sign(
    "roles and permissions",
    anywhere(
      phrases(
        /permissions?|roles?|access\s+levels?|access\s+control/,
        // "can't see our policy" reports a thing missing; "should not see" asks to keep it from someone
        /(should\s+not|shouldn't|must\s+not|mustn't)\s+(be\s+able\s+to\s+)?see/,
      ),
    ),
  ),
  sign(
    "a portal for another kind of user",
    anywhere(
      phrases(
        /(client|customer|parent|patient|guest|student|supplier|vendor)s?\s+portal/,
        /(customer|client|owner|parent|tenant|patient|student|guest|supplier)s?\s+uploads?/,
        /(parents|clients|customers|patients|guests|students|suppliers|vendors|tenants|residents|volunteers|donors|landlords|owners|contractors)\s+(should\s+)?(be\s+able\s+to|can)\s+(log\s*in|sign\s*in|see|view|access|book|submit|upload|request|pay)/,
      ),
    ),
  ),
  sign(
    "an approval workflow",
    inTitle(phrases(/approv(e|es|al|als|ing)|sign[\s-]off/)),
    // "they approve it before we print": someone else approves (not "I approve them weekly")
    anywhere(
      phrases(
        /(they|clients?|customers?|managers?|the\s+client|the\s+customer)\s+(\S+\s+)?approves?\s+(it|them|the)/,
        // "the customer gets a link to say yes or no"
        /(say|click)\s+yes\s+or\s+no|(accept|approve)\s+or\s+(decline|reject)/,
      ),
    ),
  ),
  sign(
    "a report builder",
    anywhere(
      phrases(
        /custom\s+reports?|report\s+builder|reporting|build\s+(my|our|your|their)\s+own\s+reports?|custom\s+dashboards?/,
      ),
    ),
  ),
  sign("an API", anywhere(phrases(/public\s+api|api|apis|webhooks?|sdk/))),
  sign(
    "payments or billing",
    anywhere(
      phrases(
        /accept\s+(\S+\s+){0,2}payments|take\s+payments/,
        /pay(ing)?\s+(\S+\s+){0,2}(online|by\s+card|with|in\s+instal\w*|later|through|via)|instal(l)?ments/,
        /card\s+payments?|credit\s+cards?|apple\s+pay|google\s+pay|stripe|paypal|klarna|afterpay/,
        /billing|subscriptions?|payouts?|recurring\s+(donations?|payments?|charges?)/,
        /(pay|take|collect|charge)\w*\s+(a\s+|an\s+|the\s+)?(\S+\s+){0,2}?deposits?|pa(id|y)\s+up\s*front|upfront\s+payments?/,
        /charg(e|es|ed|ing)\s+(\S+\s+){0,2}?(monthly|weekly|yearly|annually|every\s+(week|month|year))/,
      ),
    ),
    inTitle(
      phrases(
        // "Payment terms", "payment date": a detail of an invoice, not taking payments.
        /payments?(?!\s+(terms?|dates?|due|reference|status|methods?|numbers?)\b)/,
        /refunds?|donations?/,
      ),
    ),
  ),
  sign(
    "online booking",
    anywhere(
      phrases(
        /online\s+booking|book\w*\s+(\S+\s+){0,4}online|self[\s-]service\s+booking/,
        /book\w*\s+(\S+\s+){0,4}(from|on|through|via)\s+(the|our|my)\s+(web\s*)?site/,
        /(book|pick|choose|select|reserve)\w*\s+(a|an|their|the)\s+(\S+\s+)?(time\s*)?slots?/,
      ),
    ),
  ),
  sign(
    "a new area of the product",
    anywhere(
      phrases(
        /payroll|inventory|stock\s+management|accounting|crm|marketplace|e-?commerce|point\s+of\s+sale/,
        /loyalty\s+programme?|time\s+tracking|log\w*\s+(their\s+|my\s+|our\s+)?hours/,
        // purchasing: "so we can order from the wholesaler"
        /(order|buy|reorder)\w*\s+from\s+(the|our)\s+(wholesalers?|suppliers?|vendors?)|purchase\s+orders?/,
      ),
    ),
  ),
  sign(
    "security or hosting work",
    anywhere(phrases(/hipaa|soc\s*2|iso\s*27001|encrypt\w*|self[\s-]hosted|on[\s-]prem\w*|data\s+residency/)),
    inTitle(phrases(/compliance|gdpr/)),
  ),
  sign(
    "an AI feature",
    anywhere(
      phrases(
        /ai|a\.i\.|artificial\s+intelligence|machine\s+learning|gpt|chatgpt|llm/,
        /auto[\s-]?(tag|categori[sz]e|suggest)\w*|suggest\w*\s+(\w+\s+){0,3}automatically/,
        /scan(ning)?\s+(receipts?|documents?|invoices?|business\s+cards?)/,
        /(fill|read)\s+(in\s+)?(\S+\s+){0,5}automatically/,
      ),
    ),
  ),
  sign("search inside documents", anywhere(phrases(/full[\s-]text\s+search|search\s+inside|ocr/))),
  sign(
    "reading documents into fields",
    anywhere(
      phrases(
        // "Resume parsing", "parse CVs into candidate fields", "extract the totals from supplier PDFs"
        /pars(e|es|ed|ing|er)\s*(\S+\s+){0,3}?(cvs?|resumes?|résumés?|pdfs?|invoices?|receipts?|documents?|emails?|scans?)|(cv|resume|résumé|pdf|invoice|receipt|document)s?\s+pars\w*/,
        /extract\w*\s+(\S+\s+){0,4}?from\s+(\S+\s+){0,2}?(pdfs?|scans?|photos?|images?|documents?|emails?)/,
      ),
    ),
  ),
  sign(
    "maps and location tracking",
    anywhere(
      phrases(
        /gps|geofenc\w*|satellite|live\s+location|route\s+(optimi[sz]\w*|planning|planner)/,
        /track\w*\s+(\S+\s+){0,2}?(location|whereabouts|vehicles?|drivers?|vans?|trucks?)\s+(live|on\s+a\s+map|in\s+real)/,
        /(show|see|plot|view)\s+(\S+\s+){0,3}?on\s+a\s+map|map\s+view|heat\s*maps?/,
      ),
    ),
  ),
  sign(
    "video",
    anywhere(
      phrases(
        /video\s+(calls?|consultations?|visits?|appointments?|recording|streaming|conferenc\w*|lessons?|chat)/,
        /live\s*-?\s*stream\w*|telehealth|telemedicine|webinars?/,
      ),
    ),
  ),
  sign(
    "a change history",
    anywhere(
      phrases(
        /version\s+history|versioning|previous\s+versions|change\s+(history|log)\s+(for|of|per|on)|audit\s+(trail|log)s?/,
        /(see|show|track|log|record)\w*\s+who\s+changed|restore\s+(an\s+|a\s+)?(earlier|older|previous)\s+version/,
      ),
    ),
  ),
  sign(
    "capacity by time slot",
    anywhere(
      phrases(
        /timed[\s-]entry|capacity\s+(per|for\s+each|by)\s+(slot|session|hour|time|day)|(per|each)\s+(time\s+)?slot\s+capacity/,
        /(limit|cap)\w*\s+(\S+\s+){0,3}?(per|each|every)\s+(time\s+)?(slot|session|hour|class|tour)/,
      ),
    ),
  ),
];

/**
 * A new capability of the product, named by the domain work it does: a calculation that follows rules, a
 * device, a forecast, a new tool… Its words also name what exists already ("Commission column on the
 * sales report", "Default printer for receipts"), so a small change the title names wins over them; they
 * are read after the title's small changes and, in a description, after the larger builds.
 */
export const NEW_CAPABILITIES: readonly Sign[] = [
  sign(
    "a calculation that follows rules",
    anywhere(
      phrases(
        /commissions?|prorat\w*|pro[\s-]rata|(statutory|late[\s-]payment)\s+interest/,
        /(city|tourist|sales|income|payroll|council|withholding)\s+tax(es)?/,
        /(work|works|working)\s+out\s+(the|how|what)\s+\w+|calculat\w*\s+(the|how|what)\s+\w+/,
        // "40% of the sessions"
        /\d+(\.\d+)?\s*%\s+(of|above|below)\s+(the\s+)?\w+/,
        // "a price straight away based on the word count"
        /(prices?|pricing|quotes?|costs?|fees?|rates?|charges?|discounts?|dues|duty|duties|tax)\s+(\S+\s+){0,3}?(based\s+on|depends?\s+on|depending\s+on)|percentages\s+of/,
      ),
    ),
  ),
  sign(
    "compliance with a law or a scheme's rules",
    anywhere(
      phrases(
        /legally\s+required|required\s+by\s+law|statutory|regulat(or|ors|ion|ions|ory)/,
        /(for|pass)\s+(the|an|our)\s+(\S+\s+)?audit|auditors?/,
        /e-?invoic\w*|e-?filing|electronic\s+filing|making\s+tax\s+digital|wcag|accessibility\s+audit/,
        /excise|inspectors?/,
      ),
    ),
  ),
  sign(
    "the product acting on its own",
    anywhere(
      phrases(
        /(get|gets|pull|pulls|go|goes|come|comes|charge|charges|move|moves|adjust|adjusts|assign|assigns|reorder|reorders|match|matches|reconcile|reconciles|generate|generates|sent|emailed|texted|posted|published)\s+(\S+\s+){0,5}?(automatically|on\s+(its|their)\s+own|by\s+itself)/,
        /without\s+(us\s+|me\s+|anyone\s+)?(having\s+to\s+)?(typ|re-?typ|re-?enter|copy|key)\w*/,
      ),
    ),
    inTitle(phrases(/recurring|repeating/)),
  ),
  sign(
    "a device (scanner, printer, card reader, kiosk)",
    anywhere(
      phrases(
        /(barcode\s+)?scanners?|(thermal|label|receipt)\s+printers?|printers?|card\s+(readers?|terminals?)/,
        /kiosks?|turnstiles?|encoders?|key\s*cards?|rfid|nfc|bluetooth|ticket\s+machines?/,
        /scan\w*\s+(\S+\s+){0,3}?(tickets?|codes?|qr|barcodes?|badges?)/,
        /(ipad|tablet)s?\s+(at|in|on)\s+(the\s+)?(reception|front\s+desk|door|entrance|counter|foyer)/,
      ),
    ),
  ),
  sign(
    "a bulk operation across records",
    anywhere(
      phrases(
        /in\s+bulk|bulk\s+\w+|in\s+one\s+go|(all|\d+\s+\w+)\s+at\s+once|each\s+one\s+separately|one\s+by\s+one/,
        /mass\s+(email|update|edit|delete|message)\w*|across\s+(all|every|past)\s+\w+/,
        // "photo by photo", "as one zip"
        /(?!(step|side|day|bit|little|case|year|month|week)\b)(?<item>\w+)\s+by\s+\k<item>|as\s+(one|a|a\s+single)\s+zip/,
        /(every|each)\s+(donor|client|customer|member|tenant|parent|student|patient|owner|guest|employee)\s+gets\s+(a|an|their)\s+(statement|letter|report|summary|certificate|receipt|invoice)/,
        /(book|reserve|block)\w*\s+all\s+(the\s+)?\w+/,
        // "raise rents for everyone who's been here over a year"
        /(send|email|message|text|raise|increase|update|charge|apply|change)\w*\s+(\S+\s+){0,4}?(for|to)\s+(everyone|everybody|all\s+(\S+\s+)?\w+)\s+(who|that|whose)/,
      ),
    ),
  ),
  sign(
    "a forecast or a recommendation",
    anywhere(
      /\b(forecast\w*|predict\w*|recommendations|optimi[sz]\w*|dynamic\s+pricing|estimate\s+(this|next|the|how|what|our|my)\b)/i,
    ),
  ),
  sign(
    "a new tool of its own",
    anywhere(
      phrases(
        /seating\s+(charts?|plans?)|seat\s+maps?|floor\s+plans?|draw\w*\s+(\S+\s+){0,3}on\s+(a|the)\s+map/,
        /generat\w*\s+(\S+\s+){0,3}from\s+(a\s+)?templates?|mail\s+merge/,
        /(sell|publish)\w*\s+(\S+\s+){0,3}(online|on\s+(our|the|my)\s+(web)?site)/,
        // forms another person fills in or signs: "every player signs a waiver"
        /(fill|fills|complete|completes)\s+(in\s+|out\s+)?(a|an|the|our)\s+(\S+\s+)?(questionnaire|survey|intake\s+form)/,
        /e-?signatures?|signs?\s+(a|the|their)\s+(\S+\s+)?(waiver|contract|consent|agreement)s?/,
        // "log who took which key", "a grid of kennels by day so we can see what's free"
        /who\s+(took|has|had|borrowed|holds)\s+(which|it|them)|which\s+\w+\s+(are|is)\s+(empty|free|available|booked|taken|occupied)|occupancy|availability\s+(grid|calendar|view|chart)|grid\s+of\s+\w+\s+by\s+(day|week|date)/,
      ),
    ),
    // A short title naming a tool: "Calving calendar", "Mileage log"; "Notes on calendar" names a place.
    inTitle(
      /^(?!.*\b(on|in|to|of|for|at|from|with|the)\b)(\S+\s+){0,3}?(calendar|planner|tracker|tracking|checklist|availability|register|ledger|log|scheme|programme|module|portal|marketplace|engine|builder|wait\s*list|waiting\s+list|management|system|automation|inventory|scheduling|ordering)s?$/i,
    ),
  ),
  sign(
    "self-service for another kind of user",
    anywhere(
      phrases(
        /(let|allow)\s+(guests|visitors|attendees|buyers|members|customers|clients|patients|students|parents|tenants|teachers)\s+(to\s+)?(choose|pick|book|join|resell|sell|redeem|request|submit|upload|pay|log\s*in|sign\s*in)/,
        /(guests|visitors|attendees|buyers|members|customers|clients|patients|students|parents|tenants|teachers)\s+((should\s+be\s+able\s+to|can)\s+)?(choose|pick|join|resell|redeem)/,
        /(guests|visitors|attendees|buyers|teachers)\s+(book|request)s?/,
        // "we'd like them to pick a slot themselves", "password reset self-service"
        /(book|pick|choose|reschedule|cancel|reset|change|update|do)\w*\s+(\S+\s+){0,4}?themselves|self[\s-]service/,
        // "swap with another student", "they can swap"
        /swap\w*\s+(\S+\s+){0,3}with\s+(another|other|each\s+other)|(they|users|staff|members|students|volunteers|clients)\s+can\s+swap/,
      ),
    ),
  ),
];

/** Quotation marks users write around a wording: 'Pupil', "Bill to", ‘Client’, “Paid”. */
const QUOTE = `['"\u2018\u2019\u201c\u201d]`;
const NOT_QUOTE = `[^'"\u2018\u2019\u201c\u201d]`;

/** Small changes to something that exists. */
export const SMALL_CHANGES: readonly Sign[] = [
  sign(
    "a wording change",
    anywhere(
      phrases(
        /renam\w*|relabel\w*|reword\w*|wording|typos?|spelling|misspel\w*|call\s+(it|them|this|that)/,
        /(change|fix|update)\s+the\s+(text|title|name|copy|heading|message)|should\s+(say|read|mention)/,
      ),
    ),
    // 'Pupil' to 'Student'
    anywhere(
      new RegExp(
        `${QUOTE}${NOT_QUOTE}{1,40}${QUOTE}\\s+(to|into|with|instead\\s+of|should\\s+(be|say|read))\\s+${QUOTE}`,
        "i",
      ),
    ),
    // A label (not a shipping label or a white-label product), or what a page says: "says 'Send'".
    inTitle(
      new RegExp(
        `(?<!(print|shipping|address|mailing)\\s+|white-)\\blabels?\\b|\\b(say|says|show|display|read|reads)\\s+${QUOTE}`,
        "i",
      ),
    ),
  ),
  sign(
    "a setting to turn something on or off",
    anywhere(
      phrases(
        /toggle|turn\s+(it\s+|this\s+|that\s+)?(off|on)/,
        /(don't|do\s+not|stop)\s+(send(ing)?|email(ing)?|notify(ing)?)|switch\s+(it\s+)?off|opt[\s-]out/,
        /disable|hide|be\s+hidden|unhide|optional/,
      ),
    ),
    wishInTitle(phrases(/(option|setting|preference|checkbox)\s+(to|for)/)),
  ),
  sign(
    "something shown no longer",
    anywhere(phrases(/stop\s+showing|(don't|do\s+not|no\s+longer)\s+show|get\s+rid\s+of/)),
    inTitle(/^remove\s+the\b/i),
  ),
  sign(
    "a notification for something that happens already",
    inTitle(/^(email|notify|alert|tell|warn|remind)\s+(me|us|the\s+\w+)\s+(when|if|before)\b/i),
  ),
  sign(
    "a check on what is entered",
    // "Warn when weight is left empty", "Don't allow a due date in the past": a validation message
    inTitle(
      phrases(
        /(warn|stop|block|flag|prevent)\w*\s+(\S+\s+){0,3}?(when|if)\s+(\S+\s+){0,4}?(is|are)\s+(left\s+)?(empty|blank|missing|in\s+the\s+past|negative|zero)/,
        /(required|mandatory)\s+fields?|make\s+(\S+\s+){0,3}?(required|mandatory)|validat\w*/,
      ),
    ),
  ),
  sign(
    "a default value",
    anywhere(
      phrases(
        /default\s+(to|should\s+be|is)|by\s+default|remember\s+(my|the|our)\s+(last|previous)/,
        /pre-?fill\w*|pre-?select\w*/,
        /(week|calendar|picker)\s+(starts?|begins?)\s+on|first\s+day\s+of\s+the\s+week/,
      ),
    ),
    inTitle(phrases(/defaults?/)),
  ),
  sign(
    "a sort order",
    anywhere(
      phrases(
        /sort(ed|ing)?(\s+by)?|re-?order\w*|alphabetical\w*|(newest|oldest|latest|most\s+recent)\s+(\w+\s+)?first/,
        /in\s+(the\s+)?order\s+of|ordered\s+by/,
        // "show first", "the ones we use most": an order (a button "at the top" is a place, not an order)
        /(shows?|shown|appears?|comes?)\s+first|(we|i|they|people)\s+use\s+most|used\s+most|most\s+(used|popular)/,
      ),
    ),
  ),
  sign("a grouping of an existing list", anywhere(phrases(/group(ed|ing)?\s+by/))),
  sign(
    "a filter on an existing list",
    // "the filter … by" describes one that exists
    anywhere(/\b(?<!the\s+)filter(ed|ing)?\s+(\S+\s+){0,3}?by\b/i),
    inTitle(phrases(/filters?/)),
  ),
  sign(
    "a column on an existing list or export",
    anywhere(phrases(/(add|show|include)\s+(a|an|the)\s+(\S+\s+){0,3}columns?/)),
    inTitle(phrases(/columns?/)),
    // "Add VIN to vehicle search results", "Show the pet's age next to date of birth": one more value shown
    inTitle(
      phrases(
        /(add|show|include|display)\s+(\S+\s+){1,4}?(to|in|on)\s+(the\s+)?(\S+\s+){0,2}?(search\s+results|results|list|table|export|printout|receipt|invoice)s?$/,
        /(show|display)\s+(\S+\s+){1,4}?(next\s+to|beside|alongside|under|below)\s+(the\s+)?\S+/,
      ),
    ),
  ),
  sign("a keyboard shortcut", anywhere(/\b((keyboard\s+)?shortcuts?|hotkeys?|(ctrl|cmd)\+\w)/i)),
  sign(
    "a look-and-feel tweak",
    inTitle(
      phrases(
        /colou?rs?|fonts?|text\s+size|bigger|larger|smaller|bold|contrast|spacing|padding|tap\s+targets?/,
        /icons?|tooltips?|placeholders?|logo|collaps\w+|gr[ae]y(ed)?(-out)?/,
        /hard\s+to\s+read|cut\s+off|overlap\w*|misaligned|truncat\w*/,
        /too\s+(big|small|large|wide|narrow|bright|dark|faint|light|tiny)/,
      ),
    ),
    // In a description only a sure sign; the title's list above holds these words too.
    anywhere(
      phrases(/contrast|font\s+size|text\s+size|(show|make)\s+(\S+\s+){0,3}?(bigger|larger|smaller|bolder)/),
    ),
  ),
  sign(
    "a display format",
    inTitle(
      phrases(
        /format|local\s+time|utc|24[\s-]hour|12[\s-]hour|decimal\s+(comma|point)/,
        // a unit of measure: "Mileage shows in km"
        /in\s+(km|kilomet(er|re)s|miles|met(er|re)s|centimet(er|re)s|cm|feet|inches|square\s+(feet|foot|met(er|re)s)|sq\.?\s*(ft|m)|metric|imperial|celsius|fahrenheit|kg|kilos|lbs)/,
      ),
    ),
  ),
  sign(
    "a link or button in an existing place",
    anywhere(
      phrases(
        // not "the customer gets a link to say yes": a link sent to someone is a workflow
        /(?<!\b(get|gets|got|receive|receives|send|sends|sent)\s+)(a|an|the)\s+(link|button|menu\s+item)\s+(to|for)/,
        /open\w*\s+(in|with)\s+(\S+\s+)?(maps|a\s+new\s+tab|new\s+tab|a\s+new\s+window)/,
      ),
    ),
    inTitle(/\b(link|button|menu\s+item)s?\b/i),
  ),
  // A custom field is a feature of its own.
  sign(
    "a field on an existing page",
    inTitle(/(?<!custom\s+)\b(fields?|drop-?downs?)\b/i),
    // "Date of death should allow unknown day"
    inTitle(
      phrases(
        /should\s+(allow|accept)\s+(unknown|blank|empty|partial|decimals?|negative|longer|shorter|more)/,
      ),
    ),
  ),
  sign(
    "a limit or number changed",
    inTitle(
      oneOf(
        /\b(limits?|maximum|minimum)\b/,
        /\b(increase|raise|lower|reduce|extend|shorten)\s+(\S+\s+){0,4}(to|from|by)\s+\d/,
        /\b(should\s+)?(start|begin)s?\s+(at|from)\s+\d/,
        /\btoo\s+(fast|quickly|soon|strict|early|late|often)\b/,
      ),
    ),
    // "after 7 days instead of 3", "change the late fee from 15 to 20"
    anywhere(
      oneOf(
        /\b\d[\d.,:]*\s*(%|[a-z]+)?,?\s+(instead\s+of|rather\s+than)\s+\d/,
        /\b(change|increase|raise|lower|reduce|extend|shorten|set)\w*\s+(\S+\s+){0,4}from\s+\S*\d\S*\s+to\s+\S*\d/,
        // a timing: "should be a week before it expires"
        /\bshould\s+(be|go\s+out|arrive|come)\s+(a|an|one|two|three|\d+)\s+(days?|weeks?|months?|hours?)\s+(before|after|earlier|later)\b/,
      ),
    ),
  ),
  sign(
    "a fix to something that exists",
    inTitle(
      phrases(
        /(is|are)\s+(wrong|broken|incorrect)/,
        /wrong\s+(month|day|date|time|year|total|amount|number|name|page|order|address)/,
        /404|broken\s+links?|times?\s+out/,
        /(date|day|month|time|total|amount|number|name|address|price|count|balance|tax)s?\s+(is\s+|are\s+)?(wrong|incorrect)/,
      ),
    ),
    // "The price list PDF has the old logo"
    anywhere(phrases(/(has|have|shows?|uses?|still\s+\w+)\s+the\s+old\s+\w+/)),
  ),
  sign(
    "an edit to an existing record",
    inTitle(
      /^(let\s+(me|us)|allow\s+(me|us)\s+to|can\s+(i|we))\s+(edit|change|correct|undo|delete|remove)\b/i,
    ),
  ),
  sign(
    "a detail shown in an existing place",
    // "It doesn't appear on the booking page"
    anywhere(
      phrases(
        /(doesn't|does\s+not|don't|do\s+not|isn't|is\s+not|aren't|are\s+not|never)\s+(appear|show(\s+up)?|shown|displayed|visible)\s+(on|in)\s+(the|our|my|their)/,
      ),
    ),
    inTitle(
      oneOf(
        // "Show the SKU on the packing slip"
        /^(show|display|include|print|put)\s+(the\s+|a\s+|an\s+)?[\w' -]{1,40}?\s+(on|in|at|next\s+to|under|below|above|beside)\s+(the|each|every|our|my|their|its|his|her|a|an)\b/,
        // "Matter number on the invoice PDF"
        /^[\w' -]{0,40}?\b(number|name|date|time|icon|photo|picture|count|total|price|address|phone|note|status|code|id|reference|balance|size|dimension|instruction|detail|comment|description)s?(\s+only)?\s+(on|in|at|next\s+to|under|below|above|beside)\s+(the|each|every|our|my|their|a|an)\b/,
        // "Booking confirmation: add the parking info"
        /^[\w' -]{1,40}:\s*(add|show|include|display)\s+(the|a|an|our)\s+\w+/,
        // "The export should include the class name"
        /\b(export|list|csv|report|table|page|email|invoice|receipt|slip|profile)\s+(should\s+)?(include|show|display|list|say|mention)s?\b/,
      ),
    ),
  ),
];

/**
 * Where a change goes, in a title: "on the donation form", "in the mobile app". A larger build named only
 * there is the place, not the work: "The 'Submit' button says 'Send' on the donation form" is a wording
 * change.
 */
const PLACE =
  /\b(on|in|at|from|to|inside)\s+(the|our|my|each|every)\s+(\S+\s+){0,3}?(page|form|screen|tab|list|view|menu|email|app|window|dialog|popup|sidebar|settings|panel|slip|receipt)s?\b/gi;

/**
 * A wording quoted in a title: "still says 'Thanks for your donation'". Quoted words are the text being
 * discussed, not the work, so no larger build is read inside them. An apostrophe inside a word
 * ("Client's") opens no quotation.
 */
const QUOTED = new RegExp(`(?<=^|[\\s(])${QUOTE}${NOT_QUOTE}{1,60}${QUOTE}(?=$|[\\s.,;:!?)])`, "g");

/** At most this many words (title and description) is a one-line request. */
const ONE_LINE_WORDS = 12;

interface Found {
  concept: string;
  evidence: string;
}

type Place = "title" | "description";

/** The first sign of a checklist in a text; `skipWishes` reads only the words that name the work. */
function firstSign(
  signs: readonly Sign[],
  text: string,
  place: Place,
  skipWishes = false,
): Found | undefined {
  for (const { concept, words } of signs) {
    for (const { pattern, inDescription, wish } of words) {
      if ((place === "description" && !inDescription) || (skipWishes && wish)) continue;
      const match = pattern.exec(text);
      if (match) return { concept, evidence: match[0].replace(/\s+/g, " ") };
    }
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

/** The integration or the import names the other product when the request does: "an import from Trello". */
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
 * The sign that sizes a request, in this order. The title is the request and wins: a larger build in it;
 * else a new capability, unless the title names a small change ("Option to …" is no such change: it is
 * how a wish is phrased); else a small change; else another product's bare name ("Xero"). Only then the
 * description: a larger build or a new capability before a small change, since a small touch inside a
 * big request is part of it. Quoted words and the place of a change ("on the donation form") are not
 * read as the title's work.
 */
function sizeSign(request: SizedRequest): { kind: "small" | "large"; found: Found } | undefined {
  const { title } = request;
  const description = request.description ?? "";
  const titleWork = title.replace(QUOTED, " ").replace(PLACE, " ");
  const large = (found: Found | undefined) => (found ? { kind: "large" as const, found } : undefined);
  const small = (found: Found | undefined) => (found ? { kind: "small" as const, found } : undefined);
  const smallWorkInTitle = firstSign(SMALL_CHANGES, title, "title", true);
  return (
    large(firstSign(LARGER_BUILDS, titleWork, "title")) ??
    (smallWorkInTitle ? undefined : large(firstSign(NEW_CAPABILITIES, titleWork, "title"))) ??
    small(firstSign(SMALL_CHANGES, title, "title")) ??
    large(
      productIn(title) ??
        firstSign(LARGER_BUILDS, description, "description") ??
        firstSign(NEW_CAPABILITIES, description, "description") ??
        productIn(description),
    ) ??
    small(firstSign(SMALL_CHANGES, description, "description"))
  );
}

/**
 * How big a request looks from its text (`sizeSign`). Length is no sign: a long description of a wording
 * change is still a wording change, and a one-line "Offline mode" is not small for being short. One
 * estimate for the rank and the reason, so a plan never ranks as quick what its reason calls large.
 */
export function effortOf(request: SizedRequest): Effort {
  const text = `${request.title} ${request.description ?? ""}`;
  const sized = sizeSign(request);
  if (sized?.kind === "large") {
    const { concept, evidence } = named(sized.found, text);
    return {
      kind: "large",
      units: 4,
      words: `likely a larger build (it involves ${shown(evidence)}): ${concept}`,
    };
  }
  if (sized?.kind === "small") {
    const { concept, evidence } = sized.found;
    return {
      kind: "small",
      units: 1,
      words: `likely a small change ("${evidence.toLowerCase()}"): ${concept}`,
    };
  }
  const length = text.split(/\s+/).filter(Boolean).length;
  if (length <= ONE_LINE_WORDS)
    return { kind: "one-line", units: 2, words: "size unknown (a one-line request)" };
  return { kind: "unclear", units: 2, words: `a ${length}-word request: size it before committing` };
}
