import { inVocabulary, nearestVocabularyWord, type WordKind } from "./word-vectors";

/**
 * Text normalisation for the local provider: what makes "Dark theme for the app" and "please add a night
 * mode" land on the same features. Deterministic and network-free (docs/ai.md).
 */

/** Phrases rewritten to one canonical token before tokenising, longest first within each group. */
const PHRASES: [RegExp, string][] = [
  // General product vocabulary (what one thing is called across boards, apps and teams), written from how
  // feature requests name things, not from the fixtures: checked after the fact, never tuned on them.
  [/\b(performance\s+reviews?|appraisals?|1\s*:\s*1s?|one[\s-]+on[\s-]+ones?)\b/g, " perfreview "],
  [/\b(expense\s+(reports?|claims?)|expenses|reimburse\w*)\b/g, " expense "],
  [/\b(saved\s+(searches|search|filters?|views?)|custom\s+views?|personal\s+views?)\b/g, " savedview "],
  [/\b(status\s+page|uptime\s+page|incident\s+page)\b/g, " statuspage "],
  [/\b(live\s+chat|chat\s+widget|chat\s+bubble|website\s+chat)\b/g, " livechat "],
  [
    /\b(knowledge\s*base|help\s+cent(er|re)|help\s+articles?|faqs?|self[\s-]*service\s+portal)\b/g,
    " helpcenter ",
  ],
  [/\b(canned\s+(responses?|replies)|saved\s+replies|reply\s+templates?|macros?)\b/g, " cannedreply "],
  [/\b(slas?|service\s+level(\s+agreements?)?|response\s+time\s+targets?)\b/g, " sla "],
  [/\b(sub[\s-]*tasks?|child\s+(tasks?|issues?)|checklists?)\b/g, " subtask "],
  [/\b(dependenc(y|ies)|blocked\s+by|blocking|predecessors?)\b/g, " dependency "],
  [/\b(story\s+points?|estimates?|estimation|t[\s-]*shirt\s+sizes?)\b/g, " estimate "],
  [
    /\b(time\s+tracking|track\s+time|timers?|timesheets?|log\s+hours|hours\s+logged|clock\s+(in|out))\b/g,
    " timetracking ",
  ],
  [/\b(sprints?|iterations?)\b/g, " sprint "],
  [/\b(approvals?|approve|sign[\s-]*off)\b/g, " approval "],
  [/\b(automations?|automate|automatic\s+rules?|if\s+this\s+then\s+that)\b/g, " automation "],
  [/\b(drag\s*(and|&|n)?\s*drop|drag)\b/g, " draganddrop "],
  [/\b(version\s+history|revisions?|previous\s+versions?|older\s+versions?)\b/g, " versionhistory "],
  [/\b(browser\s+extensions?|chrome\s+extensions?|firefox\s+add[\s-]*ons?)\b/g, " browserextension "],
  [/\b(desktop\s+(apps?|clients?|applications?)|native\s+client)\b/g, " desktopapp "],
  [/\b(embed(ded|dable|ding)?|iframes?)\b/g, " embed "],
  [/\b(sub[\s-]*domains?|custom\s+domains?|own\s+domains?|cname|vanity\s+urls?)\b/g, " customdomain "],
  [/\b(captchas?|recaptcha|spam\s+protection|bot\s+protection|spam\s+filter\w*)\b/g, " antispam "],
  [/\b(e[\s-]*signatures?|esign\w*|digital\s+signatures?|sign\s+documents?)\b/g, " esignature "],
  [/\b(payroll|salar(y|ies)|pay\s*slips?|wages?)\b/g, " payroll "],
  [/\b(time\s+off|vacations?|holidays?|pto|annual\s+leave|days\s+off)\b/g, " timeoff "],
  [/\b(org(ani[sz]ation(al)?)?\s+charts?|reporting\s+lines|hierarch(y|ies))\b/g, " orgchart "],
  [/\b(shifts?|rotas?|rosters?)\b/g, " shift "],
  [/\b(appointments?|bookings?|reservations?|book\s+a\s+(slot|meeting|call))\b/g, " booking "],
  [/\b(sms|text\s+messages?)\b/g, " sms "],
  [/\b(screen\s*shar(e|ing))\b/g, " screenshare "],
  [/\b(transcripts?|transcription|transcribe|captions?|subtitles?)\b/g, " transcript "],
  [/\b(do\s+not\s+disturb|dnd|quiet\s+hours|snooze|mute)\b/g, " donotdisturb "],
  [/\b(online\s+status|presence|away\s+status|status\s+messages?)\b/g, " presence "],
  [/\b(remember\s+me|stay\s+(logged|signed)\s+in|keep\s+me\s+(logged|signed)\s+in)\b/g, " rememberme "],
  [/\b(forgot(ten)?\s+(my\s+)?password|password\s+reset|reset\s+(my\s+)?password)\b/g, " passwordreset "],
  [/\b(magic\s+links?|passwordless|login\s+links?)\b/g, " magiclink "],
  [/\b(password\s+(policy|policies|rules|complexity|requirements))\b/g, " passwordpolicy "],
  [
    /\b(session\s+time\s*outs?|auto(matic(ally)?)?[\s-]*log\s*out|idle\s+time\s*outs?)\b/g,
    " sessiontimeout ",
  ],
  [
    /\b(ip\s+(allow|white|safe)[\s-]*lists?|restrict\s+(access\s+)?by\s+ip|ip\s+restrictions?)\b/g,
    " ipallowlist ",
  ],
  [/\b(encrypt\w*|e2ee)\b/g, " encryption "],
  [/\b(gdpr|right\s+to\s+be\s+forgotten|data\s+deletion\s+requests?)\b/g, " gdpr "],
  [/\b(delete\s+(my\s+)?account|close\s+(my\s+)?account|deactivate\s+(my\s+)?account)\b/g, " deleteaccount "],
  [/\b(invit(e|es|ed|ing|ations?))\b/g, " invite "],
  [
    /\b(onboarding|getting\s+started|walk\s*throughs?|product\s+tours?|guided\s+tours?|tutorials?)\b/g,
    " onboarding ",
  ],
  [/\b(accessibility|a11y|wcag|screen\s+readers?|voice\s*over|nvda|jaws)\b/g, " accessibility "],
  [
    /\b(auto[\s-]*complete|auto[\s-]*suggest|type[\s-]*ahead|suggestions?\s+while\s+typing)\b/g,
    " autocomplete ",
  ],
  [/\b(pagination|paging|infinite\s+scroll(ing)?|load\s+more)\b/g, " pagination "],
  [/\b(compact\s+(view|mode|layout)|density|condensed\s+view)\b/g, " compactview "],
  [/\b(full[\s-]*screen|distraction[\s-]*free|focus\s+mode|zen\s+mode)\b/g, " focusmode "],
  [/\b(right[\s-]+to[\s-]+left|rtl)\b/g, " rtl "],
  [
    /\b(real[\s-]*time|live\s+updates?|auto[\s-]*refresh(es|ing)?|without\s+(a\s+)?refresh(ing)?)\b/g,
    " realtime ",
  ],
  [/\b(pivot\s+tables?|pivots?|cross[\s-]*tabs?)\b/g, " pivot "],
  [/\b(drill[\s-]*downs?|drill\s+into)\b/g, " drilldown "],
  [/\b(forecast\w*|predictions?|projections?)\b/g, " forecast "],
  [/\b(coupons?|discount\s+codes?|promo(tion(al)?)?\s+codes?|vouchers?)\b/g, " coupon "],
  [/\b(gift\s+cards?|gift\s+certificates?)\b/g, " giftcard "],
  [/\b(wish\s*lists?|save\s+for\s+later)\b/g, " wishlist "],
  [/\b(shopping\s+(cart|basket|bag)|carts?|baskets?)\b/g, " cart "],
  [/\b(shipping|postage|parcels?|couriers?|shipments?)\b/g, " shipping "],
  [/\b(inventory|stock\s+levels?|in\s+stock|out\s+of\s+stock)\b/g, " inventory "],
  [/\b(vat|sales\s+tax|tax(es)?)\b/g, " tax "],
  [/\b(multi[\s-]*currenc(y|ies)|currenc(y|ies)|exchange\s+rates?)\b/g, " currency "],
  [/\b(subscriptions?|pricing\s+plans?|upgrade\s+(my\s+)?plan|downgrade)\b/g, " subscription "],
  [/\b(pull\s+requests?|merge\s+requests?|prs?)\b/g, " pullrequest "],
  [/\b(code\s+reviews?|reviewers?)\b/g, " codereview "],
  [/\b(continuous\s+integration|ci|ci\/cd|build\s+pipelines?|pipelines?)\b/g, " ci "],
  [/\b(deploy\w*|releases?\s+to\s+production|ship\s+to\s+production)\b/g, " deploy "],
  [/\b(env(ironment)?\s+var(iable)?s?|secrets?)\b/g, " secrets "],
  [/\b(docker|containers?|container\s+images?)\b/g, " container "],
  [/\b(kubernetes|k8s|helm\s+charts?)\b/g, " kubernetes "],
  [/\b(caching|cache[sd]?)\b/g, " cache "],
  [/\b(build\s+logs?|console\s+output|log\s+output|logs)\b/g, " logs "],
  [/\b(emoji\s+reactions?|reactions?|react\s+with)\b/g, " reaction "],
  [/\b(threads?|threaded)\b/g, " thread "],
  [/\b(channels?|chat\s+rooms?)\b/g, " channel "],
  [/\b(direct\s+messages?|dms?|private\s+messages?)\b/g, " directmessage "],
  [
    /\b(date\s+formats?|time\s+formats?|24[\s-]*h(our)?\s+(clock|time|format)|12[\s-]*h(our)?\s+(clock|time|format))\b/g,
    " dateformat ",
  ],
  [/\b(first\s+day\s+of\s+(the\s+)?week|week\s+starts?\s+on)\b/g, " weekstart "],
  [/\b(metric\s+units|imperial\s+units|units\s+of\s+measure\w*)\b/g, " units "],
  [/\b(dark|night|black|dim)\s+(mode|theme|themes|ui|skin|version|colou?r\s+scheme)\b/g, " darkmode "],
  [/\b(darker|dark)\s+(colou?rs?|scheme|background)\b/g, " darkmode "],
  [/\b(light)\s+(mode|theme|themes|ui)\b/g, " lightmode "],
  [/\b(due\s+dates?|deadlines?)\b/g, " deadline "],
  [/\b(time\s*line|gantt)\b/g, " timeline "],
  [/\b(single\s+sign[\s-]*on|sso|saml|okta|azure\s+ad|google\s+workspace\s+login)\b/g, " sso "],
  [
    /\b(two|2)[\s-]*(factor|step)(\s+(auth\w*|login|verification))?\b|\b2fa\b|\bmfa\b|\bmulti[\s-]*factor\b|\btotp\b/g,
    " 2fa ",
  ],
  [/\b(api\s+keys?|access\s+tokens?|personal\s+tokens?)\b/g, " apikey "],
  [/\b(web\s*hooks?)\b/g, " webhook "],
  [/\b(csv|excel|xlsx|spreadsheet)s?\b/g, " spreadsheet "],
  [/\b(pdfs?)\b/g, " pdf "],
  // The platform stays beside the concept: "Android app" and "iOS app" are both mobile, and different.
  [/\b(android|google\s+pixel|pixel|samsung\s+galaxy)\b/g, " mobileapp android "],
  [/\b(i\s*os|iphone|ipad)\b/g, " mobileapp ios "],
  [/\b(mobile\s+apps?|phone\s+apps?|native\s+apps?)\b/g, " mobileapp "],
  [/\b(e[\s-]*mail|emails)\b/g, " email "],
  [/\b(push\s+notifications?|notifications?|alerts?|notify|notified)\b/g, " notification "],
  [/\b(slack)\b/g, " chatapp slack "],
  [/\b(microsoft\s+teams|ms\s+teams)\b/g, " chatapp msteams "],
  [/\b(keyboard\s+shortcuts?|hot\s*keys?|key\s+bindings?)\b/g, " shortcut "],
  [/\b(bulk|batch|mass|multiple\s+at\s+once|many\s+at\s+once|several\s+at\s+once)\b/g, " bulk "],
  [/\b(time\s*zones?|tz)\b/g, " timezone "],
  [/\b(google\s+calendar)\b/g, " calendarsync google "],
  [/\b(outlook\s+calendar|microsoft\s+outlook|outlook)\b/g, " calendarsync outlook "],
  [/\b(calendar\s+sync|ical|calendar\s+app|my\s+calendar|calendars?)\b/g, " calendarsync "],
  [/\b(languages?|translations?|translate|locali[sz]ation|i18n|multilingual)\b/g, " language "],
  [/\b(search\s+bar|search\s+box|find)\b/g, " search "],
  [/\b(filters?|filtering|filter\s+by)\b/g, " filter "],
  [/\b(sort|sorting|order\s+by|reorder)\b/g, " sort "],
  [/\b(charts?|graphs?|visuali[sz]ations?|plots?)\b/g, " chart "],
  [/\b(dashboards?|overview\s+page|home\s+screen)\b/g, " dashboard "],
  [/\b(reports?|reporting|analytics|stats|statistics|metrics|insights)\b/g, " report "],
  [/\b(offline|without\s+(an\s+)?internet|no\s+connection|no\s+internet)\b/g, " offline "],
  [/\b(permissions?|roles?|access\s+control|rbac|access\s+levels?)\b/g, " permission "],
  [
    /\b(audit\s+(logs?|trails?)|activity\s+logs?|history\s+of\s+changes|change\s+history(\s+log)?|record\s+of\s+every\s+edit)\b/g,
    " auditlog ",
  ],
  [
    /\b(white[\s-]*label\w*|brand(ing)?\s+colou?rs?|our\s+palette|company\s+colou?rs?|brand\s+theme)\b/g,
    " branding ",
  ],
  [/\b(read\s+receipts?|seen\s+indicator|read\s+status|opened\s+the\s+chat)\b/g, " readreceipt "],
  [/\b(scim|provisioning|directory\s+sync|user\s+sync|sync\s+from\s+our\s+directory)\b/g, " provisioning "],
  [/\b(side\s*bar|side\s+navigation|navigation\s+panel|left\s+menu|side\s+menu)\b/g, " sidebar "],
  [/\b(collapse|minimi[sz]e|fold\s+away|hide)\b/g, " collapse "],
  [/\b(pin|pinned|star|starred|favou?rites?)\b/g, " favorite "],
  [
    /\b(custom\s+fields?|user[\s-]*defined\s+(properties|fields|attributes)|extra\s+attributes|own\s+fields)\b/g,
    " customfield ",
  ],
  [/\b(workload|capacity(\s+planning)?|who\s+is\s+busy|too\s+much\s+assigned)\b/g, " workload "],
  [/\b(merge|dedupe|deduplicate|combine|join\s+them)\b/g, " merge "],
  [/\b(csat|satisfaction|happy\s*\/?\s*unhappy|rating)\b/g, " satisfaction "],
  [/\b(conditional|branching|skip\s+logic|depending\s+on\s+(responses|answers))\b/g, " branching "],
  [/\b(video\s+(calls?|meetings?)|conferencing|camera)\b/g, " videocall "],
  [/\b(maps?|geographic\w*|locations?)\b/g, " map "],
  [/\b(cli|command[\s-]+line|terminal|shell)\b/g, " cli "],
  [/\b(rate[\s-]+limits?|quotas?|remaining\s+(calls|requests))\b/g, " ratelimit "],
  [/\b(blueprints?)\b/g, " template "],
  [/\b(restore|recover|trash\s+bin|get\s+(it|them)\s+back)\b/g, " undo "],
  [/\b(reappear|comes?\s+back\s+every)\b/g, " recurring "],
  [/\b(local\s+times?)\b/g, " timezone "],
  [/\b(put\s+\w+\s+away|tuck\w*|out\s+of\s+the\s+sidebar)\b/g, " archive "],
  [/\b(http\s+callbacks?|notify\s+our\s+server|callback)\b/g, " webhook "],
  [/\b(purchases?|buys?|bought|orders?)\b/g, " order "],
  [/\b(build\s+agents?|runners?|ci\s+machines?)\b/g, " runner "],
  [/\b(aarch64|arm64|arm|graviton)\b/g, " arm "],
  [/\b(self[\s-]*hosted|host\s+ourselves|our\s+own\s+(servers?|machines?))\b/g, " selfhosted "],
  [/\b(recurring|repeating|repeat)\b/g, " recurring "],
  [/\b(templates?)\b/g, " template "],
  [/\b(attachments?|attach|upload\s+files?|file\s+uploads?)\b/g, " attachment "],
  [/\b(integrations?|integrate|connect\s+with|connector)\b/g, " integration "],
  [/\b(invoices?|invoicing|billing)\b/g, " invoice "],
  [/\b(undo|revert|roll\s*back)\b/g, " undo "],
  [/\b(to[\s-]*dos?)\b/g, " task "],
  [/\b(repeating|recurring)\b/g, " recurring "],
  [/\b(comments?|replies|reply)\b/g, " comment "],
  [/\b(mentions?|@\s*mention)\b/g, " mention "],
  [/\b(archive|archiving)\b/g, " archive "],
  [/\b(duplicate|copy|clone)\b/g, " clone "],
  [/\b(tags?|labels?)\b/g, " tag "],
  [/\b(fonts?\s+size|text\s+size|bigger\s+text|larger\s+text|zoom)\b/g, " textsize "],
  [/\b(sign\s*up|register|registration|create\s+an\s+account)\b/g, " signup "],
  [/\b(log\s*in|sign\s*in|login)\b/g, " login "],
  [/\b(log\s*out|sign\s*out|logout)\b/g, " logout "],
  [/\b(speed|faster|slow|slowly|performance|lag|laggy|sluggish)\b/g, " performance "],
];

