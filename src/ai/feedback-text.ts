/**
 * Pasted feedback (an email, a chat message, a tweet, a call note) read as a request: its HTML turned into
 * text, the addressing around it (mentions, greeting, sign-off) set aside, and its title found among its
 * sentences. The local provider's extraction and from-text's check that a text asks anything at all both
 * read it the same way (docs/ai.md, "Extraction").
 */

/** Tags that start a line of their own in a pasted e-mail or rich-text field. */
const BLOCK_TAGS =
  /<\/?(?:p|div|li|ul|ol|h[1-6]|blockquote|tr|table|section|article|header|footer|pre|hr)\b[^>]*>/gi;
const LOOKS_LIKE_HTML =
  /<(?:p|div|br|span|b|i|u|strong|em|a|ul|ol|li|h[1-6]|blockquote|table|tr|td|font|html|body)\b[^>]*>/i;
const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  rsquo: "\u2019",
  lsquo: "\u2018",
  rdquo: "\u201d",
  ldquo: "\u201c",
  mdash: "\u2014",
  ndash: "\u2013",
  hellip: "\u2026",
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? entity;
  });
}

/**
 * The text of a paste, line breaks as LF. An HTML paste (a rich-text e-mail) becomes its text: block tags
 * and `<br>` line breaks, every other tag dropped, entities decoded; plain text is left as it is.
 */
