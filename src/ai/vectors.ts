/** Vector helpers shared by both providers, the index and the benchmark. */

import { nextTurn } from "../turns";

/** Bits of the coarse signature stored in the vec0 table (a fixed size, whatever the provider's dimension). */
export const SIGNATURE_BITS = 1024;

export function l2Normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! / norm;
  return vector;
}

/**
 * Cosine of two L2-normalised vectors of the same dimension. Vectors of different dimensions come from
 * different models and have no cosine: comparing their first entries gave identical titles 0.21, so it is
 * refused (the search leaves such rows out before, docs/ai.md "Vectors the index refuses").
 */
export function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length)
    throw new RangeError(`cannot compare vectors of ${a.length} and ${b.length} dimensions`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/**
 * Why a vector cannot be stored or searched with, or null when it can: an entry that is not a finite
 * number (NaN broke the ranking's sort) or a vector of zeros (no direction: its cosine with anything is 0).
 */
export function vectorProblem(vector: Float32Array): string | null {
  if (vector.length === 0) return "the embedding is empty";
  let sum = 0;
  for (const value of vector) {
    if (!Number.isFinite(value)) return "the embedding holds a value that is not a finite number";
    sum += value * value;
  }
  return sum > 0 ? null : "the embedding is all zeros";
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

/** A small deterministic generator (mulberry32): the same random hyperplanes, and benchmark data, on every run. */
export function seededRandom(seed: number): () => number {
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
/** Normal draws per step of planeSteps: a few milliseconds of work. */
const DRAWS_PER_STEP = 65_536;

/**
 * SIGNATURE_BITS random hyperplanes (standard normal entries) for vectors of `dimension`, stored dimension
 * by dimension (entry `i * SIGNATURE_BITS + plane`): a vector's non-zero entry then adds one contiguous
 * run to every plane's projection, which is what makes signing cheap enough for a 10,000-row import.
 * Built in steps (a generator), so the service can build them in the background (preparePlanes) instead
 * of in the first request that signs a vector: all of it at once holds the event loop ~40 ms.
 */
function* planeSteps(dimension: number): Generator<void, Float32Array> {
  const random = seededRandom(0x5eed + dimension);
  // Drawn plane by plane, so the planes stay the same whatever the storage order.
  const byPlane = new Float32Array(SIGNATURE_BITS * dimension);
  for (let i = 0; i < byPlane.length; i += 2) {
    // Box-Muller: two normal values from two uniform ones.
    const radius = Math.sqrt(-2 * Math.log(random() || 1e-12));
    const angle = 2 * Math.PI * random();
    byPlane[i] = radius * Math.cos(angle);
    if (i + 1 < byPlane.length) byPlane[i + 1] = radius * Math.sin(angle);
    if (i % DRAWS_PER_STEP === 0) yield;
  }
  const planes = new Float32Array(SIGNATURE_BITS * dimension);
  for (let plane = 0; plane < SIGNATURE_BITS; plane++) {
    for (let i = 0; i < dimension; i++) planes[i * SIGNATURE_BITS + plane] = byPlane[plane * dimension + i]!;
    if (plane % 64 === 0) yield;
  }
  return planes;
}

function planes(dimension: number): Float32Array {
  let found = planesByDimension.get(dimension);
  if (found) return found;
  const steps = planeSteps(dimension);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) {
      found = step.value;
      break;
    }
  }
  planesByDimension.set(dimension, found);
  return found;
}

/** Builds the planes for `dimension` a step at a time, with the event loop free between steps. */
export async function preparePlanes(dimension: number): Promise<void> {
  // Called before every batch: once built, nothing to do (starting the generator would allocate its
  // 2.5 MB scratch array each time, which the garbage collector then has to take back).
  if (planesByDimension.has(dimension)) return;
  const steps = planeSteps(dimension);
  for (let step = steps.next(); ; step = steps.next()) {
    if (planesByDimension.has(dimension)) return;
    if (step.done) {
      planesByDimension.set(dimension, step.value);
      // The first signature compiles its loops (4-5 ms measured): on a turn of its own, not inside the first
      // batch of embeddings that the re-embed's stall probe saw (docs/performance.md).
      await nextTurn();
      signature(new Float32Array(dimension).fill(1 / Math.sqrt(dimension)));
      return;
    }
    await nextTurn();
  }
}

/**
 * The coarse signature of a vector: one bit per random hyperplane (SimHash). The Hamming distance of two
 * signatures estimates the angle between the vectors, so a bit[] KNN scan finds candidates that the exact
 * cosine then re-ranks.
 */
export function signature(vector: Float32Array): Uint8Array {
  const dimension = vector.length;
  const matrix = planes(dimension);
  // Float64 sums, added in the same order as a plane-by-plane dot product: the same bits.
  const projections = new Float64Array(SIGNATURE_BITS);
  for (let i = 0; i < dimension; i++) {
    const value = vector[i]!;
    // Local vectors are sparse: only their non-zero entries take part in the projections.
    if (value === 0) continue;
    const row = matrix.subarray(i * SIGNATURE_BITS, (i + 1) * SIGNATURE_BITS);
    for (let plane = 0; plane < SIGNATURE_BITS; plane++)
      projections[plane] = projections[plane]! + value * row[plane]!;
  }
  const bits = new Uint8Array(SIGNATURE_BITS / 8);
  for (let plane = 0; plane < SIGNATURE_BITS; plane++) {
    if (projections[plane]! > 0) bits[plane >> 3] = bits[plane >> 3]! | (1 << (plane & 7));
  }
  return bits;
}

/** How a vector is stored: 16-bit floats for what is written now, 32-bit for rows from before (0017). */
export type VectorFormat = "f16" | "f32";

/** A vector as stored: 16-bit floats, half the bytes of 32-bit ones (migration 0017 says why). */
export function toHalfBlob(vector: Float32Array): Uint8Array {
  const half = Float16Array.from(vector);
  return new Uint8Array(half.buffer, half.byteOffset, half.byteLength);
}

export function fromBlob(blob: Uint8Array, format: VectorFormat): Float32Array {
  // Copy: a blob from SQLite need not be aligned to its element size.
  const copy = new Uint8Array(blob);
  return format === "f16"
    ? Float32Array.from(new Float16Array(copy.buffer, 0, copy.byteLength / 2))
    : new Float32Array(copy.buffer, 0, copy.byteLength / 4);
}
