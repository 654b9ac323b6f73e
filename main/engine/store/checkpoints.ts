/**
 * The console database's checkpoints, run by the store rather than by SQLite, so that each one is
 * recorded in the marker (`last-stop.ts`, docs/contract/console.md §9): one more generation in the
 * database, the WAL copied into it, then the same generation in `console.state`. A copy of
 * `console.sqlite` from before the last checkpoint then reads as older than the marker.
 *
 * SQLite's own checkpoint ran inside whichever commit passed its threshold; this one runs from a
 * timer, once the WAL has passed 16 MiB (SQLite's default is 4 MiB: the token endpoint and queue
 * creation write a lot, and each checkpoint copies pages). Run whole on the engine's thread, at
 * 32 MiB looked at every 2 s, it held every listener for its copy, its syncs and the WAL's
 * truncation: 0.45–0.55 s for 50–70 MB of WAL, 1.3 s for 185 MB, while a queue of a million items
 * was generated and deleted. So a thread of its own copies the bulk first (`wal-copier.ts`), and
 * this thread's checkpoint is left the little committed since and the truncation, which costs by
 * the WAL file's size (61 ms for 48 MB here): hence the smaller WAL and the closer looks. With
 * them, a GET /version over a million items generated and deleted waited 258 ms at worst.
 */
import { statSync } from 'node:fs';
import { WalCopier, type Copier } from './wal-copier.js';
import type { SqliteDatabase } from './database.js';
import { fileStamp, writeLastStop } from './last-stop.js';

/** The WAL's size past which the next look checkpoints it (4,000 pages of 4 KiB). */
export const CHECKPOINT_WAL_BYTES = 16 * 1024 * 1024;
/** How often the WAL's size is looked at (a stat: microseconds). */
export const LOOK_EVERY_MS = 250;

/**
 * Copies the WAL into the database and records it, on this thread, in one turn (a mark of the
 * WAL's end, `wal-end.ts`, never falls between the new generation and the WAL begun again): false
 * when it could not copy all of it (then the marker is left as it was: it may only ever say less
 * than the database holds).
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

/**
 * Looks in a row the thread may fall behind (commits coming faster than it copies: a delete of a
 * million items wrote 100 MB of WAL a second here) before this thread checkpoints anyway, holding
 * its listeners for the rest of the copy: the WAL stays bounded.
 */
export const MAX_LOOKS_BEHIND = 5;

/**
 * Looks at the WAL's size every quarter second and checkpoints it past `CHECKPOINT_WAL_BYTES`: the
 * bulk copied by `copier`'s thread, then, once it caught up, the checkpoint on this one
 * (`checkpoint`). Without that thread, this one checkpoints alone, as before. `stop` before closing.
 */
export function keepCheckpointing(
  db: SqliteDatabase,
  dataDir: string,
  { walBytes = CHECKPOINT_WAL_BYTES, copier = new WalCopier(db.name) as Copier } = {},
): { stop(): void } {
  const wal = `${db.name}-wal`;
  let copying = false;
  let behind = 0;
  const timer = setInterval(() => {
    if (copying || walSize(wal) < walBytes) return;
    copying = true;
    Promise.resolve()
      .then(() => copier.copy())
      // A copier that throws (its thread could not be made) copied nothing: as one that cannot run.
      .then(
        (caughtUp) => caughtUp,
        () => null,
      )
      .then((caughtUp) => {
        if (!db.open) return;
        behind = caughtUp !== false || copier.failure !== null ? 0 : behind + 1;
        // Behind, the record is left as it was: stamped again with the file the copy changed, a
        // kill just after the next commit began the WAL again read as a WAL replaced (review).
        if (behind === 0 || behind >= MAX_LOOKS_BEHIND) {
          behind = 0;
          checkpoint(db, dataDir, Date.now());
        }
      })
      .catch(() => {
        // A full disk: the WAL keeps growing until there is room, as with SQLite's own checkpoints,
        // and the marker says less than the database holds, never more.
      })
      .finally(() => {
        copying = false;
      });
  }, LOOK_EVERY_MS);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      copier.close();
    },
  };
}

/** The WAL's size now; 0 when it cannot be seen (nothing a look could tell to checkpoint). */
function walSize(wal: string): number {
  try {
    return statSync(wal, { throwIfNoEntry: false })?.size ?? 0;
  } catch {
    return 0;
  }
}