/** The tokens phrases fold into: already canonical, so never stemmed. */
const CANONICAL = new Set(PHRASES.flatMap(([, replacement]) => replacement.trim().split(" ")));

/**
 * Words that tell otherwise alike requests apart: the platform, the vendor, the direction of an action
 * ("Android app" vs "iOS app", "export" vs "import", "sign-on" vs "logout"). The local embedder gives them
 * more weight, so two requests differing in one of them fall below the duplicate threshold.
 */
export const CONTRAST_TERMS = new Set([
  "android",
  "ios",
  "windows",
  "linux",
  "mac",
  "slack",
  "msteams",
  "google",
  "outlook",
  "import",
  "export",
  "login",
  "logout",
  "remove",
  "refund",
  "eu",
  "usa",
  "inbound",
  "outbound",
  "darkmode",
  "lightmode",
  "dark",
  "light",
]);

/**
 * File formats a title asks for, as phrases fold them ("csv", "excel" and "xlsx" are all "spreadsheet"):
 * "Export invoices to PDF" and "Export CSV" are two requests, which from-text took for one (0.77). Only
 * the duplicate decision reads them (`titlesSetApart`); the embedder does not weigh them as contrasts,
 * so the similarity figures of docs/ai.md are untouched.
 */
const FILE_FORMATS = new Set(["pdf", "spreadsheet", "json", "xml"]);

