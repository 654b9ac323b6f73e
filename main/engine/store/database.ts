/**
 * Opens the console's SQLite database. WAL with synchronous=NORMAL: a committed transaction
 * survives the process being killed (kill -9), which is the durability a developer tool needs;
 * only an OS crash or power loss may roll back the last few commits.
 *
 * A damaged database halts the start with a message naming the file and the remedy, and is never
 * quietly swapped for an empty one (docs/contract/console.md §9): it is checked at open
 * (`quick_check`: 40–55 ms for a 100,000-item queue's 39 MB, 0.4–0.55 s for a million items'
 * 400 MB). A fresh data dir has no `console.sqlite` at all, so a zero-length one is damage too;
 * the console makes its file whole (a page long) before it is ever seen under its name. So is a
 * database or WAL that does not match what the last stop left (`last-stop-check.ts`).
 */
import Database from 'better-sqlite3';
import { renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DamagedDatabaseError } from './damaged.js';
import {
  createPrivateFile,
  keepPrivate,
  prepareDataDir,
  unusableOr,
  writable,
  SQLITE_COMPANIONS,
} from './data-dir-files.js';
import { checkBeforeOpen, recordOpen } from './last-stop-check.js';
import { writeLastStop } from './last-stop.js';
import { forgetWalEnd } from './wal-end.js';

export { DamagedDatabaseError } from './damaged.js';

export type SqliteDatabase = Database.Database;

export interface DatabaseLocation {
  /** Folder that holds `console.sqlite`; null keeps everything in memory (`--ephemeral`). */
  dataDir: string | null;
  /** Path of a better_sqlite3.node built for the running ABI (Electron passes its own build). */
  nativeBinding?: string;
  /** Other files only a console that made the database writes beside it: a missing database with one of them is refused. */
  besides?: readonly string[];
}

export const DATABASE_FILE = 'console.sqlite';

export function openDatabase({ dataDir, nativeBinding, besides = [] }: DatabaseLocation): SqliteDatabase {
  let file = ':memory:';
  let checked = false;
  if (dataDir !== null) {
    prepareDataDir(dataDir, [DATABASE_FILE]);
    file = join(dataDir, DATABASE_FILE);
    prepareFile(file, nativeBinding, dataDir, besides);
    checked = checkBesideWal(file, nativeBinding);
  }
  const db = new Database(file, nativeBinding ? { nativeBinding } : {});
  try {
    if (dataDir !== null) {
      db.pragma('journal_mode = WAL');
      // The store runs the checkpoints (every ~16 MiB of WAL), each recorded in the marker:
      // `checkpoints.ts`. (The traffic log has a file of its own without a WAL: `traffic/log/file.ts`.)
      db.pragma('wal_autocheckpoint = 0');
      if (!checked) quickCheck(db, file);
      recordOpen(db.pragma('user_version', { simple: true }) as number, dataDir, Date.now(), file);
    }
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
  } catch (error) {
    db.close();
    if (dataDir !== null && isDamage(error)) throw new DamagedDatabaseError(file, (error as Error).message);
    throw error;
  }
  return db;
}

function quickCheck(db: SqliteDatabase, file: string): void {
  const check = db.pragma('quick_check(1)', { simple: true });
  if (check !== 'ok') throw new DamagedDatabaseError(file, `quick_check: ${String(check)}`);
}

/**
 * With a WAL beside `file` (a run that did not stop cleanly), `quick_check` on a read-only
 * connection, which never checkpoints: the close of a refused writable one would copy the WAL
 * into the damaged file and delete it, and the refusal says nothing was changed. True once checked.
 */
