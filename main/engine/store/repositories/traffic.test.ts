import { describe, expect, it } from 'vitest';
import { trafficEntry } from '../../testing/traffic.js';
import { openDatabase } from '../database.js';
import { migrate } from '../migrations.js';
import { migrations } from '../migrations/index.js';
import { openStore } from '../store.js';
import { attachTrafficLog } from '../traffic-log.js';
import { TrafficRepository } from './traffic.js';

/** A window-sized body, different per item. */
const windowBody = (item: number) => JSON.stringify({ items: Array.from({ length: 10 }, (_, i) => ({ id: `item-${item + i}`, track: { name: 'x'.repeat(60) } })) });
const KEEP_ALL = 1_000_000;
/** The console's migrations while the log was still one of its tables (11 moves it out). */
const BEFORE_LOG_FILE = migrations.slice(0, 10);

/** A response and the URL that answered it; a bare body is answered where that content always is. */
type Answer = string | null | { url: string; body: string };

/** A log whose bodies go with their last row (`bodyUseAhead` 0), unless told otherwise. */
function storeWithLog(bodyUseAhead = 0) {
  const store = openStore({ dataDir: null });
  const traffic = new TrafficRepository(store.db, { bodyUseAhead });
  const bodies = () => store.db.prepare('SELECT body FROM traffic_bodies ORDER BY id').pluck().all() as string[];
  // Like a player asking for the same windows again: the same content comes from the same URL.
  const urls = new Map<string | null, string>();
  const urlOf = (body: string | null) => urls.get(body) ?? urls.set(body, `http://127.0.0.1:9003/queues/q/v2.3/itemWindow?n=${urls.size}`).get(body)!;
  const append = (answers: Answer[], keep = KEEP_ALL) =>
    traffic.append(
      answers.map((answer, i) =>
        typeof answer === 'object' && answer !== null
          ? trafficEntry({ url: answer.url, responseBody: answer.body, path: `/w/${i}` })
          : trafficEntry({ url: urlOf(answer), responseBody: answer, path: `/w/${i}` }),
      ),
      keep,
    );
  const readBack = () => traffic.entries({}, undefined, 100).map((e) => e.responseBody);
  return { store: { ...store, traffic }, close: () => store.close(), bodies, append, readBack };
}

