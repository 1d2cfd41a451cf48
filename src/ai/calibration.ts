import type { AiRuntime } from "./embeddings";
import { isRejected } from "./provider";
import { nearest } from "./similarity";
import * as store from "./store";
import { dot } from "./vectors";

/** Fewer labelled pairs than this give a boundary that means nothing. */
export const MIN_MERGED_PAIRS = 5;

export interface CalibrationReport {
  mergedPairs: number;
  /** The boundary in use now, and the one the project's own pairs suggest (null: too few pairs). */
  current: number;
  suggested: number | null;
  precision: number | null;
  recall: number | null;
  /** Raw cosines of the merged pairs (duplicates) and of each target's nearest other post. */
  duplicates: { min: number; median: number } | null;
  neighbours: { max: number; median: number } | null;
}

interface LabelledCosine {
  raw: number;
  duplicate: boolean;
}

function measure(
  pairs: LabelledCosine[],
  boundary: number,
): { precision: number; recall: number; f1: number } {
  let truePositives = 0;
  let predicted = 0;
  let duplicates = 0;
  for (const pair of pairs) {
    if (pair.duplicate) duplicates++;
    if (pair.raw < boundary) continue;
    predicted++;
    if (pair.duplicate) truePositives++;
  }
  const precision = truePositives / Math.max(1, predicted);
  const recall = truePositives / Math.max(1, duplicates);
  return { precision, recall, f1: (2 * precision * recall) / Math.max(1e-9, precision + recall) };
}

/**
 * The raw-cosine cut that gives the best F1 (ties: the higher precision) with its precision and recall;
 * null without a duplicate. With several sets of labelled pairs, the best mean of their F1s: each set
 * counts once, however many pairs it holds. Used by `ai calibrate` (one set) and bench/duplicates.ts.
 */
export function bestBoundary(
  ...sets: LabelledCosine[][]
): { boundary: number; precision: number; recall: number } | null {
  const all = sets.flat();
  if (!all.some((pair) => pair.duplicate)) return null;
  const cosines = [...new Set(all.map((pair) => pair.raw))].sort((a, b) => a - b);
  let best = { boundary: 0, f1: -1, precision: 0, recall: 0 };
  for (let index = 0; index < cosines.length; index++) {
    const boundary = index === 0 ? cosines[0]! - 1e-6 : (cosines[index - 1]! + cosines[index]!) / 2;
    const scores = sets.map((set) => measure(set, boundary));
    const f1 = scores.reduce((sum, score) => sum + score.f1, 0) / scores.length;
    const overall = measure(all, boundary);
    if (f1 > best.f1 || (f1 === best.f1 && overall.precision > best.precision)) {
      best = { boundary, f1, precision: overall.precision, recall: overall.recall };
    }
  }
  return { boundary: best.boundary, precision: best.precision, recall: best.recall };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * Derives the raw-cosine boundary (similarity 0.7) for the configured embedding model from the project's
 * own decisions (`featureboard ai calibrate`, docs/ai.md): the posts the team merged are duplicates; each
 * merge target's nearest other post that was not merged into it stands for "related, not the same". The
 * suggestion is the cut between the two that gives the best F1 (ties: the higher precision). Read-only:
 * it prints the value for FEATUREBOARD_EMBED_BOUNDARY and changes nothing.
 */
export async function calibrateFromMerges(
  ai: AiRuntime,
  projectId: string | null,
): Promise<CalibrationReport> {
  const pairs = store.mergedPairs(ai.db, projectId, 500);
  const current = ai.provider.calibration.boundary;
  const empty = { duplicates: null, neighbours: null, suggested: null, precision: null, recall: null };
  if (pairs.length < MIN_MERGED_PAIRS) return { mergedPairs: pairs.length, current, ...empty };
  await ai.drain(projectId);
  const texts = pairs.flatMap((pair) => [pair.source, pair.target]);
  const vectors = await ai.provider.embed(texts);
  const positives: number[] = [];
  const negatives: number[] = [];
  for (const [index, pair] of pairs.entries()) {
    const source = vectors[2 * index]!;
    const target = vectors[2 * index + 1]!;
    if (isRejected(source) || isRejected(target)) continue;
    positives.push(dot(source, target));
    const neighbours = await nearest(ai, pair.projectId, target, 3);
    const neighbour = neighbours.find((hit) => hit.postId !== pair.target.id);
    if (neighbour) negatives.push(neighbour.raw);
  }
  if (positives.length < MIN_MERGED_PAIRS) return { mergedPairs: pairs.length, current, ...empty };
  const best = bestBoundary([
    ...positives.map((raw) => ({ raw, duplicate: true })),
    ...negatives.map((raw) => ({ raw, duplicate: false })),
  ]) ?? { boundary: current, precision: 0, recall: 0 };
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    mergedPairs: pairs.length,
    current,
    suggested: round(Math.min(0.99, Math.max(0.01, best.boundary))),
    precision: round(best.precision),
    recall: round(best.recall),
    duplicates: { min: round(Math.min(...positives)), median: round(median(positives)) },
    neighbours:
      negatives.length > 0 ? { max: round(Math.max(...negatives)), median: round(median(negatives)) } : null,
  };
}