/**
 * Channels a message goes out on, as phrases fold them ("text message" is "sms"; Slack and Teams are
 * contrast terms already). A push notification is read from the words themselves: the phrases fold it into
 * "notification", which names no channel. Only the duplicate decision reads them, as FILE_FORMATS.
 */
const CHANNELS = new Set(["sms", "email", "whatsapp"]);
/**
 * Languages a product is translated into: "Translate the app into Portuguese" and "Italian translation"
 * are two requests (0.82 by meaning; an audit's board filed German feedback on "Spanish translation").
 */
const LANGUAGES = new Set(
  (
    "english spanish german french italian portuguese dutch danish swedish norwegian finnish icelandic " +
    "polish czech slovak hungarian romanian bulgarian greek turkish russian ukrainian serbian croatian " +
    "slovenian estonian latvian lithuanian arabic hebrew persian farsi hindi bengali urdu tamil telugu " +
    "thai vietnamese indonesian malay tagalog filipino chinese mandarin cantonese japanese korean " +
    "swahili catalan basque galician welsh irish afrikaans"
  ).split(" "),
);
const PUSH_NOTIFICATION = /\bpush\s+(notifications?|alerts?|messages?)\b/i;

/**
 * Products a title names: a word written with a capital that is neither a general-English word (the word
 * vectors' vocabulary) nor one the lexicon knows ("Strava", "Zapier", "HubSpot"; not "Export", "German",
 * "SAML"). "Strava export" and "Export workout history to CSV" send the data to two places.
 */
