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
 * power loss while the console runs may leave the file damaged, and so may anything else that
 * writes over it. A clean stop syncs the file and deletes the journal.
 *
 * Damage is looked for at every open, however the last run stopped (docs/contract/console.md §9):
 * SQLite's integrity_check, then every segment decodes, which SQLite cannot see into. Measured on
 * a full log (100,000 entries, 98 MB): 60–70 ms and 35 ms. Its tables are checked against what
 * its migrations made, and a new log is made whole before it has its name, so a zero-byte file is
 * damage too. A damaged or unreadable log, whatever the damage, is put aside (renamed) and a new one started: the console always opens, and the old file stays for
 * anyone who wants it. The file is 0600, made so before SQLite first opens it (its journal takes
 * its mode); see store/data-dir-files.ts.
 */
import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createPrivateFile, keepPrivate } from '../../store/data-dir-files.js';
import type { SqliteDatabase } from '../../store/database.js';
import { migrate } from '../../store/migrations.js';
import { openStore, type Store, type StoreLocation, type TrafficLogAttachment } from '../../store/store.js';
import { DamagedTrafficError, SegmentDetails, SegmentSummary } from './codec.js';
import { SEGMENTS_PER_READ, TrafficLog, segmentRows } from './log.js';
import { logMigrations } from './migrations/index.js';
import { takeTrafficRows } from './migrations/traffic-rows.js';
import type { TrafficLogStore } from './types.js';

export const TRAFFIC_LOG_FILE = 'traffic.sqlite';
/**
 * The log's page size. A segment (up to 2,000 exchanges, about 1 MB) is written whole, and larger
 * pages take it in fewer writes: measured in a loaded engine, 0.63 µs an exchange with SQLite's
 * 4 KiB pages, 0.42 with 16 KiB (64 KiB: no better, and each page the journal copies is larger).
 */
export const LOG_PAGE_SIZE = 16 * 1024;
const JOURNAL = `${TRAFFIC_LOG_FILE}-journal`;
/** A delete of 100,000 rows journals that many pages; the kept journal is cut back to this after. */
const JOURNAL_SIZE_LIMIT = 4 * 1024 * 1024;

/**
 * What `attachTrafficLog` did with a log it could not use: where the file went (null: it could
 * not be moved, and this run keeps its log in memory), and why. Null when nothing was wrong.
 */
export type TrafficLogRecovery = { putAside: string | null; because: string } | null;

/**
 * The log's file as the store attaches it (see `TrafficLogAttachment`): what `attach` had to do
 * with a log it could not use is kept in `recovery` for the engine to warn about.
 */
export class TrafficLogFile implements TrafficLogAttachment {
  readonly files = [TRAFFIC_LOG_FILE];
  recovery: TrafficLogRecovery = null;

  attach(db: SqliteDatabase, dataDir: string | null, now: number): void {
    this.recovery = attachTrafficLog(db, dataDir, now);
  }

  takeTrafficRows(db: SqliteDatabase): void {
    takeTrafficRows(db);
  }

  detach(db: SqliteDatabase): void {
    detachTrafficLog(db);
  }
}

/** The console's store with the traffic log on its connection, as the engine opens them. */
export interface StoreWithTrafficLog {
  store: Store;
  traffic: TrafficLogStore;
  /** Set when the log on disk could not be used: put aside and started anew, or kept in memory. */
  recovery: TrafficLogRecovery;
}

/** Opens the store with the log attached (before the console's migrations), then reads the log into memory. */
export function openStoreWithTrafficLog(location: StoreLocation, now: number = Date.now()): StoreWithTrafficLog {
  const file = new TrafficLogFile();
  const store = openStore(location, now, file);
  try {
    return { store, traffic: new TrafficLog(store.db), recovery: file.recovery };
  } catch (error) {
    store.close();
    throw error;
  }
}

