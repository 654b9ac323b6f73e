/**
 * The console database's checkpoints, run by the store rather than by SQLite, so that each one is
 * recorded in the marker (`last-stop.ts`, docs/contract/console.md §9): one more generation in the
 * database, the WAL copied into it, then the same generation in `console.state`. A copy of
 * `console.sqlite` from before the last checkpoint then reads as older than the marker.
 *
 * SQLite's own checkpoint ran inside whichever commit passed its threshold; this one runs from a
 * timer between requests, once the WAL has passed the same 32 MiB (SQLite's default is 4 MiB: the
 * token endpoint and queue creation write a lot, and each checkpoint copies pages).
 */
import { statSync } from 'node:fs';
import type { SqliteDatabase } from './database.js';
import { fileStamp, writeLastStop } from './last-stop.js';

/** The WAL's size past which the next look checkpoints it (8,000 pages of 4 KiB). */
export const CHECKPOINT_WAL_BYTES = 32 * 1024 * 1024;
/** How often the WAL's size is looked at (a stat: microseconds). */
export const LOOK_EVERY_MS = 2_000;

/**
 * Copies the WAL into the database and records it: false when it could not copy all of it (then
 * the marker is left as it was: it may only ever say less than the database holds).
 */
export function checkpoint(db: SqliteDatabase, dataDir: string, now: number): boolean {
  if (!db.open || db.inTransaction) return false;
  const generation = (db.pragma('user_version', { simple: true }) as number) + 1;
  db.pragma(`user_version = ${generation}`);
  // TRUNCATE, not PASSIVE: SQLite would begin the WAL again over the same file, never making it
  // smaller, and its size would say nothing of what is still to copy.
  const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
  if (!result || result.busy !== 0) return false;
  writeLastStop(dataDir, { state: 'open', generation, at: now, database: fileStamp(db.name) });
  return true;
}

/** Looks at the WAL's size every few seconds and checkpoints it past `CHECKPOINT_WAL_BYTES`; `stop` before closing. */
export function keepCheckpointing(
  db: SqliteDatabase,
  dataDir: string,
  { walBytes = CHECKPOINT_WAL_BYTES } = {},
): { stop(): void } {
  const wal = `${db.name}-wal`;
  const timer = setInterval(() => {
    try {
      if ((statSync(wal, { throwIfNoEntry: false })?.size ?? 0) >= walBytes) checkpoint(db, dataDir, Date.now());
    } catch {
      // A full disk: the WAL keeps growing until there is room, as with SQLite's own checkpoints,
      // and the marker says less than the database holds, never more.
    }
  }, LOOK_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