function namedProducts(title: string): string[] {
  return (title.match(/\b[A-Z][A-Za-z0-9]{2,}\b/g) ?? [])
    .map((word) => plainText(word).trim())
    .filter((word) => word.length >= 3 && !inVocabulary(word) && !lexiconWord(word));
}

/**
 * True when two titles each name a contrast term, a file format, a channel, a language or a product the
 * other does not ("Desktop client for Mac" and "Desktop client for Windows", "SMS reminders" and "Push
 * notification reminders", "Strava export" and "Export history to CSV"): two requests, however alike the
 * rest of their text, so never duplicates. Titles only: a description often names every platform the
 * customer uses.
 */
export function titlesSetApart(a: string, b: string): boolean {
  // A product name counts only between titles that share a term besides it ("Strava export" / "Export
  // workout history to CSV"): between reworded titles two names are often jargon for one thing ("Passkey
  // support" / "Save FIDO2 / WebAuthn logins").
  const termsOfB = new Set(terms(b));
  const withNames = terms(a).some((term) => termsOfB.has(term));
  // Unstemmed words too: "windows" is a platform, its stem "window" is not.
  const contrasts = (title: string) =>
    new Set([
      ...[...normalise(title).split(" "), ...terms(title)].filter(
        (word) =>
          CONTRAST_TERMS.has(word) || FILE_FORMATS.has(word) || CHANNELS.has(word) || LANGUAGES.has(word),
      ),
      ...(PUSH_NOTIFICATION.test(title) ? ["push"] : []),
      ...(withNames ? namedProducts(title) : []),
    ]);
  const first = contrasts(a);
  const second = contrasts(b);
  const onlyIn = (one: Set<string>, other: Set<string>) => [...one].some((term) => !other.has(term));
  return onlyIn(first, second) && onlyIn(second, first);
}

