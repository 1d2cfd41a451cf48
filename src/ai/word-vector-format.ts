import { fnv1a } from "./vectors";

/**
 * The file format of src/ai/word-vectors.bin, shared by its reader (word-vectors.ts) and its builder
 * (scripts/word-vectors.ts). Little-endian: magic, word count, dimensions, quantisation scale, the mean
 * length of a weighted word vector (float32); then the words' FNV-1a hashes in ascending order, their
 * frequency weights (float32), their check values (uint16, see wordCheck) and their vectors (int8), all
 * in the same order.
 */
export const WORD_VECTORS_MAGIC = 0x32574246; // "FBW2"
export const WORD_VECTORS_HEADER_BYTES = 20;
/** The dimensions of a word vector. */
export const WORD_VECTOR_DIMENSION = 100;

/** A word's weight from its frequency rank: frequent words carry little meaning (smooth inverse frequency). */
export function wordWeight(rank: number): number {
  const frequency = 1 / (rank + 50);
  return 1e-3 / (1e-3 + frequency);
}

/**
 * A second, independent 16-bit hash of a word, stored beside its FNV-1a hash: spelling repair looks up
 * hundreds of made-up candidates per word, and without it about one misspelt word in 130 would meet a
 * vocabulary word's hash by chance and take that word's vector.
 */
export function wordCheck(word: string): number {
  return fnv1a(word, 0x9e3779b9) & 0xffff;
}