describe('the traffic log stores a response body many rows share once', () => {
  it('across batches, with short bodies kept in their rows', () => {
    const { close, bodies, append, readBack } = storeWithLog();
    const a = windowBody(1);
    const b = windowBody(100);
    append([a, b, a, 'short', null]);
    append([b, a, 'short']);
    expect(bodies()).toEqual([a, b]);
    expect(readBack()).toEqual([a, b, a, 'short', null, b, a, 'short']);
    close();
  });

  it('keeps storing a body once when capture renews it with a fresh copy, and leaves other bodies alone', () => {
    const { store, close, bodies, append, readBack } = storeWithLog();
    const url = 'http://127.0.0.1:9003/queues/q/v2.3/itemWindow?reason=refresh';
    const a = windowBody(1);
    append([{ url, body: a }]);
    // Fresh copies of the same answer (which copy is remembered is not observable in JS; what is
    // stored is).
    for (const body of [windowBody(1), windowBody(2), 'short', null]) store.traffic.renewBody(url, body);
    store.traffic.renewBody(`${url}&other`, windowBody(1));
    const fresh = windowBody(1);
    store.traffic.renewBody(url, fresh);
    append([{ url, body: fresh }, { url: `${url}&other`, body: fresh }]);
    expect(bodies()).toEqual([a, a]);
    expect(readBack()).toEqual([a, a, a]);
    close();
  });

  it('stores the new answer of a URL whose answer changed, and the old one stays with its rows', () => {
    const { close, bodies, append, readBack } = storeWithLog();
    const url = 'http://127.0.0.1:9003/queues/q/v2.3/itemWindow?itemId=item-1';
    const before = windowBody(1);
    // The queue was edited: same length, one digit apart.
    const after = before.replace('item-5', 'item-9');
    append([{ url, body: before }, { url, body: after }, { url, body: after }]);
    expect(bodies()).toEqual([before, after]);
    expect(readBack()).toEqual([before, after, after]);
    close();
  });

  it('remembers a bounded amount of large bodies: one asked for again after many others is stored anew', () => {
    const { close, bodies, append } = storeWithLog();
    const large = (n: number) => `${n}:${'z'.repeat(60_000)}`;
    append(Array.from({ length: 70 }, (_, n) => large(n)));
    expect(bodies()).toHaveLength(70);
    // 70 bodies of 60,000 characters are more than the 4 Mi characters remembered: the first is forgotten.
    append([large(69), large(0)]);
    expect(bodies()).toHaveLength(71);
    close();
  });

  it('reads, searches and exports every row of a shared body', () => {
    const { store, close, append } = storeWithLog();
    const a = windowBody(1);
    const b = windowBody(100);
    const { stored } = append([a, b, a, b, a]);
    expect(stored.map((s) => store.traffic.get(s.id)!.responseBody)).toEqual([a, b, a, b, a]);
    expect(store.traffic.latest({}, 2).map((e) => e.responseBody)).toEqual([b, a]);
    expect(store.traffic.page({ text: 'item-100' }, 0, 10).rows.map((r) => r.path)).toEqual(['/w/1', '/w/3']);
    close();
  });

  it('trims a body with the last row that uses it, and keeps the ones newer rows still use', () => {
    const { store, close, bodies, append, readBack } = storeWithLog();
    const a = windowBody(1);
    const b = windowBody(100);
    append([a, b]);
    append([a, 'short']);
    expect(store.traffic.retain(2)).toBe(2);
    expect(bodies()).toEqual([a]);
    expect(readBack()).toEqual([a, 'short']);

    // b is stored anew; a, used again, outlives the row that used it first.
    const { dropped } = append([b, a], 3);
    expect(dropped).toBe(1);
    expect(bodies()).toEqual([a, b]);
    expect(readBack()).toEqual(['short', b, a]);
    close();
  });

  it('writes a body’s last use ahead, so a body every batch uses is not rewritten each time', () => {
    const { store, close, bodies, append, readBack } = storeWithLog(4);
    const a = windowBody(1);
    const lastUse = () => store.db.prepare('SELECT last_use FROM traffic_bodies').pluck().get();
    append([a]); // row 1: used up to row 5
    append([a, 'short']); // rows 2-3: still within
    expect(lastUse()).toBe(5);
    append(['short', 'short', a]); // rows 4-6: 6 is past 5, so up to row 10
    expect(lastUse()).toBe(10);
    // Its last row (6) is trimmed; the body stays until row 10 is, and no row lost it meanwhile.
    append(['short', 'short', 'short'], 3);
    expect(bodies()).toEqual([a]);
    expect(readBack()).toEqual(['short', 'short', 'short']);
    append(Array(4).fill('short'), 3);
    expect(bodies()).toEqual([]);
    close();
  });

  it('writes it at most a tenth of the kept rows ahead, so a small log keeps few bodies past their rows', () => {
    const { store, close, append } = storeWithLog(10_000);
    append([windowBody(1)], 50);
    expect(store.db.prepare('SELECT last_use FROM traffic_bodies').pluck().get()).toBe(1 + 5);
    close();
  });

  it('empties the bodies with the log', () => {
    const { store, close, bodies, append, readBack } = storeWithLog();
    append([windowBody(1), windowBody(1)]);
    expect(store.traffic.clear()).toBe(2);
    expect(bodies()).toEqual([]);
    const a = windowBody(1);
    append([a]);
    expect(readBack()).toEqual([a]);
    close();
  });

  it('keeps nothing of a batch that failed, and finds no body of it afterwards', () => {
    const { store, close, bodies, append, readBack } = storeWithLog();
    const a = windowBody(1);
    const broken = { ...trafficEntry({ responseBody: windowBody(2) }), outcome: null as never };
    expect(() => store.traffic.append([trafficEntry({ responseBody: a }), broken], KEEP_ALL)).toThrow(/NOT NULL/);
    expect(bodies()).toEqual([]);
    // The body the failed batch stored was rolled back with it: it is stored again, not pointed at.
    append([a]);
    expect(readBack()).toEqual([a]);
    close();
  });
});

describe('migration 8 (header blocks)', () => {
  it('turns the JSON headers of earlier rows into blocks that read as before', () => {
    const db = openDatabase({ dataDir: null });
    migrate(db, migrations.slice(0, 7), 0);
    db.prepare(
      `INSERT INTO traffic (target, at, wall_at, method, url, path, outcome, request_headers, response_headers)
       VALUES ('cloudQueue', 0, 0, 'GET', 'http://127.0.0.1/w', '/w', 'answered', ?, ?)`,
    ).run(JSON.stringify({ host: '127.0.0.1:9003', authorization: 'Bearer abc' }), '{}');
    migrate(db, BEFORE_LOG_FILE, 0);

    expect(db.prepare('SELECT request_headers, response_headers FROM traffic').get()).toEqual({ request_headers: 'host: 127.0.0.1:9003\r\nauthorization: Bearer abc\r\n', response_headers: '' });
    const [entry] = new TrafficRepository(db).entries({}, undefined, 1);
    expect(entry!.requestHeaders).toEqual({ host: '127.0.0.1:9003', authorization: 'Bearer abc' });
    expect(entry!.responseHeaders).toEqual({});
    db.close();
  });
});

