/** The traffic log: bodies shared between entries, segments read back, filters, searches, trimming. */
import { describe, expect, it } from 'vitest';
import type { TrafficSummary } from '../../api/traffic-types.js';
import { openStore } from '../../store/store.js';
import { testTrafficEntry } from '../../testing/traffic.js';
import { TrafficLogFile } from './file.js';
import { SEGMENTS_PER_READ, TrafficLog } from './log.js';

/** A window-sized body, different per item. */
const windowBody = (item: number) =>
  JSON.stringify({
    items: Array.from({ length: 10 }, (_, i) => ({ id: `item-${item + i}`, track: { name: 'x'.repeat(60) } })),
  });
const KEEP_ALL = 1_000_000;

/** A response and the URL that answered it; a bare body is answered where that content always is. */
type Answer = string | null | { url: string; body: string | null };

/** A log whose bodies go with their last row (`bodyUseAhead` 0), unless told otherwise. */
function storeWithLog(bodyUseAhead = 0) {
  const store = openStore({ dataDir: null }, Date.now(), new TrafficLogFile());
  const traffic = new TrafficLog(store.db, { bodyUseAhead });
  const bodies = () => store.db.prepare('SELECT body FROM traffic_bodies ORDER BY id').pluck().all() as string[];
  // Like a player asking for the same windows again: the same content comes from the same URL.
  const urls = new Map<string | null, string>();
  const urlOf = (body: string | null) =>
    urls.get(body) ?? urls.set(body, `http://127.0.0.1:9003/queues/q/v2.3/itemWindow?n=${urls.size}`).get(body)!;
  const append = (answers: Answer[], keep = KEEP_ALL) =>
    traffic.append(
      answers.map((answer, i) =>
        typeof answer === 'object' && answer !== null
          ? testTrafficEntry({ url: answer.url, responseBody: answer.body, path: `/w/${i}` })
          : testTrafficEntry({ url: urlOf(answer), responseBody: answer, path: `/w/${i}` }),
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

  it('stores a body once when a URL answers it again, and shares it with any URL that answers the same', () => {
    const { close, bodies, append, readBack } = storeWithLog();
    const url = 'http://127.0.0.1:9003/queues/q/v2.3/itemWindow?reason=refresh';
    const other = `${url}&other`;
    const a = windowBody(1);
    append([{ url, body: a }]);
    // A short or missing body from the same URL is kept in its entry and does not displace it.
    append([
      { url, body: 'short' },
      { url, body: null },
    ]);
    // Equal copies (which copy is remembered is not observable in JS; what is stored is), from
    // this URL or another, and the very same string (a server that caches its answers).
    const fresh = windowBody(1);
    append([{ url, body: fresh }]);
    append([{ url: other, body: fresh }]);
    append([{ url: other, body: windowBody(1) }]);
    // A body of the same length but another content is stored, and the first one is still found.
    const edited = a.replace('item-5', 'item-9');
    append([{ url: other, body: edited }]);
    append([{ url, body: windowBody(1) }]);
    expect(bodies()).toEqual([a, edited]);
    expect(readBack()).toEqual([a, 'short', null, a, a, a, edited, a]);
    close();
  });

  it('stores the new answer of a URL whose answer changed, and the old one stays with its rows', () => {
    const { close, bodies, append, readBack } = storeWithLog();
    const url = 'http://127.0.0.1:9003/queues/q/v2.3/itemWindow?itemId=item-1';
    const before = windowBody(1);
    // The queue was edited: same length, one digit apart.
    const after = before.replace('item-5', 'item-9');
    append([
      { url, body: before },
      { url, body: after },
      { url, body: after },
    ]);
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

  it('writes entries captured and not yet written before it lowers the cap, keeping the body they share', () => {
    const { store, close, append, readBack } = storeWithLog();
    const a = windowBody(1);
    append([a]);
    store.traffic.capture(
      testTrafficEntry({ url: `http://127.0.0.1:9003/queues/q/v2.3/itemWindow?n=0`, responseBody: a }),
    );
    expect(store.traffic.retain(1)).toBe(1);
    expect(store.traffic.page({}, 0, 10).rows.map((row) => row.id)).toEqual([2]);
    expect(readBack()).toEqual([a]);
    close();
  });

  it('after a cap change that failed with entries captured, a later entry with the same body still reads it', () => {
    const { store, close, readBack } = storeWithLog();
    const a = windowBody(1);
    const url = 'http://127.0.0.1:9003/queues/q/v2.3/itemWindow?n=0';
    store.traffic.capture(testTrafficEntry({ url, responseBody: a }));
    store.db.exec(
      "CREATE TEMP TRIGGER disk_full BEFORE UPDATE ON log.traffic_state BEGIN SELECT RAISE(ABORT, 'disk full'); END",
    );
    expect(() => store.traffic.retain(100)).toThrow(/disk full/);
    store.db.exec('DROP TRIGGER disk_full');
    store.traffic.capture(testTrafficEntry({ url, responseBody: a }));
    store.traffic.commit(KEEP_ALL, false);
    expect(readBack()).toEqual([a]);
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

  it('keeps nothing of a segment that failed, gives its ids again, and finds no body of it afterwards', () => {
    const { store, close, bodies, append, readBack } = storeWithLog();
    const a = windowBody(1);
    store.db.exec(
      "CREATE TEMP TRIGGER disk_full BEFORE INSERT ON log.traffic_segments BEGIN SELECT RAISE(ABORT, 'disk full'); END",
    );
    expect(() => append([a, windowBody(2)])).toThrow(/disk full/);
    expect(bodies()).toEqual([]);
    expect(store.traffic.page({}, 0, 10).total).toBe(0);
    store.db.exec('DROP TRIGGER disk_full');
    // The body the failed segment brought was rolled back with it: it is stored again, not pointed at.
    expect(append([a]).stored.map((s) => s.id)).toEqual([1]);
    expect(readBack()).toEqual([a]);
    expect(bodies()).toEqual([a]);
    close();
  });
});

describe('the traffic log in segments', () => {
  it('reads back what capture handed over, strings of any kind and nulls alike', () => {
    const { store, close } = storeWithLog();
    const odd = 'caf\u00e9 \u{1f3b5} \u0000 tab\there "quoted" \\ back';
    const given = [
      testTrafficEntry({
        url: `http://127.0.0.1:9003/w?q=${odd}`,
        path: `/w/${odd}`,
        reason: odd,
        playerId: odd,
        requestId: odd,
        requestBody: odd,
        responseBody: odd,
        requestHeaders: `x-odd: ${odd}\r\n`,
      }),
      testTrafficEntry({
        method: 'POST',
        status: null,
        latencyMs: null,
        retry: 2,
        outcome: 'dropped',
        requestBody: '',
        responseBody: '',
        fault: { ruleId: 'f1', action: 'drop' },
      }),
      testTrafficEntry({
        target: 'player',
        outcome: 'timeout',
        at: 1.5e12,
        wallAt: 1.7e12,
        responseBody: 'lone \ud800 surrogate',
      }),
    ];
    const { stored } = store.traffic.append(given, KEEP_ALL);
    const read = stored.map((s) => store.traffic.get(s.id)!);
    expect(read[0]).toMatchObject({
      url: given[0]!.url,
      path: given[0]!.path,
      reason: odd,
      playerId: odd,
      requestId: odd,
      requestBody: odd,
      responseBody: odd,
      requestHeaders: { 'x-odd': odd.trim() },
    });
    expect(read[1]).toMatchObject({
      method: 'POST',
      status: null,
      latencyMs: null,
      retry: 2,
      outcome: 'dropped',
      requestBody: '',
      responseBody: '',
      fault: { ruleId: 'f1', action: 'drop' },
    });
    // UTF-8 has no lone surrogate: it comes back as U+FFFD, as SQLite's text did.
    expect(read[2]).toMatchObject({
      target: 'player',
      outcome: 'timeout',
      at: 1.5e12,
      wallAt: 1.7e12,
      responseBody: 'lone \ufffd surrogate',
    });
    // The summaries a write hands on are the entries as read back.
    const summaryKeys = Object.keys(stored[0]!) as (keyof TrafficSummary)[];
    expect(read.map((entry) => Object.fromEntries(summaryKeys.map((key) => [key, entry[key]])))).toEqual(stored);
    close();
  });

  it('finds every entry again when the log is opened anew, and gives the next ids after them', () => {
    const { store, close, append } = storeWithLog();
    append(['a', 'b']);
    store.traffic.append([testTrafficEntry({ target: 'player', reason: 'load', status: 503 })], KEEP_ALL);
    const reopened = new TrafficLog(store.db);
    expect(reopened.page({}, 0, 10)).toEqual(store.traffic.page({}, 0, 10));
    expect(reopened.page({ status: '5xx', reason: 'load', target: 'player' }, 0, 10).rows.map((r) => r.id)).toEqual([
      3,
    ]);
    expect(reopened.append([testTrafficEntry()], KEEP_ALL).stored[0]!.id).toBe(4);
    close();
  });

  it('reads more segments than one page of them, on opening and in a search', () => {
    const { store, close } = storeWithLog();
    const segments = SEGMENTS_PER_READ * 2 + 3;
    for (let i = 0; i < segments; i++)
      store.traffic.append([testTrafficEntry({ url: `http://127.0.0.1/s${i}/` })], KEEP_ALL);
    const reopened = new TrafficLog(store.db);
    expect(reopened.page({}, 0, 1).total).toBe(segments);
    expect(reopened.page({ text: '/s' }, 0, segments).rows.map((r) => r.id)).toEqual(
      Array.from({ length: segments }, (_, i) => i + 1),
    );
    expect(reopened.page({ text: `/s${segments - 1}/` }, 0, 10).rows.map((r) => r.id)).toEqual([segments]);
    close();
  });

  it('hides the trimmed entries of a segment it cannot delete yet, for good', () => {
    const { store, close, append } = storeWithLog();
    append(Array.from({ length: 10 }, (_, i) => `r${i}`));
    expect(store.traffic.retain(4)).toBe(6);
    const kept = store.traffic.page({}, 0, 100).rows.map((r) => r.id);
    expect(kept).toEqual([7, 8, 9, 10]);
    expect(store.traffic.get(6)).toBeUndefined();
    expect(store.traffic.locate({}, 6)).toBeNull();
    expect(store.traffic.page({ text: 'r5' }, 0, 10).total).toBe(0);
    // Still hidden once the log is opened anew, and when the cap is raised.
    const reopened = new TrafficLog(store.db);
    expect(reopened.page({}, 0, 100).rows.map((r) => r.id)).toEqual(kept);
    expect(reopened.append([testTrafficEntry()], KEEP_ALL).dropped).toBe(0);
    expect(reopened.page({}, 0, 100).total).toBe(5);
    // The segment goes once none of its entries is kept.
    reopened.retain(1);
    expect(store.db.prepare('SELECT first_id, last_id FROM log.traffic_segments').all()).toEqual([
      { first_id: 11, last_id: 11 },
    ]);
    close();
  });

  it('filters by status (exact, class or none), request id and reason, past the reasons it interns', () => {
    const { store, close } = storeWithLog();
    store.traffic.append(
      [200, 204, 404, 503, null].map((status) => testTrafficEntry({ status })),
      KEEP_ALL,
    );
    const ids = (filter: Parameters<typeof store.traffic.page>[0]) =>
      store.traffic.page(filter, 0, 100).rows.map((r) => r.id);
    expect(ids({ status: '2XX' })).toEqual([1, 2]);
    expect(ids({ status: '404' })).toEqual([3]);
    expect(ids({ status: 'none' })).toEqual([5]);
    // As the list says an entry with no answer (outsider: the filter refused the word it shows).
    expect(ids({ status: 'incomplete' })).toEqual([5]);
    expect(ids({ status: 'INCOMPLETE' })).toEqual([5]);

    // 'costarring' and 'liquid' have the same FNV-1a hash: the index finds both, the stored id tells them apart.
    store.traffic.append(
      ['costarring', 'liquid', null].map((requestId) => testTrafficEntry({ requestId })),
      KEEP_ALL,
    );
    expect(ids({ requestId: 'liquid' })).toEqual([7]);
    expect(ids({ requestId: 'costarring' })).toEqual([6]);
    expect(ids({ requestId: 'other' })).toEqual([]);

    // More distinct reasons than the index interns: the later ones are found by their stored text.
    // A filter's unencoded `+` arrives as a space, and is read as written.
    store.traffic.append(
      Array.from({ length: 4_200 }, (_, i) => testTrafficEntry({ reason: `reason+${i}` })),
      KEEP_ALL,
    );
    expect(ids({ reason: 'reason+7' })).toEqual([9 + 7]);
    expect(ids({ reason: 'reason 7' })).toEqual([9 + 7]);
    expect(ids({ reason: 'reason+4199' })).toEqual([9 + 4_199]);
    expect(ids({ reason: 'reason 4199' })).toEqual([9 + 4_199]);
    expect(ids({ reason: 'no such reason' })).toEqual([]);
    close();
  });

  it('searches URLs and bodies in any case and literally, and keeps a search up to date as entries come and go', () => {
    const { store, close } = storeWithLog();
    const shared = windowBody(1).replace('item-1"', 'Item-ONE"');
    store.traffic.append(
      [
        testTrafficEntry({ url: 'http://127.0.0.1:9003/w?itemId=ABC' }),
        testTrafficEntry({ requestBody: '{"positionMillis":100_%}' }),
        testTrafficEntry({ responseBody: shared }),
        testTrafficEntry({ requestHeaders: 'x-abc: abc\r\n' }),
      ],
      KEEP_ALL,
    );
    const ids = (text: string) => store.traffic.page({ text }, 0, 100).rows.map((r) => r.id);
    expect(ids('itemid=abc')).toEqual([1]);
    expect(ids('100_%')).toEqual([2]);
    expect(ids('0_%}')).toEqual([2]);
    expect(ids('1%')).toEqual([]);
    expect(ids('item-one')).toEqual([3]);
    // Headers are not searched.
    expect(ids('x-abc')).toEqual([]);

    store.traffic.append(
      [testTrafficEntry({ url: 'http://127.0.0.1:9003/w?itemId=abc' }), testTrafficEntry({ responseBody: shared })],
      KEEP_ALL,
    );
    expect(ids('ITEMID=ABC')).toEqual([1, 5]);
    expect(ids('item-one')).toEqual([3, 6]);
    expect(store.traffic.locate({ text: 'item-one' }, 6)).toBe(1);
    store.traffic.retain(2);
    expect(ids('itemid=abc')).toEqual([5]);
    expect(store.traffic.page({ text: 'item-one' }, 0, 100)).toEqual({
      total: 1,
      rows: [expect.objectContaining({ id: 6 })],
    });
    store.traffic.clear();
    expect(ids('itemid=abc')).toEqual([]);
    close();
  });

  it('reads entries after an id or from an engine time, and the newest of a set', () => {
    const { store, close } = storeWithLog();
    store.traffic.append(
      [5, 1, 7, 3].map((at) => testTrafficEntry({ at, target: at > 4 ? 'player' : 'cloudQueue' })),
      KEEP_ALL,
    );
    const ats = (entries: { at: number }[]) => entries.map((e) => e.at);
    expect(ats(store.traffic.entries({}, { afterId: 2 }, 10))).toEqual([7, 3]);
    expect(ats(store.traffic.entries({}, { fromAt: 4 }, 10))).toEqual([5, 7]);
    expect(ats(store.traffic.entries({ target: 'cloudQueue' }, { fromAt: 2 }, 10))).toEqual([3]);
    expect(ats(store.traffic.entries({}, undefined, 2))).toEqual([5, 1]);
    expect(ats(store.traffic.latest({ target: 'player' }, 1))).toEqual([7]);
    expect(store.traffic.locate({ target: 'player' }, 3)).toBe(1);
    expect(store.traffic.locate({ target: 'player' }, 2)).toBeNull();
    close();
  });
});
