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
 * a full log (100,000 entries, 98 MB): 60–70 ms and 35 ms. A damaged or unreadable log is put
 * aside (renamed) and a new one started: the console always opens, and the old file stays for
 * anyone who wants it. The file is 0600, made so before SQLite first opens it (its journal takes
 * its mode); see store/data-dir-files.ts.
 */
import { closeSync, existsSync, fsyncSync, openSync, renameSync } from 'node:fs';
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
  let because: string;
  try {
    makePrivate(file);
    attach(db, file, appliedAt);
    // integrity_check, not quick_check: a torn write can leave an index out of step with its table.
    const check = db.pragma('log.integrity_check(1)', { simple: true });
    if (check !== 'ok') because = `integrity_check: ${String(check)}`;
    else {
      // What SQLite cannot see: a torn write inside a segment's blobs.
      const segments = damagedSegment(db);
      if (segments === null) return null;
      because = segments;
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

/** better-sqlite3 reports extended result codes: SQLITE_CORRUPT_INDEX, SQLITE_IOERR_CORRUPTFS, ... */
function isDamaged(error: unknown): boolean {
  if (error instanceof DamagedTrafficError) return true;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB' || code === 'SQLITE_IOERR_CORRUPTFS');
}
