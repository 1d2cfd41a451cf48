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
/** A handle right after the greeting ("hey @maria.k can you…"): its dots are no sentence's end. */
const GREETED_MENTION = /^(\s*(?:hi|hiya|hello|hey|yo|lol|ok|okay|fyi|ping|cc)\b[\s,]*)@\w[\w.-]*\w[\s,:]*/i;
const HEADS_UP = /^\s*(?:fyi|heads[\s-]?up|psa)\b(?:\s+(?:from|via)\s+[^:\n]{1,40})?\s*[:,–—-]+\s*/i;

const GREETING_WORD =
  /^\s*(?:hi|hiya|hello|hallo|hey|heya|hola|bonjour|greetings|yo|dear|good\s+(?:morning|afternoon|evening|day)|guten\s+(?:tag|morgen|abend)|moin|servus|buenos\s+d[ií]as|buongiorno|ciao|salut|bom\s+dia|ol[aá]|hej|goedemorgen|dag)\b/i;
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
  cleaned = cleaned.replace(MENTIONS, "").replace(HEADS_UP, "").replace(GREETED_MENTION, "$1");
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
 * number or a version ("$3.1k", "v2.5": no space follows) nor after a common abbreviation, an initial or a
 * list's numbering ("2. Show weekends").
 */
export function sentencesOf(text: string): string[] {
  const found: string[] = [];
  let start = 0;
  for (const end of text.matchAll(/[.!?…]+(?=\s|$)|\n+/g)) {
    const stop = end.index + end[0].length;
    if (end[0] === ".") {
      const before = /(\S+)$/.exec(text.slice(start, end.index))?.[1] ?? "";
      const word = before.toLowerCase().replace(/^[("'[]+/, "");
      const numbering = /(?:^|\n)[ \t]*\d{1,2}$/.test(text.slice(0, end.index));
      if (ABBREVIATIONS.has(word) || /^\p{Lu}$/u.test(before) || numbering) continue;
    }
    found.push(text.slice(start, stop));
    start = stop;
  }
  found.push(text.slice(start));
  return found.map((sentence) => sentence.trim()).filter((sentence) => /\p{L}/u.test(sentence));
}

/** What asks for something: the cues of a request in customers' words. */
const REQUEST_CUE =
  /\b(please|pls|can (you|we|i)|could (you|we|i)|would (you|it be)|(i|we)(['’]d| would) (love|like)|would love|wants?|wanted|(?<!\b(?:the|our|their|my|your|his|her|its|special|dietary|specific|different|own|these|those|any)\s)needs?|wish|(?<!\b(?:have|has|had)\s+to\s+)add|allow|let (us|me)|(?<=\b(?:please|pls|to|not|n['’]t|no|add|need|needs|want|wants|would|could|can|will|does|do)\s+(?:\w+\s+)?)support|support(?=\s+(?:for|of)\b)|make it|is there (a|any) way|it would be|would be (great|nice|awesome|helpful|amazing|huge|a game changer)|missing|no way to|there['’]?s no way|why (can['’]?t|isn['’]?t|doesn['’]?t|is there no)|should be able|be able to|feature request|(?:is|was|are|were|am|['’]m|['’]re)\s+(?:hoping|wondering))\b/i;

/**
 * Sentences of courtesy or praise that carry no request: a title only when nothing else is ("Hope you're
 * well", and a letter's closing courtesies: "Feel free to reach out", "Let me know if you need more").
 */
const PLEASANTRY =
  /^(i\s+)?hope\s+(you|this|all|everyone)|^(how\s+are\s+you|thanks?\s+(you\s+)?(so\s+much\s+)?for|thank\s+you|i(['’]m|\s+am)\s+writing|just\s+(a\s+)?(quick\s+)?(note|question)|quick\s+question|long\s+time\s+(user|customer)|first\s+of\s+all|((i|we)(['’]ve|\s+have)\s+)?been\s+using|(i|we)\s+(really\s+|absolutely\s+)?(love|like|enjoy)\b|love\s+(how|that|the|your|it|this|using)|big\s+fan|great\s+(app|product|tool|work|job|software)|keep\s+up|you\s+(guys\s+)?(rock|are\s+(great|awesome|amazing))|((please|kindly|do)\s+)?(feel\s+free|reach\s+out|let\s+(me|us)\s+know\b|revert\b|(do\s+not|don['’]?t)\s+hesitate)|looking\s+forward\s+to\s+(hearing|your)|any\s+(help|updates?|news)\s+(is|are|would\s+be)\s+(much\s+|greatly\s+)?appreciated)/i;

// ---- how much a sentence asks, and how much it only sets the scene (docs/ai.md, "Titles of pasted feedback") ----

/** A wish in the conditional: "…would save us hours", "CSV would be far better", "they'd want a report". */
const WISH = /\bwould\b|\b(?:i|we|they|it|that)['’]d\s+(?!been\b)|\bwill\s+only\b/i;
/** How an ask is ranked, and what it is called: "#1 ask", "biggest blocker", "one thing", "main pain point". */
const ASK_RANK = String.raw`#1|main|biggest|big|top|only|one|number\s+one|key|major|real|primary`;
const ASK_NAME = String.raw`ask|request|need|blocker|problem|issue|thing|pain\s+point|wish|feature|objection|gap`;
/**
 * Needs said without a verb of REQUEST_CUE: "being able to", "is a must", "our #1 ask is", "any chance of".
 * "One thing:" only introduces what follows (LABEL), which may be a complaint: it is no need itself.
 */
const NEED = new RegExp(
  String.raw`\b(?:being\s+able\s+to|ability\s+to|option\s+to|(?:a|any)\s+way\s+(?:to|for)|any\s+(?:chance|plans?)|is\s+it\s+possible|is\s+possible|possible\s+to|a\s+must|must[\s-]have|(?!one\s+(?:more\s+|small\s+)?thing\s*[:–—])(?:${ASK_RANK})\s+(?:${ASK_NAME})|(?:keeps?|kept)\s+asking\s+(?:for|to|about|whether|if)|(?:asks?|asked|wonder(?:s|ed|ing)?)\s+(?:whether|if)\s+(?:\S+\s+){0,3}?(?:can|could)|(?:is|are|['’]re|['’]s)\s+(?:asking|requesting)\s+(?:\(\w+\)\s+)?(?:for|about|whether|if)|could\s+(?:really\s+)?use|(?:just|simply|only)\s+(?:a|an|one)\s+(?:\S+\s+){0,2}?(?:button|option|setting|toggle|way|link|field|checkbox|switch|place|report|page|view)\s+(?:to|for|that|where)|(?:i|we|really|still|sorely|so)\s+miss(?:es|ed)?|worth\s+adding|what\s+about|how\s+about|prefer|ideally|should|instead\s+of)\b`,
  "i",
);
/** A question that asks whether the product can do something, or when it will. */
const CAPABILITY_QUESTION =
  /^(?:is|are|can|could|does|do|will|would|when|how|where|why|any|what\s+about|how\s+about)\b[^?]*\?/i;
/** A complaint names what is wanted by what is missing: "only does PDF", "can't filter", "one at a time". */
const COMPLAINT =
  /\b(?:can['’]?t|cannot|can\s+not|couldn['’]?t|doesn['’]?t|don['’]?t|didn['’]?t|won['’]?t|isn['’]?t|aren['’]?t|not|unable|only|no\s+way|lack|without|never|still|stopped|fail(?:s|ed)?|broken|crash(?:es|ed)?|slow|too\s+\w+|hard\s+to|impossible|confus\w*|annoying|frustrat\w*|limited|removed|unusable|waste\w*|struggl\w*|every\s+time|by\s+hand|manually|one\s+by\s+one|one\s+at\s+a\s+time|delet(?:ed|es|ing)|wip(?:ed|es|ing)|eras(?:ed|es|ing)|disappear\w*|vanish\w*|(?:threw|throws|thrown)\s+away|stuck)\b/i;
/** A sentence that starts with what to do: "Show the total at the bottom", "Save the address!". */
const IMPERATIVE =
  /^(?:please\s+)?(?:add|allow|show|let|make|give|bring|include|enable|provide|save|sort|hide|export|import|sync|remove|change|put|offer|display|send|keep|stop|fix)\b/i;
/** A label that says a request follows: "Request: consolidated invoices", "Idea: let customers…". */
const REQUEST_LABEL =
  /^(?:(?:feature\s+)?(?:requests?|asks?|ideas?|suggestions?|wish(?:\s*list)?|thoughts?|asked\s+for|requested)|(?:agent\s+|ticket\s+|case\s+|call\s+)?summary|issue|problem|cons|dislikes?|what\s+(?:do\s+you|did\s+you|i|we)\s+dislike)\s*[:?]/i;
/**
 * A review's heading of praise ("Pros:", "Likes:", "What do you like best?"): what follows it, on its line or
 * under it until the next heading, is praise, not a request.
 */
const PRAISE_HEADING =
  /^(?:pros?|likes?|liked|the\s+good|positives?|strengths?|what\s+(?:do\s+you|did\s+you|i|we)\s+(?:like|love)(?:\s+(?:best|most))?(?:\s+about\s+[^:?]{1,30})?)\s*[:?]/i;
/** A heading of any section of a review or a ticket: a few words before a colon or a question mark. */
const SECTION_HEADING = /^[\p{L}\s'’-]{1,40}[:?](?:\s|$)/u;
/** What follows without the ask ("Without it, security won't sign off"): how much it matters, the scene. */
const CONSEQUENCE = /^(?:without|until)\s+(?:it|this|that|them)\b/i;
/** What an agent or the writer answered the customer ("Agent replied that's not possible"): the scene. */
const REPLIED =
  /^(?:the\s+)?(?:agent|support|rep|cs|we|i)\s+(?:replied|answered|responded|explained|told\s+(?:them|him|her|the\s+\w+))\b/i;
/** The customer's turn of a chat transcript ("Visitor: hey do you do child check-in?"): the label goes. */
const CUSTOMER_SPEAKER =
  /^(?:customer|visitor|caller|client|user|guest|member|prospect|lead|buyer|patient|parent)\s*(?:\([^)]*\))?\s*:\s*/i;
/** A support agent's line of a chat transcript ("Agent: Not currently, no."): the answer, not the ask. */
const AGENT_LINE = /^(?:agent|support|rep|operator|advisor|cs|me)\s*(?:\([^)]*\))?\s*:/i;
/** A line of a list: "- recurring tasks", "• Reports are slow", "2. Show weekends greyed out". */
const LIST_ITEM = /^(?:[-•*▪◦‣–—]|\d{1,2}[.)])\s+/;

/** Who is writing: "We're a 40-person agency", "I manage a team of 9", "Our company uses X", "My name is…". */
const SELF_DESCRIPTION =
  /^(?:(?:so|well|basically|ok|okay|hi|hello)[,\s]+)?(?:(?:i|we)(?:['’]m|['’]re|\s+am|\s+are)\s+(?:a|an|the|one|\d|currently|based|on\s+the)\b|my\s+name\s+is\b|(?:i|we)\s+(?:am\s+|are\s+)?(?:manage|run|own|teach|coordinate|use|using|sell|ship|bill|collect|invoice|moved|switched|onboarded|work|have)\b(?!\s+to\b)|(?:our|my)\s+(?:[\w-]+\s+){0,3}?(?:is|are|has|have|uses?|runs?|scans?|works?|lives?|sells?)\b)/i;
/** How long they have used the product: "for three years now", "since 2021", "customer for two years". */
const YEARS_OF_USE =
  /\b(?:for|since|over)\s+(?:\d+|a|one|two|three|four|five|six|several|many)\s+(?:years?|months?|weeks?)\b|\bsince\s+(?:\d{4}|the\s+\w+|last\s+\w+)\b|\b(?:last|next)\s+(?:month|week|year)\b|\byesterday\b|\bcustomer\s+for\b|\bbeen\s+(?:a\s+)?(?:customer|user|using)\b|\b(?:uses?|used|using)\s+(?:us|you)\b/i;
/** How many they are: "9 designers", "1,200 employees", "a 40-person practice", "team of 12". */
const HEADCOUNT =
  /\b\d[\d,.]*\+?\s+(?:[a-z-]+\s+)?[a-z]+s\b|\b\d+-(?:person|people|seat|user|man)\b|\bteam\s+of\s+\d/i;
/** Praise on its own: "Happy overall.", "Good product", "Does what it says.", "Onboarding was smooth". */
const PRAISE =
  /^(?:(?:really\s+|very\s+)?(?:happy|good|great|decent|nice|solid|awesome|lovely|excellent)\b(?:\s+[\w/]+){0,3}\s*[.!]*$|does\s+what\s+it\s+says|(?:[\w-]+\s+){1,4}(?:is|are|was|were)\s+(?:(?:really|very|so|super|pretty)\s+)?(?:smooth|great|good|easy|fine|excellent|awesome|perfect|fantastic|amazing|nice|lovely|helpful|fast|quick|intuitive|simple)\b\s*[.!]*$)/i;
/**
 * Words that name nothing: a sentence of these only ("Bring it back 🙏", "Include please?", a sales rep's "Can
 * we get that on the roadmap?") points elsewhere.
 */
const EMPTY_WORDS = new Set(
  (
    "the and but for you your our can could would will please pls this that these those them they its with just " +
    "also too then there here what when how why where who which are was were has have had does did not all any " +
    "some more really thanks thank yes bring back get put make take include again asap now it is to of on in at " +
    "be me my we us an or so do up by as if no great nice good awesome amazing helpful useful better cool lovely " +
    "perfect ideal add allow support build implement fix change have something anything thing feature option sort " +
    "out today roadmap prioritise prioritize priority escalate escalated consider considered possible soon"
  ).split(" "),
);

function contentWords(text: string): number {
  return (text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? []).filter((word) => !EMPTY_WORDS.has(word))
    .length;
}

/** The verbs a question about what something could do starts with. */
const MODAL = "can|could|would|will";
/** A question about what something could do: "Could the map show all our fields?", "Can customers book…?" */
const MODAL_QUESTION = new RegExp(String.raw`^(?:${MODAL})\s+\S[^?]*\?`, "i");

/** A cue, a wish, a need or a modal question: asking outright (a mere complaint does not), and where a title may start. */
const strongAsk = (clause: string) =>
  REQUEST_CUE.test(clause) || WISH.test(clause) || NEED.test(clause) || MODAL_QUESTION.test(clause);

/** How strongly a sentence or clause asks for something (0: not at all). */
function askingSignals(text: string): number {
  let score = strongAsk(text) ? 2 : 0;
  if (CAPABILITY_QUESTION.test(text)) score += 1.5;
  if (COMPLAINT.test(text)) score += 1.5;
  if (IMPERATIVE.test(text)) score += /^please\b/i.test(text) ? 2 : 1;
  else if (PASSIVE_ASK.test(text)) score += 1;
  if (REQUEST_LABEL.test(text)) score += 2;
  return score;
}

/**
 * What a support agent settles, not the product: "I want a refund", "cancel my subscription". Joined with a
 * wish ("…a refund AND I want to see my payment history"), the wish is the request.
 */
const SUPPORT_DEMAND =
  /\b(?:(?:a|my|our|full|partial)\s+refund|refund\s+(?:me|us|my|our)|money\s+back|reimburs\w*|compensat\w*|charge\s*back|credit\s+(?:note|back)|cancel\w*\s+(?:my|our)\s+(?:account|subscription|plan|membership)|close\s+(?:my|our)\s+account|(?:speak|talk)\s+to\s+(?:a\s+)?(?:human|person|someone|manager))\b/i;

/**
 * A threat to leave: "or I'm cancelling", "we will take our business elsewhere". It says how much a request
 * matters, never what it is: as a sentence it only sets the scene, and after a request ("Add offline saving
 * or we're switching") it goes.
 */
const THREAT =
  /\b(?:i|we)(?:['’]ll|['’]m|['’]re|\s+will|\s+am|\s+are|\s+shall)\s+(?:(?:have\s+to|be\s+forced\s+to|going\s+to|gonna|just|probably|definitely|seriously)\s+)*(?:cancel\w*|leav\w*|switch\w*|mov\w*\s+(?:to|on|away)|quit\w*|churn\w*|unsubscrib\w*|go\w*\s+elsewhere|look\w*\s+elsewhere|tak\w*\s+(?:our|my)\s+business|find\w*\s+(?:another|a\s+different)|stop\w*\s+paying|(?:ask|demand)\w*\s+(?:for\s+)?a\s+refund|(?:be\s+)?done\s+with)/i;
const ULTIMATUM = new RegExp(
  String.raw`[\s,;:–—-]*\b(?:or(?:\s+else)?|otherwise|if\s+not)\b[\s,]*(?=${THREAT.source}).*$`,
  "i",
);

/** A better rating promised for the request ("Fix the sync and I'll change my rating") says how much it matters, like a threat. */
const PROMISED_RATING =
  /[\s,;:–—-]*\b(?:and|then)\s+(?:i|we)(?:['’]ll|\s+will|\s+would|['’]d)\s+(?:happily\s+|gladly\s+)?(?:change|update|raise|bump|give|make|edit)\b.*\b(?:rating|review|stars?)\b.*$/i;

/** How strongly a sentence only sets the scene: who writes, how long, how many, praise, a heading. */
function contextSignals(written: string): number {
  // A bracketed aside ("(main one, we had 3 disputed deliveries last month)") tells why; the sentence still asks.
  const text = written.replace(ASIDE, "") || written;
  let score = 0;
  if (PLEASANTRY.test(text) || PRAISE.test(text)) score += 3;
  if (SELF_DESCRIPTION.test(text)) score += 3;
  if (YEARS_OF_USE.test(text)) score += 1;
  if (HEADCOUNT.test(text)) score += 1;
  if (/:\s*$/.test(text)) score += 3;
  if (THREAT.test(text)) score += 3;
  if (SUPPORT_DEMAND.test(text)) score += 1;
  if (REPLIED.test(text) || CONSEQUENCE.test(text) || AGENT_LINE.test(text)) score += 3;
  return score;
}

/**
 * A listed item was written down as something wanted, whatever its words: it asks as a cue does, and as
 * much as the items beside it, so the first of a list ("Top asks: 1. … 2. a way to …") is its title.
 */
const LIST_ITEM_ASKS = 2;

function titleScore(sentence: string): number {
  const body = sentence.replace(LIST_ITEM, "");
  const noted = NOTED_ASK.test(body);
  let asks = body === sentence ? askingSignals(body) : LIST_ITEM_ASKS;
  if (noted) asks = Math.max(asks, LIST_ITEM_ASKS) + NOTED_ASK_ADDS;
  if (RANKED_FIRST.test(body)) asks += RANKED_FIRST_ADDS;
  if (PLEASE_LAST.test(body)) asks += PLEASE_LAST_ADDS;
  return asks - contextSignals(body);
}

// ---- the part of a sentence that asks ----

/** Where a sentence falls into clauses: the request of "Thanks for the fix, could you also add X" is its second. */
const CLAUSE_BREAK =
  /,\s+|;\s+|:\s+|\s+[-–—]\s+|\s+but\s+|\s+(?:and|&|plus)\s+(?=(?:(?:i|we|they|she|he)\s*)?(?:also\s+)?(?:(?:would|['’]d)\s+(?:also\s+)?(?:really\s+)?(?:love|like)|(?:really\s+)?(?:want|need|wish)(?:s|ed)?)\b)/gi;

/** Clause breaks outside brackets: "(retail chain, 80 stores)" is one aside, not two clauses. */
function clauseStarts(sentence: string): number[] {
  const starts = [0];
  for (const match of sentence.matchAll(CLAUSE_BREAK)) {
    const before = sentence.slice(0, match.index);
    if ((before.match(/\(/g) ?? []).length <= (before.match(/\)/g) ?? []).length) {
      starts.push(match.index + match[0].length);
    }
  }
  return starts;
}

/** A wish whose subject is only the alternative: "CSV would be much better", "ProRes would help". */
const ALTERNATIVE_WISHED = /^(?:\S+\s+){1,2}(?:would|['’]d)\b/i;

/**
 * The part of a sentence that asks: from its first clause that asks outright, unless that is a pleasantry.
 * A wish after a complaint keeps the complaint, which names its subject: "The export only does PDF; CSV
 * would be much better".
 */
function requestPart(sentence: string): string {
  const starts = clauseStarts(sentence);
  for (const [index, start] of starts.entries()) {
    const rest = sentence.slice(start);
    const clause = rest.split(CLAUSE_BREAK)[0]!;
    const laterWish = starts.slice(index + 1).some((later) => strongAsk(sentence.slice(later)));
    if (SUPPORT_DEMAND.test(clause) && laterWish) continue;
    // A clause that only ranks the ask after it is named ("offline upload — by far the top ask") is no start.
    const onlyRanks = index > 0 && !strongAsk(clause.replace(RANKED_FIRST, ""));
    if (strongAsk(clause) && !onlyRanks && !PLEASANTRY.test(rest) && !PRAISE.test(clause)) {
      const before = sentence.slice(0, start);
      return COMPLAINT.test(before) && ALTERNATIVE_WISHED.test(clause) ? sentence : rest;
    }
  }
  return sentence;
}

// ---- the part that asks without its framing: lead-ins, labels, who asks (docs/ai.md, "Titles of pasted feedback") ----

/** What may follow a verb of wanting before the doing: "want to", "would love to be able to", "need that the …". */
const TO_BE_ABLE = String.raw`(\s+to|\s+that(?=\s+((the|a|an|our|my|we|you|they|it|all|every|each)\b|\S+\s+(can|could|should|will|would|must|may)\b)))?(\s+be\s+able\s+to)?`;
/**
 * What who wants it says ("wants", "would love", "asked for", "is requesting"), one list for the lead-in that
 * goes ("She wants to…") and the party before it ("Our dispatchers would like to…"); "wants to know" is
 * wondering (WONDERED).
 */
const WANTING = String.raw`(?:(?:wants?|wanted)(?!\s+to\s+know\b)|(?:would|['’]d)\s+(?:really\s+)?(?:like|love)(?:\s+(?:it\s+)?if(?:\s+(?:they|we|you|i)\s+(?:could|can))?)?|asks?\s+for|asked\s+for|(?:is|are)\s+(?:asking|requesting)(?:\s+for)?|requested|requests|asks?(?=\s+to\s)|asked(?=\s+to\s))`;
/**
 * A note that says who wants what without saying who ("Wants visitors to sign in by QR code", "- asked for a
 * duplicate warning", "need a second reviewer step"): in call notes and lists that is the ask written down,
 * more than what the customer told about their situation beside it.
 */
const NOTED_ASK = new RegExp(String.raw`^(?:also\s+)?(?:${WANTING}|needs?\b|would\s+(?:like|love)\b)`, "i");
const NOTED_ASK_ADDS = 1;
/** Said to come first ("(main one, we had 3 disputes)", "— by far the #1 ask"): the list's other items come after. */
const RANKED_FIRST =
  /\b(?:main|#1|number\s+one|top|biggest|first|big)\s+(?:one|ask|request|need|priority|thing|wish|pain|gap|problem|issue|blocker)\b|\bmost\s+important\b/i;
const RANKED_FIRST_ADDS = 1;
/** A wish closed by "please" ("Automatic late fees with a grace period setting please."): asked outright. */
const PLEASE_LAST = /\b(?:please|pls|plz)\s*[.!?🙏]*$/iu;
const PLEASE_LAST_ADDS = 1.5;
/** Who is asked, after "We were hoping", "Any chance": "you could", "we can". */
const YOU_COULD = String.raw`(\s+(you|we)\s+(could|can|would|might))?`;
/** "I'd", "We would", before "appreciate", "love", "like". */
const WE_WOULD = String.raw`(i|we)\s*(['’]d|\s+would)`;
/** Openings that say "this is a request" and not what is requested; removed from the title, repeatedly. */
const LEAD_IN = new RegExp(
  String.raw`^(${[
    // that a request follows, and how welcome it would be: "A suggestion", "It would be really great if you could"
    String.raw`a\s+suggestion`,
    String.raw`(it\s+)?would\s+be\s+(a\s+)?(\d+(\/\d+)?|five)(\s*(stars?|\/\s*\d+))?\s+with`,
    String.raw`(it\s+)?would\s+(be\s+)?(really\s+|so\s+|very\s+|a\s+)*(great|nice|awesome|helpful|good|useful|cool|handy|ideal|lovely|amazing|better|(huge\s+|big\s+|great\s+|real\s+)?help)(\s+(us|me|a\s+lot|enormously))?\s+(if|when|to(\s+have)?|that|(?=(the|a|an|our|my|your)\s))(\s+(you|we|i)\s+(could|can))?`,
    "also",
    // whether it can be done: "Would it be possible to", "We were wondering if you could", "Is there a way to"
    String.raw`((would|will|is)\s+)?(it\s+)?(be\s+)?pos+ible(\s+for\s+\S+(\s+\S+){0,2}?)?\s+to`,
    String.raw`(it\s+)?is\s+(it\s+)?pos+ible\s+(that|if)`,
    String.raw`((it['’]s|it\s+is|is\s+it)\s+pos+ible|is\s+there\s+(a\s+|any\s+)?possibility)(\s+(to|of|for))?`,
    String.raw`why\s+(is\s+)?(it\s+)?not\s+pos+ible\s+to`,
    String.raw`make\s+(it\s+)?pos+ible\s+to`,
    // how much it matters, in non-native English: "For us is very important the possibility to"
    String.raw`(for\s+(us|me)\s+)?(it\s+)?(is|are)\s+(very\s+|really\s+|so\s+)?(important|necessary|essential|urgent)(\s+for\s+(us|me))?(\s+(that|to))?`,
    String.raw`(the\s+)?possibilit(y|ies)\s+(to|of|for|that)`,
    String.raw`(i|we)\s+(was|were|am|are|['’]m|['’]re)\s+(hoping|wondering)(\s+(that|if|whether))?${YOU_COULD}`,
    String.raw`(is\s+there\s+)?(a|any)\s+way\s+to`,
    String.raw`(there\s+is\s+|there['’]?s\s+)?no\s+way\s+to`,
    String.raw`(the\s+)?(lack|absence)\s+of`,
    String.raw`where\s+(is|are)\s+(the\s+)?(option|setting|button|way)\s+to`,
    String.raw`(the\s+)?ability\s+to`,
    String.raw`(is|are)\s+there\s+(any\s+)?(plans?\s+to|an?\s+(?!way\b))`,
    String.raw`any\s+chance${YOU_COULD}(\s+(of|to))?`,
    String.raw`if\s+(i|we)\s+could`,
    String.raw`${WE_WOULD}\s+(really\s+|greatly\s+)?appreciate(\s+it\s+if)?`,
    String.raw`why\s+(can['’]?t|cannot|can\s+not)\s+(i|we)`,
    String.raw`how\s+(do|can)\s+(i|we)`,
    // where it was asked: "Per our call", "As discussed"
    String.raw`(per|following|after|as\s+per)\s+(our|my|the|your|today['’]s|yesterday['’]s)\s+(call|conversation|chat|meeting|demo|email|e-mail|discussion)`,
    String.raw`as\s+discussed`,
    // asking politely: "Could you please", "Kindly", "Let us"
    String.raw`(can|could|would)\s+(you|u|we|i)(\s+(guys|all))?(\s+please|\s+pls)?(\s+(get|have))?`,
    "please",
    "pls",
    "plz",
    "kindly",
    String.raw`let\s+(us|me)`,
    // who wants it: "We'd love to be able to", "I need to", "The customers want", "for the app to"
    String.raw`(${WE_WOULD}|would)\s+(also\s+|really\s+|just\s+)*(love|like)${TO_BE_ABLE}`,
    String.raw`(i|we)\s+((also|really|would|will|do|still)\s+)*(wish|need|want|miss)${TO_BE_ABLE}`,
    String.raw`((i|we)\s+)?(really\s+)?wish\s+(it|you|there|the\s+app)\s+(had|has|was|were|did)(\s+(a|an|some))?`,
    String.raw`((she|he|they|people|everyone|((the|a|one)\s+)?(customer|client|user|member|buyer|prospect)s?)\s+)?(also\s+)?(${WANTING}|needs?)${TO_BE_ABLE}`,
    String.raw`(they|she|he)['’](re|s)\s+(also\s+)?(asking|requesting)(\s+\(\w+\))?(\s+(for|about|whether|if))?`,
    String.raw`being\s+able\s+to`,
    String.raw`(to\s+)?be\s+able\s+to`,
    String.raw`for\s+(the\s+)?(app|system|software|tool|platform|product|you|it)\s+to`,
    // a filler: "So,", "Honestly", "Unfortunately"
    String.raw`(so|and|but|honestly|tbh|tl;?dr|sadly|unfortunately|basically|ideally|ugh|hmm+|hey|hi|hello|yo|ok|okay|just)\b[,:!]?`,
    // whether the product does it at all: "Do you guys do child check-in?", "Does anyone know if the POS supports"
    String.raw`(do|does)\s+(you|u|your\s+(app|system|software|product))(\s+(guys|all|folks))?\s+(do|have|offer|support|provide)`,
    String.raw`(does\s+)?(anyone|anybody)\s+know\s+(if|whether)`,
    String.raw`(does|do|can|could|will|would)\s+(the|your|this|our)\s+(\S+\s+){0,2}?(let|allow)\s+(you|us|me|users?|people|anyone)(\s+to)?`,
    // asking a colleague to file it: "can you log this:", "could someone raise a ticket for"
    String.raw`(can|could|would)\s+(you|someone|somebody|one\s+of\s+you)\s+(pls\s+|please\s+)?(log|file|add|track|note|raise|open|capture)\s+(this|these|it|a\s+(ticket|request|card|story))(\s+for\s+\S+)?\s*[:—–-]?`,
    // in the English of other places: "Kindly do the needful and provide option to", "We are having
    // requirement of", "we are begging you to", "I permit myself to write you because", "pwede to"
    String.raw`(do\s+the\s+needful|(please\s+)?revert)(\s+and)?`,
    String.raw`provide\s+(an?\s+|the\s+)?(option|facility|provision|feature|possibility)\s+(to|for|of)`,
    String.raw`(we|i)\s+(are|am|['’]re|['’]m)\s+(having|facing)\s+(a\s+|the\s+)?(requirement|need)\s+(of|for|to)`,
    String.raw`(we|i)\s+(are|am|['’]re|['’]m)\s+(begging|urging|requesting|asking)(\s+you)?(\s+(to|for))?`,
    String.raw`(i\s+permit\s+myself\s+to|i\s+(am|['’]m)|i)\s+writ(e|ing)\s+(to\s+)?you\s+(because|since|as|to\s+(ask|request|say))`,
    // what the product will not let them do: "the system won't let me move…"
    String.raw`(the\s+)?(system|app|software|platform|site|website|tool|page|it)\s+(won['’]?t|doesn['’]?t|does\s+not|will\s+not|wouldn['’]?t)\s+let\s+(me|us)`,
    // who cannot do it, in a call's summary: "Caller unable to book two dogs in one slot"
    String.raw`(the\s+)?(caller|customer|client|user|member|patient|guest|visitor)s?\s+((is|are|was|were)\s+)?(?=(unable|not\s+able)\s+to\b)`,
    // when it comes: "Any plans for voice notes", "Where's the download stats by country"
    String.raw`any\s+plans?\s+(for|to|on)`,
    String.raw`where(['’]s|\s+is|\s+are)(\s+the)?(?!\s+(option|setting|button|way)\b)`,
    // when something happens: "Every Monday our coaches…", "Sometimes two receptionists…"
    String.raw`(every|each)\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday|day|week|month|morning|evening|night|year|quarter|term|season|shift|time)`,
    String.raw`(sometimes|often|usually|currently|nowadays|lately|recently|at\s+the\s+moment|right\s+now)`,
  ].join("|")})\b[\s:,]*`,
  "i",
);
/**
 * "Is there a way for customers to skip a week", "Is it possible for sightings to be checked…": who or what
 * should be able to is kept, as "Let customers skip a week".
 */
const WAY_FOR =
  /^(?:(?:is\s+there\s+)?(?:a|any)\s+way|(?:(?:would|will|is)\s+)?(?:it\s+)?(?:be\s+)?pos+ible)\s+for\s+(?!(?:them|us|me|you|him|her|it)\b)([^,;:?]{1,40}?)\s+to\s+/i;
/**
 * "The one thing holding us back is that…", "Their #1 ask is…", "What we really need is…", "The only reason we
 * haven't rolled it out to the other clinics is that…": the ask follows.
 */
const ASK_NOUN = String.raw`(?:${ASK_RANK}|first)\s+(?:${ASK_NAME}|complaint|reason)`;
const WHOSE = String.raw`(?:(?:the|our|their|my|his|her)\s+)?`;
const ASK_IS = new RegExp(
  String.raw`^${WHOSE}(?:${ASK_NOUN}|what\s+(?:we|i|they)\s+(?:really\s+)?(?:need|want|miss)|what\s+(?:we|i|they)(?:['’]d|\s+would)\s+(?:really\s+)?(?:like|love)|(?:feature|thing)\s+(?:i|we|they)(?:['’]m|['’]re|\s+am|\s+are)?\s+(?:\S+\s+)?(?:missing|miss|need|want|lack)\w*)\b(?:\s+\S+){0,10}?\s+(?:is|was)\s+(?:that\s+|to\s+)?`,
  "i",
);
/** A lead that only names the ask ("Biggest blocker for them: …", "Main ask: …") is a label too. */
const ASK_LABEL = new RegExp(String.raw`^${WHOSE}${ASK_NOUN}\b`, "i");

/** A label before a colon ("Quick question:", "From CS:") is not the request either. */
const LABEL =
  /^(?:quick\s+question|question|one\s+(?:more\s+|small\s+)?thing|small\s+thing|feature\s+request|request|idea|suggestion|missing|wanted|needed|note|fyi|heads[\s-]?up|update|from\s+[^:\n]{1,60}|(?:customer|client|prospect|user)s?\s+(?:asks?|asked|requests?|requested|feedback|reports?|says|said|wrote))\s*:\s+/i;
/** A lead that says an ask follows: "Three customers asked the same thing this week — a map of…". */
const SAME_ASK_LEAD =
  /^[^:–—]{0,80}?\b(?:the\s+same|one|this|a)\s+(?:thing|request|question|feature|ask)\b[^:–—]{0,30}?(?::|\s[-–—])\s+(?=\S)/i;
/** Any short lead before a colon that asks nothing itself: "Notes from call w/ Rivera:", "Background:". */
const SHORT_LEAD = /^([^:\n]{1,50}):\s+(?=\S)/;
const SHORT_LEAD_MOST_WORDS = 7;
/**
 * A reporter described at length is context: "CFO at Brandt GmbH asked if…"; a bare "Customer asks if…" stays.
 * Whoever keeps asking is always a party ("The brewers keep asking if…"): only what they ask is the title.
 */
const REPORTED =
  /^([^;:]{3,60}?)\s+(?:says|say|said|asked|asks|ask|wondered|mentioned|complained|noted|told\s+(?:us|me)|reported|reports(?=\s+(?:that|the|a|an|it|they|their|our|no)\b)|((?:keeps?|kept|(?:is|are)(?:\s+always)?)\s+asking))\s+(?:(?:whether|if|that|about|for)\s+)?/i;
const REPORTER_FEWEST_WORDS = 3;
/**
 * Whoever asks, by their role or their name: "Customer says…", "Mariner Hotels needs…", "Our accountant
 * needs…". A party is never the request, however briefly named.
 */
const PARTY_ROLES = String.raw`(?:customers?|clients?|prospects?|users?|members?|buyers?|leads?|team|staff|people|everyone|accountants?|managers?|admins?|owners?|directors?|ceo|cfo|coo|cto|partners?|colleagues?|drivers?|teachers?|parents?|patients?|guests?|tenants?|landlords?|students?|volunteers?|agents?|reps?|attendees?|visitors?|employees?|workers?|technicians?|coaches|coach|players?|families|kids|readers?|subscribers?|donors?|candidates?|recruiters?|carers?|nurses?|doctors?|therapists?|they|he|she)`;
const PARTY_ROLE = new RegExp(String.raw`\b${PARTY_ROLES}\b`, "i");
/** A name after the first word: "Mariner Hotels", "Prospect at Greenfield". */
const NAMED = /^\S+\s+(?:\S+\s+)*?\p{Lu}/u;
/** Many of a kind: "Several schools", "3 clinics", "a few agencies". */
const COUNTED = /^(?:several|many|some|most|all|a\s+few|few|two|three|four|five|\d+)\s+(?:\S+\s+)?\S+s$/i;
const isParty = (lead: string) => PARTY_ROLE.test(lead) || NAMED.test(lead) || COUNTED.test(lead.trim());
/**
 * Who wants it, named before "wants", "would like", "asked for" (only a party wants), or a party before
 * "needs" a thing: "Our dispatchers would like to print…", "In our laundrette the customers want pay by QR",
 * "Mariner Hotels needs group bookings". What follows is the request.
 */
const WANTED_BY = new RegExp(
  String.raw`^(.{2,60}?)(?:\s+|(?=['’]d\s))(?:also\s+|really\s+)?(?:(${WANTING})|(needs?)(?=\s+(?!to\b)))\s+(?:to\s+)?(?:be\s+able\s+to\s+)?`,
  "i",
);
/**
 * People who should be able to do something, once who asks is gone: "drivers to capture a photo",
 * "patients to be able to reschedule", "attendees could pick their seats" read as "Let drivers capture…".
 */
const PEOPLE_ABLE = new RegExp(
  String.raw`^((?:(?:the|our|their|all|new|other)\s+)?(?:\S+\s+)?(?!(?:they|he|she)\b)${PARTY_ROLES})\s+(?:(?:should\s+)?(?:to\s+)?be\s+able\s+to|to|could|can)\s+(?!not\b)`,
  "i",
);
/** A lead that is itself a clause ("Show what customers want", "A way to see who needs…") is no party. */
const NOT_A_PARTY = /\b(?:what|which|who|whom|how|that|if|whether|to)\b|[,;:]/i;
/** Whoever only wonders or hopes is framing, however briefly named: "Our accountant wanted to know if…". */
const WONDERED =
  /^(.{2,60}?)\s+(?:(?:wanted|wants|would\s+like|['’]d\s+like)\s+to\s+know|(?:is|was|are|were|['’]s|['’]re)\s+(?:wondering|hoping)|wonder(?:s|ed)|hope[sd])\s+(?:(?:whether|if|that)\s+)?/i;
/** "Would give 5 stars if…", "We would prefer if…", "It would help enormously if…": what follows `if` is asked. */
const WOULD_IF = /^(.{0,60}?)\b(?:would|will|['’]d)\s+(?:\S+\s+){0,6}?if\s+/i;
/** The condition said first: "If you guys had a Xero integration I'd buy the team plan tomorrow". */
const IF_THEN_WOULD =
  /^if\s+(.{3,80}?),?\s+(?:i|we|they|she|he|(?:our|my|the)\s+\w+)(?:['’]d|\s+would)\s+.*$/i;
/**
 * After such a cut: "if we had approval workflows", "if there was a way to back up my notes", and after who
 * asks, the party again: "Pet owners keep asking if they can see…" asks to see.
 */
const ENABLING =
  /^(?:(?:we|you(?:\s+guys)?|i|they|she|he)\s+(?:can|could|had|have|got|offered|supported)\s+(?!not\b)|there\s+(?:was|were|is|are|['’]s)\s+(?:(?:a|any)\s+way\s+to|an?\s+(?:option|setting|way)(?:\s+to)?)\s+)/i;
/** "Inline comments on submissions would be a game changer…": the thing wished for is the subject. */
const WISHED_SUBJECT =
  /^(.+?)\s+would\s+(?:(?:really|probably|definitely|honestly|also|so|just|certainly|totally|absolutely)\s+)*(?:be|make|help|save|solve|fix|cut|prevent|increase|suit|improve|speed|simplify|reduce|change|mean)\b/i;
/** "Seeing payslips by department is a must", "X is what everyone keeps asking for": the subject is asked. */
const NEEDED_SUBJECT =
  /^(.+?)\s+(?:is|are)\s+(?:(?:really|literally|absolutely|honestly|just|definitely)\s+)*(?:a\s+must|a\s+must[\s-]have|essential|critical|crucial|(?:a\s+)?(?:deal[\s-]?breaker|blocker|game[\s-]changer|lifesaver)|(?:the|what|all|something)\s.*?\b(?:need|want|ask|miss|use|wish)\w*)\b/i;
const PRONOUN_SUBJECT =
  /^(?:i|we|you|they|he|she|it|that|this|there|which|who|what|everyone|everybody|someone|nobody)\b/i;
const SUBJECT_FEWEST_WORDS = 3;
/** A subject of several clauses ("The export only does PDF; CSV") is no subject: the sentence stays whole. */
const ONE_CLAUSE_BREAK = /[,;:]\s|\s[-–—]\s/;

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

// ---- a question or a passive turned into what to do (docs/ai.md, "Titles of pasted feedback") ----

/**
 * The verbs of what a product does, one list for questions and passives: a question asks with them ("Can the
 * calendar show…", "Could each service have…") and a passive wish names them by their participle
 * ("invoices could be sent"). A verb whose participle is no "-ed" is written with it ("send:sent").
 */
const PRODUCT_VERBS = (
  "show:shown display list include send:sent remember sync import export keep:kept close open fill generate " +
  "calculate use accept work go appear hold:held print track warn notify remind update sort group filter count " +
  "start stop repeat handle recognise recognize detect suggest pick read:read link pull push highlight offer " +
  "take:taken load save search find:found match add mark tell:told alert have get support run:run allow skip " +
  "refresh split:split merge store hide:hidden check book pay:paid see:seen view edit change set:set create share " +
  "download upload sign scan reset switch move copy default connect integrate come be make:made give:given " +
  "do:done write:written sell:sold build:built buy:bought choose:chosen bring:brought draw:drawn freeze:frozen " +
  "put:put cut:cut leave:left"
)
  .split(" ")
  .map((entry) => entry.split(":") as [string, string?]);

/** Participles that are not a verb and "-ed": "sent" is what "send" becomes. */
const IRREGULAR_PARTICIPLES: Record<string, string> = Object.fromEntries(
  PRODUCT_VERBS.flatMap(([verb, participle]) => (participle ? [[participle, verb]] : [])),
);

/**
 * The verb a participle or a gerund comes from: "scanned" → "scan", "archived" → "archive", "copied" →
 * "copy", "exported" → "export", "showing" → "show", "sharing" → "share"; null when the word is neither.
 */
function verbOf(word: string): string | null {
  const lower = word.toLowerCase();
  const irregular = IRREGULAR_PARTICIPLES[lower];
  if (irregular) return irregular;
  const ending = /^\p{L}{2,}(ed|ing)$/u.exec(lower)?.[1];
  if (!ending) return null;
  const stem = lower.slice(0, -ending.length);
  if (/eed$/.test(lower) || !/[aeiouy]/.test(stem)) return null;
  if (stem.endsWith("i")) return `${stem.slice(0, -1)}y`;
  if (/([bgmnprt])\1$/.test(stem)) return stem.slice(0, -1);
  // The "e" the participle dropped: "shared", "scheduled", "merged", "priced", "enabled", "issued", "paused".
  const dropsE =
    (/^[^aeiou]*[aeiouy][^aeiouwxy]$/.test(stem) && !/[aeiou]{2}/.test(stem)) ||
    /(?:at|ut|ul|iz|yz|v|ar|ir|ur|let|ov|[rn]g|[^n]c|[rn]c(?<!sync)|[^aeioul]l|u|(?:au|ai|ea|oi|ui|ou)s)$/.test(
      stem,
    );
  return dropsE ? `${stem}e` : stem;
}

/** Who or what a question or a passive is about: "the route list", "sent reports", "each service". */
const THING = String.raw`(?!(?:i|we|you|u|they|he|she|it|this|that|there|which|who|what|someone|anyone)\b)([^,;:?!]{2,50}?)`;
/**
 * "Could the route list be updated automatically…", "invoices can be sent by WhatsApp": a passive wish. What
 * "will" be done is news, not a wish ("Old reports will be deleted after 30 days").
 */
const PASSIVE_ASK = new RegExp(
  String.raw`^(?:(?:${MODAL}|should|let)\s+${THING}\s+|${THING}\s+(?:can|could|should|would|must)\s+)((?:also|automatically|easily|then|just)\s+)?be\s+(?:(automatically|easily|also)\s+)?(\p{L}+)\b\s*`,
  "iu",
);
const THING_MOST_WORDS = 6;

/** The verb of a question about what the product can do, one of PRODUCT_VERBS: "Can the calendar show…". */
const ASKED_VERB = String.raw`(?:auto-?|pre-?|re-?)?(?:${PRODUCT_VERBS.map(([verb]) => verb).join("|")})(?= |/|$)`;
/**
 * A verb of no list, after a subject led by an article or a possessive: the word before what a verb is followed
 * by, an article, a possessive or a "when" ("Could the app vibrate when…", "Would the printer cut the paper…").
 */
const DETERMINER = String.raw`(?:the|a|an|our|my|their|your|this|these|each|every|all|its)`;
const LED_BY_DETERMINER = new RegExp(String.raw`^${DETERMINER} `, "i");
const FOLLOWED_VERB = String.raw`(?!(?:of|in|on|for|with|at|by|from|to|and|or|per)\b)\p{L}+(?= (?:when|whenever|if|once|after|before|the|a|an|my|our|their|his|her|its|each|every|all|automatically)\b| ?$)`;
/** "Can the map show…?", "Could drivers sign…?", "Can it remember…?" (a question to us, "can you", is a lead-in). */
const ASKED_OF = new RegExp(String.raw`^(?:${MODAL})\s+(?!(?:you|u|we|i)\b)(.+)$`, "i");
/**
 * What is asked of, whose words doingOfQuestion puts one space apart: at most four words before the verb, not
 * ending on "the", "each"… ("Could the map show…"), an article and at most three words before another verb,
 * or people by their role before any verb ("Can customers reschedule…").
 */
const ASKED_SUBJECT = new RegExp(
  String.raw`^(?:((?:\S+ ){0,3}?\S+)(?<!(?:^| )(?:the|a|an|our|my|their|each|every|all)) (?=${ASKED_VERB})|(${DETERMINER} (?:\S+ ){0,2}?\S+) (?=${FOLLOWED_VERB})|((?:(?:the|our|their|all|new) )?(?:\S+ )?(?!(?:they|he|she)\b)${PARTY_ROLES}) (?=\p{L}+ ))`,
  "iu",
);
/**
 * Questions about what the product does, asked of nobody: "Can it remember my filter?", "Could there be…", and
 * with no subject at all in non-native English, "Can be in Italian?" (not "Would be sick if…", a rating).
 */
const ASKED_OF_NOBODY = [
  new RegExp(String.raw`^it (?=${ASKED_VERB})`, "iu"),
  /^there be(?: |$)/i,
  /^be (?!\S+ (?:if|to|for|when)\b)/i,
];
/** "How about showing the space left?" reads "Show the space left". */
const HOW_ABOUT = /^(?:how|what)\s+about\s+/i;

/**
 * A question or a passive wish as what to do: "Could the map show all our fields together?" reads "Let the
 * map show all our fields together", "Can it remember my filter?" reads "Remember my filter", "How about
 * showing X?" reads "Show X", "invoices could be sent by WhatsApp" reads "Send invoices by WhatsApp".
 */
function asWhatToDo(title: string): string {
  return (
    doingOfPassive(title) ??
    doingOfSuggestion(title) ??
    (WHY_HAVE_TO.test(title) ? title.replace(WHY_HAVE_TO, "no need to ") : null) ??
    doingOfQuestion(title) ??
    lettingWho(title, CAN_STATEMENT) ??
    title
  );
}

/**
 * What a thing "can" or "could" do, said as a statement in feedback ("The calendar can show court dates in
 * red"), is asked as the question is: "Let the calendar show court dates in red". Not when the sentence
 * complains ("The app can show the total but not per item"): that says what it does now.
 */
const CAN_STATEMENT = new RegExp(
  String.raw`^(${DETERMINER} (?:\S+ ){0,2}?\S+) (?:can|could) (?!(?:not|be|only|already|also|now)\b)(?=${ASKED_VERB}|${FOLLOWED_VERB})(?![^,;]*\b(?:but|not|only|already)\b)`,
  "iu",
);

/** A passive wish names the doing first: "invoices could be sent by WhatsApp" → "Send invoices by WhatsApp". */
function doingOfPassive(title: string): string | null {
  const passive = PASSIVE_ASK.exec(title);
  const thing = passive?.[1] ?? passive?.[2];
  const verb = passive && verbOf(passive[5]!);
  const wished = passive && thing && verb && wordCount(thing) <= THING_MOST_WORDS && !NOT_A_PARTY.test(thing);
  if (!wished) return null;
  const how = passive[3] ?? passive[4];
  const rest = title.slice(passive[0].length);
  const named = /^\p{Lu}\p{Ll}/u.test(thing) ? thing[0]!.toLowerCase() + thing.slice(1) : thing;
  return [verb, named, how?.trim(), rest].filter(Boolean).join(" ");
}

/** "Why do I have to re-enter the insurance info every time?" → "No need to re-enter the insurance info every time". */
const WHY_HAVE_TO =
  /^why\s+(?:do|does|must|should)\s+(?:i|we|you|they|he|she|people|staff|everyone)\s+(?:have|need)\s+to\s+(?=\p{L})/iu;

/** "How about showing the space left?" → "Show the space left". */
function doingOfSuggestion(title: string): string | null {
  const suggested = HOW_ABOUT.exec(title);
  if (!suggested) return null;
  const rest = title.slice(suggested[0].length);
  const verb = /^\p{L}+ing\b/u.test(rest) ? verbOf(rest.split(/\s/)[0]!) : null;
  return verb ? `${verb}${rest.slice(rest.search(/\s|$/))}` : rest;
}

/** "Could the map show all our fields?" → "Let the map show all our fields", "Can it remember…" → "Remember…". */
function doingOfQuestion(title: string): string | null {
  const asked = ASKED_OF.exec(title);
  if (!asked) return null;
  const question = asked[1]!.split(/\s+/).join(" ");
  const impersonal = ASKED_OF_NOBODY.find((rule) => rule.test(question));
  if (impersonal) return question.replace(impersonal, "");
  return lettingWho(question, ASKED_SUBJECT);
}

/**
 * Who should be able to do something, named before what they do: "Is there a way for customers to skip a
 * week", "drivers to capture a photo" and "Could the map show all our fields?" read "Let customers skip a
 * week", "Let drivers capture a photo", "Let the map show all our fields". The rule captures who (in its first
 * group that matched), and its match ends where what they do starts; null when it does not match.
 */
function lettingWho(title: string, whoThenDoing: RegExp): string | null {
  const found = whoThenDoing.exec(title);
  if (!found) return null;
  const who = found[1] ?? found[2] ?? found[3]!;
  // A sentence's capital goes with the article it was on: "The calendar can show…" → "Let the calendar show…".
  const named = LED_BY_DETERMINER.test(who) ? who[0]!.toLowerCase() + who.slice(1) : who;
  return `let ${named} ${title.slice(found[0].length)}`;
}

/** The title without what introduces, reports or rates the request: one pass of each rule. */
function withoutFraming(title: string): string {
  let rest = withoutLabel(title);
  rest = lettingWho(rest, WAY_FOR) ?? rest;
  rest = withoutWhoWants(asWhatToDo(rest.replace(LEAD_IN, "").replace(ASK_IS, "")));
  rest = withoutReporter(lettingWho(rest, PEOPLE_ABLE) ?? rest);
  return wishedSubject(rest).replace(/^to\s+(?=\p{L})/iu, "");
}

/**
 * Without a list's bullet, a label ("Quick question:"), a lead that says an ask follows ("… asked the same thing
 * —") and a short lead that asks nothing ("Background:").
 */
function withoutLabel(title: string): string {
  const rest = title.replace(LIST_ITEM, "").replace(LABEL, "").replace(SAME_ASK_LEAD, "");
  const lead = SHORT_LEAD.exec(rest);
  const onlyLeads =
    lead &&
    wordCount(lead[1]!) <= SHORT_LEAD_MOST_WORDS &&
    (askingSignals(lead[1]!) === 0 || ASK_LABEL.test(lead[1]!));
  return onlyLeads ? rest.slice(lead[0].length) : rest;
}

/** Without the party that wants it: "Our dispatchers would like to print…" → "print…". */
function withoutWhoWants(title: string): string {
  const wantedBy = WANTED_BY.exec(title);
  const byParty =
    wantedBy &&
    !REQUEST_CUE.test(wantedBy[1]!) &&
    !NOT_A_PARTY.test(wantedBy[1]!) &&
    !IMPERATIVE.test(wantedBy[1]!) &&
    (wantedBy[2] !== undefined || isParty(wantedBy[1]!));
  if (!byParty) return title;
  const wanted = title.slice(wantedBy[0].length);
  return lettingWho(wanted, THING_TO_DO) ?? wanted;
}

/**
 * What a party wants a thing to do, once the party is gone: "Lakeside wants the kiosk to print a badge" reads
 * "Let the kiosk print a badge"; "the ability to", "the option to" name no thing.
 */
const THING_TO_DO = new RegExp(
  String.raw`^(${DETERMINER} (?:\S+\s+){0,2}?(?!(?:ability|option|possibility|way|chance|need|time|right|power|place|button)\b)\S+)\s+to\s+(?!be\b)`,
  "i",
);

/**
 * Without who reports or wonders ("CFO at X asked if…", "Our accountant wanted to know if…") and a conditional
 * around the ask ("We would prefer if…"), and what such a cut leaves before the ask ("we had", "there was a
 * way to"): "CFO at X asked if we had approval workflows" → "approval workflows".
 */
function withoutReporter(title: string): string {
  const reporter = reporterOf(title);
  const rest = reporter ? title.slice(reporter[0].length).replace(ENABLING, "") : title;
  const wouldIf = WOULD_IF.exec(rest);
  const conditional = wouldIf && !REQUEST_CUE.test(wouldIf[1]!);
  if (conditional) return rest.slice(wouldIf[0].length).replace(ENABLING, "");
  const ifFirst = IF_THEN_WOULD.exec(rest);
  return ifFirst ? ifFirst[1]!.replace(ENABLING, "") : rest;
}

/** Who reports the ask (a party, or described at length), or else who only wonders about it; null when nobody. */
function reporterOf(title: string): RegExpExecArray | null {
  const reported = REPORTED.exec(title);
  const reporter = reported?.[1];
  if (
    reported &&
    reporter &&
    (wordCount(reporter) >= REPORTER_FEWEST_WORDS || isParty(reporter) || reported[2] !== undefined) &&
    !REQUEST_CUE.test(reporter)
  ) {
    return reported;
  }
  const wondered = WONDERED.exec(title);
  return wondered && !REQUEST_CUE.test(wondered[1]!) ? wondered : null;
}

/** The thing wished for or needed when it is the subject: "Inline comments would be a game changer" → "Inline comments". */
function wishedSubject(title: string): string {
  let rest = title;
  for (const subjectRule of [WISHED_SUBJECT, NEEDED_SUBJECT]) {
    const subject = subjectRule.exec(rest)?.[1];
    if (
      subject &&
      wordCount(subject) >= SUBJECT_FEWEST_WORDS &&
      !PRONOUN_SUBJECT.test(subject) &&
      !ONE_CLAUSE_BREAK.test(subject)
    ) {
      rest = subject;
    }
  }
  return rest;
}

// ---- the title cut to length ----

/** A title's longest, cut at a clause or a word boundary: a title is read in a list, not as a paragraph. */
export const TITLE_MOST_CHARS = 80;
const TITLE_FEWEST_CHARS = 25;
const CLAUSE_END =
  /,\s|;\s|\s[-–—]\s|\s(?:and then|because|since|so that|when|as|but|which|while|if|where|otherwise|instead of)\s/gi;

/**
 * Why a request is wanted, after what is wanted ("…, so clients see the hours"): the description's part.
 * When only the reason complains ("We keep losing deals because quotes can't hold optional items"), the
 * reason is the request.
 */
const PURPOSE =
  /,\s+so\s+(?:that\s+)?|\s+so\s+that\s+|\s+so\s+(?=(?:\S+\s+){0,2}?(?:knows?|can|can['’]?t|could|will|won['’]?t|gets?|sees?|doesn['’]?t|don['’]?t|isn['’]?t|aren['’]?t)\b)|,?\s+(?:because|since)\s+/i;
const CAUSE = /^,?\s+(?:because|since)\s+$/i;
const PURPOSE_AFTER_CHARS = 12;

function withoutPurpose(request: string): string {
  const purpose = PURPOSE.exec(request);
  if (!purpose || purpose.index < PURPOSE_AFTER_CHARS) return request;
  const before = request.slice(0, purpose.index);
  const after = request.slice(purpose.index + purpose[0].length);
  if (!CAUSE.test(purpose[0])) return before;
  if (askingSignals(before) === 0) return askingSignals(after) > 0 ? after : before;
  const onlyReports = !strongAsk(before) && !IMPERATIVE.test(before);
  return onlyReports && request.length <= TITLE_MOST_CHARS ? request : before;
}

/** A bracketed aside: "(retail chain, 80 stores)"; one that is a sentence of its own, "(they have favourites)". */
const ASIDE = /\s*\([^()]*\)/g;
const ASIDE_SAYING =
  /\s*\((?:i|we|you|they|he|she|it|that|this|there|which|who|because|since|as|so|otherwise)\b[^()]*\)/gi;

/** An aside between commas, before the object: "export, for each member and season, the attendance history". */
const COMMA_ASIDE =
  /,\s+(?:for|in|on|at|with|from|across|per|by|ideally|maybe|perhaps|if\s+possible)\b[^,;:()]{0,60},(?=\s)/gi;

/** The text before a bracket it leaves open, so a title never ends inside an aside. */
function withoutOpenAside(text: string): string {
  let depth = 0;
  let openedAt = -1;
  for (let index = 0; index < text.length; index++) {
    if (text[index] === "(" && depth++ === 0) openedAt = index;
    else if (text[index] === ")" && depth > 0) depth--;
  }
  const before = depth > 0 ? text.slice(0, openedAt).replace(/[\s,;:–—-]+$/, "") : text;
  return before || text;
}

/**
 * Words that leave what is wanted unsaid when a title ends on them ("…to be able to", "…export all the"): a
 * cut never stops after one; the object is kept whole or the cut goes before it.
 */
const FUNCTION_WORD = String.raw`(?:a|an|the|to|of|for|with|by|from|in|on|at|into|onto|our|my|their|your|its|his|her|and|or|be|able|can|could|would|will|should|is|are|have|has|all|each|every|some|any|this|that|these|those)`;
const DANGLING = new RegExp(String.raw`\b${FUNCTION_WORD}\s*$`, "i");
const DANGLING_WORDS = new RegExp(String.raw`(?:\s+${FUNCTION_WORD}\b)+\s*$`, "i");

/** At most TITLE_MOST_CHARS: without the reason, then without asides (brackets, then commas), then cut at a clause or a word. */
function shortened(request: string): string {
  const whole = withoutOpenAside(withoutPurpose(request)).replace(ASIDE_SAYING, "");
  if (whole.length <= TITLE_MOST_CHARS) return whole;
  const withoutBrackets = whole.replace(ASIDE, "");
  if (withoutBrackets.length <= TITLE_MOST_CHARS) return withoutBrackets;
  const title = withoutBrackets.replace(COMMA_ASIDE, "");
  if (title.length <= TITLE_MOST_CHARS) return title;
  const clauseEnds = [...title.matchAll(CLAUSE_END)]
    .map((match) => match.index)
    .filter((at) => at >= TITLE_FEWEST_CHARS && at <= TITLE_MOST_CHARS && !DANGLING.test(title.slice(0, at)));
  if (clauseEnds.length > 0) return withoutOpenAside(title.slice(0, clauseEnds[clauseEnds.length - 1]));
  const cut = title.slice(0, TITLE_MOST_CHARS - 1);
  const words = cut.slice(0, Math.max(cut.lastIndexOf(" "), TITLE_FEWEST_CHARS));
  const wholeWords = withoutOpenAside(words).replace(/[\s,;:]+$/, "");
  return `${wholeWords.replace(DANGLING_WORDS, "") || wholeWords}…`;
}

/**
 * What a title never ends with: punctuation, "please", "asap", emoji ("… when someone cancels 🙏"), a
 * "would be" whose praise was an emoji ("Real-time tracking would be 🔥"), and the "when" of "2FA when?".
 */
const TITLE_TAIL =
  /(?:[\s.!?…,;:–—-]|\p{Extended_Pictographic}|\uFE0F|\u200D|\b(?:please|pls|plz|asap|thanks|thx|would\s+be(?:\s+(?:so|really|very|super))?(?:\s+(?:cool|nice|great|awesome|amazing|helpful|useful|handy|lovely|ideal|perfect))?|when)\b)+$/iu;

/** Frames come nested ("Request: per our call, could you…"): each pass of withoutFraming takes one of each off. */
const FRAMING_PASSES = 3;

/**
 * A clause after the ask that only asks whether it is coming ("…; asked if this is planned", ", wants to know
 * when it is coming"): a summary line's note, no part of the title.
 */
const WHETHER_PLANNED =
  /[;,]\s*(?:and\s+)?(?:asked|asks|wondered|wonders|wants\s+to\s+know)\s+(?:if|whether|when)\s+(?:this|it|that)\b.*$/i;

/** A sentence's part that asks, as a title: without its framing, its reason, and at most TITLE_MOST_CHARS. */
function titleFrom(part: string): string {
  let title = part.trim();
  for (let pass = 0; pass < FRAMING_PASSES; pass++) title = withoutFraming(title);
  return shortened(withoutAfterthought(title.replace(WHETHER_PLANNED, "").replace(TITLE_TAIL, "").trim()));
}

/**
 * What follows a dash after the ask, when it only says how much it matters or why ("Move-in/move-out comparison
 * side by side — by far the #1 ask, deposit disputes are killing us", "a second reviewer step — regulatory,
 * non-negotiable"): not the title. A dash before a second ask keeps both.
 */
const AFTERTHOUGHT_DASH = /\s+[–—-]+\s+/;
function withoutAfterthought(part: string): string {
  const dash = AFTERTHOUGHT_DASH.exec(part);
  if (!dash) return part;
  const head = part.slice(0, dash.index);
  const tail = part.slice(dash.index + dash[0].length);
  const tailAsks = askingSignals(tail.replace(RANKED_FIRST, ""));
  return contentWords(head) >= 2 && tailAsks <= askingSignals(head) ? head : part;
}

// ---- the sentence chosen ----

/** A sentence that asks only by saying what is wrong: "At the moment it only shows the total". */
const onlyComplains = (part: string) =>
  COMPLAINT.test(part) &&
  !strongAsk(part) &&
  !CAPABILITY_QUESTION.test(part) &&
  !IMPERATIVE.test(part) &&
  !REQUEST_LABEL.test(part) &&
  !LIST_ITEM.test(part);
/** A sentence that says what is wanted, and is no pleasantry. */
const wishes = (part: string) =>
  (strongAsk(part) || IMPERATIVE.test(part)) && !PLEASANTRY.test(part) && !THREAT.test(part);

/**
 * A title that names nothing ("Bring it back", "Fix it") points at another sentence: it loses even to a
 * sentence that only reports what went wrong.
 */
const NAMES_NOTHING = 4;

/**
 * A quoted line of an earlier message ("> Hi Tom, you can export the list…"): what the writer answers, so it
 * gives way to what the writer asks now, and a title only when nothing else asks.
 */
const QUOTE_MARK = /^(?:>\s*)+/;
const QUOTED = 3;
/**
 * A question answered after a dash ("What could we do better? — A proper search"): a survey's or an agent's
 * question, the scene of the answer, which is the feedback.
 */
const ANSWER = /^[-–—]\s/;
const ANSWERED_QUESTION = 3;
/**
 * A teammate's question about what is wanted ("Ben: what do they want exactly?", "what's the ask?"): the next
 * sentence answers it, and is the request.
 */
const WHAT_WANTED =
  /(?:^|:\s+)(?:so\s+|and\s+|ok\s+)?(?:what\s+(?:exactly\s+)?(?:do|does|did|would|is|are)\s+(?:they|you|he|she|the\s+\w+)\s+(?:exactly\s+)?(?:want|need|ask(?:ing)?\s+for|after)|what['’]?s\s+the\s+(?:ask|request|need))\b[^?]*\?$/i;
const ANSWERS_WHAT_WANTED = 2;

/**
 * An ask split over two sentences ("We have 12 buildings with their own meters. Can we compare them in one
 * chart?"): a title whose object is "them", "those", "it" or "this" names what a sentence before says the
 * writer has, runs or keeps, of the same number ("Compare 12 buildings in one chart"), or else the plural
 * the sentence before ends on ("We run four food trucks. It would help to see them…").
 */
const POINTING_OBJECT =
  /^((?:let\s+[^,;:]{1,40}?\s+)?\p{L}+)\s+(them|those|it|this)\b(?!\s+(?:possible|easier|easy|clear|happen|work)\b)/iu;
const HELD_THING =
  /\b(?:have|has|had|run|runs|own|owns|keep|keeps|manage|manages|use|uses|operate|operates|sell|sells|got)\s+((?:(?:a|an|the|our|my|their|all|both|several|many|two|three|four|five|six|seven|eight|nine|ten|\d[\d,]*)\s+)?(?:[\p{L}-]+\s+){0,2}?([\p{L}-]+?)(?:\s+of\s+(?:[\p{L}-]+\s+){0,2}?[\p{L}-]+?)?)(?=\s+(?:with|in|on|at|for|from|that|which|who|where|and|but|across|over|to)\b|\s*[,;:.!?…]|\s*$)/iu;
const LAST_PLURAL =
  /(?:^|\s)((?:(?:the|our|my|their|all|both|several|many|two|three|four|five|six|\d+)\s+)?(?:[\p{L}-]+\s+)?[\p{L}-]+s)\s*[.!?…]*$/iu;
const SOUNDS_PLURAL = /[^s]s$/i;
/** The plural a sentence is about, as its subject: "The owner statements are fine but…". */
const PLURAL_SUBJECT =
  /^((?:the|our|my|their|all)\s+(?:[\p{L}-]+\s+){0,2}?[\p{L}-]+[^s\W]s)\s+(?:are|were|have|do|don['’]t|look|work)\b/iu;
/** How many sentences back a pronoun may point. */
const ANTECEDENT_SENTENCES = 2;

/** What the nearest sentence before names that a pronoun of that number can point at. */
function antecedentOf(plural: boolean, before: readonly string[]): string | undefined {
  for (const sentence of before.slice(-ANTECEDENT_SENTENCES).reverse()) {
    const held = HELD_THING.exec(sentence);
    let named: string | undefined;
    if (held && SOUNDS_PLURAL.test(held[2]!) === plural) named = held[1]!.replace(/^an?\s+/i, "the ");
    else if (plural && sentence === before[before.length - 1])
      named = LAST_PLURAL.exec(sentence.trim())?.[1] ?? PLURAL_SUBJECT.exec(sentence.trim())?.[1];
    if (named && !/^(?:us|its|this|is|was|has|does)$/i.test(named))
      return LED_BY_DETERMINER.test(named) ? named[0]!.toLowerCase() + named.slice(1) : named;
  }
  return undefined;
}

function withAntecedent(title: string, before: readonly string[]): string {
  const pointing = POINTING_OBJECT.exec(title);
  if (!pointing) return title;
  const plural = /^th/i.test(pointing[2]!) && !/^this$/i.test(pointing[2]!);
  const named = antecedentOf(plural, before);
  if (!named) return title;
  const titled = `${pointing[1]} ${named}${title.slice(pointing[0].length)}`;
  return titled.length <= TITLE_MOST_CHARS ? titled : title;
}

/**
 * A title for cleaned feedback: the sentence that asks most and sets the scene least (the first of equals),
 * without a threat after it ("… or I'm cancelling"); a sentence that only explains a problem gives way to
 * the wish next to it. From its clause that asks, without its lead-in ("could you", "we need", "she
 * wants"), its reporter ("CFO at X asked if") or its rating ("… would save us hours"), at most
 * TITLE_MOST_CHARS.
 */
export function titleOf(cleaned: string): string {
  const sentences = sentencesOf(cleaned.replace(MENTION_ANYWHERE, "$1").replace(PICTOGRAPH_BREAK, "$1\n"));
  const candidates = candidatesOf(sentences);
  if (SUBJECT_LINE.test(cleaned) && candidates[0]?.namesSomething) candidates[0].score += SUBJECT_LINE_ADDS;
  const at = situationPointedAt(candidates, chosenAt(candidates), sentences);
  const chosen = candidates[at]?.title;
  // What the chosen part points back at may be named earlier in its own sentence: "The owner statements are
  // fine but there's no way to export them to Xero".
  const sentence = sentences[at] ?? "";
  const partAt = candidates[at] ? sentence.lastIndexOf(candidates[at].part) : -1;
  const before = sentences.slice(0, at).concat(partAt > 0 ? [sentence.slice(0, partAt)] : []);
  const title =
    (chosen && withAntecedent(chosen, before)) || cleaned.slice(0, TITLE_MOST_CHARS).trim() || "Feedback";
  return title[0]!.toUpperCase() + title.slice(1);
}

/**
 * An @handle anywhere in a chat message ("hey @maria.k can you log this", "… at pickup 🐶 @pm-team"): who
 * is told, never the ask. Not "I can't @mention someone" or "@tag a colleague": features, written with an @.
 */
const MENTION_ANYWHERE = /(^|[\s(])@(?!(?:mention|tag)(?:s|ed|ing)?\b)\w[\w.-]*\w/giu;
/** An emoji between words ("… on the booking page 🌊 honestly not the craziest ask") ends what it follows. */
const PICTOGRAPH_BREAK = /((?:\p{Extended_Pictographic}|\uFE0F|\u200D)+)[ \t]+(?=\p{L})/gu;

/**
 * A ticket's or an issue's subject: a first line of a few words with no full stop, a blank line under it, then
 * the body ("Offline mode loses orders when Wi-Fi drops\n\nIf the router drops…"). It was written to name the
 * problem; the body tells it.
 */
const SUBJECT_LINE = /^[^\n.!?:]{12,80}\n[ \t]*\n\s*\S/;
const SUBJECT_LINE_ADDS = 2;

interface Candidate {
  /** The sentence's part that asks. */
  part: string;
  /** That part as a title. */
  title: string;
  namesSomething: boolean;
  /** How much it asks less how much it sets the scene, less what sets it aside. */
  score: number;
}

/** Each sentence's part that asks, its title and its score. */
function candidatesOf(sentences: readonly string[]): Candidate[] {
  const praised = praiseOf(sentences);
  return sentences.map((written, index) => {
    const said = written.replace(QUOTE_MARK, "").replace(CUSTOMER_SPEAKER, "");
    const quoted = QUOTE_MARK.test(written);
    const part = requestPart(said.replace(ULTIMATUM, "").replace(PROMISED_RATING, "") || said);
    const title = titleFrom(part);
    const namesSomething = contentWords(title) > 0;
    const answered =
      said.endsWith("?") && (ANSWER.test(sentences[index + 1] ?? "") || WHAT_WANTED.test(said));
    const answers = index > 0 && WHAT_WANTED.test(sentences[index - 1]!);
    const setAside =
      (namesSomething ? 0 : NAMES_NOTHING) +
      (quoted ? QUOTED : 0) +
      (answered ? ANSWERED_QUESTION : 0) +
      (praised[index] ? PRAISED : 0);
    const score = titleScore(part) - setAside + (answers ? ANSWERS_WHAT_WANTED : 0);
    return { part, title, namesSomething, score };
  });
}

/**
 * What a review says under a heading of praise (PRAISE_HEADING) sets the scene as praise does; so does a
 * review's heading alone on its line, which only names what follows.
 */
const PRAISED = 3;

/**
 * Which sentences are set aside as praise or a review's heading: a heading of praise's own line and those under
 * it until the next heading, and a heading of what is wrong alone on its line.
 */
function praiseOf(sentences: readonly string[]): boolean[] {
  let underPraise = false;
  return sentences.map((sentence) => {
    const heading = SECTION_HEADING.exec(sentence);
    if (!heading) return underPraise;
    underPraise = PRAISE_HEADING.test(sentence) && isWholeHeading(sentence);
    return PRAISE_HEADING.test(sentence) || (REQUEST_LABEL.test(sentence) && isWholeHeading(sentence));
  });
}

/** A heading alone on its line ("Cons:", "What do you dislike?"): it names what follows, it asks nothing itself. */
const isWholeHeading = (sentence: string) =>
  SECTION_HEADING.exec(sentence)?.[0].trim().length === sentence.trim().length;

/** Where the best candidate is (the first of equals), a wish next to it when it only complains; -1 when none. */
function chosenAt(candidates: readonly Candidate[]): number {
  let at = -1;
  candidates.forEach((candidate, index) => {
    if (at === -1 || candidate.score > candidates[at]!.score) at = index;
  });
  if (at !== -1 && onlyComplains(candidates[at]!.part)) {
    const wish = candidates
      .filter((other) => other.namesSomething && wishes(other.part))
      .sort((one, other) => other.score - one.score)[0];
    if (wish) at = candidates.indexOf(wish);
  }
  return at;
}

/**
 * A title whose object points at a situation, not at a thing a sentence before names ("Every Monday our
 * coaches re-enter the same plan for each athlete. Can you make this faster?", "… quotes can't include
 * optional items. Customer should be able to tick what they want"): the sentence that tells the situation is
 * the request, the best of those before it that names something.
 */
const SITUATION_POINTER =
  /^(?:let\s+[^,;:]{1,40}?\s+)?\p{L}+\s+(?:it|this|that)(?=\s+(?:on|in|at|for|to|when|with|from|into|faster|quicker|easier|simpler|better|automatic\w*)\b|\s*$)|\bwhat\s+(?:they|we|i|you|he|she)\s+(?:want|need|like|choose|pick)\b/iu;

/** A wish that names nothing but how welcome it would be ("Would be great as a proper field."): it points back too. */
const EMPTY_WISH =
  /^(?:(?:it|that|this)\s+)?would\s+be\s+(?:\S+\s+)?(?:great|nice|awesome|amazing|helpful|useful|ideal|better|good)\s*(?:as\b[^,;]*)?[.!]*$/i;

function situationPointedAt(
  candidates: readonly Candidate[],
  at: number,
  sentences: readonly string[],
): number {
  const title = candidates[at]?.title;
  const points = title && (SITUATION_POINTER.test(title) || EMPTY_WISH.test(candidates[at]!.part));
  if (!title || !points || withAntecedent(title, sentences.slice(0, at)) !== title) return at;
  const told = candidates
    .slice(0, at)
    .filter((other) => other.namesSomething && !SITUATION_POINTER.test(other.title))
    .sort((one, other) => other.score - one.score)[0];
  return told ? candidates.indexOf(told) : at;
}
