// Title quality of from-text under the local provider (docs/ai.md, "Titles of pasted feedback"). Each item
// of test/fixtures/from-text-titles.json is pasted feedback with what a product manager would accept as its
// title; the title is made as the local provider makes it (cleanFeedback, then titleOf) and is right when it
// holds every `mustInclude` word and none of `mustNotInclude` (lower case, at the start of a word, so a stem
// matches "invoices"), in at most TITLE_MOST_CHARS, and reads as a title: a capital first, no trailing punctuation
// or "please", no request's frame left at its start ("I would like to", "Can you", "Could the map",
// "Customer says"). Items fall into a `tuning` and a `held-out` half by a hash
// of their text; only the tuning half's failures are printed: reading the held-out ones would be tuning on them.
//
//   bun bench/from-text-titles.ts

import { cleanFeedback, plainTextOf, titleOf, TITLE_MOST_CHARS } from "../src/ai/feedback-text";
import { fnv1a } from "../src/ai/vectors";

export interface TitleCase {
  kind: string;
  hard: boolean;
  text: string;
  mustInclude: string[];
  mustNotInclude: string[];
  /** Which set of items it came with (absent: the first set); the bench scores each set apart too. */
  batch?: string;
}

export type Half = "tuning" | "held-out";

/** The half an item belongs to: a hash of its text, so adding items never moves the others. */
export function halfOf(item: TitleCase): Half {
  return fnv1a(item.text) % 2 === 0 ? "tuning" : "held-out";
}

export async function loadTitleCases(): Promise<TitleCase[]> {
  const file = new URL("../test/fixtures/from-text-titles.json", import.meta.url).pathname;
  return ((await Bun.file(file).json()) as { items: TitleCase[] }).items;
}

/** The title the local provider gives a paste (src/ai/local-provider.ts, extractPost). */
export function localTitle(text: string): string {
  const cleaned = cleanFeedback(text);
  return titleOf(cleaned || plainTextOf(text).trim());
}

function holdsWord(title: string, word: string): boolean {
  const escaped = word.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?:^|[^\\p{L}\\p{N}])${escaped}`, "u").test(title.toLowerCase().replace(/[’‘]/g, "'"));
}

/** The frame of a request, which its title drops: "I would like to be able to", "Can you", "Customer says". */
const REQUEST_FRAME =
  /^(?:(?:i|we)(?:['’]d|\s+would)?\s+(?:really\s+)?(?:love|like|want|need|wish)\b|would\s+(?:love|like|be|it)\b|(?:can|could|would|will)\s+(?:you|u|we|i)\b|(?:can|could|would|will|should|is|are|does|do)\s+(?:the|a|an|our|my|their|it|this|these|those|there)\b|please\b|pls\b|kindly\b|any\s+(?:chance|way)\b|it\s+would\s+be|(?:is|was)\s+it\s+possible|(?:i|we)(?:['’]m|['’]re|\s+am|\s+are)\s+(?:hoping|wondering)|(?:the\s+)?(?:customer|client|prospect|user)s?\s+(?:says|said|asks|asked|wants|would|reports|is\s+requesting)\b|per\s+our\b|from\s+\w+:)/i;

/** Why a title does not read as a title, or null. */
export function formProblem(title: string): string | null {
  if (/^\p{Ll}/u.test(title)) return "starts lower-case";
  if (/[.,;:!?\-–—]$|\b(?:please|pls)$/i.test(title)) return "ends with punctuation or please";
  if (REQUEST_FRAME.test(title)) return "starts with a request's frame";
  return null;
}

/** Why a title is wrong for its item, or null when a product manager would accept it. */
export function titleProblem(item: TitleCase, title: string): string | null {
  const missing = item.mustInclude.filter((word) => !holdsWord(title, word));
  const extra = item.mustNotInclude.filter((word) => holdsWord(title, word));
  const problems = [
    ...(missing.length > 0 ? [`lacks ${missing.join(", ")}`] : []),
    ...(extra.length > 0 ? [`holds ${extra.join(", ")}`] : []),
    ...(title.length > TITLE_MOST_CHARS ? [`${title.length} characters`] : []),
    ...[formProblem(title)].filter((problem) => problem !== null),
  ];
  return problems.length > 0 ? problems.join("; ") : null;
}

export interface HalfScore {
  total: number;
  right: number;
  accuracy: number;
  failures: string[];
}

export function scoreTitles(items: readonly TitleCase[]): HalfScore {
  const failures: string[] = [];
  for (const item of items) {
    const title = localTitle(item.text);
    const problem = titleProblem(item, title);
    if (problem)
      failures.push(`${problem}\n      title: ${title}\n      text:  ${item.text.replace(/\n/g, " ⏎ ")}`);
  }
  const right = items.length - failures.length;
  return { total: items.length, right, accuracy: right / Math.max(1, items.length), failures };
}

if (import.meta.main) {
  const items = await loadTitleCases();
  const batches = [...new Set(items.map((item) => item.batch ?? "first set"))];
  for (const half of ["tuning", "held-out"] as const) {
    const inHalf = items.filter((item) => halfOf(item) === half);
    const score = scoreTitles(inHalf);
    const hard = scoreTitles(inHalf.filter((item) => item.hard));
    const byBatch = batches.map((batch) => {
      const inBatch = scoreTitles(inHalf.filter((item) => (item.batch ?? "first set") === batch));
      return `${batch} ${inBatch.right}/${inBatch.total}`;
    });
    console.log(
      `${half.padEnd(8)} ${score.right}/${score.total} = ${score.accuracy.toFixed(3)}` +
        `   (hard items ${hard.right}/${hard.total}; ${byBatch.join(", ")})`,
    );
    if (half === "tuning") for (const failure of score.failures) console.log(`    ${failure}`);
  }
}
