import { KEY_PREFIX, type KeyKind } from "./schema";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_BODY_LENGTH = 32;
/** `sk_`/`pk_` plus this many characters stay readable in the database, to list and revoke keys by. */
const VISIBLE_CHARACTERS = 8;

/** 32 base62 characters from a CSPRNG; bytes ≥ 248 are redrawn so every character is equally likely. */
function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function generateKey(kind: KeyKind): string {
  return KEY_PREFIX[kind] + randomBase62(KEY_BODY_LENGTH);
}

export function keyKindOf(key: string): KeyKind | null {
  if (key.startsWith(KEY_PREFIX.secret)) return "secret";
  if (key.startsWith(KEY_PREFIX.publishable)) return "publishable";
  return null;
}

export function keyPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.secret.length + VISIBLE_CHARACTERS);
}

export function hashKey(key: string): Uint8Array {
  return new Bun.CryptoHasher("sha256").update(key).digest();
}

export function sameHash(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && crypto.timingSafeEqual(a, b);
}
