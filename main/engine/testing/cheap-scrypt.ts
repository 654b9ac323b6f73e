/**
 * node:crypto with scrypt at a lower cost, the same algorithm, for property tests that start
 * hundreds of consoles: every fresh console hashes the demo user's password, and checks it again
 * for its own control token, with scrypt at full cost, over half of a console's start. Used from a
 * `vi.mock('node:crypto', …)` factory, so such a file runs in a process of its own (MOCKING_FILES
 * in vitest.config.ts).
 */
import type * as NodeCrypto from 'node:crypto';
import type { BinaryLike, ScryptOptions } from 'node:crypto';

export function withCheapScrypt(crypto: typeof NodeCrypto): typeof NodeCrypto {
  const scryptSync = (password: BinaryLike, salt: BinaryLike, keylen: number, options?: ScryptOptions) =>
    crypto.scryptSync(password, salt, keylen, { ...options, N: 1024 });
  return { ...crypto, default: { ...crypto, scryptSync }, scryptSync } as typeof NodeCrypto;
}
