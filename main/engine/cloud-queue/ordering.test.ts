import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { GAP, LIMIT, labelsBetween, spread } from './positions.js';
import { applyEdit, modelFixture, tracks, type ModelFixture } from './testing.js';

let fixture: ModelFixture | null = null;
afterEach(() => fixture?.store.close());

/** Ids in queue order, and the labels they sit on. */
function order(f: ModelFixture, queueId: string): { ids: string[]; labels: number[] } {
  const key = f.store.queues.head(queueId)!.key;
  const rows = f.store.queueItems.page(key, 0, 1_000_000);
  return { ids: rows.map((r) => r.item_id), labels: rows.map((r) => r.pos) };
}

describe('labels (positions.ts)', () => {
  it('spreads n distinct labels strictly inside any gap that has room', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), fc.integer({ min: 1, max: 300 }), fc.integer({ min: 0, max: 2 ** 30 }), (lo, n, extra) => {
        const hi = lo + n + 1 + extra;
        const labels = spread(lo, hi, n);
        expect(labels).toHaveLength(n);
        labels.forEach((label, i) => {
          expect(Number.isSafeInteger(label)).toBe(true);
          expect(label).toBeGreaterThan(i === 0 ? lo : labels[i - 1]!);
        });
        expect(labels.at(-1)!).toBeLessThan(hi);
      }),
    );
  });

  it('answers null when a gap is too narrow, and opens up at either end', () => {
    expect(labelsBetween(10, 12, 2)).toBeNull();
    expect(labelsBetween(10, 13, 2)).toEqual([11, 12]);
    expect(labelsBetween(null, null, 2)).toEqual([GAP, 2 * GAP]);
    expect(labelsBetween(null, 0, 2)).toEqual([-2 * GAP, -GAP]);
    expect(labelsBetween(5, null, 1)).toEqual([5 + GAP]);
    expect(labelsBetween(LIMIT - 1, null, 1)).toBeNull();
  });
});

describe('inserting into the order (ordering.ts)', () => {
  it('keeps order when 500 items go one by one right after the same item (forcing local rebalances)', () => {
    fixture = modelFixture();
    const q = fixture.model.create({ items: tracks(50) });
    const expected = order(fixture, q.id).ids;
    for (let i = 0; i < 500; i++) {
      const { itemIds } = fixture.model.addItems(q.id, tracks(1), 'item-10');
      expected.splice(10, 0, itemIds![0]!);
    }
    const { ids, labels } = order(fixture, q.id);
    expect(ids).toEqual(expected);
    for (let i = 1; i < labels.length; i++) expect(labels[i]!).toBeGreaterThan(labels[i - 1]!);
  });

  it('touches only a small stretch when it rebalances (the rest of a large queue keeps its labels)', () => {
    fixture = modelFixture();
    const q = fixture.model.create({ items: tracks(10_000) });
    const before = order(fixture, q.id).labels;
    // 40 inserts at one spot exhaust the 2^24 gap there more than once.
    for (let i = 0; i < 40; i++) fixture.model.addItems(q.id, tracks(1), 'item-5000');
    const after = order(fixture, q.id);
    const moved = before.filter((label, i) => after.labels[i < 5000 ? i : i + 40] !== label).length;
    expect(moved).toBeLessThan(64);
  });

  it('keeps order and distinct labels under any sequence of inserts, moves and removals', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        fc.array(
          fc.record({
            kind: fc.constantFrom('add', 'addSame', 'move', 'remove'),
            at: fc.nat(),
            count: fc.integer({ min: 1, max: 6 }),
            spot: fc.constantFrom<'after' | 'start' | 'end'>('after', 'after', 'start', 'end'),
          }),
          { maxLength: 40 },
        ),
        (initial, edits) => {
          const f = modelFixture();
          try {
            const q = f.model.create({ items: tracks(initial) });
            const expected = order(f, q.id).ids;
            for (const edit of edits) applyEdit(f, q.id, expected, edit);
            const { ids, labels } = order(f, q.id);
            expect(ids).toEqual(expected);
            expect(new Set(labels).size).toBe(labels.length);
            expect(f.store.queues.head(q.id)!.itemCount).toBe(expected.length);
          } finally {
            f.store.close();
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
