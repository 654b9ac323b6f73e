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
      fc.property(
        fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 0, max: 2 ** 30 }),
        (lo, n, extra) => {
          const hi = lo + n + 1 + extra;
          const labels = spread(lo, hi, n);
          expect(labels).toHaveLength(n);
          labels.forEach((label, i) => {
            expect(Number.isSafeInteger(label)).toBe(true);
            expect(label).toBeGreaterThan(i === 0 ? lo : labels[i - 1]!);
          });
          expect(labels.at(-1)!).toBeLessThan(hi);
        },
      ),
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
    // The ids alone, in the same order, without reading the items.
    expect(fixture.model.itemIds(q.id)).toEqual(expected);
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

  /** Adds `total` items after `after` in steps of `step`, each following the last, with the rest as its room. */
  function stepped(
    f: ModelFixture,
    queueId: string,
    after: string | null,
    total: number,
    step: number,
    room = true,
  ): string[] {
    const made: string[] = [];
    let anchor = after;
    for (let done = 0; done < total; done += step) {
      const { itemIds } = f.model.addItems(queueId, tracks(step), anchor, room ? total - done : undefined);
      made.push(...itemIds!);
      anchor = made.at(-1)!;
    }
    return made;
  }

  const labelOf = (f: ModelFixture, queueId: string) => {
    const { ids, labels } = order(f, queueId);
    return new Map(ids.map((id, i) => [id, labels[i]!]));
  };

  it('spreads a stepped run over its gap once when each step plans the room still to come', () => {
    for (const planned of [true, false]) {
      fixture = modelFixture();
      const q = fixture.model.create({ items: tracks(10) });
      const before = labelOf(fixture, q.id);
      const made = stepped(fixture, q.id, 'item-5', 10_000, 250, planned);
      const { ids, labels } = order(fixture, q.id);
      const expected = [...before.keys()];
      expected.splice(5, 0, ...made);
      expect(ids).toEqual(expected);
      for (let i = 1; i < labels.length; i++) expect(labels[i]!).toBeGreaterThan(labels[i - 1]!);
      const after = labelOf(fixture, q.id);
      const relabelled = [...before].filter(([id, label]) => after.get(id) !== label).length;
      // Planned: nobody else moved. Squeezed: each step left the next ~1/250 of its gap, so the
      // steps soon relabelled their neighbours.
      if (planned) expect(relabelled).toBe(0);
      else expect(relabelled).toBeGreaterThan(0);
      fixture.store.close();
      fixture = null;
    }
  });

  it('keeps order when a stepped run starts in a gap too narrow for it (a rebalance)', () => {
    fixture = modelFixture();
    const q = fixture.model.create({ items: tracks(20) });
    // 14 inserts right after item-10 halve the gap after it each time: 2^24 / 2^14 = 1,024 left.
    const squeezed: string[] = [];
    for (let i = 0; i < 14; i++) squeezed.unshift(fixture.model.addItems(q.id, tracks(1), 'item-10').itemIds![0]!);
    const labels = labelOf(fixture, q.id);
    expect(labels.get(squeezed[0]!)! - labels.get('item-10')!).toBe(1_024);
    const run = stepped(fixture, q.id, 'item-10', 20_000, 2_000);
    const { ids } = order(fixture, q.id);
    expect(ids.slice(10, 10 + 20_000)).toEqual(run);
    expect(ids.slice(10 + 20_000, 10 + 20_000 + 14)).toEqual(squeezed);
    expect(ids.at(-1)).toBe('item-20');
  });

  it('relabels nobody after the first step of a planned run, even one that began with a rebalance', () => {
    fixture = modelFixture();
    const q = fixture.model.create({ items: tracks(20) });
    for (let i = 0; i < 14; i++) fixture.model.addItems(q.id, tracks(1), 'item-10');
    // The rebalance must leave room for all 40,000, not only the 4,000 of its own step.
    const first = fixture.model.addItems(q.id, tracks(4_000), 'item-10', 40_000).itemIds!;
    const settled = labelOf(fixture, q.id);
    stepped(fixture, q.id, first.at(-1)!, 36_000, 4_000);
    const after = labelOf(fixture, q.id);
    expect([...settled].filter(([id, label]) => after.get(id) !== label)).toEqual([]);
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
