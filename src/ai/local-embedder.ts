import { CONTRAST_TERMS, terms } from "./text";
import { fnv1a, l2Normalise } from "./vectors";

export const LOCAL_DIMENSION = 512;
/** Changes whenever the features below change, so stored vectors are rebuilt (see embeddings.ts). */
export const LOCAL_MODEL_KEY = `local-hash-v2:${LOCAL_DIMENSION}`;

const TITLE_WEIGHT = 1;
const DESCRIPTION_WEIGHT = 0.5;
const BIGRAM_WEIGHT = 0.6;
const TRIGRAM_WEIGHT = 0.25;
/** A contrast term (text.ts) weighs this many times a plain word. */
const CONTRAST_WEIGHT = 2.5;

function addFeature(vector: Float32Array, feature: string, weight: number): void {
  const hash = fnv1a(feature);
  const index = hash % LOCAL_DIMENSION;
  // The sign bit spreads colliding features around zero instead of piling them up.
  vector[index] = vector[index]! + ((hash & 0x80000000) !== 0 ? -weight : weight);
}

function addText(vector: Float32Array, text: string, weight: number): void {
  const words = terms(text);
  // Repeating a word adds little: each distinct word counts once, then sub-linearly.
  const counts = new Map<string, number>();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  for (const [word, count] of counts) {
    const wordWeight = weight * (1 + Math.log(count)) * (CONTRAST_TERMS.has(word) ? CONTRAST_WEIGHT : 1);
    addFeature(vector, `w:${word}`, wordWeight);
    // Character trigrams catch spellings the stemmer misses ("organisation"/"organization").
    const padded = `^${word}$`;
    if (word.length > 3) {
      for (let i = 0; i + 3 <= padded.length; i++) {
        addFeature(
          vector,
          `c:${padded.slice(i, i + 3)}`,
          (wordWeight * TRIGRAM_WEIGHT) / Math.sqrt(padded.length),
        );
      }
    }
  }
  for (let i = 0; i + 1 < words.length; i++) {
    const pair = [words[i]!, words[i + 1]!].sort().join(" ");
    addFeature(vector, `b:${pair}`, weight * BIGRAM_WEIGHT);
  }
}

/** The local embedding of a post: title words count double the description's. Deterministic, no network. */
export function embedLocally(title: string, description: string | null = null): Float32Array {
  const vector = new Float32Array(LOCAL_DIMENSION);
  addText(vector, title, TITLE_WEIGHT);
  if (description) addText(vector, description, DESCRIPTION_WEIGHT);
  return l2Normalise(vector);
}
