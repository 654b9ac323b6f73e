/**
 * The console database's checkpoints, run by the store rather than by SQLite, so that each one is
 * recorded in the marker (`last-stop.ts`, docs/contract/console.md §9): one more generation in the
 * database, the WAL copied into it, then the same generation in `console.state`. A copy of
 * `console.sqlite` from before the last checkpoint then reads as older than the marker.
 *
 * SQLite's own checkpoint ran inside whichever commit passed its threshold; this one runs from a
 * timer, once 32 MiB of WAL wait to be copied (SQLite's default is 4 MiB: the token endpoint and
 * queue creation write a lot, and each checkpoint copies pages), and the copy runs in a thread of
 * its own (`wal-copier.ts`): this thread only counts the generation and records it. On this thread
 * a checkpoint held every listener for its copy, its syncs and the WAL's truncation: 0.45–0.55 s
 * for 50–70 MB of WAL and 1.3 s for 185 MB, while a queue of a million items was generated and
 * deleted (large-queue.test.ts allows 250 ms).
 */
import { statSync } from 'node:fs';
import { WalCopier } from './wal-copier.js';
import type { SqliteDatabase } from './database.js';
import { fileStamp, writeLastStop } from './last-stop.js';
import { seenWalEnd } from './wal-end.js';

/** The WAL not yet copied past which the next look checkpoints it (8,000 pages of 4 KiB). */
export const CHECKPOINT_WAL_BYTES = 32 * 1024 * 1024;
/** How often the WAL's size is looked at (a stat: microseconds). */
export const LOOK_EVERY_MS = 2_000;

/**
 * Copies the WAL into the database and records it, on this thread, in one turn (a mark of the
 * WAL's end, `wal-end.ts`, never falls between the new generation and the WAL begun again): false
 * when it could not copy all of it (then the marker is left as it was: it may only ever say less
 * than the database holds).
 */
export function checkpoint(db: SqliteDatabase, dataDir: string, now: number): boolean {
  if (!db.open || db.inTransaction) return false;
  const generation = nextGeneration(db);
  // TRUNCATE: the WAL file made small again, which the thread's copies leave as it was.
  const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
  if (!result || result.busy !== 0) return false;
  recordCheckpoint(db, dataDir, generation, now);
  return true;
}

/** One more generation in the database: a commit into the WAL the checkpoint then copies. */
function nextGeneration(db: SqliteDatabase): number {
  const generation = (db.pragma('user_version', { simple: true }) as number) + 1;
  db.pragma(`user_version = ${generation}`);
  return generation;
}

function recordCheckpoint(db: SqliteDatabase, dataDir: string, generation: number, now: number): void {
  writeLastStop(dataDir, { state: 'open', generation, at: now, database: fileStamp(db.name) });
}

/**
 * Looks in a row the thread may fail to copy the WAL whole (a full disk) before this thread
 * checkpoints anyway, as it does when the thread cannot run.
 */
export const MAX_LOOKS_BEHIND = 5;

export interface Checkpoints {
  /**
   * From a checkpoint's new generation until it is recorded. A mark of the WAL's end taken
   * meanwhile (`wal-end.ts`) would pair the new generation with a WAL the next commit may begin
   * again, which a start after a kill would read as a WAL replaced: marks wait.
   */
  readonly running: boolean;
  /** Before the engine's connection closes: waits for a copy under way, then closes the thread's connection. */
  stop(): void;
}

/**
 * Looks at the WAL every few seconds and checkpoints it once `CHECKPOINT_WAL_BYTES` of it are not
 * yet in the database file: one more generation here, the copy in `copier`'s thread, the marker
 * here once the copy holds that generation (on this thread alone when the thread cannot run).
 */
export function keepCheckpointing(
  db: SqliteDatabase,
  dataDir: string,
  { walBytes = CHECKPOINT_WAL_BYTES, copier = new WalCopier(db.name) } = {},
): Checkpoints {
  const pageBytes = db.pragma('page_size', { simple: true }) as number;
  let running = false;
  let behind = 0;
  const look = () => {
    if (running || !db.open || db.inTransaction || walBytesToCopy(db.name, pageBytes) < walBytes) return;
    try {
      if (copier.failure !== null || behind >= MAX_LOOKS_BEHIND) {
        behind = 0;
        checkpoint(db, dataDir, Date.now());
        return;
      }
      const generation = nextGeneration(db);
      running = true;
      void copier
        .copy()
        .then((whole) => {
          behind = whole ? 0 : behind + 1;
          if (whole && db.open) recordCheckpoint(db, dataDir, generation, Date.now());
        })
        .catch(() => undefined)
        .finally(() => {
          running = false;
        });
    } catch {
      // A full disk: the WAL keeps growing until there is room, as with SQLite's own checkpoints,
      // and the marker says less than the database holds, never more.
    }
  };
  const timer = setInterval(look, LOOK_EVERY_MS);
  timer.unref();
  return {
    get running() {
      return running;
    },
    stop: () => {
      clearInterval(timer);
      copier.close();
    },
  };
}

/**
 * The bytes of WAL not yet copied into the database file, from SQLite's index of it (`wal-end.ts`
 * reads the same header). Not the file's size: the WAL is begun again over the same file, which
 * keeps its largest size. The size only when the index does not read (a moment after the WAL was
 * begun again, before its first frame is written): at most one checkpoint too many.
 */
function walBytesToCopy(databaseFile: string, pageBytes: number): number {
  try {
    const seen = seenWalEnd(databaseFile);
    return seen
      ? (seen.frames - seen.copied) * pageBytes
      : (statSync(`${databaseFile}-wal`, { throwIfNoEntry: false })?.size ?? 0);
  } catch {
    return 0;
  }
}
