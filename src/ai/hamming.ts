/**
 * Hamming distances of one signature to many, in a small WebAssembly function: `i64.popcnt` compiles to the
 * processor's popcount instruction, where the npm build of sqlite-vec counts bits in software (docs/ai.md,
 * "In-memory signature scan"). The module is a few hundred bytes written below, opcode by opcode, so it needs
 * no toolchain and ships inside the binary like any other code.
 */

import { SIGNATURE_BITS } from "./vectors";

/** Bytes of one signature. */
export const SIGNATURE_BYTES = SIGNATURE_BITS / 8;
const WORDS = SIGNATURE_BYTES / 8;

/** WebAssembly opcodes and type codes used by the kernel (names as in the specification). */
const op = {
  block: 0x02,
  loop: 0x03,
  br: 0x0c,
  brIf: 0x0d,
  end: 0x0b,
  localGet: 0x20,
  localSet: 0x21,
  i64Load: 0x29,
  i32Store16: 0x3b,
  i32Const: 0x41,
  i32GeU: 0x4f,
  i32Add: 0x6a,
  i32Mul: 0x6c,
  i64Popcnt: 0x7b,
  i64Add: 0x7c,
  i64Xor: 0x85,
  i32WrapI64: 0xa7,
} as const;
const VOID_BLOCK = 0x40;
const I32 = 0x7f;
const I64 = 0x7e;

function leb128(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  do {
    const low = rest & 0x7f;
    rest >>>= 7;
    bytes.push(rest === 0 ? low : low | 0x80);
  } while (rest !== 0);
  return bytes;
}

function name(text: string): number[] {
  return [...leb128(text.length), ...new TextEncoder().encode(text)];
}

function section(id: number, body: number[]): number[] {
  return [id, ...leb128(body.length), ...body];
}

/**
 * `distances(query, rows, count, out)`: for each of `count` signatures stored one after the other from
 * address `rows`, writes its Hamming distance to the signature at `query` as a 16-bit integer at `out`.
 * The query's words are held in locals; each row is 16 loads, xors and popcounts, unrolled.
 */
function kernelBytes(): Uint8Array<ArrayBuffer> {
  const local = { query: 0, rows: 1, count: 2, out: 3, end: 4, firstWord: 5 };
  const load = (offset: number) => [op.i64Load, 3, ...leb128(offset)];
  const body: number[] = [];
  for (let word = 0; word < WORDS; word++)
    body.push(op.localGet, local.query, ...load(word * 8), op.localSet, local.firstWord + word);
  body.push(op.localGet, local.rows, op.localGet, local.count, op.i32Const, ...leb128(SIGNATURE_BYTES));
  body.push(op.i32Mul, op.i32Add, op.localSet, local.end);
  body.push(op.block, VOID_BLOCK, op.loop, VOID_BLOCK);
  body.push(op.localGet, local.rows, op.localGet, local.end, op.i32GeU, op.brIf, 1);
  body.push(op.localGet, local.out);
  for (let word = 0; word < WORDS; word++) {
    body.push(op.localGet, local.firstWord + word, op.localGet, local.rows, ...load(word * 8));
    body.push(op.i64Xor, op.i64Popcnt);
    if (word > 0) body.push(op.i64Add);
  }
  body.push(op.i32WrapI64, op.i32Store16, 1, 0);
  body.push(
    op.localGet,
    local.rows,
    op.i32Const,
    ...leb128(SIGNATURE_BYTES),
    op.i32Add,
    op.localSet,
    local.rows,
  );
  body.push(op.localGet, local.out, op.i32Const, 2, op.i32Add, op.localSet, local.out);
  body.push(op.br, 0, op.end, op.end, op.end);
  const code = [2, 1, I32, ...leb128(WORDS), I64, ...body];
  const FUNCTION_TYPE = 0x60;
  const MEMORY_IMPORT = 0x02;
  const FUNCTION_EXPORT = 0x00;
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, FUNCTION_TYPE, 4, I32, I32, I32, I32, 0]),
    ...section(2, [1, ...name("env"), ...name("memory"), MEMORY_IMPORT, 0x00, 0x01]),
    ...section(3, [1, 0]),
    ...section(7, [1, ...name("distances"), FUNCTION_EXPORT, 0]),
    ...section(10, [1, ...leb128(code.length), ...code]),
  ]);
}

let compiled: WebAssembly.Module | null = null;

export type DistancesFunction = (query: number, rows: number, count: number, out: number) => void;

/** The kernel over `memory` (compiled on first use: a service that never searches a large project never builds it). */
export function hammingKernel(memory: WebAssembly.Memory): DistancesFunction {
  compiled ??= new WebAssembly.Module(kernelBytes());
  const { distances } = new WebAssembly.Instance(compiled, { env: { memory } }).exports;
  if (typeof distances !== "function") throw new Error("the Hamming kernel exports no distances function");
  return (query, rows, count, out) => {
    distances(query, rows, count, out);
  };
}
