/**
 * The log's own migrations, and the console's that changed it while it was one of the console's
 * tables (7, 8) or moved it out (11): every entry reads back as it was written.
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../store/database.js';
import { migrate } from '../../../store/migrations.js';
import { migrations } from '../../../store/migrations/index.js';
import { testTrafficEntry } from '../../../testing/traffic.js';
import { attachTrafficLog } from '../file.js';
import { TrafficLog } from '../log.js';
import { logMigrations } from './index.js';
import { takeTrafficRows } from './traffic-rows.js';

/** A window-sized body, different per item. */
const windowBody = (item: number) =>
  JSON.stringify({
    items: Array.from({ length: 10 }, (_, i) => ({ id: `item-${item + i}`, track: { name: 'x'.repeat(60) } })),
  });
const KEEP_ALL = 1_000_000;
/** The console's migrations while the log was still one of its tables (11 moves it out). */
const BEFORE_LOG_FILE = migrations.slice(0, 10);

/** The console's database at `version` (no log attached yet). */
function databaseAt(version: number) {
  const db = openDatabase({ dataDir: null });
  migrate(db, migrations.slice(0, version), 0);
  return db;
}

/** The rest of the way, as `openStore` goes with the log: the log attached and migrated, then the console's migrations. */
function migrateAll(db: ReturnType<typeof openDatabase>) {
  attachTrafficLog(db, null, 0);
  migrate(db, migrations, 0, 'main', { takeTrafficRows });
}

/** A row as the log kept them before segments (`table`: main.traffic before 11, log.traffic before log 2). */
function insertRow(db: ReturnType<typeof openDatabase>, table: string, fields: Record<string, unknown>) {
  const row = {
    target: 'cloudQueue',
    at: 0,
    wall_at: 0,
    method: 'GET',
    url: 'http://127.0.0.1/w',
    path: '/w',
    outcome: 'answered',
    request_headers: '',
    response_headers: '',
    ...fields,
  };
  const names = Object.keys(row);
  db.prepare(`INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`).run(
    ...Object.values(row),
  );
}

describe('migration 8 (header blocks)', () => {
  it('turns the JSON headers of earlier rows into blocks that read as before', () => {
    const db = databaseAt(7);
    insertRow(db, 'traffic', {
      request_headers: JSON.stringify({ host: '127.0.0.1:9003', authorization: 'Bearer abc' }),
      response_headers: '{}',
    });
    migrate(db, BEFORE_LOG_FILE, 0);
    expect(db.prepare('SELECT request_headers, response_headers FROM traffic').get()).toEqual({
      request_headers: 'host: 127.0.0.1:9003\r\nauthorization: Bearer abc\r\n',
      response_headers: '',
    });

    migrateAll(db);
    const [entry] = new TrafficLog(db).entries({}, undefined, 1);
    expect(entry!.requestHeaders).toEqual({ host: '127.0.0.1:9003', authorization: 'Bearer abc' });
    expect(entry!.responseHeaders).toEqual({});
    db.close();
  });
});

describe('migration 7 (traffic bodies)', () => {
  it('moves the bodies 006 rows shared into the body table; every row reads as before', () => {
    const db = databaseAt(6);
    const a = windowBody(1);
    // Rows 1 and 2 point at row 3 (version 6's layout); row 4 holds a body of its own.
    for (const [body, ahead] of [
      [null, 2],
      [null, 1],
      [a, null],
      ['short', null],
    ] as const)
      insertRow(db, 'traffic', {
        request_headers: '{}',
        response_headers: '{}',
        response_body: body,
        response_body_ahead: ahead,
      });
    migrate(db, BEFORE_LOG_FILE, 0);
    expect(db.prepare('SELECT id, last_use, body FROM traffic_bodies').all()).toEqual([
      { id: 3, last_use: 3, body: a },
    ]);
    expect(db.prepare('SELECT response_body_id FROM traffic ORDER BY id').pluck().all()).toEqual([3, 3, 3, null]);

    migrateAll(db);
    const repo = new TrafficLog(db);
    expect(repo.entries({}, undefined, 10).map((e) => e.responseBody)).toEqual([a, a, a, 'short']);
    // Trimming after the migrations drops the moved body with its last row.
    expect(repo.retain(1)).toBe(3);
    expect(db.prepare('SELECT COUNT(*) FROM log.traffic_bodies').pluck().get()).toBe(0);
    db.close();
  });
});

