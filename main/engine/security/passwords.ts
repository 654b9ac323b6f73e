/**
 * Password hashing for login users: scrypt with a per-user salt, compared in constant time.
 * Stored as `scrypt$<salt>$<hash>` so the parameters can change later without a migration.
 *
 * A sign-in checks its password off the engine's thread (libuv's pool), and only a few at a time
 * across all users (docs/contract/console.md §9): a flood of made-up usernames passes the
 * per-user throttle, and each costs a full scrypt; run inline they held every listener.
 */
import { randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';
import { Turns } from './turns.js';

const KEY_LENGTH = 32;

export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64url')}$${scryptSync(password, salt, KEY_LENGTH).toString('base64url')}`;
}

/** Checks at once across the engine; the pool has four threads and other work to do. */
export const CONCURRENT_CHECKS = 2;
/** Checks waiting their turn at most; past that a sign-in is refused as busy, not queued. */
export const WAITING_CHECKS = 64;

export class PasswordChecksBusy extends Error {
  constructor() {
    super(`more than ${WAITING_CHECKS} sign-ins are waiting for their password check`);
  }
}

/** The engine's password checks: at most CONCURRENT_CHECKS at once, off its thread. */
export class PasswordChecker {
  private readonly turns = new Turns(CONCURRENT_CHECKS, WAITING_CHECKS);

  async verify(password: string, stored: string): Promise<boolean> {
    const [scheme, salt, hash] = stored.split('$');
    if (scheme !== 'scrypt' || !salt || !hash) return false;
    const end = await this.turns.take();
    if (!end) throw new PasswordChecksBusy();
    try {
      const expected = Buffer.from(hash, 'base64url');
      const actual = await new Promise<Buffer>((resolve, reject) =>
        scrypt(password, Buffer.from(salt, 'base64url'), expected.length, (error, key) =>
          error ? reject(error) : resolve(key),
        ),
      );
      return timingSafeEqual(actual, expected);
    } finally {
      end();
    }
  }
}
