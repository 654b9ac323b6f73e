/**
 * Random bytes from the system CSPRNG, and the ids of stored records made from them: below login/
 * (its secrets, its grants) and event-delivery/ (its subscriptions), which both draw on them.
 */
import { randomBytes } from 'node:crypto';

/**
 * Random bytes from the system CSPRNG, fetched a few kilobytes at a time (one system call per
 * hundred tokens instead of one per token). Every byte is handed out once.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let offset = 0;
export function random(bytes: number): Buffer {
  if (offset + bytes > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const out = pool.subarray(offset, offset + bytes);
  offset += bytes;
  return out;
}

/**
 * An id for a stored record, with a prefix saying what it is (`int_…`, `grant_…`). It starts
 * with its engine time, so ids sort by creation and new rows land at the end of their indexes
 * (one page written per index instead of one anywhere in it).
 */
export function newId(prefix: string, now: number): string {
  return `${prefix}_${Math.max(0, Math.floor(now)).toString(36).padStart(9, '0')}${random(6).toString('base64url')}`;
}
