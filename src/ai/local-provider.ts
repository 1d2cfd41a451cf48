import { embedLocally, LOCAL_MODEL_KEY } from "./local-embedder";
import { prepareWordVectors } from "./word-vectors";
import { inSlices, nextTurn } from "../turns";
import type { AiProvider, ExtractedPost, PostText, SummaryInput, SummaryText, TriageNote } from "./provider";
import { cleanFeedback, plainTextOf, titleOf } from "./feedback-text";
import { normalise, plainWords, terms } from "./text";

/** Raw cosine that maps to similarity 0.7, fitted by `bench/duplicates.ts --fit` (docs/ai.md, "Calibration"). */
export const LOCAL_BOUNDARY = 0.34;

/** Tags whose label, or all of its words once normalised, appear in the text. */
export function matchTags(text: string, tagLabels: string[]): string[] {
  const lower = ` ${normalise(text)} `;
  const plain = ` ${text.toLowerCase().replace(/[^a-z0-9]+/g, " ")} `;
  const textTerms = new Set(terms(text));
  return tagLabels.filter((label) => {
    const plainLabel = label
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, " ")
      .trim();
    if (plainLabel !== "" && plain.includes(` ${plainLabel} `)) return true;
    const normalisedLabel = normalise(label);
    if (normalisedLabel !== "" && lower.includes(` ${normalisedLabel} `)) return true;
    const labelTerms = terms(label);
    return labelTerms.length > 0 && labelTerms.every((term) => textTerms.has(term));
  });
}

/** Display names of the canonical tokens the normaliser folds phrases into. */
const THEME_NAMES: Record<string, string> = {
  darkmode: "dark mode",
  lightmode: "light mode",
  sso: "single sign-on",
  "2fa": "two-factor authentication",
  apikey: "API keys",
  mobileapp: "mobile app",
  spreadsheet: "spreadsheet export",
  chatapp: "chat integrations",
  calendarsync: "calendar sync",
  auditlog: "audit log",
  textsize: "text size",
  // "US" in capitals becomes this token (text.ts); the pronoun is a stopword.
  usa: "US",
};

/** Words in a phrase that the lexicon folds into one concept ("knowledge base" → helpcenter): up to three. */
const LONGEST_PHRASE = 3;

/** A text a summary reads for its themes, and how much what people wrote in it counts. */
interface WeighedText {
  text: string;
  weight: number;
}

/**
 * What people wrote for each term: the most frequent surface form, so themes read as whole words, never as
 * cut stems ("numb" → "numbers"), and a concept as the phrase they used, never as its token ("helpcenter" →
 * "knowledge base"). A phrase counts for a concept only when none of its words alone gives that term, so
 * "the export" is never a form of "export". Titles weigh more than descriptions: a theme reads as asked.
 */
async function surfaceForms(texts: WeighedText[], slices: Slices): Promise<Map<string, string>> {
  const counts = new Map<string, Map<string, number>>();
  for (const { text, weight } of texts) {
    await slices.step();
    const count = (term: string, form: string) => {
      const forms = counts.get(term) ?? new Map<string, number>();
      forms.set(form, (forms.get(form) ?? 0) + weight);
      counts.set(term, forms);
    };
    const words = text.toLowerCase().match(/[a-z][a-z0-9-]+/g) ?? [];
    const single = words.map((word) => themeTerms(word));
    words.forEach((word, index) => {
      const [term] = single[index]!;
      if (term) count(term, word);
      for (let length = 2; length <= LONGEST_PHRASE && index + length <= words.length; length++) {
        const phraseTerms = themeTerms(words.slice(index, index + length).join(" "));
        const concept = phraseTerms.length === 1 ? phraseTerms[0]! : null;
        const fromOneWord = single
          .slice(index, index + length)
          .some((wordTerms) => wordTerms.includes(concept ?? ""));
        if (concept && !fromOneWord) count(concept, words.slice(index, index + length).join(" "));
      }
    });
  }
  const best = new Map<string, string>();
  for (const [term, forms] of counts) {
    best.set(term, [...forms].sort((a, b) => b[1] - a[1] || a[0].length - b[0].length)[0]![0]);
  }
  return best;
}

/**
 * Words text.ts folds into a wider concept for similarity ("card", "item", "ticket" and "issue" are all a
 * task on a kanban board; "checkout" is a payment in a shop) that name different things on other boards: a
 * hotel's checkout is the guests' leaving, its cards are payment and registration cards. A theme reads them
 * as the words they are, so "item" on a restaurant's board does not group every request naming a dish.
 */
