/**
 * What the console database was when the console last let go of it, kept beside it in
 * `console.state` (docs/contract/console.md §9): a database that does not match stops the start.
 * A generation counts clean stops and checkpoints; it is kept in the database too (SQLite's
 * `user_version`, in the header, written with the last commit before each), so that a database
 * older than the marker, or one missing where the marker says there was one, is told from a fresh
 * data dir.
 *
 * Written aside, synced and renamed: a crash leaves the old marker or the new one, never half of
 * one. Written when the console opens and after each checkpoint (`open`: a run that is not stopped
 * cleanly leaves that), after the clean stop's last checkpoint, before the close that deletes the
 * WAL (`closing`), and after that close (`stopped`). Always after what it records, so it may say
 * less than the database holds, never more: no false alarm. `closing` is what tells a WAL the
 * close deleted from one lost after a kill (`open`: a run leaves its WAL).
 */
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from './data-dir-files.js';

export const LAST_STOP_FILE = 'console.state';

export interface LastStop {
  /**
   * `open`: the console held the database and did not stop cleanly (it may run still: the lock
   * says); `closing`: a clean stop had checkpointed everything and was closing the database (which
   * deletes the WAL) when it was cut short; `stopped`: it stopped cleanly.
   */
  state: 'open' | 'closing' | 'stopped';
  /** Clean stops and checkpoints the database has had; its own `user_version` is at least this. */
  generation: number;
  /** Wall time it was written, for the messages. */
  at: number;
  /**
   * The database file as an `open` record leaves it (after the open, after each checkpoint): the
   * console writes nothing else into it while it runs (the WAL takes every commit), so a file
   * that still matches after a kill has had nothing of the WAL copied in since.
   */
  database?: FileStamp;
}

export interface FileStamp {
  size: number;
  mtimeMs: number;
}

/** The stamp of `file` now. */
export function fileStamp(file: string): FileStamp {
  const { size, mtimeMs } = statSync(file);
  return { size, mtimeMs };
}

/** The marker in `dataDir`, null when there is none; a marker that cannot be read is 'unreadable'. */
export function readLastStop(dataDir: string): LastStop | null | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(join(dataDir, LAST_STOP_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const value = JSON.parse(text) as Partial<LastStop>;
    if (
      (value.state === 'open' || value.state === 'closing' || value.state === 'stopped') &&
      Number.isSafeInteger(value.generation) &&
      Number.isFinite(value.at)
    ) {
      const database = value.database;
      const stamped =
        typeof database === 'object' &&
        database !== null &&
        Number.isFinite(database.size) &&
        Number.isFinite(database.mtimeMs);
      return {
        state: value.state,
        generation: value.generation!,
        at: value.at!,
        ...(stamped ? { database: { size: database.size, mtimeMs: database.mtimeMs } } : {}),
      };
    }
  } catch {
    // Not JSON: unreadable, as below.
  }
  return 'unreadable';
}

export function writeLastStop(dataDir: string, lastStop: LastStop): void {
  const file = join(dataDir, LAST_STOP_FILE);
  const making = `${file}.new`;
  rmSync(making, { force: true });
  const fd = openSync(making, 'wx', PRIVATE_FILE_MODE);
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE);
    writeSync(fd, `${JSON.stringify(lastStop)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(making, file);
}

/** How the marker reads in a message: "a clean stop at 2026-12-01T23:50:00.000Z". */
export function describeLastStop(lastStop: LastStop): string {
  const when = new Date(lastStop.at).toISOString();
  if (lastStop.state === 'stopped') return `a clean stop at ${when}`;
  if (lastStop.state === 'closing') return `a clean stop at ${when}, cut short after its last checkpoint`;
  return `a run that began at ${when} and did not stop cleanly`;
}
