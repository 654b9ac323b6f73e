/**
 * The login service's one secrets module: every random value it hands out (secrets, codes,
 * tokens, sign-in cookies, CSRF tokens) and every hash or comparison of one goes through
 * here. Random values are high-entropy (256 bits unless said), stored only as SHA-256 hashes and
 * compared in constant time. A fast hash is the right one for them: they are random, not
 * passwords, so there is nothing for a slow hash to protect, and the token endpoint stays fast.
 * Passwords are the exception and keep their slow hash (`security/passwords.ts`).
 */
import { createHash, hash, randomUUID, timingSafeEqual } from 'node:crypto';
import { hashPassword, type PasswordChecker } from '../security/passwords.js';
import { random } from '../security/random.js';

const SECRET_BYTES = 32;
/** The length of every secret, code and token `randomSecret()` makes: 32 bytes in base64url. */
export const ISSUED_SECRET_LENGTH = Math.ceil((SECRET_BYTES * 4) / 3);
/** How many leading characters of a secret or token the console shows to tell them apart. */
const HINT_LENGTH = 6;

/**
 * A fresh opaque secret, code or token, base64url: 256 random bits unless `bytes` says otherwise
 * (a sign-in's id is 128 bits: it names the sign-in, its cookie is what proves it).
 */
export function randomSecret(bytes = SECRET_BYTES): string {
  return random(bytes).toString('base64url');
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
export async function passwordMatches(
  checker: PasswordChecker,
  password: string,
  storedHash: string | undefined,
): Promise<boolean> {
  const matches = await checker.verify(password, storedHash ?? (unknownUserHash ??= hashPassword('not a password')));
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

/**
 * Whether a query or form parameter carries a secret by its name: a code, a client secret, a PKCE
 * verifier, a token of any kind, a password, an API key (docs/contract/console.md §9). Matched by
 * pattern rather than a list, because a client may send secrets under names we never issued
 * (`api_key`, `id_token`, `client_assertion`); `code_challenge` and `state` are public.
 */
export function isSecretParam(name: string): boolean {
  // `token_type` (and `token_type_hint`) name a kind of token, not one.
  return /(?:^|[_-])code$|secret|passw|token(?![_-]?type)|verifier|api[_-]?key|assertion|credential/i.test(name);
}

/** What `mask` and `maskSecret` write: recognised so a value is never masked twice. */
const MASKED = /^(?:[^…]{0,6}…|•*) \(\d+ chars\)$/;

/**
 * A secret parameter's value as the inspector shows it: a long random value keeps its hint (two
 * codes can be told apart); a short one (a password) shows nothing but its length.
 */
export function maskSecret(value: string): string {
  if (MASKED.test(value)) return value;
  return value.length < 16 ? `${'•'.repeat(Math.min(value.length, 8))} (${value.length} chars)` : mask(value);
}

/**
 * A URL with the value of every parameter named like a secret masked, for the record: in its
 * query and in its fragment (where an implicit grant would put `access_token`).
 */
export function maskSecretParams(url: string): string {
  // Written for reading, not for following: `code=W5B957… (43 chars)`, not its percent-encoding.
  return url.replace(/([?&#])([^=&#]*)=([^&#]*)/g, (whole, separator: string, name: string, value: string) =>
    isSecretParam(decodeURIComponentSafe(name.replace(/\+/g, ' ')))
      ? `${separator}${name}=${maskSecret(decodeURIComponentSafe(value.replace(/\+/g, ' ')))}`
      : whole,
  );
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
