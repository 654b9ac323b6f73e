/**
 * One commit per request: a request of the login service stores everything it did in one
 * transaction, and the parts it calls join the transaction already open instead of nesting
 * savepoints (none of them needs a partial rollback). A commit is most of a request's cost.
 */
import type { Store } from '../store/store.js';

export type AtomicStore = Pick<Store, 'db' | 'transaction'>;

export function atomically<T>(store: AtomicStore, work: () => T): T {
  return store.db.inTransaction ? work() : store.transaction(work);
}