function checkBesideWal(file: string, nativeBinding: string | undefined): boolean {
  if ((statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0) === 0) return false;
  const reader = new Database(file, { readonly: true, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    quickCheck(reader, file);
  } catch (error) {
    throw isDamage(error) ? new DamagedDatabaseError(file, (error as Error).message) : error;
  } finally {
    reader.close();
  }
  return true;
}

/**
 * Before SQLite opens `file`: refuses one that is there but empty (damage, see the head) or that
 * does not match the last stop, makes a missing one whole and private (unless a console had
 * written one), and makes an existing one and its companions private.
 */
function prepareFile(
  file: string,
  nativeBinding: string | undefined,
  dataDir: string,
  besides: readonly string[],
): void {
  let size: number | null = null;
  try {
    size = statSync(file).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw unusableOr(error, dataDir);
  }
  if (size === 0) throw new DamagedDatabaseError(file, 'it is empty: 0 bytes');
  try {
    checkBeforeOpen(dataDir, file, size !== null, besides);
  } catch (error) {
    throw unusableOr(error, dataDir);
  }
  try {
    if (size === null) createDatabaseFile(file, nativeBinding);
    keepPrivate(file);
  } catch (error) {
    throw unusableOr(error, dataDir);
  }
  // SQLite opens a file it may not write read-only, and the start then fails on its first write
  // ("attempt to write a readonly database"), after a trail of errors.
  for (const path of [file, ...SQLITE_COMPANIONS.map((suffix) => `${file}${suffix}`)]) {
    if (!writable(path))
      throw unusableOr(Object.assign(new Error(`cannot write ${path}`), { code: 'EACCES', path }), dataDir);
  }
}

/**
 * A new database file, 0600, a page long (WAL mode is written into its header), made under
 * another name and renamed: `console.sqlite` is never seen empty, so an empty one is damage.
 */
function createDatabaseFile(file: string, nativeBinding: string | undefined): void {
  const making = `${file}.new`;
  rmSync(making, { force: true });
  createPrivateFile(making);
  const db = new Database(making, nativeBinding ? { nativeBinding } : {});
  try {
    db.pragma('journal_mode = WAL');
  } finally {
    db.close();
  }
  for (const suffix of SQLITE_COMPANIONS) rmSync(`${making}${suffix}`, { force: true });
  renameSync(making, file);
}

/** SQLite's words for a file that is not (or no longer) a sound database; extended codes too. */
function isDamage(error: unknown): boolean {
  if (error instanceof DamagedDatabaseError) return false;
  const code = (error as { code?: unknown }).code;
  return (
    typeof code === 'string' &&
    (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB' || code === 'SQLITE_IOERR_SHORT_READ')
  );
}

/** Runs `work` in one transaction (a savepoint inside another); what `work` returns comes back. */
export type Transact = <T>(work: () => T) => T;

/**
 * A `Transact` for `db`, built once. better-sqlite3's `db.transaction(fn)` makes four wrapped
 * functions and defines five properties on each, every time it is called: per write on a hot
 * path (every traffic flush, every POST /timePlayed) that cost more than a small write itself.
 */
export function transactor(db: SqliteDatabase): Transact {
  const run = db.transaction((work: () => unknown) => work());
  return <T>(work: () => T): T => run(work) as T;
}

/**
 * Flushes the WAL into the main file and closes; a clean stop leaves one file behind, and the
 * record of that stop beside it (`last-stop.ts`), with one more clean stop counted in both.
 */
export function closeDatabase(db: SqliteDatabase): void {
  if (!db.open) return;
  if (db.memory) {
    db.close();
    return;
  }
  let generation: number | null = (db.pragma('user_version', { simple: true }) as number) + 1;
  try {
    db.pragma(`user_version = ${generation}`);
  } catch {
    // A full disk: the stop still checkpoints what it can, and the marker stays as the start left it.
    generation = null;
  }
  const dataDir = dirname(db.name);
  const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
  // Another connection still open (the WAL copier's, past its wait: store/wal-copier.ts) keeps the
  // WAL from being copied whole and from being deleted by this close: the record stays `open`, and
  // the next start reads the WAL as after a kill, not as one a clean stop should not have left.
  const walKept = !result || result.busy !== 0;
  if (walKept) generation = null;
  // Everything is in the file now; the close deletes the WAL. Cut short after it, the record says
  // so, and a start finds no WAL without taking it for one lost (last-stop-check.ts).
  if (generation !== null) {
    try {
      writeLastStop(dataDir, { state: 'closing', generation, at: Date.now() });
    } catch {
      // A full disk: the close goes on; the record stays `open`, and the next start asks about the WAL.
    }
  }
  db.close();
  if (generation !== null) writeLastStop(dataDir, { state: 'stopped', generation, at: Date.now() });
  // Where the WAL ended means nothing once the close deleted it (`wal-end.ts`); a WAL kept is
  // checked against it at the next start.
  if (!walKept) forgetWalEnd(dataDir);
}
