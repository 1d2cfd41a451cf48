/**
 * The Hamming KNN over a project's signatures, scanned in memory with the processor's popcount instead of by
 * vec0 (docs/ai.md, "In-memory signature scan": 8.4 ms → ~2.5 ms at 100,000 posts). vec0 stays the storage
 * of record; this keeps a copy of its chunks and, before each search, reads what can have changed since:
 *
 * - every chunk's validity bitmap (a few hundred bytes per 1,024 posts), so deletions are seen at once;
 * - the contents of the partition's latest chunk, and of any chunk that was the latest when last read: vec0
 *   only ever inserts into a partition's latest chunk (into its free slots, or a new chunk once it is full),
 *   so an older chunk's slots can only be cleared;
 * - all of the project again when a chunk has gone (a reindex, a deleted project).
 *
 * So a search sees the same rows as vec0 would on this connection, committed or not, written by this process
 * or another. The copy costs 130 bytes per post of a project above EXACT_SCAN_LIMIT, held until restart.
 */

import type { Db } from "../db/connection";
import { nextTurn } from "../turns";
import { type DistancesFunction, hammingKernel, SIGNATURE_BYTES } from "./hamming";
import * as store from "./store";
import { SIGNATURE_BITS } from "./vectors";

const PAGE_BYTES = 65_536;
/** Where the query signature sits in a project's memory; the chunks' signatures follow it. */
const QUERY_ADDRESS = 0;
const FIRST_SLAB_ADDRESS = SIGNATURE_BYTES;
/**
 * Chunks copied per turn while a project's copy is first built: a slice held the event loop 2–5 ms at
 * 100,000 posts (98 chunks, 30–45 ms in all), so the copy never holds it at once (issue 19).
 */
const CHUNKS_PER_SLICE = 4;
/** The distance given to a free slot: above any real one, so it is never picked. */
const FREE_SLOT = SIGNATURE_BITS + 1;

interface CachedChunk {
  /** Which slab of the project's memory holds the chunk's signatures. */
  slab: number;
  validity: Uint8Array;
  rowids: DataView;
  /** Read while not the latest chunk of its partition: since then only deletions can change it. */
  settled: boolean;
}

class ProjectSignatures {
  readonly chunks = new Map<number, CachedChunk>();
  private readonly slabs: CachedChunk[] = [];
  private readonly memory = new WebAssembly.Memory({ initial: 1 });
  private readonly distances: DistancesFunction = hammingKernel(this.memory);

  constructor(readonly slotsPerChunk: number) {}

  private get distancesAddress(): number {
    return FIRST_SLAB_ADDRESS + this.slabs.length * this.slotsPerChunk * SIGNATURE_BYTES;
  }

  /** Room for one more chunk's signatures and for every slot's distance. */
  private reserve(slabs: number): void {
    const needed = FIRST_SLAB_ADDRESS + slabs * this.slotsPerChunk * (SIGNATURE_BYTES + 2);
    const pages = this.memory.buffer.byteLength / PAGE_BYTES;
    const missing = Math.ceil(needed / PAGE_BYTES) - pages;
    // By half again at least, so a copy built a chunk at a time grows its memory a few times, not each time.
    if (missing > 0) this.memory.grow(Math.max(missing, Math.ceil(pages / 2)));
  }

  /** Stores a chunk read from vec0 (in its slab if it is known already). */
  store(
    chunkId: number,
    validity: Uint8Array,
    rowids: Uint8Array,
    vectors: Uint8Array,
    settled: boolean,
  ): void {
    const copied = { validity, rowids: new DataView(rowids.slice().buffer), settled };
    let chunk = this.chunks.get(chunkId);
    if (chunk) Object.assign(chunk, copied);
    else {
      this.reserve(this.slabs.length + 1);
      chunk = { slab: this.slabs.length, ...copied };
      this.slabs.push(chunk);
      this.chunks.set(chunkId, chunk);
    }
    const slabBytes = this.slotsPerChunk * SIGNATURE_BYTES;
    new Uint8Array(this.memory.buffer, FIRST_SLAB_ADDRESS + chunk.slab * slabBytes, slabBytes).set(
      vectors.subarray(0, slabBytes),
    );
  }

