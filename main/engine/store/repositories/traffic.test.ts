import { describe, expect, it } from 'vitest';
import { trafficEntry } from '../../testing/traffic.js';
import { openStore } from '../store.js';
import { sharedBodies } from './traffic.js';

/** A window-sized body, different per item. */
const windowBody = (item: number) => JSON.stringify({ items: Array.from({ length: 10 }, (_, i) => ({ id: `item-${item + i}`, track: { name: 'x'.repeat(60) } })) });

describe('the traffic log stores a response body a batch repeats once', () => {
  it('points each copy at the last entry of the batch with the same body', () => {
    const a = windowBody(1);
    const b = windowBody(2);
    const entries = [a, b, a, 'short', 'short', a, null].map((responseBody) => trafficEntry({ responseBody }));
    // Equal in length and tail is not enough: the bodies are compared in full.
    const twin = `${'y'.repeat(a.length - 64)}${a.slice(-64)}`;
    entries.push(trafficEntry({ responseBody: twin }));
    expect(sharedBodies(entries)).toEqual([5, undefined, 3, undefined, undefined, undefined, undefined, undefined]);
  });

  it('reads, searches and exports every copy, also after the oldest rows are trimmed', () => {
    const store = openStore({ dataDir: null });
    const a = windowBody(1);
    const b = windowBody(100);
    const stored = store.traffic.addAll([a, b, a, b, a].map((responseBody, i) => trafficEntry({ responseBody, path: `/w/${i}` })));
    const rows = store.db.prepare('SELECT response_body IS NOT NULL AS held FROM traffic ORDER BY id').all() as { held: number }[];
    expect(rows.map((r) => r.held)).toEqual([0, 0, 0, 1, 1]);

    expect(stored.map((s) => store.traffic.get(s.id)!.responseBody)).toEqual([a, b, a, b, a]);
    expect(store.traffic.entries({}, undefined, 10).map((e) => e.responseBody)).toEqual([a, b, a, b, a]);
    expect(store.traffic.latest({}, 2).map((e) => e.responseBody)).toEqual([b, a]);
    expect(store.traffic.page({ text: 'item-100' }, 0, 10).rows.map((r) => r.path)).toEqual(['/w/1', '/w/3']);

    expect(store.traffic.retain(2)).toBe(3);
    expect(store.traffic.entries({}, undefined, 10).map((e) => e.responseBody)).toEqual([b, a]);
    store.close();
  });
});