/** Attaches the traffic log as `log` and brings it to the latest log migration. */
export function attachTrafficLog(db: SqliteDatabase, dataDir: string | null, appliedAt: number): TrafficLogRecovery {
  if (dataDir === null) {
    attach(db, ':memory:', appliedAt);
    return null;
  }
  const file = join(dataDir, TRAFFIC_LOG_FILE);
  const journal = join(dataDir, JOURNAL);
  let because: string | null;
  try {
    // A new log is made whole before it has its name (see `createLogFile`), so an empty one is damage.
    const size = sizeOf(file);
    if (size === 0) because = 'it is empty: 0 bytes';
    else {
      if (size === null) createLogFile(db, file, appliedAt);
      makePrivate(file);
      attach(db, file, appliedAt);
      // integrity_check, not quick_check: a torn write can leave an index out of step with its table.
      const check = db.pragma('log.integrity_check(1)', { simple: true });
      // Then what SQLite cannot see: tables the migrations count as made but gone, and a torn write inside a segment's blobs.
      because = check === 'ok' ? (damagedSchema(db) ?? damagedSegment(db)) : `integrity_check: ${String(check)}`;
      if (because === null) return null;
    }
  } catch (error) {
    // A log this console cannot migrate (written by a newer one) is refused, as the database is.
    if (!isDamaged(error)) throw error;
    because = (error as Error).message;
  }
  if (attachedLog(db)) db.exec('DETACH DATABASE log');
  const putAside = `${file}.damaged-${appliedAt}`;
  try {
    renameSync(file, putAside);
    if (existsSync(journal)) renameSync(journal, `${putAside}-journal`);
  } catch (error) {
    attach(db, ':memory:', appliedAt);
    return { putAside: null, because: `${because}; moving it aside failed: ${(error as Error).message}` };
  }
  createLogFile(db, file, appliedAt);
  makePrivate(file);
  attach(db, file, appliedAt);
  return { putAside, because };
}

/** The log's file 0600 before SQLite opens it, made empty (a new log) when missing; its journal too. */
function makePrivate(file: string): void {
  createPrivateFile(file);
  keepPrivate(file, ['-journal']);
}

/**
 * A new log, migrated under another name and renamed: `traffic.sqlite` is never seen empty, so a
 * zero-byte one is damage (a file emptied by something else), never taken for a new log.
 */
function createLogFile(db: SqliteDatabase, file: string, appliedAt: number): void {
  const making = `${file}.new`;
  rmSync(making, { force: true });
  rmSync(`${making}-journal`, { force: true });
  makePrivate(making);
  attach(db, making, appliedAt);
  db.pragma('log.journal_mode = DELETE');
  db.exec('DETACH DATABASE log');
  renameSync(making, file);
}

