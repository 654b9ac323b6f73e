/**
 * The secrets the login service issued before the console last started and that still work: live
 * access and refresh tokens, and client secrets. The store keeps them only as
 * SHA-256 hashes, so capture held none of them after a restart, and a live token sent in a header
 * of any name, a path or an admin call's body was written to the traffic log in clear (audit).
 * Held hashed (`KnownSecrets.addHashed`), each is found by value again (docs/contract/console.md §9).
 */
import { MAX_KNOWN_SECRETS, type KnownSecrets } from '../security/known-secrets.js';
import type { Store } from '../store/store.js';
import { ISSUED_SECRET_LENGTH } from './secrets.js';

/**
 * Holds every stored secret live at `now` (engine ms) in `known`: the client secrets first (one a
 * key), then the tokens, newest first, as many as the cap leaves room for. Codes are not held:
 * the store keeps no first characters of theirs, so one would have every run of their length
 * hashed for the rest of the run, and a code left untraded at a restart lives ten minutes.
 */
export function holdStoredSecrets(known: KnownSecrets, store: Store, now: number): void {
  const secrets = store.clientKeys.secretHashes();
  for (const { hash, hint } of secrets) known.addHashed(hash, ISSUED_SECRET_LENGTH, hint);
  for (const { hash, hint } of store.tokens.liveHashes(now, Math.max(0, MAX_KNOWN_SECRETS - secrets.length)))
    known.addHashed(hash, ISSUED_SECRET_LENGTH, hint);
}
