/**
 * The traffic log's own database file: `traffic.sqlite` beside `console.sqlite`, attached to the
 * engine's connection as `log` (in memory with `--ephemeral`). One connection still does every
 * read and write, so a traffic write never makes another transaction fail with SQLITE_BUSY.
 *
 * Why a file of its own: the log is written all the time under load and is worth less than the
 * console's state, so it gets cheaper durability. In the console's database (WAL) every traffic
 * page was written twice, to the WAL and again by a checkpoint that ran on the engine's thread
 * inside a commit; here a commit writes its pages to the file once, with a rollback journal kept
 * between transactions (PERSIST: no file created and deleted per commit) and no fsync
 * (`synchronous = OFF`). Measured: 6.0–6.7 µs per stored entry became 4.5–5.0.
 *
 * What that costs: a killed process loses nothing committed (the kernel still writes its pages,
 * and a half-done commit is rolled back from the journal on the next open), but an OS crash or
 * power loss may leave the file damaged. So a journal left behind (the last run did not close
 * cleanly) gets the file checked on open, and a damaged or unreadable log is put aside (renamed)
 * and a new one started: the console always opens, and the old file stays for anyone who wants it.
 */
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { SqliteDatabase } from './database.js';
import { logMigrations } from './log-migrations/index.js';
import { migrate } from './migrations.js';

export const TRAFFIC_LOG_FILE = 'traffic.sqlite';
const JOURNAL = `${TRAFFIC_LOG_FILE}-journal`;

/** What `attachTrafficLog` did with an earlier log it could not use; null: nothing of note. */
export type TrafficLogRecovery = { putAside: string; because: string } | null;

/** Attaches the traffic log as `log` and brings it to the latest log migration. */
export function attachTrafficLog(db: SqliteDatabase, dataDir: string | null, appliedAt: number): TrafficLogRecovery {
  if (dataDir === null) {
    attach(db, ':memory:', appliedAt);
    return null;
  }
  const file = join(dataDir, TRAFFIC_LOG_FILE);
  const uncleanExit = existsSync(join(dataDir, JOURNAL));
  let because: string;
  try {
    attach(db, file, appliedAt);
    if (!uncleanExit) return null;
    const check = db.pragma('log.quick_check(1)', { simple: true });
    if (check === 'ok') return null;
    because = `quick_check: ${String(check)}`;
  } catch (error) {
    // A log this console cannot migrate (written by a newer one) is refused, as the database is.
    if (!isDamaged(error)) throw error;
    because = (error as Error).message;
  }
  if (isAttached(db)) db.exec('DETACH DATABASE log');
  const putAside = `${file}.damaged-${appliedAt}`;
  renameSync(file, putAside);
  if (existsSync(join(dataDir, JOURNAL))) renameSync(join(dataDir, JOURNAL), `${putAside}-journal`);
  attach(db, file, appliedAt);
  return { putAside, because };
}

/** Before the connection closes: back to a deleted journal, so that a clean stop leaves none. */
export function detachTrafficLog(db: SqliteDatabase): void {
  if (!db.open || !isAttached(db)) return;
  db.pragma('log.journal_mode = DELETE');
  db.exec('DETACH DATABASE log');
}

function attach(db: SqliteDatabase, file: string, appliedAt: number): void {
  db.prepare('ATTACH DATABASE ? AS log').run(file);
  if (file !== ':memory:') {
    db.pragma('log.journal_mode = PERSIST');
    db.pragma('log.synchronous = OFF');
  }
  migrate(db, logMigrations, appliedAt, 'log');
}

function isAttached(db: SqliteDatabase): boolean {
  return (db.pragma('database_list') as { name: string }[]).some((row) => row.name === 'log');
}

function isDamaged(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB';
}