describe('migration 7 (traffic bodies)', () => {
  it('moves the bodies 006 rows shared into the body table; every row reads as before', () => {
    const db = openDatabase({ dataDir: null });
    migrate(db, migrations.slice(0, 6), 0);
    const a = windowBody(1);
    const insert = db.prepare(
      `INSERT INTO traffic (target, at, wall_at, method, url, path, outcome, request_headers, response_headers, response_body, response_body_ahead)
       VALUES ('cloudQueue', 0, 0, 'GET', 'http://127.0.0.1/w', '/w', 'answered', '{}', '{}', ?, ?)`,
    );
    // Rows 1 and 2 point at row 3 (version 6's layout); row 4 holds a body of its own.
    insert.run(null, 2);
    insert.run(null, 1);
    insert.run(a, null);
    insert.run('short', null);
    migrate(db, BEFORE_LOG_FILE, 0);

    const repo = new TrafficRepository(db);
    expect(repo.entries({}, undefined, 10).map((e) => e.responseBody)).toEqual([a, a, a, 'short']);
    expect(db.prepare('SELECT id, last_use, body FROM traffic_bodies').all()).toEqual([{ id: 3, last_use: 3, body: a }]);
    expect(db.prepare('SELECT response_body_id FROM traffic ORDER BY id').pluck().all()).toEqual([3, 3, 3, null]);
    // Trimming after the migration drops the moved body with its last row.
    expect(repo.retain(1)).toBe(3);
    expect(db.prepare('SELECT COUNT(*) FROM traffic_bodies').pluck().get()).toBe(0);
    db.close();
  });
});

describe('migrations 9 and 10 (no filter or request id indexes)', () => {
  it('leaves rows no index to pay for, and target and reason filters answer as before', () => {
    const { store, append, close } = storeWithLog();
    const indexes = store.db.prepare("SELECT name FROM log.sqlite_master WHERE type = 'index' AND tbl_name = 'traffic' AND sql IS NOT NULL").pluck().all();
    expect(indexes).toEqual([]);

    append(['a', 'b', 'c']);
    store.traffic.append([trafficEntry({ target: 'player', reason: 'load' }), trafficEntry({ target: 'cloudQueue', reason: 'load' })], KEEP_ALL);
    expect(store.traffic.page({ target: 'player' }, 0, 10).rows.map((r) => [r.target, r.reason])).toEqual([['player', 'load']]);
    expect(store.traffic.page({ reason: 'load' }, 0, 10).total).toBe(2);
    expect(store.traffic.page({ target: 'cloudQueue', reason: 'load' }, 0, 10).rows.map((r) => r.id)).toEqual([5]);
    close();
  });
});

describe('migration 11 (the log in a file of its own)', () => {
  it('moves every row and shared body to the log, which reads as before, and drops them here', () => {
    const db = openDatabase({ dataDir: null });
    migrate(db, BEFORE_LOG_FILE, 0);
    const a = windowBody(1);
    const before = new TrafficRepository(db, { bodyUseAhead: 0 });
    before.append([trafficEntry({ url: 'http://127.0.0.1:9003/w', responseBody: a, requestHeaders: 'host: x\r\n' }), trafficEntry({ url: 'http://127.0.0.1:9003/w', responseBody: a, reason: 'load' })], KEEP_ALL);
    const stored = before.entries({}, undefined, 10);

    attachTrafficLog(db, null, 0);
    migrate(db, migrations, 0);

    expect(db.prepare("SELECT name FROM main.sqlite_master WHERE name LIKE 'traffic%'").all()).toEqual([]);
    const after = new TrafficRepository(db, { bodyUseAhead: 0 });
    expect(after.entries({}, undefined, 10)).toEqual(stored);
    expect(db.prepare('SELECT COUNT(*) FROM log.traffic_bodies').pluck().get()).toBe(1);
    // New rows follow the moved ones, and trimming still drops a moved body with its last row.
    expect(after.append([trafficEntry()], 1).stored[0]!.id).toBe(3);
    expect(db.prepare('SELECT COUNT(*) FROM log.traffic_bodies').pluck().get()).toBe(0);
    db.close();
  });

  it('carries the next id over from a cleared log', () => {
    const db = openDatabase({ dataDir: null });
    migrate(db, BEFORE_LOG_FILE, 0);
    const before = new TrafficRepository(db);
    before.append([trafficEntry(), trafficEntry(), trafficEntry()], KEEP_ALL);
    before.clear();
    attachTrafficLog(db, null, 0);
    migrate(db, migrations, 0);
    expect(new TrafficRepository(db).append([trafficEntry()], KEEP_ALL).stored[0]!.id).toBe(4);
    db.close();
  });
});
