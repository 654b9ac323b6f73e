/**
 * Secrets, codes and tokens: high-entropy random values (256 bits), stored only as SHA-256
 * hashes and compared in constant time. A fast hash is the right one here: the values are random,
 * not passwords, so there is nothing for a slow hash to protect, and the token endpoint stays fast.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

const SECRET_BYTES = 32;
/** How many leading characters of a secret or token the console shows to tell them apart. */
const HINT_LENGTH = 6;

/**
 * Random bytes from the system CSPRNG, fetched a few kilobytes at a time (one system call per
 * hundred tokens instead of one per token). Every byte is handed out once.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let offset = 0;
function random(bytes: number): Buffer {
  if (offset + bytes > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const out = pool.subarray(offset, offset + bytes);
  offset += bytes;
  return out;
}

/** A fresh opaque secret, code or token: 256 random bits, base64url. */
export function randomSecret(): string {
  return random(SECRET_BYTES).toString('base64url');
}

/**
 * An id for a stored record, with a prefix saying what it is (`int_…`, `grant_…`). It starts
 * with its engine time, so ids sort by creation and new rows land at the end of their indexes
 * (one page written per index instead of one anywhere in it).
 */
export function newId(prefix: string, now: number): string {
  return `${prefix}_${Math.max(0, Math.floor(now)).toString(36).padStart(9, '0')}${random(6).toString('base64url')}`;
}

export function sha256(value: string): Buffer {
  return hash('sha256', value, 'buffer');
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

/** A URL with its `code` parameter masked, for the record. */
export function maskCode(url: string): string {
  // Written for reading, not for following: `code=W5B957… (43 chars)`, not its percent-encoding.
  return url.replace(/([?&]code=)([^&#]*)/, (_m, prefix: string, code: string) => `${prefix}${mask(decodeURIComponentSafe(code))}`);
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
