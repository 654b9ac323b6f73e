/**
 * Secrets, codes and tokens: high-entropy random values (256 bits), stored only as SHA-256
 * hashes and compared in constant time. A fast hash is the right one here: the values are random,
 * not passwords, so there is nothing for a slow hash to protect, and the token endpoint stays fast.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const SECRET_BYTES = 32;
/** How many leading characters of a secret or token the console shows to tell them apart. */
const HINT_LENGTH = 6;

/** A fresh opaque secret, code or token: 256 random bits, base64url. */
export function randomSecret(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

/** An id for a stored record, with a prefix saying what it is (`int_…`, `grant_…`). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(9).toString('base64url')}`;
}

export function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Constant-time equality of two hashes. */
export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

export function hintOf(value: string): string {
  return value.slice(0, HINT_LENGTH);
}

/** A secret as the inspector shows it: its first characters and its length. */
export function mask(value: string): string {
  if (value.length <= HINT_LENGTH) return `${'•'.repeat(value.length)} (${value.length} chars)`;
  return `${hintOf(value)}… (${value.length} chars)`;
}
