/**
 * The login service's one secrets module: every random value it hands out (secrets, codes,
 * tokens, sign-in cookies, CSRF tokens, ids) and every hash or comparison of one goes through
 * here. Random values are high-entropy (256 bits unless said), stored only as SHA-256 hashes and
 * compared in constant time. A fast hash is the right one for them: they are random, not
 * passwords, so there is nothing for a slow hash to protect, and the token endpoint stays fast.
 * Passwords are the exception and keep their slow hash (`security/passwords.ts`).
 */
import { createHash, hash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { hashPassword, verifyPassword } from '../security/passwords.js';

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

/**
 * A fresh opaque secret, code or token, base64url: 256 random bits unless `bytes` says otherwise
 * (a sign-in's id is 128 bits: it names the sign-in, its cookie is what proves it).
 */
export function randomSecret(bytes = SECRET_BYTES): string {
  return random(bytes).toString('base64url');
}

/**
 * An id for a stored record, with a prefix saying what it is (`int_…`, `grant_…`). It starts
 * with its engine time, so ids sort by creation and new rows land at the end of their indexes
 * (one page written per index instead of one anywhere in it).
 */
export function newId(prefix: string, now: number): string {
  return `${prefix}_${Math.max(0, Math.floor(now)).toString(36).padStart(9, '0')}${random(6).toString('base64url')}`;
}

/** A client key's client_id: a random UUID (public, but unguessable so keys cannot be enumerated). */
export function newClientId(): string {
  return randomUUID();
}

export function sha256(value: string): Buffer {
  return hash('sha256', value, 'buffer');
}

/** Constant-time equality of two hashes. */
export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether `presented` is the secret whose SHA-256 hash is `stored`, in constant time. */
export function matchesHash(presented: string, stored: Buffer): boolean {
  return sameHash(sha256(presented), stored);
}

/** Constant-time equality of two strings (a CSRF token, a PKCE challenge). */
export function sameSecret(a: string, b: string): boolean {
  return sameHash(Buffer.from(a), Buffer.from(b));
}

/** PKCE's S256 transform: BASE64URL(SHA-256(ASCII(verifier))), 43 characters (RFC 7636 §4.2). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Compared against when a username is unknown, so that a wrong name costs as long as a wrong password. */
let unknownUserHash: string | null = null;

/**
 * Whether `password` is the one stored as `storedHash` (scrypt); `undefined` for an unknown user,
 * which still costs one scrypt so the answer's timing does not tell which names exist.
 */
export function passwordMatches(password: string, storedHash: string | undefined): boolean {
  const matches = verifyPassword(password, storedHash ?? (unknownUserHash ??= hashPassword('not a password')));
  return matches && storedHash !== undefined;
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
