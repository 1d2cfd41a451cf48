// Duplicate-detection quality of the local provider (issue 18). For each fixture of labelled pairs it
// embeds both posts, calibrates their cosine, scores the pair as the service does (pairSimilarity: less
// when the titles are one place apart) and calls a pair a duplicate at the default threshold (0.7),
// then prints precision, recall and F1: once as the similar-post search lists pairs, once as from-text
// and triage decide a duplicate (which also refuse titles that ask apart, titlesAskApart). The hard fixture's `held-out` half is never used for tuning: its
// figures are the ones docs/ai.md reports.
//
//   npx bun bench/duplicates.ts [--misses] [--fit]
//
// --fit finds the raw-cosine boundary with the best mean F1 of the easy fixture and the hard fixture's
// tuning half (never the held-out halves), prints it and scores every set with it instead of
// LOCAL_BOUNDARY (src/ai/local-provider.ts), which is set from it. It fits the vectors' cosines, as
// `featureboard ai calibrate` does, before the title rule; docs/ai.md ("v6") has the check with the rule.

import { DEFAULT_THRESHOLD } from "../src/ai/service";
import { LocalProvider } from "../src/ai/local-provider";
import { bestBoundary } from "../src/ai/calibration";
import { calibrate } from "../src/ai/provider";
import { pairSimilarity, titlesAskApart } from "../src/ai/similarity";
import { terms } from "../src/ai/text";
import { dot } from "../src/ai/vectors";

interface Post {
  title: string;
  description: string | null;
}
interface Pair {
  a: Post;
  b: Post;
  duplicate: boolean;
  half?: "tuning" | "held-out";
}

const provider = new LocalProvider();
const fixtures = new URL("../test/fixtures/", import.meta.url).pathname;
const load = async (name: string): Promise<Pair[]> => (await Bun.file(fixtures + name).json()).pairs;

/**
 * Scores pairs as the similar-post search lists them (`search`: pairSimilarity at the threshold) or as
 * from-text and triage call a duplicate (`decision`: the same, unless the titles ask apart, titlesAskApart).
 */
function score(pairs: Pair[], calibration: { boundary: number }, mode: "search" | "decision") {
  let truePositives = 0;
  let falsePositives = 0;
  let falseNegatives = 0;
  const misses: string[] = [];
  for (const pair of pairs) {
    const similarity = pairSimilarity(
      calibrate(dot(provider.embedNow(pair.a), provider.embedNow(pair.b)), calibration),
      terms(pair.a.title),
      terms(pair.b.title),
    );
    const predicted =
      similarity >= DEFAULT_THRESHOLD && (mode === "search" || !titlesAskApart(pair.a.title, pair.b.title));
    if (predicted && pair.duplicate) truePositives++;
    else if (predicted) falsePositives++;
    else if (pair.duplicate) falseNegatives++;
    if (predicted !== pair.duplicate) {
      misses.push(
        `${pair.duplicate ? "missed" : "false  "} ${similarity.toFixed(2)}  ${pair.a.title} | ${pair.b.title}`,
      );
    }
  }
  const precision = truePositives / Math.max(1, truePositives + falsePositives);
  const recall = truePositives / Math.max(1, truePositives + falseNegatives);
  const f1 = (2 * precision * recall) / Math.max(1e-9, precision + recall);
  return { pairs: pairs.length, precision, recall, f1, misses };
}

const hard = await load("duplicates-hard.json");
const sets: [string, Pair[]][] = [
  ["easy (duplicates.json)", await load("duplicates.json")],
  ["easy held-out (duplicates-holdout.json)", await load("duplicates-holdout.json")],
  ["hard, tuning half", hard.filter((pair) => pair.half === "tuning")],
  ["dev (duplicates-dev.json)", await load("duplicates-dev.json")],
  ["hard, held-out half", hard.filter((pair) => pair.half === "held-out")],
];
const showMisses = process.argv.includes("--misses");
let calibration = provider.calibration;
if (process.argv.includes("--fit")) {
  const cosines = (pairs: Pair[]) =>
    pairs.map((pair) => ({
      raw: dot(provider.embedNow(pair.a), provider.embedNow(pair.b)),
      duplicate: pair.duplicate,
    }));
  const fitted = bestBoundary(cosines(sets[0]![1]), cosines(sets[2]![1]));
  if (!fitted) throw new Error("no duplicate among the fitting pairs");
  calibration = { boundary: fitted.boundary };
  console.log(`fitted boundary ${fitted.boundary.toFixed(3)} (mean F1 of easy and hard tuning half)`);
}
console.log(
  `local provider ${provider.modelKey}, boundary ${calibration.boundary.toFixed(3)}, threshold ${DEFAULT_THRESHOLD}`,
);
for (const mode of ["search", "decision"] as const) {
  console.log(
    mode === "search"
      ? "similar-post search (pairSimilarity at the threshold):"
      : "duplicate decision of from-text and triage (also titlesAskApart):",
  );
  for (const [name, pairs] of sets) {
    const result = score(pairs, calibration, mode);
    console.log(
      `  ${name.padEnd(42)} pairs ${String(result.pairs).padStart(3)}  precision ${result.precision.toFixed(3)}  recall ${result.recall.toFixed(3)}  F1 ${result.f1.toFixed(3)}`,
    );
    // Misses are printed for the tuning sets only: reading the held-out ones would be tuning on them.
    if (showMisses && !name.includes("held-out"))
      for (const miss of result.misses) console.log(`      ${miss}`);
  }
}