const OWN_WORD_FOLDS = /\b(cards?|items?|tickets?|issues?|checkouts?)\b/gi;
const HAS_OWN_WORD_FOLD = /\b(cards?|items?|tickets?|issues?|checkouts?)\b/i;

/**
 * The terms of a text for its themes: `terms`, but the words of `OWN_WORD_FOLDS` left standing alone are
 * their own stems; in a phrase text.ts folds ("gift cards", "child issues") they stay that phrase's concept.
 */
function themeTerms(text: string): readonly string[] {
  // Most texts hold none of them: read as `terms` reads them, remembered (text.ts), not normalised again.
  if (!HAS_OWN_WORD_FOLD.test(text)) return terms(text);
  const folded = normalise(text);
  const ownWords = folded.match(OWN_WORD_FOLDS);
  if (ownWords === null) return terms(text);
  return [...terms(folded.replace(OWN_WORD_FOLDS, " ")), ...ownWords.flatMap((word) => plainWords(word))];
}

/** Contractions, with or without their apostrophe: their pieces ("cant", "dont", "im") are never a theme. */
const CONTRACTIONS =
  /\b\w+n['’]t\b|\b(i|you|we|they|he|she|it|that|there|what|let)['’](m|re|ve|ll|d|s)\b|\b(cant|dont|wont|isnt|arent|doesnt|didnt|wasnt|werent|hasnt|havent|couldnt|wouldnt|shouldnt|im|ive|youre|theyre|thats|theres|whats)\b/gi;
/**
 * A site's address names the site, not what its words say: "Sync availability with Booking.com" on a hotel's
 * board asks for a channel sync, and is no request about bookings.
 */
const WEB_ADDRESS = /\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|co|app|dev|ai)\b/gi;
/**
 * A duration or a moment names when, not what: "Freeze a plan for three months", "Expire sessions after six
 * months", "the next month", "every week". "Log volunteer hours" and "monthly reports" name a thing, and stay.
 */
const DURATION =
  /\b(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|few|several|next|last|this|every|each|per|half)\s+(?:minutes?|hours?|days?|weeks?|months?|years?)\b/gi;
/** A word a theme may hold: three letters or more, no digit ("2", "30", "v2" name no theme). */
const THEME_WORD = /^[a-z][a-z-]{2,}$/;
/** Words of a letter's courtesies, never part of a theme ("reach out", "feel free", "happy to"). */
const COURTESY_WORDS = new Set(
  (
    "reach out touch feel free glad happy regards cheers morning afternoon evening anything everything " +
    "something someone anyone everyone etc via per"
  ).split(" "),
);
/** Words a two-word phrase may skip between its words: "split the bill" is the phrase "split bill". */
const LINKING_WORDS = new Set("a an the our my your their his her its".split(" "));

type Slices = ReturnType<typeof inSlices>;

/** Words naming people on any board: who asks, never what is asked. */
const PEOPLE_WORDS =
  "user users customer customers client clients member members people person visitor visitors everyone";
/**
 * Words of any request that name no group of requests alone: who (`PEOPLE_WORDS`), wishes for "better" or
 * "easier", how (online, automatically), and what every request does (show, view, edit, manage). A phrase
 * holding another word keeps them ("client portal", "online booking").
 */
const GENERIC_WORDS =
  `${PEOPLE_WORDS} apps abilities options better easier simpler improve improved improvement improvements ` +
  "problem problems possibility functionality function functions tools stuff help show see view enable give " +
  "create edit change update manage handle track tracking send settings online automatic " +
  "automatically " +
  // Where and when a request's words stand: "after" a visit, "on the field page", "on time" (a duration is
  // read apart: `DURATION`).
  "after before during between across within until again instead back away out over under next last page " +
  "pages screen screens tab button time times " +
  // Verbs any request leans on: "a timer that keeps running", "runs low", "tell the desk".
  "run runs running keep keeps go goes come comes take takes put tell ask know say turn switch work start";
/** The terms (text.ts) of a list of words. */
const termsOfWords = (words: string): Set<string> =>
  new Set(words.split(" ").flatMap((word) => [...terms(word)]));
/** Their terms, read once on first use. */
let genericTerms: Set<string> | null = null;
let peopleTerms: Set<string> | null = null;
const isGenericTerm = (term: string): boolean => (genericTerms ??= termsOfWords(GENERIC_WORDS)).has(term);
const isPeopleTerm = (term: string): boolean => (peopleTerms ??= termsOfWords(PEOPLE_WORDS)).has(term);

