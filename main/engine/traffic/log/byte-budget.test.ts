/**
 * The log's byte budget beside its entry cap (docs/contract/console.md §9): the oldest segments go
 * whole once the stored ones pass it, the newest always stays, and the sizes are found again when
 * the log is opened anew.
 */
import { describe, expect, it } from 'vitest';
import { openStore } from '../../store/store.js';
import { testTrafficEntry } from '../../testing/traffic.js';
import { TrafficLogFile } from './file.js';
import { TrafficLog } from './log.js';
import { SegmentSizes } from './segment-sizes.js';

const KEEP_ALL = 1_000_000;
/** A segment of `entries` entries, each with a 10 kB request body of its own (request bodies are never shared). */
const segment = (entries: number, tag: string) =>
  Array.from({ length: entries }, (_, i) => testTrafficEntry({ requestBody: `${tag}-${i}-`.padEnd(10_000, 'x') }));

describe('the byte budget', () => {
  it('drops the oldest segments whole once the stored log passes it, whatever the entry cap', () => {
    const store = openStore({ dataDir: null }, Date.now(), new TrafficLogFile());
    const traffic = new TrafficLog(store.db);
    traffic.byteBudget = 350_000;
    for (let k = 0; k < 10; k++) traffic.append(segment(10, `s${k}`), KEEP_ALL);
    expect(traffic.storedBytes).toBeLessThanOrEqual(350_000);
    const firstIds = store.db
      .prepare('SELECT first_id FROM traffic_segments ORDER BY first_id')
      .pluck()
      .all() as number[];
    // About 100 kB a segment: the newest three fit.
    expect(firstIds).toEqual([71, 81, 91]);
    expect(traffic.page({}, 0, 1000).rows.map((row) => row.id)).toEqual(Array.from({ length: 30 }, (_, i) => 71 + i));
    const stored = store.db.prepare('SELECT SUM(length(summary) + length(detail)) FROM traffic_segments').pluck().get();
    expect(traffic.storedBytes).toBe(stored);
    // Opened anew, the log knows its size, and a lower budget set later trims at once.
    const reopened = new TrafficLog(store.db);
    expect(reopened.storedBytes).toBe(stored);
    reopened.byteBudget = 150_000;
    expect(reopened.retain(KEEP_ALL)).toBe(20);
    expect(reopened.page({}, 0, 1000).total).toBe(10);
    store.close();
  });

  it('keeps the newest segment, however large', () => {
    const sizes = new SegmentSizes();
    sizes.add(10, 500);
    sizes.add(20, 500);
    expect(sizes.edgeFor(1_000, 0)).toBe(0);
    expect(sizes.edgeFor(100, 0)).toBe(10);
    expect(sizes.edgeFor(100, 5_000)).toBe(20);
    sizes.dropThrough(10);
    expect(sizes.total).toBe(500);
    expect(sizes.edgeFor(100, 0)).toBe(0);
  });
});
