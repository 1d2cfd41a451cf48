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

/**
 * What people wrote for each term: the most frequent surface form, so themes read as whole words, never as
 * cut stems ("numb" → "numbers"), and a concept as the phrase they used, never as its token ("helpcenter" →
 * "knowledge base"). A phrase counts for a concept only when none of its words alone gives that term, so
 * "the export" is never a form of "export".
 */
async function surfaceForms(texts: string[], slices: Slices): Promise<Map<string, string>> {
  const counts = new Map<string, Map<string, number>>();
  const count = (term: string, form: string) => {
    const forms = counts.get(term) ?? new Map<string, number>();
    forms.set(form, (forms.get(form) ?? 0) + 1);
    counts.set(term, forms);
  };
  for (const text of texts) {
    await slices.step();
    const words = text.toLowerCase().match(/[a-z][a-z0-9-]+/g) ?? [];
    const single = words.map((word) => terms(word));
    words.forEach((word, index) => {
      const [term] = single[index]!;
      if (term) count(term, word);
      for (let length = 2; length <= LONGEST_PHRASE && index + length <= words.length; length++) {
        const phraseTerms = terms(words.slice(index, index + length).join(" "));
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

/** Contractions, with or without their apostrophe: their pieces ("cant", "dont", "im") are never a theme. */
const CONTRACTIONS =
  /\b\w+n['’]t\b|\b(i|you|we|they|he|she|it|that|there|what|let)['’](m|re|ve|ll|d|s)\b|\b(cant|dont|wont|isnt|arent|doesnt|didnt|wasnt|werent|hasnt|havent|couldnt|wouldnt|shouldnt|im|ive|youre|theyre|thats|theres|whats)\b/gi;
/** A word a theme may hold: three letters or more, no digit ("2", "30", "v2" name no theme). */
const THEME_WORD = /^[a-z][a-z-]{2,}$/;

type Slices = ReturnType<typeof inSlices>;

/** What a summary leaves out of its themes: the product's own name and the words in most of its posts. */
interface NotThemes {
  nameStems: Set<string>;
  productTerms: Set<string>;
}

/**
 * Two-word phrases people repeat ("recurring invoices", "bank transfer"): adjacent theme words, counted
 * once per post, kept when two posts or more hold them and they are not only product words. Each with the
 * posts that hold it and its most frequent written form, most repeated first.
 */
async function repeatedPhrases(
  texts: string[],
  not: NotThemes,
  slices: Slices,
): Promise<{ form: string; stems: string[]; posts: number }[]> {
  const found = new Map<string, { posts: number; forms: Map<string, number>; stems: string[] }>();
  for (const text of texts) {
    await slices.step();
    const words = text.toLowerCase().match(/[a-z][a-z0-9-]*/g) ?? [];
    const seen = new Set<string>();
    for (let index = 0; index + 1 < words.length; index++) {
      const pair = [words[index]!, words[index + 1]!];
      if (!pair.every((word) => THEME_WORD.test(word))) continue;
      const stems = pair.map((word) => plainWords(word)[0]);
      if (stems.some((stemmed) => stemmed === undefined || not.nameStems.has(stemmed))) continue;
      const key = stems.join(" ");
      const form = pair.join(" ");
      const entry = found.get(key) ?? {
        posts: 0,
        forms: new Map<string, number>(),
        stems: stems as string[],
      };
      if (!seen.has(key)) entry.posts++;
      seen.add(key);
      entry.forms.set(form, (entry.forms.get(form) ?? 0) + 1);
      found.set(key, entry);
    }
  }
  return [...found.values()]
    .filter((entry) => entry.posts >= 2)
    .map((entry) => ({
      form: [...entry.forms].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0],
      stems: entry.stems,
      posts: entry.posts,
    }))
    .filter((phrase) => !terms(phrase.form).every((term) => not.productTerms.has(term)))
    .sort((a, b) => b.posts - a.posts || a.form.localeCompare(b.form));
}

/**
 * The period's themes: two-word phrases people repeat first, then the terms most posts share, each as
 * people wrote it. Never the product's name, a number, a contraction's piece, a word under three letters,
 * nor a word in most of the board's posts (it names the product: "invoice" on an invoicing board).
 */
async function themes(posts: PostText[], count: number, not: NotThemes): Promise<string[]> {
  // In slices of the event loop: a 100-post summary read on one turn held every other request 0.3–0.5 s.
  const slices = inSlices();
  const texts = posts.map((post) => `${post.title} ${post.description ?? ""}`.replace(CONTRACTIONS, " "));
  const phrases = await repeatedPhrases(texts, not, slices);
  const frequency = new Map<string, number>();
  for (const text of texts) {
    await slices.step();
    for (const term of new Set(terms(text))) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  }
  const words = await surfaceForms(texts, slices);
  const chosen = phrases.map((phrase) => phrase.form);
  const inPhrases = new Set(phrases.flatMap((phrase) => phrase.stems));
  const singles = [...frequency]
    .filter(
      ([term, n]) => (n >= 2 || posts.length < 4) && !not.productTerms.has(term) && !not.nameStems.has(term),
    )
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([term]) => ({ term, name: THEME_NAMES[term] ?? words.get(term) ?? term }))
    .filter(({ term, name }) => {
      if (THEME_NAMES[term]) return true;
      return name
        .split(" ")
        .every((word) => THEME_WORD.test(word) && !not.nameStems.has(plainWords(word)[0] ?? ""));
    })
    .filter(({ name }) => !name.split(" ").every((word) => inPhrases.has(plainWords(word)[0] ?? "")))
    .map(({ name }) => name);
  for (const name of singles) if (!chosen.includes(name)) chosen.push(name);
  return chosen.slice(0, count);
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
    const themeText =
      topThemes.length > 0 ? ` Most requests were about ${topThemes.slice(0, 3).join(", ")}.` : "";
    const summary =
      `This ${input.period}: ${newPosts} new post${newPosts === 1 ? "" : "s"}, ${votes} vote${votes === 1 ? "" : "s"}, ` +
      `${completed} completed.${themeText}`;
    return { summary, highlights, topThemes };
  }
}
