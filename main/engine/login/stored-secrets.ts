/**
 * The secrets the login service issued before the console last started and that still work: live
 * access and refresh tokens, client secrets, codes not yet traded. The store keeps them only as
 * SHA-256 hashes, so capture held none of them after a restart, and a live token sent in a header
 * of any name, a path or an admin call's body was written to the traffic log in clear (audit).
 * Held hashed (`KnownSecrets.addHashed`), each is found by value again (docs/contract/console.md §9).
 */
import type { KnownSecrets } from '../security/known-secrets.js';
import { MAX_KNOWN_SECRETS } from '../security/known-secrets.js';
import type { Store } from '../store/store.js';
import { ISSUED_SECRET_LENGTH } from './secrets.js';

/** Holds every stored secret live at `now` (engine ms) in `known`. */
export function holdStoredSecrets(known: KnownSecrets, store: Store, now: number): void {
  for (const { hash, hint } of store.tokens.liveHashes(now, MAX_KNOWN_SECRETS))
    known.addHashed(hash, ISSUED_SECRET_LENGTH, hint);
  for (const { hash, hint } of store.clientKeys.secretHashes()) known.addHashed(hash, ISSUED_SECRET_LENGTH, hint);
  // A code keeps no hint: every run of its length is hashed while one lives (ten minutes at most).
  for (const hash of store.authorizationCodes.liveHashes(now)) known.addHashed(hash, ISSUED_SECRET_LENGTH, null);
}