export function plainTextOf(text: string): string {
  const unix = text.replace(/\r\n?/g, "\n");
  if (!LOOKS_LIKE_HTML.test(unix)) return unix;
  return decodeEntities(
    unix
      .replace(/<(script|style|head)\b[\s\S]*?<\/\1\s*>/gi, "")
      .replace(/<!--[\s\S]*?-->/g, "")
      .replace(/<br\s*\/?>/gi, "\n")
      .replace(BLOCK_TAGS, "\n")
      .replace(/<[^>]*>/g, ""),
  )
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Words that show a short phrase asks something, so it is no greeting's address nor a signature. */
const ASKING_WORDS =
  /\b(can|could|would|will|is|are|do|does|please|pls|need|want|add|why|how|what|when|i|we|my|our|it|this|there['’]s|just|no)\b/i;

/** Slack and chat addressing before the message: "@channel", "#billing", "@ana heads up from CS:". */
const MENTIONS = /^\s*(?:[@#][a-z][\w.-]*[\s,:;–—-]*)+/i;
const HEADS_UP = /^\s*(?:fyi|heads[\s-]?up|psa)\b(?:\s+(?:from|via)\s+[^:\n]{1,40})?\s*[:,–—-]+\s*/i;

const GREETING_WORD =
  /^\s*(?:hi|hiya|hello|hallo|hey|heya|hola|bonjour|greetings|yo|dear|good\s+(?:morning|afternoon|evening|day))\b/i;
/**
 * After the greeting word: a short address ended by punctuation, a dash between spaces or the line's end
 * ("team,", "Billfold!", "folks -", "Billfold-Team,").
 */
const ADDRESS = /^[ \t]*([^\n,.!?:;–—]{0,40}?)[ \t]*(?:[,.!:;–—]+|\s-+(?=\s)|(?=\n|$))[ \t]*/;
const ADDRESS_MOST_WORDS = 4;

/**
 * The text without its greeting: the greeting word and a short address ("Hi team,", "Hello Billfold,",
 * "Hey folks -", "Good morning all!"); when what follows the word is no address ("hey is there a way…",
 * "Hi there is no way to…"), only the word.
 */
function withoutGreeting(text: string): string {
  const word = GREETING_WORD.exec(text);
  if (!word) return text;
  const rest = text.slice(word[0].length);
  const address = ADDRESS.exec(rest);
  if (address) {
    const words = address[1]!.split(/\s+/).filter(Boolean);
    if (words.length <= ADDRESS_MOST_WORDS && !ASKING_WORDS.test(address[1]!)) {
      return rest.slice(address[0].length);
    }
  }
  return rest.replace(/^[\s,!.:;–—-]+/, "");
}

/**
 * A line that closes a message: "Thanks,", "Thanks so much!", "Best regards", "Cheers, Ann", "Sent from my
 * iPhone", "--". A name may follow it, capitalised; "Thanks to the 400 inactive clients…" is no sign-off.
 */
const SIGN_OFF_LINE =
  /^(?:(?:many|huge|big)\s+)?(?:thanks|thank\s+you|thx|ty|cheers|regards|best|kind\s+regards|warm\s+regards|best\s+regards|best\s+wishes|all\s+the\s+best|sincerely|yours(?:\s+truly|\s+sincerely)?|talk\s+soon|--|—)(?:\s+(?:so\s+much|a\s+lot|again|in\s+advance|very\s+much|everyone|all))?\s*[,.!]*(?:\s*[-–—]?\s*\p{Lu}[\p{L}.'-]*(?:\s+\p{Lu}[\p{L}.'-]*){0,2})?\s*[,.!]*$|^sent\s+from\s+my\s+[\w\s]{1,30}$/iu;
/** A signature block under a sign-off: a few short lines (a name, a role, a company, a phone number). */
const SIGNATURE_MOST_LINES = 6;
const SIGNATURE_LINE_CHARS = 80;

function isSignature(lines: readonly string[]): boolean {
  const filled = lines.map((line) => line.trim()).filter(Boolean);
  return (
    filled.length <= SIGNATURE_MOST_LINES &&
    filled.every(
      (line) => line.length <= SIGNATURE_LINE_CHARS && !line.endsWith("?") && !/^p\.?\s?s\b/i.test(line),
    )
  );
}

/** The text without its sign-off: from the first sign-off line followed only by a signature block. */
function withoutSignOff(text: string): string {
  const lines = text.split("\n");
  const at = lines.findIndex(
    (line, index) => SIGN_OFF_LINE.test(line.trim()) && isSignature(lines.slice(index + 1)),
  );
  return at === -1 ? text : lines.slice(0, at).join("\n");
}

/** The request in a paste: its text without mentions, greeting and sign-off, trimmed. */
export function cleanFeedback(text: string): string {
  let cleaned = plainTextOf(text).trim();
  cleaned = cleaned.replace(MENTIONS, "").replace(HEADS_UP, "");
  cleaned = withoutGreeting(cleaned).replace(MENTIONS, "").replace(HEADS_UP, "");
  return withoutSignOff(cleaned).trim();
}

/** Whether a text holds a word at all: "...", "🔥🙏" or a lone greeting make no request (from-text refuses them). */
export function holdsWords(cleaned: string): boolean {
  return /\p{L}{2,}/u.test(cleaned);
}

// ---- sentences and the title ----

/** Words a full stop follows without ending the sentence ("e.g. PDFs", "approx. 40 clients", "Dr. Lee"). */
const ABBREVIATIONS = new Set([
  "e.g",
  "eg",
  "i.e",
  "ie",
  "vs",
  "approx",
  "incl",
  "esp",
  "mr",
  "mrs",
  "ms",
  "dr",
  "prof",
  "st",
  "jr",
  "sr",
  "inc",
  "ltd",
  "corp",
  "no",
  "nr",
  "cf",
  "a.m",
  "p.m",
  "u.s",
  "u.k",
]);

/**
 * Sentences: broken at a line break, and at `.`, `!`, `?` or `…` followed by a space, but never inside a
 * number or a version ("$3.1k", "v2.5": no space follows) nor after a common abbreviation or an initial.
 */
export function sentencesOf(text: string): string[] {
  const found: string[] = [];
  let start = 0;
  for (const end of text.matchAll(/[.!?…]+(?=\s|$)|\n+/g)) {
    const stop = end.index + end[0].length;
    if (end[0] === ".") {
      const before = /(\S+)$/.exec(text.slice(start, end.index))?.[1] ?? "";
      const word = before.toLowerCase().replace(/^[("'[]+/, "");
      if (ABBREVIATIONS.has(word) || /^\p{Lu}$/u.test(before)) continue;
    }
    found.push(text.slice(start, stop));
    start = stop;
  }
  found.push(text.slice(start));
  return found.map((sentence) => sentence.trim()).filter((sentence) => /\p{L}/u.test(sentence));
}

/** What asks for something: the cues of a request in customers' words. */
const REQUEST_CUE =
  /\b(please|pls|can (you|we|i)|could (you|we|i)|would (you|it be)|(i|we)(['’]d| would) (love|like)|would love|wants?|wanted|needs?|wish|add|allow|let (us|me)|support|make it|is there (a|any) way|it would be|would be (great|nice|awesome|helpful|amazing|huge|a game changer)|missing|no way to|there['’]?s no way|why (can['’]?t|isn['’]?t|doesn['’]?t|is there no)|should be able|be able to|feature request)\b/i;

/** Sentences of courtesy or praise that carry no request: never a title ("Hope you're well"). */
const PLEASANTRY =
  /^(i\s+)?hope\s+(you|this|all|everyone)|^(how\s+are\s+you|thanks?\s+(you\s+)?(so\s+much\s+)?for|thank\s+you|i(['’]m|\s+am)\s+writing|just\s+(a\s+)?(quick\s+)?(note|question)|quick\s+question|long\s+time\s+(user|customer)|first\s+of\s+all|((i|we)(['’]ve|\s+have)\s+)?been\s+using|(i|we)\s+(really\s+|absolutely\s+)?(love|like|enjoy)\b|love\s+(how|that|the|your|it|this|using)|big\s+fan|great\s+(app|product|tool|work|job|software)|keep\s+up|you\s+(guys\s+)?(rock|are\s+(great|awesome|amazing)))/i;

/** Where a sentence falls into clauses: the request of "Thanks for the fix, could you also add X" is its second. */
const CLAUSE_BREAK = /,\s+|;\s+|:\s+|\s+[-–—]\s+|\s+but\s+/gi;

/** The part of a sentence that asks: from its first clause with a request cue, unless that is a pleasantry. */
function requestPart(sentence: string): string | null {
  if (!REQUEST_CUE.test(sentence)) return null;
  const starts = [0, ...[...sentence.matchAll(CLAUSE_BREAK)].map((match) => match.index + match[0].length)];
  for (const start of starts) {
    const rest = sentence.slice(start);
    const clause = rest.split(CLAUSE_BREAK)[0]!;
    if (REQUEST_CUE.test(clause) && !PLEASANTRY.test(rest)) return rest;
  }
  return PLEASANTRY.test(sentence) ? null : sentence;
}

/** Openings that say "this is a request" and not what is requested; removed from the title, repeatedly. */
const LEAD_IN =
  /^(a\s+suggestion|it\s+would\s+be\s+(great|nice|awesome|helpful|good)\s+(if|to)(\s+(you|we|i)\s+could)?|also|would\s+it\s+be\s+possible\s+to|is\s+there\s+(a|any)\s+way\s+to|(can|could|would)\s+(you|we|i)(\s+please)?(\s+(get|have))?|please|pls|let\s+(us|me)|((i|we)\s*(['’]d|\s+would)|would)\s+(love|like)(\s+to)?(\s+be\s+able\s+to)?|(i|we)\s+(really\s+)?(wish|need|want)(\s+to)?(\s+be\s+able\s+to)?)\b[\s:,]*/i;
/** A label before a colon ("Quick question:", "From CS:") is not the request either. */
const LABEL =
  /^(?:quick\s+question|question|one\s+(?:more\s+|small\s+)?thing|small\s+thing|feature\s+request|request|idea|suggestion|note|fyi|heads[\s-]?up|update|from\s+[^:\n]{1,60}|customer\s+(?:asks?|requests?|feedback))\s*:\s+/i;

/** A title's longest, cut at a clause or a word boundary: a title is read in a list, not as a paragraph. */
export const TITLE_MOST_CHARS = 80;
const TITLE_FEWEST_CHARS = 25;
const CLAUSE_END =
  /,\s|;\s|\s(?:and then|because|since|so that|so|when|as|but|which|while|if|where|otherwise|instead of)\s/gi;

/** Why a request is wanted, after what is wanted ("…, so clients see the hours"): the description's part. */
const PURPOSE = /,?\s+(?:so\s+that|so|because|since)\s+/i;
const PURPOSE_AFTER_CHARS = 12;

function shortened(request: string): string {
  const purpose = PURPOSE.exec(request);
  const title = purpose && purpose.index >= PURPOSE_AFTER_CHARS ? request.slice(0, purpose.index) : request;
  if (title.length <= TITLE_MOST_CHARS) return title;
  const clauseEnds = [...title.matchAll(CLAUSE_END)]
    .map((match) => match.index)
    .filter((at) => at >= TITLE_FEWEST_CHARS && at <= TITLE_MOST_CHARS);
  if (clauseEnds.length > 0) return title.slice(0, clauseEnds[clauseEnds.length - 1]);
  const cut = title.slice(0, TITLE_MOST_CHARS - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), TITLE_FEWEST_CHARS)).replace(/[\s,;:]+$/, "")}…`;
}

/**
 * A title for cleaned feedback: the first sentence that asks for something (from its request clause),
 * else the first that is no pleasantry, without its lead-in ("could you", "we need"), at most
 * TITLE_MOST_CHARS.
 */
export function titleOf(cleaned: string): string {
  const all = sentencesOf(cleaned);
  const asking = all.map(requestPart).find((part) => part !== null);
  const plain = all.filter((sentence) => !PLEASANTRY.test(sentence));
  let title = (
    asking ??
    plain.find((sentence) => sentence.split(/\s+/).length >= 2) ??
    plain[0] ??
    all[0] ??
    cleaned
  ).trim();
  for (let pass = 0; pass < 3; pass++) title = title.replace(LABEL, "").replace(LEAD_IN, "");
  title = shortened(title.replace(/[.!?…\s]+$/, "").trim());
  if (title === "") title = cleaned.slice(0, TITLE_MOST_CHARS).trim() || "Feedback";
  return title[0]!.toUpperCase() + title.slice(1);
}