/**
 * True when two titles' terms (`terms`) read the same but for one place, where each has words the other
 * has nowhere ("Time zone per user" / "Time zone per project", "Public link for a single note" / "Public
 * link for an entire notebook"): what differs is what each one asks for, so they are two requests,
 * however alike the rest. The words they share around that place must be at least as many as the words
 * that differ on either side, so a reworded request that keeps one word ("Night theme for the IDE" / "Dark
 * mode for the code editor") is not taken for one. Terms have phrases folded and words mapped to
 * canonical forms, so a synonym is the same word, not a different one.
 */
export function onePlaceApart(first: readonly string[], second: readonly string[]): boolean {
  let prefix = 0;
  while (prefix < first.length && prefix < second.length && first[prefix] === second[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < first.length - prefix &&
    suffix < second.length - prefix &&
    first[first.length - 1 - suffix] === second[second.length - 1 - suffix]
  )
    suffix++;
  const onlyFirst = first.slice(prefix, first.length - suffix);
  const onlySecond = second.slice(prefix, second.length - suffix);
  if (onlyFirst.length === 0 || onlySecond.length === 0) return false;
  if (prefix + suffix < Math.max(onlyFirst.length, onlySecond.length)) return false;
  return !onlyFirst.some((term) => second.includes(term)) && !onlySecond.some((term) => first.includes(term));
}

/** Single words rewritten to a canonical stem (after stemming). */
const WORDS: Record<string, string> = {
  colour: "color",
  theme: "color",
  palett: "color",
  customis: "custom",
  customiz: "custom",
  personali: "custom",
  personalis: "custom",
  personaliz: "custom",
  schedul: "schedule",
  remind: "reminder",
  download: "export",
  backup: "export",
  extract: "export",
  member: "user",
  teammat: "user",
  colleagu: "user",
  people: "user",
  person: "user",
  delet: "remove",
  eras: "remove",
  pictur: "image",
  photo: "image",
  avatar: "image",
  screenshot: "image",
  chang: "edit",
  modifi: "edit",
  updat: "edit",
  todo: "task",
  ticket: "task",
  issu: "task",
  item: "task",
  card: "task",
  kanban: "board",
  column: "board",
  url: "link",
  sharing: "share",
  public: "share",
  collaborat: "share",
  printer: "print",
  mail: "email",
  inbox: "email",
  pay: "payment",
  paypal: "payment",
  stripe: "payment",
  checkout: "payment",
};

/**
 * WORDS as readText looks it up: by each key and by the key's own stem (stem("palette") is "palet", not
 * "palett"), and each canonical word's stem to that word, so "removed" (stem "remov") lands where "deleted"
 * does ("remove") instead of on a term of its own.
 */
const CANONICAL_BY_STEM = new Map<string, string>();
for (const [key, canonical] of Object.entries(WORDS)) {
  CANONICAL_BY_STEM.set(key, canonical);
  CANONICAL_BY_STEM.set(stem(key), canonical);
}
for (const canonical of new Set(Object.values(WORDS))) {
  if (!CANONICAL_BY_STEM.has(stem(canonical))) CANONICAL_BY_STEM.set(stem(canonical), canonical);
}

const STOPWORDS = new Set(
  (
    "a an the and or but if of to in on at for from by with without into onto about as is are was were be been " +
    "being it its this that these those there here i me my we our us you your they them their he she his her " +
    "can could would should will shall may might must do does did done have has had having not no yes so too " +
    "very really just also please pls thanks thank hi hello hey team guys folks love like want wants wanted " +
    "need needs needed wish hope feature features request requests requested ability able allow allows allowing " +
    "let lets add added adding support supported supporting option options way ways possible nice great good " +
    "cool awesome helpful useful would be it's i'd we'd i'm some any all more most other than then when what " +
    "which who whom how why where while get got getting make makes making use using used app application tool " +
    "product feature's thing things stuff lot lots bit kind sort's really much many every each one two new " +
    "currently current now right still yet already always never sometimes often s t"
  ).split(/\s+/),
);

/** A light suffix stripper: enough to fold plurals and verb forms of product vocabulary together. */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  let stemmed = word;
  for (const suffix of [
    "ational",
    "ization",
    "isation",
    "ations",
    "ation",
    "ments",
    "ment",
    "ings",
    "ing",
    "ers",
    "ies",
    "ied",
    "ed",
    "er",
    "ly",
    "es",
    "s",
    "e",
  ]) {
    if (stemmed.endsWith(suffix) && stemmed.length - suffix.length >= 3) {
      stemmed = stemmed.slice(0, -suffix.length);
      if (suffix === "ies" || suffix === "ied") stemmed += "i";
      break;
    }
  }
  // "scheduling" → "schedul", "schedule" → "schedul": collapse a doubled final consonant too.
  if (/([bdfgmnprt])\1$/.test(stemmed)) stemmed = stemmed.slice(0, -1);
  return stemmed;
}

