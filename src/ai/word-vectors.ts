import { readFileSync } from "node:fs";
import wordVectorsPath from "./word-vectors.bin" with { type: "file" };
import { fnv1a } from "./vectors";
import {
  WORD_VECTOR_DIMENSION,
  WORD_VECTORS_HEADER_BYTES,
  WORD_VECTORS_MAGIC,
  wordCheck,
} from "./word-vector-format";

/**
 * General English word vectors for the local embedder (docs/ai.md, "Word vectors"): what tells it that
 * "night" and "dark", "editor" and "IDE", "speed" and "slow" are about the same thing when no phrase of
 * text.ts says so. Built by scripts/word-vectors.ts from GloVe; read from the file on first use, so a
 * server that never embeds never holds them.
 */

interface WordVectors {
  dimensions: number;
  scale: number;
  /** The mean length of a weighted word vector. */
  typicalLength: number;
  hashes: Uint32Array;
  weights: Float32Array;
  checks: Uint16Array;
  values: Int8Array;
}

let loaded: WordVectors | undefined;

/** Views over the file's bytes, copied only when they do not start a buffer of their own (alignment). */
function parse(bytes: Uint8Array): WordVectors {
  const buffer =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      ? bytes.buffer
      : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const header = new DataView(buffer, 0, WORD_VECTORS_HEADER_BYTES);
  if (header.getUint32(0, true) !== WORD_VECTORS_MAGIC)
    throw new Error("word-vectors.bin: not a word-vector file");
  const count = header.getUint32(4, true);
  const dimensions = header.getUint32(8, true);
  if (dimensions !== WORD_VECTOR_DIMENSION) throw new Error(`word-vectors.bin: ${dimensions} dimensions`);
  return {
    dimensions,
    scale: header.getFloat32(12, true),
    typicalLength: header.getFloat32(16, true),
    hashes: new Uint32Array(buffer, WORD_VECTORS_HEADER_BYTES, count),
    weights: new Float32Array(buffer, WORD_VECTORS_HEADER_BYTES + 4 * count, count),
    checks: new Uint16Array(buffer, WORD_VECTORS_HEADER_BYTES + 8 * count, count),
    values: new Int8Array(buffer, WORD_VECTORS_HEADER_BYTES + 10 * count, count * dimensions),
  };
}

function wordVectors(): WordVectors {
  loaded ??= parse(readFileSync(wordVectorsPath));
  return loaded;
}

/** Reads the file off the event loop (the first read of 6.6 MB took 5–10 ms on it); once. */
export async function prepareWordVectors(): Promise<void> {
  if (loaded) return;
  const bytes = await Bun.file(wordVectorsPath).bytes();
  loaded ??= parse(bytes);
}

/**
 * The row of a word, or -1. A word outside the vocabulary meets an inside word's hash and check value
 * about once in 4.7 billion lookups.
 */
function rowOf(vectors: WordVectors, word: string): number {
  const hash = fnv1a(word);
  let low = 0;
  let high = vectors.hashes.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = vectors.hashes[middle]!;
    if (value === hash) return vectors.checks[middle] === wordCheck(word) ? middle : -1;
    if (value < hash) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** How the local embedder reads a word's meaning: its general-English vector, or a direction of its own. */
export type WordKind = "general" | "concept" | "contrast";

/**
 * A word with a direction of its own weighs as much as a typical known word: contrast terms, the concepts
 * of text.ts, and words outside the vocabulary (product names and jargon: "Zapier", "SCIM").
 */
const OWN_DIRECTION_WEIGHT = 1;

/**
 * A fixed pseudo-random direction of length `length` for a word, added to `sum`. General-English vectors
 * put "import" beside "export" and "Android" beside "iOS" (they occur in the same sentences); for a feature
 * request they are what tells two requests apart, so such words get directions of their own instead. So
 * do the product concepts text.ts folds phrases into ("2fa", "darkmode"): the lexicon already says which
 * words mean them.
 */
function addOwnDirection(sum: Float32Array, word: string, length: number): void {
  let state = fnv1a(word) || 1;
  const unit = length / Math.sqrt(sum.length);
  for (let d = 0; d < sum.length; d++) {
    // xorshift32: deterministic signs from the word alone.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    sum[d] = sum[d]! + ((state & 1) === 0 ? unit : -unit);
  }
}

/**
 * Adds the L2-normalised, frequency-weighted mean of the words' vectors, times `weight`, to `target`
 * (WORD_VECTOR_DIMENSION long). `words` maps each word to its kind: contrast terms, concepts and words
 * outside the vocabulary take directions of their own instead of general-English vectors. No words: nothing
 * is added.
 */
export function addWordVectors(
  target: Float32Array,
  words: ReadonlyMap<string, WordKind>,
  weight: number,
): void {
  if (words.size === 0) return;
  const vectors = wordVectors();
  const { dimensions, values, weights, scale } = vectors;
  const sum = new Float32Array(dimensions);
  for (const [word, kind] of words) {
    const row = kind === "general" ? rowOf(vectors, word) : -1;
    if (row < 0) {
      addOwnDirection(sum, word, OWN_DIRECTION_WEIGHT * vectors.typicalLength);
      continue;
    }
    const factor = weights[row]! * scale;
    const start = row * dimensions;
    for (let d = 0; d < dimensions; d++) sum[d] = sum[d]! + factor * values[start + d]!;
  }
  let norm = 0;
  for (const value of sum) norm += value * value;
  norm = Math.sqrt(norm);
  if (norm === 0) return;
  for (let d = 0; d < dimensions; d++) target[d] = target[d]! + (weight * sum[d]!) / norm;
}

const ALPHABET = "abcdefghijklmnopqrstuvwxyz";

/** Whether the vocabulary has the word (one hash lookup). */
export function inVocabulary(word: string): boolean {
  return rowOf(wordVectors(), word) >= 0;
}

/**
 * The most frequent vocabulary word one edit away from `word`, a word outside the vocabulary (a letter
 * deleted, swapped with the next, replaced or inserted), or null: how "calender" finds "calendar". Only
 * hashes are stored, so each candidate is hashed and looked up (~50 n lookups for a word of n letters).
 */
export function nearestVocabularyWord(word: string): string | null {
  const vectors = wordVectors();
  let best: string | null = null;
  let bestWeight = Number.POSITIVE_INFINITY;
  const consider = (candidate: string) => {
    const row = rowOf(vectors, candidate);
    // The weight grows with rarity: the smallest is the most frequent word.
    if (row >= 0 && vectors.weights[row]! < bestWeight) {
      best = candidate;
      bestWeight = vectors.weights[row]!;
    }
  };
  for (let i = 0; i <= word.length; i++) {
    const before = word.slice(0, i);
    const after = word.slice(i);
    if (after.length > 0) consider(before + after.slice(1));
    if (after.length > 1) consider(before + after[1] + after[0] + after.slice(2));
    for (const letter of ALPHABET) {
      if (after.length > 0 && letter !== after[0]) consider(before + letter + after.slice(1));
      consider(before + letter + after);
    }
  }
  return best;
}
