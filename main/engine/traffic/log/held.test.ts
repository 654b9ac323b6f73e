/**
 * What capture masked, held in memory only (docs/contract/console.md §9): put back on every read
 * while held, let go with the entries trimming drops and past its bounds, and never in the file;
 * an entry whose secrets are gone says so. Segments written before capture masked still read.
 */
import { describe, expect, it } from 'vitest';
import { openStore } from '../../store/store.js';
import { testTrafficEntry } from '../../testing/traffic.js';
import { SegmentDetails } from './codec.js';
import { TrafficLogFile } from './file.js';
import { HeldSecrets } from './held.js';
import { TrafficLog } from './log.js';

function storeWithLog() {
  const store = openStore({ dataDir: null }, Date.now(), new TrafficLogFile());
  return { store, traffic: new TrafficLog(store.db) };
}

/** An entry as capture hands it over once it masked a bearer token and a JSON field. */
const maskedEntry = (n: number) =>
  testTrafficEntry({
    requestHeaders: 'Authorization: Bearer abcd•••\r\n',
    responseBody: '{"accessToken":"tok-•••"}',
    masked: true,
    held: {
      requestHeaders: { authorization: `Bearer abcdefgh-${n}` },
      responseBody: [{ at: 16, length: 7, original: `tok-secret-${n}` }],
    },
  });

describe('secrets held in memory', () => {
  it('are put back on reads while held, and are never written', () => {
    const { store, traffic } = storeWithLog();
    const [stored] = traffic.append([maskedEntry(1)], 100).stored;
    const entry = traffic.get(stored!.id, true)!;
    expect(entry.requestHeaders.authorization).toBe('Bearer abcdefgh-1');
    expect(entry.responseBody).toBe('{"accessToken":"tok-secret-1"}');
    expect(entry.secretsMasked).toBe(false);
    // Read without reveal, the entry is as stored: a secret found by value stays masked too.
    const masked = traffic.get(stored!.id)!;
    expect(JSON.stringify(masked)).not.toMatch(/abcdefgh|tok-secret/);
    expect(masked.secretsMasked).toBe(false);
    const blobs = store.db.prepare('SELECT summary, detail FROM traffic_segments').all() as {
      summary: Buffer;
      detail: Buffer;
    }[];
    for (const { summary, detail } of blobs)
      expect(Buffer.concat([summary, detail]).toString('utf8')).not.toMatch(/abcdefgh|tok-secret/);
    store.close();
  });

  it('are let go with the entries trimming drops, and a log opened anew holds none: its entries say they stay masked', () => {
    const { store, traffic } = storeWithLog();
    traffic.append([maskedEntry(1), maskedEntry(2)], 100);
    traffic.append([maskedEntry(3)], 1);
    expect(traffic.get(3, true)!.requestHeaders.authorization).toBe('Bearer abcdefgh-3');
    const reopened = new TrafficLog(store.db);
    expect(reopened.get(3, true)).toMatchObject({
      requestHeaders: { authorization: 'Bearer abcd•••' },
      secretsMasked: true,
    });
    // An entry capture masked nothing in has nothing to miss.
    reopened.append([testTrafficEntry()], 100);
    expect(reopened.get(4)!.secretsMasked).toBe(false);
    store.close();
  });

  it('are held for the newest entries only, up to a count and a size', () => {
    const held = new HeldSecrets(2, 100);
    held.hold(1, { requestHeaders: { authorization: 'a' } });
    held.hold(2, { requestHeaders: { authorization: 'b' } });
    held.hold(3, { requestHeaders: { authorization: 'c' } });
    expect([held.get(1), held.get(2)?.requestHeaders, held.size]).toEqual([undefined, { authorization: 'b' }, 2]);
    held.hold(4, { requestBody: [{ at: 0, length: 3, original: 'x'.repeat(90) }] });
    expect([held.get(3), held.size]).toEqual([undefined, 1]);
    // One larger than the whole allowance is not held, and pushes nothing out.
    held.hold(5, { requestBody: [{ at: 0, length: 3, original: 'x'.repeat(101) }] });
    expect([held.get(5), held.size]).toEqual([undefined, 1]);
    held.dropThrough(4);
    expect(held.size).toBe(0);
  });

  it('keeps its order through many thousands of entries let go, by count and by trimming', () => {
    const held = new HeldSecrets(100, 1_000_000);
    for (let id = 1; id <= 5_000; id++) held.hold(id, { requestHeaders: { authorization: `t${id}` } });
    expect([held.size, held.get(4_900), held.get(4_901)?.requestHeaders]).toEqual([
      100,
      undefined,
      { authorization: 't4901' },
    ]);
    held.dropThrough(4_950);
    expect([held.size, held.get(4_950), held.get(4_951)?.requestHeaders]).toEqual([
      50,
      undefined,
      { authorization: 't4951' },
    ]);
    held.hold(5_001, { requestHeaders: { authorization: 't5001' } });
    expect(held.size).toBe(51);
  });

  it('finds each held entry across the wrap of its ring, with ids that skip entries holding nothing', () => {
    const held = new HeldSecrets(7, 1_000);
    const parts = (id: number) => ({ requestHeaders: { authorization: `t${id}` } });
    // Every third id holds nothing; 40 holds wrap the ring of 7 slots several times.
    const ids = Array.from({ length: 60 }, (_, i) => i + 1).filter((id) => id % 3 !== 0);
    for (const id of ids) {
      held.hold(id, parts(id));
      const newest = ids.slice(0, ids.indexOf(id) + 1).slice(-7);
      for (const each of ids.slice(0, ids.indexOf(id) + 1))
        expect(held.get(each)).toEqual(newest.includes(each) ? parts(each) : undefined);
      expect(held.get(id + 1)).toBeUndefined();
    }
    // By size: the oldest go until the newest fit, however many slots are free.
    held.hold(100, { requestBody: [{ at: 0, length: 1, original: 'x'.repeat(990) }] });
    expect([held.size, held.get(59), held.get(100)?.requestBody?.[0]?.original.length]).toEqual([1, undefined, 990]);
    held.clear();
    expect([held.size, held.get(100)]).toEqual([0, undefined]);
    held.hold(101, parts(101));
    expect([held.size, held.get(101)]).toEqual([1, parts(101)]);
  });

  it('notes nothing of segments written before capture masked (format 1), which still read', () => {
    const parts = ['http://x/a', 'Host: x\r\n', null, 'HTTP/1.1 200 OK\r\n', 'ok'];
    const lengths = new Uint32Array([1, 1, ...parts.map((part) => (part === null ? 0xffff_ffff : part.length))]);
    const blob = Buffer.concat([Buffer.from(lengths.buffer), Buffer.from(parts.join(''), 'utf8')]);
    const details = new SegmentDetails(blob);
    expect(details.detail(0)).toEqual({
      url: 'http://x/a',
      requestHeaders: 'Host: x\r\n',
      requestBody: null,
      responseHeaders: 'HTTP/1.1 200 OK\r\n',
      responseBody: 'ok',
    });
    expect(details.notes(0)).toBeNull();
  });
});
