import { CONTRAST_TERMS, readText } from "./text";
import { fnv1a, l2Normalise } from "./vectors";
import { WORD_VECTOR_DIMENSION } from "./word-vector-format";
import { addWordVectors } from "./word-vectors";

/** Hashed word features, then the word-vector mean (see below). */
const LEXICAL_DIMENSION = 512;
export const LOCAL_DIMENSION = LEXICAL_DIMENSION + WORD_VECTOR_DIMENSION;
/** Changes whenever the features below change, so stored vectors are rebuilt (see embeddings.ts). */
export const LOCAL_MODEL_KEY = `local-hash-v6:${LOCAL_DIMENSION}`;

/**
 * A local vector has two parts: hashed word features (what the request literally says, its product
 * phrases and contrast terms) and the mean of its words' general-English vectors (word-vectors.ts: what it
 * means in other words). The cosine of two vectors is LEXICAL_SHARE times the first parts' cosine plus the
 * rest times the second's.
 */
const LEXICAL_SHARE = 0.6;

const TITLE_WEIGHT = 1;
const DESCRIPTION_WEIGHT = 0.5;
const BIGRAM_WEIGHT = 0.6;
const TRIGRAM_WEIGHT = 0.25;
/** A contrast term (text.ts) weighs this many times a plain word. */
const CONTRAST_WEIGHT = 2.5;

function addFeature(vector: Float32Array, feature: string, weight: number): void {
  const hash = fnv1a(feature);
  const index = hash % LEXICAL_DIMENSION;
  // The sign bit spreads colliding features around zero instead of piling them up.
  vector[index] = vector[index]! + ((hash & 0x80000000) !== 0 ? -weight : weight);
}

function addTerms(vector: Float32Array, words: readonly string[], weight: number): void {
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
  const titleText = readText(title);
  const descriptionText = description ? readText(description) : null;
  const lexical = new Float32Array(LEXICAL_DIMENSION);
  addTerms(lexical, titleText.terms, TITLE_WEIGHT);
  if (descriptionText) addTerms(lexical, descriptionText.terms, DESCRIPTION_WEIGHT);
  l2Normalise(lexical);

  const meaning = new Float32Array(WORD_VECTOR_DIMENSION);
  addWordVectors(meaning, titleText.meaningWords, TITLE_WEIGHT);
  if (descriptionText) addWordVectors(meaning, descriptionText.meaningWords, DESCRIPTION_WEIGHT);
  l2Normalise(meaning);

  const vector = new Float32Array(LOCAL_DIMENSION);
  const lexicalWeight = Math.sqrt(LEXICAL_SHARE);
  const meaningWeight = Math.sqrt(1 - LEXICAL_SHARE);
  for (let i = 0; i < LEXICAL_DIMENSION; i++) vector[i] = lexicalWeight * lexical[i]!;
  for (let d = 0; d < WORD_VECTOR_DIMENSION; d++) vector[LEXICAL_DIMENSION + d] = meaningWeight * meaning[d]!;
  // A text without words (only stopwords) has no second part: the vector is its first part alone.
  return l2Normalise(vector);
}