describe('migration 11 (the log in a file of its own)', () => {
  it('moves every row and shared body to the log, which reads as before, and drops them here', () => {
    const db = databaseAt(10);
    const a = windowBody(1);
    db.prepare('INSERT INTO traffic_bodies (id, last_use, body) VALUES (1, 2, ?)').run(a);
    insertRow(db, 'traffic', { request_headers: 'host: x\r\n', response_body_id: 1, at: 5 });
    insertRow(db, 'traffic', {
      reason: 'load',
      status: 503,
      fault: JSON.stringify({ ruleId: 'f1', action: 'status' }),
      response_body_id: 1,
    });

    migrateAll(db);
    expect(db.prepare("SELECT name FROM main.sqlite_master WHERE name LIKE 'traffic%'").all()).toEqual([]);
    const after = new TrafficLog(db, { bodyUseAhead: 0 });
    expect(after.entries({}, undefined, 10)).toEqual([
      expect.objectContaining({
        id: 1,
        at: 5,
        url: 'http://127.0.0.1/w',
        requestHeaders: { host: 'x' },
        responseBody: a,
        reason: null,
        fault: null,
      }),
      expect.objectContaining({
        id: 2,
        reason: 'load',
        status: 503,
        fault: { ruleId: 'f1', action: 'status' },
        responseBody: a,
      }),
    ]);
    expect(db.prepare('SELECT COUNT(*) FROM log.traffic_bodies').pluck().get()).toBe(1);
    // New entries follow the moved ones, and trimming still drops a moved body with its last row.
    expect(after.append([testTrafficEntry()], 1).stored[0]!.id).toBe(3);
    expect(db.prepare('SELECT COUNT(*) FROM log.traffic_bodies').pluck().get()).toBe(0);
    db.close();
  });

  it('carries the next id over from a cleared log', () => {
    const db = databaseAt(10);
    for (let i = 0; i < 3; i++) insertRow(db, 'traffic', {});
    db.exec('DELETE FROM traffic');
    migrateAll(db);
    expect(new TrafficLog(db).append([testTrafficEntry()], KEEP_ALL).stored[0]!.id).toBe(4);
    db.close();
  });
});

describe('log migration 2 (segments)', () => {
  /** A console database with its log at version 1: one row per exchange. */
  function logAtVersion1() {
    const db = openDatabase({ dataDir: null });
    db.exec("ATTACH DATABASE ':memory:' AS log");
    migrate(db, logMigrations.slice(0, 1), 0, 'log');
    return db;
  }

  it('moves the rows into segments of consecutive ids that read as the rows did', () => {
    const db = logAtVersion1();
    const a = windowBody(1);
    db.prepare('INSERT INTO log.traffic_bodies (id, last_use, body) VALUES (9, 2000, ?)').run(a);
    // 1..700, then 703..1202: a gap (rows 701 and 702 were never stored) ends a segment.
    const ids = [...Array.from({ length: 700 }, (_, i) => i + 1), ...Array.from({ length: 500 }, (_, i) => i + 703)];
    for (const id of ids) {
      insertRow(db, 'log.traffic', {
        id,
        at: id * 10,
        url: `http://127.0.0.1/w?n=${id}&caf\u00e9`,
        reason: id % 3 === 0 ? 'refresh' : null,
        status: id % 5 === 0 ? null : 200,
        request_body: id % 7 === 0 ? `{"n":${id}}` : null,
        response_body: id % 2 === 0 ? null : `own ${id}`,
        response_body_id: id % 2 === 0 ? 9 : null,
        fault: id === 4 ? JSON.stringify({ ruleId: 'f', action: 'drop' }) : null,
        request_id: `r-${id}`,
      });
    }
    migrate(db, logMigrations, 0, 'log');

    expect(db.prepare("SELECT name FROM log.sqlite_master WHERE name = 'traffic'").all()).toEqual([]);
    expect(db.prepare('SELECT first_id, last_id FROM log.traffic_segments ORDER BY first_id').all()).toEqual([
      { first_id: 1, last_id: 500 },
      { first_id: 501, last_id: 700 },
      { first_id: 703, last_id: 1202 },
    ]);
    const repo = new TrafficLog(db);
    const entries = repo.entries({}, undefined, 10_000);
    expect(entries.map((e) => e.id)).toEqual(ids);
    for (const entry of entries) {
      const id = entry.id;
      expect(entry).toMatchObject({
        at: id * 10,
        url: `http://127.0.0.1/w?n=${id}&caf\u00e9`,
        reason: id % 3 === 0 ? 'refresh' : null,
        status: id % 5 === 0 ? null : 200,
        requestBody: id % 7 === 0 ? `{"n":${id}}` : null,
        responseBody: id % 2 === 0 ? a : `own ${id}`,
        fault: id === 4 ? { ruleId: 'f', action: 'drop' } : null,
        requestId: `r-${id}`,
      });
    }
    expect(repo.page({ requestId: 'r-703' }, 0, 10).rows.map((r) => r.id)).toEqual([703]);
    expect(repo.append([testTrafficEntry()], KEEP_ALL).stored[0]!.id).toBe(1203);
    db.close();
  });

  it('carries the next id over from a cleared log', () => {
    const db = logAtVersion1();
    for (let i = 0; i < 3; i++) insertRow(db, 'log.traffic', {});
    db.exec('DELETE FROM log.traffic');
    migrate(db, logMigrations, 0, 'log');
    expect(new TrafficLog(db).append([testTrafficEntry()], KEEP_ALL).stored[0]!.id).toBe(4);
    db.close();
  });
});
