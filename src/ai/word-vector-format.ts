/**
 * The file format of src/ai/word-vectors.bin, shared by its reader (word-vectors.ts) and its builder
 * (scripts/word-vectors.ts). Little-endian: magic, word count, dimensions, quantisation scale, the mean
 * length of a weighted word vector (float32); then the
 * words' FNV-1a hashes in ascending order, their frequency weights (float32) and their vectors (int8, same
 * order).
 */
export const WORD_VECTORS_MAGIC = 0x56574246; // "FBWV"
export const WORD_VECTORS_HEADER_BYTES = 20;
/** The dimensions of a word vector. */
export const WORD_VECTOR_DIMENSION = 100;

/** A word's weight from its frequency rank: frequent words carry little meaning (smooth inverse frequency). */
export function wordWeight(rank: number): number {
  const frequency = 1 / (rank + 50);
  return 1e-3 / (1e-3 + frequency);
}
