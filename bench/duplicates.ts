// Duplicate-detection quality of the local provider (issue 18). For each fixture of labelled pairs it
// embeds both posts, calibrates their cosine and calls a pair a duplicate at the default threshold (0.7),
// then prints precision, recall and F1. The hard fixture's `held-out` half is never used for tuning: its
// figures are the ones docs/ai.md reports.
//
//   npx bun bench/duplicates.ts

import { DEFAULT_THRESHOLD } from "../src/ai/service";
import { LocalProvider } from "../src/ai/local-provider";
import { calibrate } from "../src/ai/provider";
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

function score(pairs: Pair[]) {
  let truePositives = 0;
  let falsePositives = 0;
  let falseNegatives = 0;
  const misses: string[] = [];
  for (const pair of pairs) {
    const similarity = calibrate(
      dot(provider.embedNow(pair.a), provider.embedNow(pair.b)),
      provider.calibration,
    );
    const predicted = similarity >= DEFAULT_THRESHOLD;
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
  ["hard, held-out half", hard.filter((pair) => pair.half === "held-out")],
];
const showMisses = process.argv.includes("--misses");
console.log(`local provider ${provider.modelKey}, threshold ${DEFAULT_THRESHOLD}`);
for (const [name, pairs] of sets) {
  const result = score(pairs);
  console.log(
    `${name.padEnd(42)} pairs ${String(result.pairs).padStart(3)}  precision ${result.precision.toFixed(3)}  recall ${result.recall.toFixed(3)}  F1 ${result.f1.toFixed(3)}`,
  );
  // Misses are printed for the tuning sets only: reading the held-out ones would be tuning on them.
  if (showMisses && !name.includes("held-out")) for (const miss of result.misses) console.log(`    ${miss}`);
}
