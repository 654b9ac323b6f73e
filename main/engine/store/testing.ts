/** What the store's tests of kills and checkpoints share (last-stop.test.ts, wal-copier.test.ts). */
import { copyFileSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { emptyQueueRow } from '../testing/queue-rows.js';
import { LOCK_FILE } from './data-dir-lock.js';
import type { Store } from './store.js';

export function addQueues(store: Store, from: number, count: number): void {
  for (let i = from; i < from + count; i++) {
    // One commit each, as the admin API acknowledges them.
    store.queues.create(emptyQueueRow(`q${i}`, `queue ${i}`));
  }
}

/**
 * The files of `dir` as they are this moment, into `copy` (a new folder): what a kill -9 now would
 * leave (the kernel has every write).
 */
export function snapshotInto(dir: string, copy: string): string {
  for (const name of readdirSync(dir))
    if (name.startsWith('console.') && !name.startsWith(LOCK_FILE)) {
      copyFileSync(join(dir, name), join(copy, name));
      // Times kept, as a kill leaves them (and cp -a): the record stamps the database file's.
      const { atime, mtime } = statSync(join(dir, name));
      utimesSync(join(copy, name), atime, mtime);
    }
  return copy;
}