/** Lower case, accents and punctuation removed: words separated by single spaces. */
function plainText(text: string): string {
  return (
    text
      .normalize("NFKD")
      // "US" in capitals is the country ("US data residency"), where "us" is a stopword.
      .replace(/\bUSA?\b/g, "usa")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/['’]/g, "")
      .replace(/[^a-z0-9@]+/g, " ")
  );
}

function foldPhrases(plain: string): string {
  let value = ` ${plain} `;
  for (const [pattern, replacement] of PHRASES) value = value.replace(pattern, replacement);
  return value.replace(/\s+/g, " ").trim();
}

/**
 * The words of a text as written: lower case, accents removed, stemmed, stopwords left out, and no
 * phrase folded, so "Dark mode" has "dark" and "mode", the words a one-word search for "dark" looks for
 * (`terms` folds it into "darkmode").
 */
export function plainWords(text: string): string[] {
  return plainText(text)
    .split(" ")
    .filter((word) => word !== "" && !STOPWORDS.has(word))
    .map(stem);
}

/** Lower case, accents and punctuation removed, product phrases folded to canonical tokens. */
export function normalise(text: string): string {
  return foldPhrases(plainText(text));
}

/** Words the lexicon knows on its own: never "corrected" into a general-English neighbour ("csv" → "cv"). */
function lexiconWord(word: string): boolean {
  return (
    CANONICAL.has(word) ||
    CONTRAST_TERMS.has(word) ||
    CANONICAL_BY_STEM.has(stem(word)) ||
    foldPhrases(word) !== word
  );
}

/** Endings of inflected forms, each with what may replace it to give the base form. */
const INFLECTIONS: [string, string[]][] = [
  ["ies", ["y"]],
  ["ied", ["y"]],
  ["es", [""]],
  ["s", [""]],
  ["ing", ["", "e"]],
  ["ed", ["", "e"]],
  ["ers", ["", "e"]],
  ["er", ["", "e"]],
  ["ly", [""]],
];

/**
 * Whether a word outside the vocabulary is an inflection of a word inside it ("statuses", "theming"):
 * a real word, so not mended into a vocabulary word one edit away ("statues", "teeming").
 */
function inflectsKnownWord(word: string): boolean {
  for (const [ending, replacements] of INFLECTIONS) {
    if (!word.endsWith(ending)) continue;
    const root = word.slice(0, -ending.length);
    if (
      replacements.some((replacement) => (root + replacement).length >= 3 && inVocabulary(root + replacement))
    )
      return true;
  }
  return false;
}

/**
 * Misspelt words mended from the word vectors' vocabulary (word-vectors.ts): "intergration" →
 * "integration", "calender" → "calendar". Only a word that looks like an ordinary word is mended: at least
 * 5 letters, all lower case, neither in the vocabulary nor in the lexicon; and only into a word one edit
 * away that starts with the same letter. A word with a capital may be a name ("Figma", "OAuth", "Zapier"
 * are one edit from "sigma", "oath", "napier") and stays as it is, wherever it stands in the text.
 */
/**
 * Longer runs of letters are no misspelt word ("internationalization" is 20), and the checks below take
 * time with the square of a word's length: one 10,000-letter "word" in a public submission held the event
 * loop for 11 s, a summary of it for 90 s.
 */
const MEND_MAX_LENGTH = 30;
/**
 * Words looked up for a mend per text: each look-up takes ~0.2 ms, and 10,000 characters of words outside
 * the vocabulary (gibberish, another language) took 200 ms of the event loop. The first ones are the
 * title's and the description's start, where a misspelling matters.
 */
const MEND_MAX_LOOKUPS = 48;

function mendSpelling(text: string): string {
  let lookups = 0;
  return text.replace(/[A-Za-z]+/g, (word) => {
    if (word.length < 5 || word.length > MEND_MAX_LENGTH || lookups >= MEND_MAX_LOOKUPS) return word;
    const lower = word.toLowerCase();
    if (word !== lower) return word;
    if (STOPWORDS.has(lower) || inVocabulary(lower) || lexiconWord(lower) || inflectsKnownWord(lower))
      return word;
    lookups++;
    const nearest = nearestVocabularyWord(lower);
    return nearest !== null && nearest[0] === lower[0] ? nearest : word;
  });
}

/**
 * A text as the local embedder reads it, normalised once (misspellings mended, phrases folded): its terms
 * (content words, stemmed and mapped to canonical forms, stopwords removed, in order) and its meaning words
 * (the distinct words with phrases folded but unstemmed, each with its kind: a contrast term, a canonical
 * token of the phrases above such as "2fa" or "darkmode", or a general word).
 */
export function readText(text: string): ReadText {
  const cached = readCache.get(text);
  if (cached) {
    // Most recently used last: the oldest entry is the first to go.
    readCache.delete(text);
    readCache.set(text, cached);
    return cached;
  }
  const read = readUncached(text);
  if (text.length <= READ_CACHE_LONGEST_TEXT) {
    readCache.set(text, read);
    readCacheChars += text.length;
    for (const [oldest] of readCache) {
      if (readCacheChars <= READ_CACHE_CHARS && readCache.size <= READ_CACHE_ENTRIES) break;
      readCache.delete(oldest);
      readCacheChars -= oldest.length;
    }
  }
  return read;
}

/** A text as `readText` reads it; shared by every caller that reads the same text, so never changed. */
export interface ReadText {
  readonly terms: readonly string[];
  readonly meaningWords: ReadonlyMap<string, WordKind>;
}

/**
 * `readText`'s answers for the texts read lately, by text. Reading one runs the 144 phrase patterns and the
 * spelling repair (0.1–3 ms), and the AI workflows read the same texts over and over: a summary reads each
 * post three times and every word and short phrase of it again (its themes' written forms), triage and
 * the similar-post ranking read the same titles for every post they compare. A 100-post summary held the
 * event loop 300–500 ms. Bounded by characters and by entries (most are single words and short phrases,
 * each a few hundred bytes with its terms), least recently read first out: a few megabytes at most. A
 * text longer than `READ_CACHE_LONGEST_TEXT` is read each time.
 */
const readCache = new Map<string, ReadText>();
let readCacheChars = 0;
const READ_CACHE_CHARS = 1_000_000;
export const READ_CACHE_ENTRIES = 10_000;

/** How much `readText` remembers now: for the tests of its bounds. */
export function readCacheSize(): { entries: number; chars: number } {
  return { entries: readCache.size, chars: readCacheChars };
}
const READ_CACHE_LONGEST_TEXT = 20_000;

function readUncached(text: string): ReadText {
  const termList: string[] = [];
  const meaningWords = new Map<string, WordKind>();
  for (const word of foldPhrases(plainText(mendSpelling(text))).split(" ")) {
    if (word === "" || STOPWORDS.has(word)) continue;
    const concept = CANONICAL.has(word);
    const stemmed = concept ? word : stem(word);
    const contrast = CONTRAST_TERMS.has(word) || CONTRAST_TERMS.has(stemmed);
    meaningWords.set(word, contrast ? "contrast" : concept ? "concept" : "general");
    const canonical = CANONICAL_BY_STEM.get(stemmed) ?? stemmed;
    if (canonical.length < 2 && !/\d/.test(canonical)) continue;
    termList.push(canonical);
  }
  return { terms: termList, meaningWords };
}

/** The content words of a text, stemmed and mapped to canonical forms, stopwords removed, in order. */
export function terms(text: string): readonly string[] {
  return readText(text).terms;
}
