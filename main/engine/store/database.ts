/**
 * Opens the console's SQLite database. WAL with synchronous=NORMAL: a committed transaction
 * survives the process being killed (kill -9), which is the durability a developer tool needs;
 * only an OS crash or power loss may roll back the last few commits.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export type SqliteDatabase = Database.Database;

export interface DatabaseLocation {
  /** Folder that holds `console.sqlite`; null keeps everything in memory (`--ephemeral`). */
  dataDir: string | null;
  /** Path of a better_sqlite3.node built for the running ABI (Electron passes its own build). */
  nativeBinding?: string;
}

export const DATABASE_FILE = 'console.sqlite';

export function openDatabase({ dataDir, nativeBinding }: DatabaseLocation): SqliteDatabase {
  let file = ':memory:';
  if (dataDir !== null) {
    mkdirSync(dataDir, { recursive: true });
    file = join(dataDir, DATABASE_FILE);
  }
  const db = new Database(file, nativeBinding ? { nativeBinding } : {});
  if (dataDir !== null) {
    db.pragma('journal_mode = WAL');
    // Checkpoint every ~32 MiB of WAL instead of SQLite's 4 MiB: the token endpoint and queue
    // creation write a lot, and each checkpoint copies pages inside a request. (The traffic log
    // has a file of its own without a WAL: see `traffic/log/file.ts`.)
    db.pragma('wal_autocheckpoint = 8000');
  }
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
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

/** Flushes the WAL into the main file and closes; a clean stop leaves one file behind. */
export function closeDatabase(db: SqliteDatabase): void {
  if (!db.open) return;
  if (!db.memory) db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}
