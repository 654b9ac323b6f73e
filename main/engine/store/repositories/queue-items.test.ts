/** An item's window in one statement: where it starts, how far it goes, and what it says of the queue's ends. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store.js';
import type { JoinedWindow } from './queue-items.js';

describe('the window around an item, joined by SQLite', () => {
  let store: Store;
  beforeEach(() => {
    store = openStore({ dataDir: null });
    // The rows alone: no queue records for them to belong to.
    store.db.pragma('foreign_keys = OFF');
    const items = store.queueItems;
    // Two queues side by side, labels sparse and not in id order: 10 items in queue 1 (item-10
    // placed first), the other's rows never read. Queue 3 stays empty.
    items.insert(1, 500, 'item-10', '{"n":10}');
    for (let n = 1; n <= 9; n++) items.insert(1, n * 1_000, `item-${n}`, `{"n":${n}}`);
    for (let n = 1; n <= 5; n++) items.insert(2, n * 1_000, `item-${n}`, `{"other":${n}}`);
  });
  afterEach(() => store.close());

  /** Queue 1 in play order: item-10, then item-1 … item-9. */
  const order = [10, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  /** The versions the body names (a queue record's head gives them). */
  const versions = { contextVersion: 3, queueVersion: 17 };
  const joined = (atBeginning: boolean, atEnd: boolean, ids: string[], items: string[]): JoinedWindow => [
    atBeginning ? 1 : 0,
    atEnd ? 1 : 0,
    ids.join(','),
    Buffer.from(
      `{"includesBeginningOfQueue":${atBeginning},"includesEndOfQueue":${atEnd},"contextVersion":"3","queueVersion":"17","items":[${items.join(',')}]}`,
    ),
  ];
  const expected = (at: number, previous: number, upcoming: number): JoinedWindow => {
    const first = Math.max(0, at - previous);
    const last = Math.min(order.length - 1, at + upcoming);
    const seqs = order.slice(first, last + 1);
    return joined(
      first === 0,
      last === order.length - 1,
      seqs.map((n) => `item-${n}`),
      seqs.map((n) => `{"n":${n}}`),
    );
  };

  it('holds the sides asked for, in play order, and says which ends it reaches', () => {
    const items = store.queueItems;
    for (let at = 0; at < order.length; at++)
      for (const previous of [0, 1, 2, 3, 9, 10, 40])
        for (const upcoming of [0, 1, 2, 8, 9, 40])
          expect(items.window(1, `item-${order[at]}`, previous, upcoming, versions)).toEqual(
            expected(at, previous, upcoming),
          );
  });

  it('starts at the queue first item without an id, and has nothing for an empty queue', () => {
    const items = store.queueItems;
    for (const upcoming of [0, 1, 9, 10])
      expect(items.window(1, null, 3, upcoming, versions)).toEqual(expected(0, 3, upcoming));
    expect(items.window(2, null, 0, 0, versions)).toEqual(joined(true, false, ['item-1'], ['{"other":1}']));
    expect(items.window(3, null, 5, 10, versions)).toBeUndefined();
  });

  it('has nothing for an id the queue does not hold, or one this server never hands out', () => {
    const items = store.queueItems;
    expect(items.window(1, 'item-11', 2, 2, versions)).toBeUndefined();
    expect(items.window(3, 'item-1', 2, 2, versions)).toBeUndefined();
    for (const bogus of ['bogus', 'item-01', 'item-0', ''] as const)
      expect(items.window(1, bogus, 2, 2, versions)).toBeUndefined();
  });

  it('reads only along indexes: no scan of the queue, no sort', () => {
    // The statement is prepared on first use; its plan is what keeps a window O(window + log n).
    for (const itemId of ['item-5', null]) {
      store.queueItems.window(1, itemId, 5, 10, versions);
      const sql = (store.queueItems as unknown as { windowStmts: Map<number, { source: string }> }).windowStmts;
      for (const statement of sql.values()) {
        const plan = store.db
          .prepare(`EXPLAIN QUERY PLAN ${statement.source}`)
          .all(...Array(statement.source.split('?').length - 1).fill(1)) as { detail: string }[];
        const details = plan.map((row) => row.detail);
        expect(details.filter((d) => /^SCAN queue_items|TEMP B-TREE/.test(d))).toEqual([]);
        expect(details.some((d) => d.startsWith('SEARCH'))).toBe(true);
      }
    }
  });
});
