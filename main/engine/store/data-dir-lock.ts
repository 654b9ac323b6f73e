/**
 * One console per data dir (docs/contract/console.md §1): a second console on a folder that a running console
 * holds refuses to start, naming the folder and the other process, and writes nothing there.
 *
 * Why refuse: the desktop app's userData folder is also `serve`'s default, so two consoles can
 * meet on one folder. SQLite keeps the files whole, but both would run the same players and write
 * the same saved state over each other, which looks like a console gone strange.
 *
 * The claim is an exclusive lock on a small SQLite file (`console.lock`), held while the engine
 * runs. The OS drops it when the process ends, however it ends: a killed console leaves nothing
 * stale, and a process id used again after a reboot cannot hold it. A file locked that way cannot
 * be read by anyone else, so the holder also says who it is in a plain file beside it
 * (`console.lock.json`), which the refusal quotes.
 */
import Database from 'better-sqlite3';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'console.lock';
export const HOLDER_FILE = `${LOCK_FILE}.json`;

/** Who holds a data dir, as its `console.lock.json` says. */
export interface DataDirHolder {
  pid: number;
  /** ISO time the holder took the claim. */
  startedAt: string;
  /** What kind of console it is, in a word ('serve', 'desktop app'; 'console' when not said). */
  kind: string;
}

export class DataDirInUseError extends Error {
  readonly code = 'data_dir_in_use';
  readonly dataDir: string;
  /** Null when the holder's record is missing, unreadable, or names a process that is gone. */
  readonly holder: DataDirHolder | null;

  constructor(dataDir: string, holder: DataDirHolder | null) {
    const who = holder ? `pid ${holder.pid}, started ${holder.startedAt}: ${holder.kind}` : 'process unknown';
    super(
      `another Cloud Queue Console (${who}) has ${dataDir} open; close it, or start this one with another --data-dir or --ephemeral`,
    );
    this.name = 'DataDirInUseError';
    this.dataDir = dataDir;
    this.holder = holder;
  }
}

export interface DataDirClaim {
  release(): void;
}

/** Takes the data dir for this process, or throws `DataDirInUseError` when another console has it. */
export function claimDataDir(dataDir: string, nativeBinding?: string, kind = 'console'): DataDirClaim {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, LOCK_FILE);
  createPrivate(file);
  let db: Database.Database;
  try {
    db = lock(file, nativeBinding);
  } catch (error) {
    if (!isNotADatabase(error)) throw refusalOr(error, dataDir);
    // Garbage where the lock belongs is no lock: the file is emptied, which SQLite takes as a new
    // database. Emptied in place rather than deleted and made anew, because the lock belongs to the
    // file: a console starting at the same moment may already have emptied and locked it, and
    // deleting that file would leave each console holding a lock on a different file.
    truncateSync(file, 0);
    try {
      db = lock(file, nativeBinding);
    } catch (again) {
      throw refusalOr(again, dataDir);
    }
  }
  const record = join(dataDir, HOLDER_FILE);
  writeHolder(record, { pid: process.pid, startedAt: new Date().toISOString(), kind: label(kind) });
  return {
    release: () => {
      if (!db.open) return;
      // The record before the lock: once the lock is free, the next console writes its own.
      try {
        rmSync(record, { force: true });
      } catch {
        // Best effort: a record left behind is replaced by the next holder, and never read while free.
      }
      db.close();
    },
  };
}

function lock(file: string, nativeBinding: string | undefined): Database.Database {
  const db = new Database(file, { timeout: 0, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    // The first write takes the exclusive lock, and EXCLUSIVE mode keeps it until the connection closes.
    db.exec('CREATE TABLE IF NOT EXISTS claim (pid INTEGER NOT NULL)');
    db.prepare('REPLACE INTO claim (rowid, pid) VALUES (1, ?)').run(process.pid);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Creates `file` readable by its owner only (POSIX), and leaves an existing one alone: opening and
 * closing a file this process has locked would drop the lock (POSIX locks go with any close).
 */
function createPrivate(file: string): void {
  try {
    closeSync(openSync(file, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

function writeHolder(record: string, holder: DataDirHolder): void {
  // Written aside and renamed, so that a refused console reads a whole record or none; only the
  // holder of the lock writes here, so the temporary name cannot collide.
  const temporary = `${record}.tmp`;
  try {
    rmSync(temporary, { force: true });
    writeFileSync(temporary, `${JSON.stringify(holder)}\n`, { mode: 0o600, flag: 'wx' });
    renameSync(temporary, record);
  } catch {
    // The lock is the claim; without the record a refused console says "process unknown".
    // A record left by an earlier holder would name the wrong process, so it goes.
    rmSync(record, { force: true });
  }
}

function readHolder(dataDir: string): DataDirHolder | null {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(join(dataDir, HOLDER_FILE), 'utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { pid, startedAt, kind } = value as Record<string, unknown>;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return null;
  if (typeof startedAt !== 'string' || Number.isNaN(Date.parse(startedAt))) return null;
  // A record left by a killed console, under a holder that wrote none (an older console), names a
  // process that is gone: better unknown than wrong.
  if (!running(pid)) return null;
  return { pid, startedAt: new Date(startedAt).toISOString(), kind: label(typeof kind === 'string' ? kind : '') };
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A short, printable label: it goes into a one-line message. */
function label(kind: string): string {
  const printable = kind
    .replace(/[^\x20-\x7e]/g, '')
    .trim()
    .slice(0, 40);
  return printable === '' ? 'console' : printable;
}

/** SQLITE_BUSY / SQLITE_LOCKED (and their extended codes): another connection holds the lock. */
function refusalOr(error: unknown, dataDir: string): unknown {
  const code = (error as { code?: unknown }).code;
  const held = typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
  return held ? new DataDirInUseError(dataDir, readHolder(dataDir)) : error;
}

function isNotADatabase(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'));
}