/**
 * The one who asks, in a description or a title: the word before a verb of wanting, asking or preferring
 * ("Patients want…", "Tenants keep asking…", "Owners would rather…"); only that word ("the reports
 * accountants want" names accountants, "Android users want" users).
 */
const ASKER =
  /\b([a-z][a-z-]+)\s+(?:(?:often|always|usually|sometimes|still|also|all|really|keep|keeps|do|don't|dont)\s+)?(?:want|wants|wanted|ask|asks|asked|asking|say|forget|forgets|prefer|prefers|expect|expects|complain|complains|love|loves|hate|hates|wish|wishes|would\s+(?:like|love|rather))\b/gi;
/**
 * Whom "let" names: a plural after it ("Let students…"), or after a singular word naming which ones ("Let
 * pet owners…" names owners, "Let Android users…" users); "Let staff clock in" names nobody it can tell.
 */
const LET_ASKER = /\blet\s+(?:our\s+|my\s+|the\s+)?([a-z][a-z-]+)(?:\s+([a-z][a-z-]+))?/gi;
const PLURAL = /[^s]s$/i;
/**
 * Who acts: a plural opening a title or a sentence, before a verb ("Trainers see how many sessions…",
 * "Members can pause…", "Housekeepers count the minibar"). The word after it is no preposition, article or
 * conjunction ("Notes on each client", "Tips and wages"), and no verb that things do ("Reports take too
 * long", "Reminders are late"): those name what is asked.
 */
const SUBJECT = /^(?:(?:our|the|some|many|most|all|other|new)\s+)?([a-z][a-z-]+s)\s+([a-z][a-z'’-]*)/i;
const NOT_AFTER_WHO = new Set(
  (
    "of for in on at by with from to into per and or but as than that which the a an are is was were be been " +
    "get gets go goes take takes fail fails load loads break breaks look looks seem seems show shows appear " +
    "appears stay stays end ends run runs come comes"
  ).split(" "),
);

/** A word as who asks is compared: lower case, one plural "s" off ("housekeepers" is "housekeeper"). */
const singular = (word: string): string => word.toLowerCase().replace(/([^s])s$/, "$1");

/**
 * The terms of the words that name who asks (`ASKER`, `LET_ASKER`, `SUBJECT`) in two requests or more: the
 * board's audience, each with those words as written (`singular`).
 */
async function whoAsks(posts: readonly SummaryPost[], slices: Slices): Promise<Map<string, Set<string>>> {
  const requestsBy = new Map<string, number>();
  const written = new Map<string, Set<string>>();
  const name = (word: string, named: Set<string>) =>
    terms(word).forEach((term) => {
      named.add(term);
      written.set(term, (written.get(term) ?? new Set<string>()).add(singular(word)));
    });
  for (const post of posts) {
    await slices.step();
    const text = `${post.title}. ${post.description ?? ""}`;
    const named = new Set<string>();
    for (const [, word] of text.matchAll(ASKER)) name(word!, named);
    for (const sentence of text.split(/[.!?;:]\s+|\n+/)) {
      const [, who, next] = sentence.trim().match(SUBJECT) ?? [];
      if (who !== undefined && PLURAL.test(who) && !NOT_AFTER_WHO.has(next!.toLowerCase())) name(who, named);
    }
    for (const [, first, second] of text.matchAll(LET_ASKER)) {
      const asker = PLURAL.test(first!) ? first : second !== undefined && PLURAL.test(second) ? second : null;
      if (asker) name(asker, named);
    }
    for (const term of named) requestsBy.set(term, (requestsBy.get(term) ?? 0) + 1);
  }
  return new Map(
    [...requestsBy].filter(([, requests]) => requests >= 2).map(([term]) => [term, written.get(term)!]),
  );
}

/** What a summary leaves out of its themes: the product's own name and the words in most of its posts. */
interface NotThemes {
  nameStems: Set<string>;
  productTerms: Set<string>;
}

/** A post as its themes are read: a title and a description apart, and its votes. */
type SummaryPost = SummaryInput["posts"][number];

/**
 * A possible theme: a term or two adjacent theme words, with the posts whose title holds it and those whose
 * description alone does, and the keys (stems and terms of its words) by which a chosen theme covers it.
 */
interface Candidate {
  phrase: boolean;
  /** The term (a single word or a folded concept) or the two stems of a phrase. */
  id: string;
  forms: Map<string, number>;
  inTitles: Set<number>;
  inDescriptionsOnly: Set<number>;
}

/** A theme as the summary reports it: its name, the requests whose title names it and their votes. */
interface Theme {
  name: string;
  requests: number;
  votes: number;
}

/**
 * How much a post counts for the themes of its title: one, and more for its votes, less than in
 * proportion (a post with 10 votes counts 2.2, one with 50 counts 3), so five requests asking for a thing
 * outweigh one request with many votes. A description counts `DESCRIPTION_WEIGHT` per post, whatever its
 * votes: it sets the scene (who writes, where, when) far more often than it names what is asked.
 */
const titleWeight = (votes: number) => 1 + 0.5 * Math.log1p(votes);
const DESCRIPTION_WEIGHT = 0.15;
/**
 * What a request whose title holds a chosen theme counts for the next themes: "Join the waitlist online" and
 * "Sell gift cards online" are about the waitlist and gift cards, not an "online" theme.
 */
const ALREADY_ABOUT = 0.5;
/** A phrase above its own words when they hold the same posts: "split bill" rather than "bill". */
const PHRASE_PREFERENCE = 1.1;
/**
 * A word in this share of a board's requests, more often in their descriptions than in their titles, is
 * their setting (the product, where or for whom), not a theme: "course" on a course platform's board.
 */
const SETTING_SHARE = 0.25;
/** A word in this share of a board's posts is its subject, not a theme, if its requests share no other word. */
const SUBJECT_SHARE = 0.2;
/** A word in fewer posts is too rare to be a board's subject: three requests may share no other word. */
const SUBJECT_FEWEST_POSTS = 5;
/** The share of its requests' pairs that must share another word for such a word to be a theme. */
const SUBJECT_COHESION = 0.25;
/** Below this many posts a board is too small to tell its setting from a theme. */
const SETTING_FEWEST_POSTS = 6;

/** Adjacent theme words of a text (a linking word between them skipped), each pair once, keyed by its stems. */
function wordPairs(text: string, not: NotThemes): { form: string; key: string }[] {
  const words = text.toLowerCase().match(/[a-z][a-z0-9-]*/g) ?? [];
  const stemOf = (word: string): string | null => {
    if (!THEME_WORD.test(word) || COURTESY_WORDS.has(word)) return null;
    const stemmed = plainWords(word)[0];
    return stemmed === undefined || not.nameStems.has(stemmed) ? null : stemmed;
  };
  const pairs = new Map<string, { form: string; key: string }>();
  for (let index = 0; index + 1 < words.length; index++) {
    const first = stemOf(words[index]!);
    if (first === null) continue;
    const next = LINKING_WORDS.has(words[index + 1]!) ? index + 2 : index + 1;
    const second = next < words.length ? stemOf(words[next]!) : null;
    if (second === null) continue;
    // In either order: "class booking" and "book a class" are one theme.
    const key = [first, second].sort().join(" ");
    if (!pairs.has(key)) pairs.set(key, { form: `${words[index]} ${words[next]}`, key });
  }
  return [...pairs.values()];
}

/**
 * The period's themes, from what was asked: each post's title counts for its themes by the post's votes
 * (`titleWeight`), its description far less (`DESCRIPTION_WEIGHT`), and a theme is named by the titles of
 * two requests (one on a board of three posts or fewer), so the scene-setting of long pasted e-mails
 * ("front desk", "reach out") is never a theme, nor a phrase of descriptions alone (docs/ai.md). Themes are
 * chosen best first; a chosen theme takes its posts from the candidates sharing one of its words ("split
 * bill" leaves "bill" only the posts it does not hold). Never the product's name, a number, a
 * contraction's piece, a word under three letters, a courtesy ("reach out"), nor a word in most of the
 * board's posts (it names the product: "invoice" on an invoicing board). Nor, alone or in a phrase of
 * such words only, who asks (`whoAsks`: "Pet owners want…"), a word of any request (`GENERIC_WORDS`), or
 * the requests' setting (a word in a quarter of them, more often in descriptions than titles: "course");
 * nor a word running across the other themes (`runsAcross`), nor one theme twice in other words; nor who
 * acts (`SUBJECT`), a duration (`DURATION`), a site's address, or the board's subject (`boardSubject`).
 */
async function themes(posts: SummaryPost[], count: number, not: NotThemes): Promise<Theme[]> {
  // In slices of the event loop: a 100-post summary read on one turn held every other request 0.3–0.5 s.
  const slices = inSlices();
  const parts = posts.map((post) => ({
    title: post.title.replace(CONTRACTIONS, " ").replace(WEB_ADDRESS, " ").replace(DURATION, " "),
    description: (post.description ?? "")
      .replace(CONTRACTIONS, " ")
      .replace(WEB_ADDRESS, " ")
      .replace(DURATION, " "),
  }));
  const candidates = new Map<string, Candidate>();
  const hold = (key: string, phrase: boolean, form: string | null, post: number, inTitle: boolean) => {
    const candidate = candidates.get(key) ?? {
      phrase,
      id: key.slice(2),
      forms: new Map<string, number>(),
      inTitles: new Set<number>(),
      inDescriptionsOnly: new Set<number>(),
    };
    if (inTitle) candidate.inTitles.add(post);
    else if (!candidate.inTitles.has(post)) candidate.inDescriptionsOnly.add(post);
    if (form !== null) candidate.forms.set(form, (candidate.forms.get(form) ?? 0) + (inTitle ? 3 : 1));
    candidates.set(key, candidate);
  };
  for (const [post, { title, description }] of parts.entries()) {
    await slices.step();
    // The title first, so a description's mention of the same theme does not count the post twice.
    for (const [text, inTitle] of [
      [title, true],
      [description, false],
    ] as const) {
      for (const term of new Set(themeTerms(text))) hold(`t:${term}`, false, null, post, inTitle);
      for (const pair of wordPairs(text, not)) hold(`p:${pair.key}`, true, pair.form, post, inTitle);
    }
  }
  const words = await surfaceForms(
    parts.flatMap(({ title, description }) => [
      { text: title, weight: 3 },
      { text: description, weight: 1 },
    ]),
    slices,
  );
  const nameOf = (candidate: Candidate): string =>
    candidate.phrase
      ? [...candidate.forms].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0]
      : (THEME_NAMES[candidate.id] ?? words.get(candidate.id) ?? candidate.id);
  const audience = await whoAsks(posts, slices);
  /** In a quarter of the requests, more often in their descriptions than in their titles. */
  const setting = (candidate: Candidate): boolean =>
    posts.length >= SETTING_FEWEST_POSTS &&
    candidate.inTitles.size + candidate.inDescriptionsOnly.size >= SETTING_SHARE * posts.length &&
    candidate.inDescriptionsOnly.size >= candidate.inTitles.size;
  const settingTerms = new Set(
    [...candidates.values()]
      .filter((candidate) => !candidate.phrase && setting(candidate))
      .map(({ id }) => id),
  );
  /** Terms that never name a theme alone, nor together in a phrase; who asks unless `asThing`. */
  const notAlone = (term: string, asThing = false): boolean =>
    not.productTerms.has(term) ||
    not.nameStems.has(term) ||
    isGenericTerm(term) ||
    (audience.has(term) && !asThing) ||
    settingTerms.has(term);
  /**
   * Whether half a term's titles or more write it in another word than who asks: "Housekeeping board…"
   * and "…from the housekeeper's phone" where "Housekeepers want…" (one stem, two words).
   */
  const askedAsThing = (candidate: Candidate): boolean => {
    const who = audience.get(candidate.id);
    if (who === undefined) return false;
    const asThing = [...candidate.inTitles].filter((post) =>
      (parts[post]!.title.toLowerCase().match(/[a-z][a-z-]+/g) ?? []).some(
        (word) => !who.has(singular(word)) && themeTerms(word).includes(candidate.id),
      ),
    );
    return asThing.length * 2 >= candidate.inTitles.size;
  };
  /**
   * The board's subject: a word in a fifth of the posts or more whose titled requests ask for unrelated
   * things (under a quarter of their pairs share another word): "room" on a hotel's board ("which rooms
   * are clean", "room blocks for weddings", "rooming lists"), "ticket" on a ticketing one. A theme this
   * large is asked in words its requests share ("personal training packs", "a private training session").
   */
  const boardSubject = (candidate: Candidate): boolean => {
    const held = candidate.inTitles.size + candidate.inDescriptionsOnly.size;
    if (held < SUBJECT_FEWEST_POSTS || held < SUBJECT_SHARE * posts.length) return false;
    const others = [...candidate.inTitles].map(
      (post) => new Set(themeTerms(parts[post]!.title).filter((term) => term !== candidate.id)),
    );
    let pairs = 0;
    let sharing = 0;
    others.forEach((first, index) =>
      others.slice(index + 1).forEach((second) => {
        pairs++;
        if ([...first].some((term) => second.has(term))) sharing++;
      }),
    );
    return sharing < SUBJECT_COHESION * pairs;
  };
  /** A phrase ending in who asks names them ("pet owners", "Android users"); "owner portal" names a thing. */
  const namesWho = (name: string): boolean => {
    const last = terms(name.split(" ").at(-1)!)[0];
    return last !== undefined && (audience.has(last) || isPeopleTerm(last));
  };
  const whoPhrases = [...candidates.values()]
    .filter((candidate) => candidate.phrase && candidate.inTitles.size > 0)
    .map((candidate) => ({ candidate, name: nameOf(candidate) }))
    .filter(({ name }) => namesWho(name));
  /** A word written in half its titles or more inside such a phrase is part of who: "pet" of "pet owners". */
  const partOfWho = (word: Candidate): boolean =>
    whoPhrases.some(
      ({ candidate, name }) =>
        themeTerms(name).includes(word.id) &&
        [...word.inTitles].filter((post) => candidate.inTitles.has(post)).length * 2 >= word.inTitles.size,
    );
  const allowed = (candidate: Candidate, name: string): boolean => {
    if (candidate.phrase) return !namesWho(name) && !themeTerms(name).every((term) => notAlone(term));
    if (notAlone(candidate.id, askedAsThing(candidate)) || partOfWho(candidate) || boardSubject(candidate))
      return false;
    if (THEME_NAMES[candidate.id]) return true;
    return name
      .split(" ")
      .every(
        (word) =>
          THEME_WORD.test(word) && !COURTESY_WORDS.has(word) && !not.nameStems.has(plainWords(word)[0] ?? ""),
      );
  };
  // Two requests name a theme in their title; on a board of three posts or fewer, one.
  const fewestTitles = posts.length < 4 ? 1 : 2;
  let pool: PoolEntry[] = [];
  for (const candidate of candidates.values()) {
    if (candidate.inTitles.size < fewestTitles) continue;
    const name = nameOf(candidate);
    if (!allowed(candidate, name)) continue;
    pool.push({ candidate, name, keys: [...new Set([...plainWords(name), ...themeTerms(name)])] });
  }
  let picks = await pickBest(pool, count + CROSS_CHECK_EXTRA, posts, fewestTitles, slices);
  // A pick whose requests are mostly other picks' requests, of two or more of them, runs across the
  // themes: it names who or what they are for ("pet" across booking, reminders and records), not a theme.
  // The widest such pick goes first, alone: "matter" across a law firm's themes made "timer" (one request
  // in "matter", one in "court") look across too, and it is a theme once "matter" is gone.
  for (let round = 0; round < CROSS_CHECK_ROUNDS; round++) {
    const across = picks
      .filter((pick) => runsAcross(pick, picks))
      .sort((a, b) => b.titled.length - a.titled.length)
      .slice(0, 1);
    if (across.length === 0) break;
    pool = pool.filter((entry) => !across.some((pick) => pick.entry === entry));
    picks = await pickBest(pool, count + CROSS_CHECK_EXTRA, posts, fewestTitles, slices);
  }
  // A pick sharing half its requests with an earlier pick, and half of that one's, is that theme in other
  // words ("pay" after "rent"). Half of a wider pick's is not: "cleaning" after "room" on a hotel's board,
  // whose room requests are also blocks, lists and turnovers.
  const reported = picks.filter((pick, index) =>
    picks.slice(0, index).every((earlier) => {
      const shared = pick.titled.filter((post) => earlier.titled.includes(post)).length;
      return shared * 2 <= pick.titled.length || shared * 2 < earlier.titled.length;
    }),
  );
  return reported.slice(0, count).map(({ entry, titled }) => ({
    name: phraseNaming(entry, titled, pool)?.name ?? entry.name,
    requests: titled.length,
    votes: titled.reduce((sum, post) => sum + posts[post]!.voteCount, 0),
  }));
}

/** A possible theme with its name and the keys (stems and terms of its words) by which a pick covers it. */
interface PoolEntry {
  candidate: Candidate;
  name: string;
  keys: string[];
}

/** The share of a one-word theme's requests a phrase of that word must name to name the theme instead. */
const PHRASE_NAMES_WORD = 0.6;

/**
 * The phrase most of a one-word theme's requests write it in, which names it better: "job boards" when
 * "job" is asked as "post to job boards", "job board integration", "pick job boards per role"; "herd
 * records" for "records". Null when no phrase holds PHRASE_NAMES_WORD of them (then the word is the theme).
 */
function phraseNaming(
  word: PoolEntry,
  titled: readonly number[],
  pool: readonly PoolEntry[],
): PoolEntry | null {
  if (word.candidate.phrase || THEME_NAMES[word.candidate.id]) return null;
  const enough = Math.max(2, Math.ceil(PHRASE_NAMES_WORD * titled.length));
  let best: { entry: PoolEntry; shared: number } | null = null;
  for (const entry of pool) {
    if (!entry.candidate.phrase || !entry.candidate.id.split(" ").includes(word.candidate.id)) continue;
    const shared = titled.filter((post) => entry.candidate.inTitles.has(post)).length;
    if (shared >= enough && (best === null || shared > best.shared)) best = { entry, shared };
  }
  return best?.entry ?? null;
}

/** A picked theme and the requests whose title names it. */
interface Pick {
  entry: PoolEntry;
  titled: number[];
}

/** More picks than are reported, so a pick running across the others is seen before it is reported. */
const CROSS_CHECK_EXTRA = 3;
/** A word in fewer requests than this is not said to run across the others: two requests may share two themes. */
const CROSSING_FEWEST_REQUESTS = 3;
/** Rounds of leaving out a pick that runs across the others: each round picks again without it. */
const CROSS_CHECK_ROUNDS = 6;

/**
 * Whether a pick runs across the others (`themes`): of its three requests or more, most are other picks'
 * requests, of two picks or more, and no other pick holds half of them (that one would be the same theme
 * in other words: "rent" and "pay" on a letting board).
 */
function runsAcross(pick: Pick, picks: readonly Pick[]): boolean {
  if (pick.titled.length < CROSSING_FEWEST_REQUESTS) return false;
  const titled = new Set(pick.titled);
  const overlaps = picks
    .filter((other) => other !== pick)
    .map((other) => other.titled.filter((post) => titled.has(post)))
    .filter((overlap) => overlap.length > 0);
  const shared = new Set(overlaps.flat());
  return (
    overlaps.length >= 2 &&
    shared.size * 2 > titled.size &&
    overlaps.every((overlap) => overlap.length * 2 < titled.size)
  );
}

/**
 * Greedy, best first: a picked theme covers its posts for every candidate sharing one of its keys, and the
 * requests whose title holds it count less for the next ones (`ALREADY_ABOUT`).
 */
async function pickBest(
  pool: readonly PoolEntry[],
  count: number,
  posts: readonly SummaryPost[],
  fewestTitles: number,
  slices: Slices,
): Promise<Pick[]> {
  const covered = new Map<string, Set<number>>();
  /** Posts whose title holds a chosen theme: they count less for the next ones, which then name other requests. */
  const aboutChosen = new Set<number>();
  const uncovered = (keys: string[], held: Set<number>) =>
    [...held].filter((post) => !keys.some((key) => covered.get(key)?.has(post)));
  const score = ({ candidate, keys }: PoolEntry) => {
    const titles = uncovered(keys, candidate.inTitles);
    const descriptions = uncovered(keys, candidate.inDescriptionsOnly);
    if (titles.length < fewestTitles) return 0;
    const weight =
      titles.reduce(
        (sum, post) =>
          sum + titleWeight(posts[post]!.voteCount) * (aboutChosen.has(post) ? ALREADY_ABOUT : 1),
        0,
      ) +
      DESCRIPTION_WEIGHT * descriptions.length;
    return candidate.phrase ? weight * PHRASE_PREFERENCE : weight;
  };
  const chosen: Pick[] = [];
  while (chosen.length < count) {
    await slices.step();
    let best: { entry: PoolEntry; score: number } | null = null;
    for (const entry of pool) {
      if (chosen.some((pick) => pick.entry.name === entry.name)) continue;
      const value = score(entry);
      const better =
        best === null ||
        value > best.score ||
        (value === best.score && entry.name.localeCompare(best.entry.name) < 0);
      if (value > 0 && better) best = { entry, score: value };
    }
    if (best === null) break;
    const { candidate, keys } = best.entry;
    for (const key of keys) {
      const held = covered.get(key) ?? new Set<number>();
      for (const post of [...candidate.inTitles, ...candidate.inDescriptionsOnly]) held.add(post);
      covered.set(key, held);
    }
    const titled = [...candidate.inTitles];
    for (const post of titled) aboutChosen.add(post);
    chosen.push({ entry: best.entry, titled });
  }
  return chosen;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

/**
 * The summary's sentence on themes: each with the requests whose title names it and their votes, as the
 * board counts them ("Most requested: waitlist (4 requests, 14 votes), split bill (3 requests, 8 votes)").
 */
function mostRequested(leading: Theme[]): string {
  if (leading.length === 0) return "";
  const named = leading.map(
    (theme) => `${theme.name} (${plural(theme.requests, "request")}, ${plural(theme.votes, "vote")})`,
  );
  const list = named.length === 1 ? named[0]! : `${named.slice(0, -1).join(", ")} and ${named.at(-1)!}`;
  return ` Most requested: ${list}.`;
}

/** What `prepare` embeds before the first batch: ordinary requests, a misspelling among them. */
const WARM_UP_TEXTS: [string, string][] = [
  ["Dark mode for the code editor", "Export the report as CSV from the settings page"],
  ["Calendar intergration", "Show our due dates in Google Calendar and Outlook"],
  ["Single sign-on with Okta", "Our company logs in through SAML; please support it for every workspace"],
  ["Bulk edit tasks", "Select several cards at once and change their status or assignee"],
];

/** The default provider: deterministic, no network, no model (docs/ai.md). */
export class LocalProvider implements AiProvider {
  readonly name = "local" as const;
  readonly modelKey = LOCAL_MODEL_KEY;
  readonly calibration = { boundary: LOCAL_BOUNDARY };

  embedNow(post: { title: string; description: string | null }): Float32Array {
    return embedLocally(post.title, post.description);
  }

  private warmedUp = false;

  /**
   * Before the first batch: the word vectors are read off the event loop, then a few embeddings, each on a
   * turn of its own, take the first-use costs (compiling the embedding code, touching the vectors), which
   * made the first batch hold the loop 18-20 ms (docs/performance.md).
   */
  async prepare(): Promise<void> {
    await prepareWordVectors();
    if (this.warmedUp) return;
    this.warmedUp = true;
    // A few samples, each on a turn of its own: the first compiles the code, the next ones let it reach
    // the faster tiers before a batch of real posts runs it four times on one turn.
    for (const [title, description] of WARM_UP_TEXTS) {
      await nextTurn();
      embedLocally(title, description);
    }
    await nextTurn();
  }

  async embed(posts: { title: string; description: string | null }[]): Promise<Float32Array[]> {
    return posts.map((post) => this.embedNow(post));
  }

  async extractPost(text: string, tagLabels: string[]): Promise<ExtractedPost> {
    const cleaned = cleanFeedback(text);
    const title = titleOf(cleaned || plainTextOf(text).trim());
    const description =
      cleaned.length > title.length + 1 ? cleaned[0]!.toUpperCase() + cleaned.slice(1, 10_000) : null;
    return { title, description, tagLabels: matchTags(cleaned, tagLabels) };
  }

  async triageNotes(posts: PostText[], tagLabels: string[]): Promise<TriageNote[]> {
    const slices = inSlices();
    const notes: TriageNote[] = [];
    for (const post of posts) {
      await slices.step();
      notes.push({
        postId: post.id,
        suggestedTags: matchTags(`${post.title}\n${post.description ?? ""}`, tagLabels),
        note: "",
      });
    }
    return notes;
  }

  async summarise(input: SummaryInput): Promise<SummaryText> {
    const topThemes = await themes(input.posts, 5, {
      nameStems: new Set([...plainWords(input.projectName), ...terms(input.projectName)]),
      productTerms: new Set(input.productTerms),
    });
    const highlights = input.posts
      .filter((post) => post.voteCount > 0)
      .slice(0, 3)
      .map(
        (post) =>
          `"${post.title}" has ${post.voteCount} vote${post.voteCount === 1 ? "" : "s"} (${post.status})`,
      );
    const count = (name: string) => Number(input.stats[name] ?? 0);
    const [newPosts, votes, completed] = [count("new_posts"), count("total_votes"), count("completed")];
    const summary =
      `This ${input.period}: ${plural(newPosts, "new post")}, ${plural(votes, "vote")}, ` +
      `${completed} completed.${mostRequested(topThemes.slice(0, 3))}`;
    return { summary, highlights, topThemes: topThemes.map((theme) => theme.name) };
  }
}