  /** The rowids of the `k` slots nearest to `query` by Hamming distance (ties broken by position). */
  nearest(query: Uint8Array, k: number): number[] {
    const slots = this.slabs.length * this.slotsPerChunk;
    const out = this.distancesAddress;
    new Uint8Array(this.memory.buffer, QUERY_ADDRESS, SIGNATURE_BYTES).set(query);
    this.distances(QUERY_ADDRESS, FIRST_SLAB_ADDRESS, slots, out);
    const distances = new Uint16Array(this.memory.buffer, out, slots);
    for (const chunk of this.slabs) {
      const first = chunk.slab * this.slotsPerChunk;
      chunk.validity.forEach((bits, byte) => {
        if (bits === 0xff) return;
        for (let bit = 0; bit < 8; bit++)
          if ((bits & (1 << bit)) === 0) distances[first + byte * 8 + bit] = FREE_SLOT;
      });
    }
    // A counting sort: the distances are small integers, so the k-th smallest is found in two passes.
    const counts = new Uint32Array(FREE_SLOT + 1);
    // An indexed loop: iterating the typed array with for...of costs ~6× as much here.
    for (let slot = 0; slot < slots; slot++) counts[distances[slot]!]!++;
    let cut = 0;
    let below = 0;
    while (cut < FREE_SLOT && below + counts[cut]! < k) below += counts[cut++]!;
    let atCut = Math.min(k - below, counts[cut]!);
    const picked: number[] = [];
    for (let slot = 0; slot < slots && picked.length < k; slot++) {
      const distance = distances[slot]!;
      if (distance > cut || distance === FREE_SLOT) continue;
      if (distance === cut) {
        if (atCut === 0) continue;
        atCut--;
      }
      const chunk = this.slabs[Math.floor(slot / this.slotsPerChunk)]!;
      picked.push(Number(chunk.rowids.getBigInt64((slot % this.slotsPerChunk) * 8, true)));
    }
    return picked;
  }
}

/** The in-memory copies of the large projects' signatures: one per service, part of its AI runtime. */
export class SignatureIndex {
  private readonly projects = new Map<string, ProjectSignatures>();

  constructor(private readonly db: Db) {}

  /**
   * Copies what the project's copy lacks a slice at a time, the event loop free between slices: called
   * before a search, so the first search of a large project does not hold every other request meanwhile.
   */
  async catchUp(projectId: string): Promise<void> {
    while (this.refresh(projectId, CHUNKS_PER_SLICE).behind) await nextTurn();
  }

  /** The vector ids of the `k` posts of the project whose signatures are nearest to `query`. */
  nearest(projectId: string, query: Uint8Array, k: number): number[] {
    const { project } = this.refresh(projectId, Number.POSITIVE_INFINITY);
    return project ? project.nearest(query, k) : [];
  }

  /** Reads what changed in vec0 since the last search, at most `chunkReads` chunks; `behind` if more are due. */
  private refresh(
    projectId: string,
    chunkReads: number,
  ): { project: ProjectSignatures | null; behind: boolean } {
    const states = store.signatureChunks(this.db, projectId);
    if (states.length === 0) {
      this.projects.delete(projectId);
      return { project: null, behind: false };
    }
    const slotsPerChunk = states[0]!.validity.length * 8;
    let project = this.projects.get(projectId);
    const present = new Set(states.map((state) => state.chunk_id));
    const gone = project && [...project.chunks.keys()].some((chunkId) => !present.has(chunkId));
    if (!project || gone || project.slotsPerChunk !== slotsPerChunk) {
      project = new ProjectSignatures(slotsPerChunk);
      this.projects.set(projectId, project);
    }
    const latest = states[states.length - 1]!.chunk_id;
    let reads = 0;
    for (const state of states) {
      const cached = project.chunks.get(state.chunk_id);
      if (cached?.settled && state.chunk_id !== latest) {
        cached.validity = state.validity;
        continue;
      }
      if (reads === chunkReads) return { project, behind: true };
      reads++;
      const contents = store.signatureChunk(this.db, state.chunk_id);
      if (contents)
        project.store(
          state.chunk_id,
          state.validity,
          contents.rowids,
          contents.vectors,
          state.chunk_id !== latest,
        );
    }
    return { project, behind: false };
  }
}