function sizeOf(file: string): number | null {
  try {
    return statSync(file).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * The tables and columns the log's latest migration leaves (`migrations/`), with the one row of
 * its state: a log that lacks one (a table dropped by hand, a file from elsewhere) would fail the
 * start or the first write, as the migrations count it made.
 */
const LOG_SCHEMA: Readonly<Record<string, readonly string[]>> = {
  traffic_segments: ['first_id', 'last_id', 'summary', 'detail'],
  traffic_state: ['next_id', 'dropped_through'],
  traffic_bodies: ['id', 'last_use', 'body'],
};

/** What is missing from the log's schema, in a few words; null when nothing is. */
function damagedSchema(db: SqliteDatabase): string | null {
  for (const [table, columns] of Object.entries(LOG_SCHEMA)) {
    const found = new Set((db.pragma(`log.table_info(${table})`) as { name: string }[]).map((column) => column.name));
    if (found.size === 0) return `its table ${table} is missing`;
    const missing = columns.filter((column) => !found.has(column));
    if (missing.length > 0) return `its table ${table} has no column ${missing.join(', ')}`;
  }
  const states = db.prepare('SELECT COUNT(*) FROM log.traffic_state').pluck().get() as number;
  return states === 1 ? null : `its table traffic_state holds ${states} rows, not 1`;
}

/**
 * Before the connection closes: the file synced (it is written without fsync) and the journal
 * deleted, so that a clean stop leaves the log whole on disk and no journal behind.
 */
export function detachTrafficLog(db: SqliteDatabase): void {
  const log = db.open ? attachedLog(db) : undefined;
  if (!log) return;
  // An in-memory log has no file ('').
  if (log.file) {
    const fd = openSync(log.file, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
  db.pragma('log.journal_mode = DELETE');
  db.exec('DETACH DATABASE log');
}

function attach(db: SqliteDatabase, file: string, appliedAt: number): void {
  db.prepare('ATTACH DATABASE ? AS log').run(file);
  // Takes effect on a new file; a log from before segments is rewritten with it once, below.
  db.pragma(`log.page_size = ${LOG_PAGE_SIZE}`);
  if (file !== ':memory:') {
    db.pragma('log.journal_mode = PERSIST');
    db.pragma(`log.journal_size_limit = ${JOURNAL_SIZE_LIMIT}`);
    db.pragma('log.synchronous = OFF');
  }
  migrate(db, logMigrations, appliedAt, 'log');
  if (db.pragma('log.page_size', { simple: true }) !== LOG_PAGE_SIZE) {
    // Only faster with the new page size: a rewrite that fails (a full disk) keeps the old one.
    try {
      db.exec('VACUUM log');
    } catch {
      // The log still works as it is; the next start tries again.
    }
  }
}

/** The connection's entry for the log (its file), if it is attached. */
function attachedLog(db: SqliteDatabase): { name: string; file: string } | undefined {
  return (db.pragma('database_list') as { name: string; file: string }[]).find((row) => row.name === 'log');
}

/** What is wrong with the first segment that does not decode, or hold the ids its row says; null when all do. */
function damagedSegment(db: SqliteDatabase): string | null {
  const read = db.prepare<[number], { first_id: number; last_id: number; summary: Buffer; detail: Buffer }>(
    `SELECT first_id, last_id, summary, detail FROM log.traffic_segments WHERE first_id > ? ORDER BY first_id LIMIT ${SEGMENTS_PER_READ}`,
  );
  for (const row of segmentRows((after) => read.all(after), 0)) {
    try {
      const summary = new SegmentSummary(row.first_id, row.summary);
      const details = new SegmentDetails(row.detail);
      if (summary.lastId !== row.last_id || details.count !== summary.count) {
        return `traffic segment ${row.first_id}: ${summary.count} entries in its summary, ${details.count} in its detail, ${row.last_id - row.first_id + 1} by its ids`;
      }
    } catch (error) {
      // Whatever a blob makes the decoder throw (a RangeError from a typed array over a torn
      // length as much as a DamagedTrafficError) is damage: the check must not stop the start.
      return `${(error as Error).message} (segment ${row.first_id})`;
    }
  }
  return null;
}

/**
 * better-sqlite3 reports extended result codes: SQLITE_CORRUPT_INDEX, SQLITE_IOERR_CORRUPTFS, ...
 * A plain SQLITE_ERROR, a constraint or a type mismatch while the log is opened and migrated is
 * a schema that is not what its migrations made ("table traffic_bodies already exists" once
 * `schema_version` is gone): damage too. A full disk or a file this user may not write is not.
 */
function isDamaged(error: unknown): boolean {
  if (error instanceof DamagedTrafficError) return true;
  const code = (error as { code?: unknown }).code;
  return (
    typeof code === 'string' &&
    (code.startsWith('SQLITE_CORRUPT') ||
      code.startsWith('SQLITE_CONSTRAINT') ||
      ['SQLITE_NOTADB', 'SQLITE_IOERR_CORRUPTFS', 'SQLITE_ERROR', 'SQLITE_MISMATCH'].includes(code))
  );
}
