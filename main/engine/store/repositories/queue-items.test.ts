/** An item's window in one range read: where it starts, how far it goes, and what it says of the queue's ends. */
import { describe, expect, it } from 'vitest';
import { openStore } from '../store.js';

describe('the rows around an item', () => {
  it('start one row before the window (or at the first item) and end one row past it, with the item in its place', () => {
    const store = openStore({ dataDir: null });
    try {
      const items = store.queueItems;
      // The rows alone: no queue records for them to belong to.
      store.db.pragma('foreign_keys = OFF');
      // Two queues side by side, labels sparse: 10 items in queue 1, the other's rows never read.
      for (let n = 1; n <= 10; n++) items.insert(1, n * 1_000, `item-${n}`, `{"n":${n}}`);
      for (let n = 1; n <= 5; n++) items.insert(2, n * 1_000, `item-${n}`, `{"other":${n}}`);
      const ids = (found: ReturnType<typeof items.around>) => found && found.rows.map((row) => row[1]);
      // Room on both sides: the row before the window and the row after it come too.
      expect(ids(items.around(1, 'item-5', 2, 2))).toEqual([2, 3, 4, 5, 6, 7, 8]);
      expect(items.around(1, 'item-5', 2, 2)!.anchor).toBe(3);
      // Fewer before it than asked: from the first item, as many rows as a full window reads.
      expect(items.around(1, 'item-2', 3, 1)).toMatchObject({ anchor: 1 });
      expect(ids(items.around(1, 'item-2', 3, 1))).toEqual([1, 2, 3, 4, 5, 6, 7]);
      // Near the end: as many as there are.
      expect(ids(items.around(1, 'item-9', 0, 5))).toEqual([8, 9, 10]);
      expect(items.around(1, 'item-11', 2, 2)).toBeNull();
      expect(items.around(1, 'bogus', 2, 2)).toBeNull();
      expect(items.around(2, 'item-1', 0, 0)!.rows.map((row) => row[2])).toEqual([
        '{"other":1}',
        '{"other":2}',
        '{"other":3}',
      ]);
    } finally {
      store.close();
    }
  });
});
