import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { QueueItemRepository } from '../store/repositories/queue-items.js';
import { MAX_WINDOW_SIDE } from './defaults.js';
import { parseItemWindowQuery, readItemWindow } from './item-window.js';
import { applyEdit, modelFixture, tracks, type Edit, type ModelFixture } from './testing.js';

/** What the window must be, from the plain array model. */
function expectedWindow(ids: readonly string[], itemId: string | null, previous: number, upcoming: number) {
  if (ids.length === 0) return { itemIds: [], includesBeginningOfQueue: true, includesEndOfQueue: true };
  const at = itemId === null ? 0 : ids.indexOf(itemId);
  const first = itemId === null ? 0 : Math.max(0, at - previous);
  const last = Math.min(ids.length - 1, at + upcoming);
  return {
    itemIds: ids.slice(first, last + 1),
    includesBeginningOfQueue: first === 0,
    includesEndOfQueue: last === ids.length - 1,
  };
}

function checkWindows(
  f: ModelFixture,
  queueId: string,
  ids: readonly string[],
  probes: readonly { at: number; previous: number; upcoming: number; none: boolean }[],
) {
  const head = f.store.queues.head(queueId)!;
  for (const probe of probes) {
    const itemId = probe.none || ids.length === 0 ? null : ids[probe.at % ids.length]!;
    const window = readItemWindow(f.store.queueItems, head, {
      itemId,
      previousWindowSize: probe.previous,
      upcomingWindowSize: probe.upcoming,
    });
    const expected = expectedWindow(ids, itemId, probe.previous, probe.upcoming);
    expect(window).not.toBeNull();
    expect({
      itemIds: window!.itemIds,
      includesBeginningOfQueue: window!.includesBeginningOfQueue,
      includesEndOfQueue: window!.includesEndOfQueue,
    }).toEqual(expected);
    // Byte for byte: the stored JSON of each item, in order, inside the window's fields.
    const stored = expected.itemIds.map((id) => f.store.queueItems.byId(head.key, id)!.item).join(',');
    expect(window!.bytes.toString('utf8')).toBe(
      `{"includesBeginningOfQueue":${expected.includesBeginningOfQueue},"includesEndOfQueue":${expected.includesEndOfQueue},` +
        `"contextVersion":"${head.contextVersion}","queueVersion":"${head.queueVersion}","items":[${stored}]}`,
    );
    expect(window!.anchorItemId).toBe(ids.length === 0 ? null : (itemId ?? ids[0]));
    const body = JSON.parse(window!.bytes.toString('utf8')) as {
      items: { id: string }[];
      queueVersion: string;
      contextVersion: string;
    };
    expect(body.items.map((i) => i.id)).toEqual(expected.itemIds);
    expect(body.queueVersion).toBe(String(head.queueVersion));
    // Never more than asked on either side of the anchor.
    const anchor = body.items.findIndex((i) => i.id === (itemId ?? ids[0]));
    expect(anchor).toBeLessThanOrEqual(probe.previous);
    expect(body.items.length - anchor - 1).toBeLessThanOrEqual(probe.upcoming);
  }
}

const probe = fc.record({
  at: fc.nat(),
  previous: fc.integer({ min: 0, max: 12 }),
  upcoming: fc.integer({ min: 0, max: 12 }),
  none: fc.boolean(),
});
const edit: fc.Arbitrary<Edit> = fc.record({
  kind: fc.constantFrom('add', 'addSame', 'move', 'remove'),
  at: fc.nat(),
  count: fc.integer({ min: 1, max: 5 }),
  spot: fc.constantFrom('after', 'after', 'start', 'end'),
});

