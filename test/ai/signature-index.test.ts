import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { hammingKernel, SIGNATURE_BYTES } from "../../src/ai/hamming";
import { SignatureIndex } from "../../src/ai/signature-index";
import * as store from "../../src/ai/store";
import { seededRandom } from "../../src/ai/vectors";
import { closeDatabase, commitNow, inTransaction } from "../../src/db/connection";
import { openMigrated } from "../../src/db/migrate";
import { createProject } from "../../src/projects/service";
import { tempDir } from "../support/app";

// The in-memory Hamming scan (src/ai/signature-index.ts) must find what vec0's own KNN finds, whatever
// happened to the signatures since its last search: inserts, deletions, re-embeds, rollbacks, a reindex.

const dir = tempDir();
const db = openMigrated({ databasePath: join(dir, "signatures.db"), cacheDir: join(dir, "cache") });
afterAll(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});
const random = seededRandom(11);
const signatures = new Map<number, Uint8Array>();

function randomSignature(): Uint8Array {
  return Uint8Array.from({ length: SIGNATURE_BYTES }, () => Math.floor(random() * 256));
}

function hamming(a: Uint8Array, b: Uint8Array): number {
  let bits = 0;
  a.forEach((byte, index) => {
    let rest = byte ^ b[index]!;
    for (; rest !== 0; rest &= rest - 1) bits++;
  });
  return bits;
}

const insertPost = db.query<never, [string, string, number]>(
  `INSERT INTO posts (id, project_id, title, description, status, vote_count, created_at, updated_at)
   VALUES (?1, ?2, 'A request', NULL, 'APPROVED', 0, ?3, ?3)`,
);

function embed(projectId: string, postId: string): void {
  const signature = randomSignature();
  store.writeEmbedding(db, {
    projectId,
    postId,
    modelKey: "test",
    textHash: "hash",
    vector: new Float32Array([1, 0, 0]),
    signature,
    now: Date.now(),
  });
  const { vector_id } = db
    .query<{ vector_id: number }, [string]>("SELECT vector_id FROM post_embeddings WHERE post_id = ?")
    .get(postId)!;
  signatures.set(vector_id, signature);
}

function addPosts(projectId: string, count: number): string[] {
  return inTransaction(db, () =>
    Array.from({ length: count }, () => {
      const postId = Bun.randomUUIDv7();
      insertPost.run(postId, projectId, Date.now());
      embed(projectId, postId);
      return postId;
    }),
  );
}

const index = new SignatureIndex(db);
const first = createProject(db, { slug: "signatures-a", plan: "growth" }).project.id;
const second = createProject(db, { slug: "signatures-b", plan: "growth" }).project.id;

/** Both scans, for a few random queries: the same distances (which of several equal ones comes is free). */
function expectSameAsVec0(projectId: string, k = 24): void {
  for (let query = 0; query < 5; query++) {
    const probe = randomSignature();
    const distancesOf = (ids: number[]) =>
      ids.map((id) => hamming(probe, signatures.get(id)!)).sort((a, b) => a - b);
    const reference = store.nearestSignatures(db, projectId, probe, k);
    const found = index.nearest(projectId, probe, k);
    expect(new Set(found).size).toBe(found.length);
    expect(distancesOf(found)).toEqual(distancesOf(reference));
  }
}

test("the kernel's distances are the bits two signatures differ in", () => {
  const rows = 37;
  const memory = new WebAssembly.Memory({ initial: 1 });
  const distances = hammingKernel(memory);
  const bytes = new Uint8Array(memory.buffer);
  const query = randomSignature();
  const stored = Array.from({ length: rows }, randomSignature);
  // Extremes too: the query itself (0) and its complement (every bit).
  stored[3] = query.slice();
  stored[4] = query.map((byte) => byte ^ 0xff);
  bytes.set(query, 0);
  stored.forEach((signature, row) => bytes.set(signature, SIGNATURE_BYTES * (1 + row)));
  const out = SIGNATURE_BYTES * (1 + rows);
  distances(0, SIGNATURE_BYTES, rows, out);
  const found = Array.from(new Uint16Array(memory.buffer, out, rows));
  expect(found).toEqual(stored.map((signature) => hamming(query, signature)));
  expect(found[3]).toBe(0);
  expect(found[4]).toBe(SIGNATURE_BYTES * 8);
});

test("over several chunks and two projects, the in-memory scan finds what vec0 finds", () => {
  addPosts(first, 2500);
  addPosts(second, 300);
  commitNow(db);
  expectSameAsVec0(first);
  expectSameAsVec0(second);
  // Asked for more than a project has: all of it.
  expect(index.nearest(second, randomSignature(), 400).length).toBe(300);
});

test("deletions in older chunks, re-embeds and a filled latest chunk are seen by the next search", () => {
  const postIds = db
    .query<{ post_id: string }, [string]>("SELECT post_id FROM post_embeddings WHERE project_id = ?")
    .all(first)
    .map((row) => row.post_id);
  inTransaction(db, () => {
    for (const postId of postIds.slice(0, 300)) store.deleteEmbedding(db, postId);
    for (const postId of postIds.slice(300, 400)) embed(first, postId);
  });
  expectSameAsVec0(first);
  // The latest chunk the index read fills up and a new one starts after it.
  addPosts(first, 1500);
  expectSameAsVec0(first);
  commitNow(db);
  expectSameAsVec0(first);
});

test("a rolled-back transaction leaves nothing behind in the index", () => {
  expect(() =>
    inTransaction(db, () => {
      addPosts(first, 700);
      expectSameAsVec0(first);
      throw new Error("roll back");
    }),
  ).toThrow("roll back");
  expectSameAsVec0(first);
  addPosts(first, 50);
  expectSameAsVec0(first);
});

test("after a reindex or a chunk gone, the index starts over; an empty project finds nothing", () => {
  inTransaction(db, () => store.resetIndex(db, Date.now()));
  expect(index.nearest(first, randomSignature(), 24)).toEqual([]);
  const added = addPosts(first, 1200);
  expectSameAsVec0(first);
  // A chunk all of whose posts are deleted goes away, while the chunk after it stays.
  inTransaction(db, () => {
    for (const postId of added.slice(0, 1024)) store.deleteEmbedding(db, postId);
  });
  expectSameAsVec0(first);
  commitNow(db);
});

test("the first copy of a large project is made a slice at a time, with other work served in between", async () => {
  const large = createProject(db, { slug: "signatures-large", plan: "growth" }).project.id;
  addPosts(large, 9000);
  commitNow(db);
  const fresh = new SignatureIndex(db);
  let servedMeanwhile = 0;
  let copying = true;
  const serve = () => {
    if (!copying) return;
    servedMeanwhile++;
    setImmediate(serve);
  };
  setImmediate(serve);
  await fresh.catchUp(large);
  copying = false;
  // Nine chunks, eight a turn: the copy took more than one turn, and other callbacks ran between them.
  expect(servedMeanwhile).toBeGreaterThanOrEqual(1);
  const probe = randomSignature();
  const distancesOf = (ids: number[]) =>
    ids.map((id) => hamming(probe, signatures.get(id)!)).sort((a, b) => a - b);
  expect(distancesOf(fresh.nearest(large, probe, 24))).toEqual(
    distancesOf(store.nearestSignatures(db, large, probe, 24)),
  );
});
