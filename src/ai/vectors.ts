/** Vector helpers shared by both providers, the index and the benchmark. */

/** Bits of the coarse signature stored in the vec0 table (a fixed size, whatever the provider's dimension). */
export const SIGNATURE_BITS = 1024;

export function l2Normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! / norm;
  return vector;
}

/** Cosine of two L2-normalised vectors of the same dimension. */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** 32-bit FNV-1a: the hash behind the local embedder's feature buckets and the signature planes. */
export function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** A small deterministic generator (mulberry32), so the random hyperplanes are the same on every run. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const planesByDimension = new Map<number, Float32Array>();

/** SIGNATURE_BITS random hyperplanes (standard normal entries) for vectors of `dimension`. */
function planes(dimension: number): Float32Array {
  let found = planesByDimension.get(dimension);
  if (found) return found;
  const random = generator(0x5eed + dimension);
  found = new Float32Array(SIGNATURE_BITS * dimension);
  for (let i = 0; i < found.length; i += 2) {
    // Box-Muller: two normal values from two uniform ones.
    const radius = Math.sqrt(-2 * Math.log(random() || 1e-12));
    const angle = 2 * Math.PI * random();
    found[i] = radius * Math.cos(angle);
    if (i + 1 < found.length) found[i + 1] = radius * Math.sin(angle);
  }
  planesByDimension.set(dimension, found);
  return found;
}

/**
 * The coarse signature of a vector: one bit per random hyperplane (SimHash). The Hamming distance of two
 * signatures estimates the angle between the vectors, so a bit[] KNN scan finds candidates that the exact
 * cosine then re-ranks.
 */
export function signature(vector: Float32Array): Uint8Array {
  const dimension = vector.length;
  const matrix = planes(dimension);
  // Local vectors are sparse: only their non-zero entries take part in the projections.
  const nonZero: number[] = [];
  for (let i = 0; i < dimension; i++) if (vector[i] !== 0) nonZero.push(i);
  const bits = new Uint8Array(SIGNATURE_BITS / 8);
  for (let plane = 0; plane < SIGNATURE_BITS; plane++) {
    let sum = 0;
    const offset = plane * dimension;
    for (const i of nonZero) sum += vector[i]! * matrix[offset + i]!;
    if (sum > 0) bits[plane >> 3] = bits[plane >> 3]! | (1 << (plane & 7));
  }
  return bits;
}

export function toBlob(vector: Float32Array): Uint8Array {
  return new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
}

export function fromBlob(blob: Uint8Array): Float32Array {
  // Copy: a blob from SQLite need not be 4-byte aligned.
  const copy = new Uint8Array(blob);
  return new Float32Array(copy.buffer, 0, copy.byteLength / 4);
}