describe('itemWindow windowing (property tests against an array model)', () => {
  it('is right for random queues, anchors and sizes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), fc.array(probe, { minLength: 1, maxLength: 15 }), (size, probes) => {
        const f = modelFixture();
        try {
          const q = f.model.create({ items: tracks(size) });
          const ids = Array.from({ length: size }, (_, i) => `item-${i + 1}`);
          checkWindows(f, q.id, ids, probes);
        } finally {
          f.store.close();
        }
      }),
      { numRuns: 200 },
    );
  });

  it('stays right after random edits (adds, moves, removals, rebalances)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.array(edit, { maxLength: 25 }),
        fc.array(probe, { minLength: 1, maxLength: 10 }),
        (size, edits, probes) => {
          const f = modelFixture();
          try {
            const q = f.model.create({ items: tracks(size) });
            const ids = Array.from({ length: size }, (_, i) => `item-${i + 1}`);
            for (const e of edits) applyEdit(f, q.id, ids, e);
            checkWindows(f, q.id, ids, probes);
          } finally {
            f.store.close();
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('answers null (404 at the edge) for an item that is not, or no longer, in the queue', () => {
    const f = modelFixture();
    const q = f.model.create({ items: tracks(3) });
    f.model.removeItems(q.id, ['item-2']);
    const head = f.store.queues.head(q.id)!;
    for (const itemId of ['item-2', 'item-99', 'nope']) {
      expect(
        readItemWindow(f.store.queueItems, head, { itemId, previousWindowSize: 5, upcomingWindowSize: 5 }),
      ).toBeNull();
    }
    f.store.close();
  });

  it('is right at the ends and with sides of zero: first item, last item, anchors next to them', () => {
    const f = modelFixture();
    try {
      const q = f.model.create({ items: tracks(30) });
      const ids = Array.from({ length: 30 }, (_, i) => `item-${i + 1}`);
      const probes = [];
      for (const at of [0, 1, 2, 4, 5, 6, 14, 23, 24, 25, 27, 28, 29])
        for (const [previous, upcoming] of [
          [0, 0],
          [0, 1],
          [1, 0],
          [5, 10],
          [6, 0],
          [0, 29],
          [29, 0],
          [30, 30],
          [MAX_WINDOW_SIDE, MAX_WINDOW_SIDE],
        ] as const)
          probes.push({ at, previous, upcoming, none: false }, { at, previous, upcoming, none: true });
      checkWindows(f, q.id, ids, probes);
    } finally {
      f.store.close();
    }
  });

  it('answers an empty queue with an empty window that reaches both ends', () => {
    const f = modelFixture();
    try {
      const q = f.model.create({ items: tracks(1) });
      f.model.removeItems(q.id, ['item-1']);
      const head = f.store.queues.head(q.id)!;
      for (const [previous, upcoming] of [
        [0, 0],
        [5, 10],
      ])
        expect(
          readItemWindow(f.store.queueItems, head, {
            itemId: null,
            previousWindowSize: previous!,
            upcomingWindowSize: upcoming!,
          }),
        ).toEqual({
          bytes: Buffer.from(
            `{"includesBeginningOfQueue":true,"includesEndOfQueue":true,"contextVersion":"${head.contextVersion}","queueVersion":"${head.queueVersion}","items":[]}`,
          ),
          anchorItemId: null,
          itemIds: [],
          includesBeginningOfQueue: true,
          includesEndOfQueue: true,
        });
    } finally {
      f.store.close();
    }
  });

  it('reads a window of a large queue edited in the middle in one statement', () => {
    const f = modelFixture();
    const q = f.model.create({ items: tracks(50_000) });
    f.model.addItems(q.id, tracks(20), 'item-25000');
    f.model.moveItems(q.id, ['item-10', 'item-40000'], 'item-25001');
    f.model.removeItems(q.id, ['item-25002']);
    let calls = 0;
    const counting: Pick<QueueItemRepository, 'window'> = {
      window: (...args) => {
        calls++;
        return f.store.queueItems.window(...args);
      },
    };
    const head = f.store.queues.head(q.id)!;
    const window = readItemWindow(counting, head, {
      itemId: 'item-25001',
      previousWindowSize: 5,
      upcomingWindowSize: 10,
    });
    expect(window!.itemIds).toHaveLength(16);
    expect(window!.itemIds.slice(5, 9)).toEqual(['item-25001', 'item-10', 'item-40000', 'item-25003']);
    // One statement; that it reads O(window) rows is its query plan's (queue-items.test.ts).
    expect(calls).toBe(1);
    f.store.close();
  });
});

describe('the itemWindow query', () => {
  const parse = (query: Record<string, unknown>) => parseItemWindowQuery(query);

  it.each([
    'load',
    'pause',
    'play',
    'queueCompleted',
    'refresh',
    'resume',
    'skipNext',
    'skipPrev',
    'skipToItem',
    'load+queueCompleted',
    'load queueCompleted',
  ])('accepts reason=%s', (reason) => expect(parse({ reason })).toMatchObject({ ok: true }));

  it.each([undefined, '', 'bogus', 'LOAD', 'queueCompleted+load', 'load+refresh', ['load', 'play']])(
    'rejects reason=%s',
    (reason) => expect(parse({ reason })).toMatchObject({ ok: false, field: 'reason' }),
  );

  it.each(['-1', '1.5', 'abc', '', '1e3', ' 3', '3 ', '+3', ['1', '2']])(
    'rejects the window size %j on either side',
    (size) => {
      expect(parse({ reason: 'load', previousWindowSize: size })).toMatchObject({
        ok: false,
        field: 'previousWindowSize',
      });
      expect(parse({ reason: 'load', upcomingWindowSize: size })).toMatchObject({
        ok: false,
        field: 'upcomingWindowSize',
      });
    },
  );

  it('takes sizes of zero and more, defaults missing ones and caps huge ones', () => {
    expect(parse({ reason: 'load', previousWindowSize: '0', upcomingWindowSize: '3' })).toMatchObject({
      ok: true,
      value: { previousWindowSize: 0, upcomingWindowSize: 3 },
    });
    expect(parse({ reason: 'load' })).toMatchObject({
      ok: true,
      value: { previousWindowSize: 5, upcomingWindowSize: 10 },
    });
    expect(parse({ reason: 'load', upcomingWindowSize: '99999999' })).toMatchObject({
      ok: true,
      value: { upcomingWindowSize: MAX_WINDOW_SIDE },
    });
  });

  it('treats an empty itemId as none (the first item)', () => {
    expect(parse({ reason: 'load', itemId: '' })).toMatchObject({ ok: true, value: { itemId: null } });
  });
});
