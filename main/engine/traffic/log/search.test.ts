/**
 * Text searches walk the log a slice at a time (search.ts): they answer what a filter of every
 * entry answers, while the log keeps capturing, trimming (entry cap, byte budget) and clearing
 * between slices, and callers asking for the same text share one walk.
 */
import fc from 'fast-check';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { TrafficFilter } from '../../api/traffic-types.js';
import { openStore } from '../../store/store.js';
import { testTrafficEntry } from '../../testing/traffic.js';
import { TrafficLogFile } from './file.js';
import { TrafficLog } from './log.js';
import type { NewTrafficEntry } from './codec.js';

const KEEP_ALL = 1_000_000;

/** A log whose searches do one entry a slice (`searchSliceMs` 0), so that every turn can meet a capture or a trim. */
function sliced() {
  const store = openStore({ dataDir: null }, Date.now(), new TrafficLogFile());
  const log = new TrafficLog(store.db, { bodyUseAhead: 0, searchSliceMs: 0 });
  return { log, close: () => store.close() };
}

/** What a search must answer: every entry the log holds whose URL, request body or response body holds `text`, in any case. */
function naive(log: TrafficLog, filter: TrafficFilter): number[] {
  const needle = filter.text!.toLowerCase();
  const holds = (value: string | null) => value !== null && value.toLowerCase().includes(needle);
  return log
    .entries({ ...filter, text: undefined }, undefined, KEEP_ALL)
    .filter((entry) => holds(entry.url) || holds(entry.requestBody) || holds(entry.responseBody))
    .map((entry) => entry.id);
}

/** Entry `i`: the text `needle` in its URL, request body, own response body or a shared one (512+ characters) when `where` says so. */
function entry(i: number, where: 'url' | 'request' | 'own' | 'shared' | null, needle = 'NeEdLe'): NewTrafficEntry {
  const text = (place: typeof where) => (where === place ? needle : '');
  return testTrafficEntry({
    target: i % 2 ? 'player' : 'cloudQueue',
    url: `http://127.0.0.1:9003/w/${i}?x=${text('url')}`,
    // "eee" now and then: a short text some entries hold without the needle.
    requestBody: `{"i":${i},"n":"${text('request')}","e":"${i % 13 === 0 ? 'eee' : ''}"}`,
    // Shared bodies repeat: a few distinct ones, checked once each.
    responseBody: where === 'own' ? `own ${needle}` : `${i % 3}-${text('shared')}`.padEnd(600, 'b'),
  });
}

const PLACES = ['url', 'request', 'own', 'shared', null, null, null, null, null, null] as const;
const segmentOf = (first: number, count: number) =>
  Array.from({ length: count }, (_, k) => entry(first + k, PLACES[(first + k) % PLACES.length]!));

/** Turns of the event loop until `done` settles; how many it took. */
async function turnsUntil(done: Promise<void>): Promise<number> {
  let settled = false;
  void done.then(() => (settled = true));
  let turns = 0;
  while (!settled) {
    await nextTurn();
    turns++;
  }
  return turns;
}

