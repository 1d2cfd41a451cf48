import { inVocabulary, nearestVocabularyWord, type WordKind } from "./word-vectors";

/**
 * Text normalisation for the local provider: what makes "Dark theme for the app" and "please add a night
 * mode" land on the same features. Deterministic and network-free (docs/ai.md).
 */

/** Phrases rewritten to one canonical token before tokenising, longest first within each group. */
const PHRASES: [RegExp, string][] = [
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
  "us",
  "inbound",
  "outbound",
  "darkmode",
  "lightmode",
  "dark",
  "light",
]);

/**
 * True when two titles each name a contrast term the other does not ("Desktop client for Mac" and
 * "Desktop client for Windows"): two requests, however alike the rest of their text, so never duplicates.
 * Titles only: a description often names every platform the customer uses.
 */
export function titlesSetApart(a: string, b: string): boolean {
  // Unstemmed words too: "windows" is a platform, its stem "window" is not.
  const contrasts = (title: string) =>
    new Set([...normalise(title).split(" "), ...terms(title)].filter((word) => CONTRAST_TERMS.has(word)));
  const first = contrasts(a);
  const second = contrasts(b);
  const onlyIn = (one: Set<string>, other: Set<string>) => [...one].some((term) => !other.has(term));
  return onlyIn(first, second) && onlyIn(second, first);
}

/** Single words rewritten to a canonical stem (after stemming). */
const WORDS: Record<string, string> = {
  colour: "color",
  theme: "color",
  palett: "color",
  customis: "custom",
  customiz: "custom",
  personali: "custom",
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
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['’]/g, "")
    .replace(/[^a-z0-9@]+/g, " ");
}

function foldPhrases(plain: string): string {
  let value = ` ${plain} `;
  for (const [pattern, replacement] of PHRASES) value = value.replace(pattern, replacement);
  return value.replace(/\s+/g, " ").trim();
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
    WORDS[stem(word)] !== undefined ||
    foldPhrases(word) !== word
  );
}

/**
 * Misspelt words mended from the word vectors' vocabulary (word-vectors.ts): "intergration" →
 * "integration", "calender" → "calendar". Only a word that looks like an ordinary word is mended: at least
 * 5 letters, all lower case, neither in the vocabulary nor in the lexicon; and only into a word one edit
 * away that starts with the same letter. A word with a capital may be a name ("Figma", "OAuth", "Zapier"
 * are one edit from "sigma", "oath", "napier") and stays as it is, wherever it stands in the text.
 */
function mendSpelling(text: string): string {
  return text.replace(/[A-Za-z]+/g, (word) => {
    if (word.length < 5) return word;
    const lower = word.toLowerCase();
    if (word !== lower) return word;
    if (STOPWORDS.has(lower) || inVocabulary(lower) || lexiconWord(lower)) return word;
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
export function readText(text: string): { terms: string[]; meaningWords: Map<string, WordKind> } {
  const termList: string[] = [];
  const meaningWords = new Map<string, WordKind>();
  for (const word of foldPhrases(plainText(mendSpelling(text))).split(" ")) {
    if (word === "" || STOPWORDS.has(word)) continue;
    const concept = CANONICAL.has(word);
    const stemmed = concept ? word : stem(word);
    const contrast = CONTRAST_TERMS.has(word) || CONTRAST_TERMS.has(stemmed);
    meaningWords.set(word, contrast ? "contrast" : concept ? "concept" : "general");
    const canonical = WORDS[stemmed] ?? stemmed;
    if (canonical.length < 2 && !/\d/.test(canonical)) continue;
    termList.push(canonical);
  }
  return { terms: termList, meaningWords };
}

/** The content words of a text, stemmed and mapped to canonical forms, stopwords removed, in order. */
export function terms(text: string): string[] {
  return readText(text).terms;
}