describe('a text search walked a slice at a time', () => {
  it('yields between slices and then answers what a filter of every entry answers, with any other filter', async () => {
    const { log, close } = sliced();
    for (let s = 0; s < 5; s++) log.append(segmentOf(s * 20, 20), KEEP_ALL);
    const searched = log.searched({ text: 'needle' });
    // One entry a slice: 100 entries take many turns, each leaving the listeners their turn.
    expect(await turnsUntil(searched)).toBeGreaterThan(50);
    expect(log.page({ text: 'needle' }, 0, 1000).rows.map((row) => row.id)).toEqual(naive(log, { text: 'needle' }));
    expect(naive(log, { text: 'needle' })).toHaveLength(40);
    await log.searched({ text: 'NEEDLE', target: 'player' });
    expect(log.page({ text: 'NEEDLE', target: 'player' }, 0, 1000).rows.map((row) => row.id)).toEqual(
      naive(log, { text: 'needle', target: 'player' }),
    );
    expect(log.locate({ text: 'needle' }, 4)).toBe(3);
    expect(log.locate({ text: 'needle' }, 5)).toBeNull();
    close();
  });

  it('shares one walk between callers of the same text, in any case, even past the searches kept', async () => {
    const { log, close } = sliced();
    log.append(segmentOf(0, 50), KEEP_ALL);
    const first = log.searched({ text: 'Needle' });
    expect(log.searched({ text: 'nEEDLE', target: 'player' })).toBe(first);
    // More texts than the searches kept: the walk being waited for is not pushed out and begun again.
    const others = ['a', 'b', 'c', 'd', 'e', 'f'].map((text) => log.searched({ text }));
    expect(log.searched({ text: 'needle' })).toBe(first);
    // Nor is a new one, however many walks are waited for.
    expect(log.searched({ text: 'f' })).toBe(others.at(-1));
    await Promise.all([first, ...others]);
    expect(log.page({ text: 'needle' }, 0, 1000).rows.map((row) => row.id)).toEqual(naive(log, { text: 'needle' }));
    // Up to date: a search asked again with nothing new settles at once.
    expect(await turnsUntil(log.searched({ text: 'needle' }))).toBe(1);
    close();
  });

  it('narrows a search to the matches of a kept search for a text it holds, and walks on from where that one stopped', async () => {
    const { log, close } = sliced();
    for (let s = 0; s < 5; s++) log.append(segmentOf(s * 20, 20), KEEP_ALL);
    expect(await turnsUntil(log.searched({ text: 'eedl' }))).toBeGreaterThanOrEqual(100);
    log.append(segmentOf(100, 20), KEEP_ALL);
    log.append(segmentOf(120, 20), 130);
    // The 36 matches of the first 100 entries still kept, then the 40 entries after them: not 130.
    const turns = await turnsUntil(log.searched({ text: 'needle' }));
    expect(turns).toBeGreaterThan(70);
    expect(turns).toBeLessThan(100);
    expect(log.page({ text: 'needle' }, 0, 1000).rows.map((row) => row.id)).toEqual(naive(log, { text: 'needle' }));
    expect(naive(log, { text: 'needle' })).toHaveLength(52);
    // A text that does not hold a kept one is walked whole: "ee" is in more entries than "needle".
    expect(await turnsUntil(log.searched({ text: 'ee' }))).toBeGreaterThan(120);
    expect(log.page({ text: 'ee' }, 0, 1000).total).toBeGreaterThan(52);
    expect(log.page({ text: 'ee' }, 0, 1000).rows.map((row) => row.id)).toEqual(naive(log, { text: 'ee' }));
    close();
  });

  it('takes in entries captured during the walk and skips the segments the cap and the byte budget drop under it', async () => {
    const { log, close } = sliced();
    for (let s = 0; s < 6; s++) log.append(segmentOf(s * 10, 10), KEEP_ALL);
    const searched = log.searched({ text: 'needle' });
    for (let turn = 0; turn < 15; turn++) await nextTurn();
    // Mid-walk: the segment being walked and those after it go, new ones come.
    log.append(segmentOf(60, 10), 35);
    for (let turn = 0; turn < 5; turn++) await nextTurn();
    log.byteBudget = 30_000;
    log.append(segmentOf(70, 10), KEEP_ALL);
    log.byteBudget = Infinity;
    await nextTurn();
    log.append(segmentOf(80, 10), KEEP_ALL);
    await searched;
    const expected = naive(log, { text: 'needle' });
    expect(expected.length).toBeGreaterThan(10);
    expect(expected[0]).toBeGreaterThan(40);
    expect(log.page({ text: 'needle' }, 0, 1000).rows.map((row) => row.id)).toEqual(expected);
    close();
  });

  it('lets its callers go on when the log is cleared under it, with what came after', async () => {
    const { log, close } = sliced();
    log.append(segmentOf(0, 40), KEEP_ALL);
    const searched = log.searched({ text: 'needle' });
    await nextTurn();
    log.clear();
    log.append(segmentOf(40, 5), KEEP_ALL);
    await searched;
    expect(log.page({ text: 'needle' }, 0, 1000).rows.map((row) => row.id)).toEqual(naive(log, { text: 'needle' }));
    expect(naive(log, { text: 'needle' })).toHaveLength(4);
    close();
  });

  it('answers what a filter of every entry answers whatever captures, trims and clears meet the walks', async () => {
    const step = fc.oneof(
      fc.record({
        kind: fc.constant('append' as const),
        count: fc.integer({ min: 1, max: 12 }),
        keep: fc.integer({ min: 5, max: 60 }),
      }),
      fc.record({
        kind: fc.constant('search' as const),
        text: fc.constantFrom('ee', 'eedl', 'needle', 'NEEDLE', 'w/1', '"i":2', '-b', '0-b', 'own', 'zzz'),
      }),
      fc.record({ kind: fc.constant('turns' as const), count: fc.integer({ min: 1, max: 8 }) }),
      fc.record({ kind: fc.constant('budget' as const), bytes: fc.integer({ min: 5_000, max: 40_000 }) }),
      fc.constant({ kind: 'clear' as const }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        const { log, close } = sliced();
        let next = 0;
        const waits: Promise<void>[] = [];
        try {
          for (const s of steps) {
            if (s.kind === 'append') {
              log.append(segmentOf(next, s.count), s.keep);
              next += s.count;
            } else if (s.kind === 'search') waits.push(log.searched({ text: s.text }));
            else if (s.kind === 'turns') for (let t = 0; t < s.count; t++) await nextTurn();
            else if (s.kind === 'budget') {
              log.byteBudget = s.bytes;
              log.retain(KEEP_ALL);
              log.byteBudget = Infinity;
            } else log.clear();
          }
          await Promise.all(waits);
          // Shorter texts first: a longer one is then narrowed to their matches.
          for (const text of ['ee', 'eedl', 'needle', 'w/1', '"i":2', '-b', '0-b', 'own', 'zzz']) {
            await log.searched({ text });
            expect(log.page({ text }, 0, 1000).rows.map((row) => row.id)).toEqual(naive(log, { text }));
            expect(log.page({ text, target: 'player' }, 0, 1000).rows.map((row) => row.id)).toEqual(
              naive(log, { text, target: 'player' }),
            );
          }
        } finally {
          close();
        }
      }),
      { numRuns: 60 },
    );
  });
});
