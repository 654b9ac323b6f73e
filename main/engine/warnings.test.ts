import { describe, expect, it } from 'vitest';
import type { EngineWarning } from './api/types.js';
import { EngineWarnings, MAX_WARNINGS } from './warnings.js';

function warnings() {
  let now = 1_000;
  const emitted: EngineWarning[] = [];
  const logged: string[] = [];
  const list = new EngineWarnings({
    emit: (warning) => void emitted.push(warning),
    wallNow: () => now,
    log: {
      info: () => undefined,
      warn: (message) => void logged.push(`warn ${message}`),
      error: (message) => void logged.push(`error ${message}`),
    },
  });
  return { list, emitted, logged, at: (ms: number) => void (now = ms) };
}

describe('engine warnings', () => {
  it('keeps each warning once, counting repeats, and logs only the first', () => {
    const { list, logged, at } = warnings();
    list.warn('player-saved', 'could not save player p (disk full)', new Error('disk full'));
    at(1_500);
    list.warn('player-saved', 'could not save player p (disk full)', new Error('disk full'));
    list.warn('traffic-log', 'damaged');
    expect(list.list()).toEqual([
      {
        source: 'player-saved',
        message: 'could not save player p (disk full)',
        firstAt: 1_000,
        lastAt: 1_500,
        count: 2,
      },
      { source: 'traffic-log', message: 'damaged', firstAt: 1_500, lastAt: 1_500, count: 1 },
    ]);
    expect(logged).toEqual(['error could not save player p (disk full)', 'warn damaged']);
  });

  it('tells a new warning at once and a repeat at most once a second, with its count then', () => {
    const { list, emitted, at } = warnings();
    for (let ms = 1_000; ms <= 2_500; ms += 100) {
      at(ms);
      list.warn('traffic-log', 'not stored');
    }
    expect(emitted.map((w) => [w.lastAt, w.count])).toEqual([
      [1_000, 1],
      [2_000, 11],
    ]);
    expect(list.list()[0]).toMatchObject({ count: 16, lastAt: 2_500 });
  });

  it(`keeps the newest ${MAX_WARNINGS}`, () => {
    const { list } = warnings();
    for (let i = 0; i < MAX_WARNINGS + 5; i++) list.warn('traffic-log', `w${i}`);
    const kept = list.list();
    expect(kept).toHaveLength(MAX_WARNINGS);
    expect(kept[0]!.message).toBe('w5');
    expect(kept.at(-1)!.message).toBe(`w${MAX_WARNINGS + 4}`);
  });

  it('hands out copies: a list read earlier does not change', () => {
    const { list } = warnings();
    list.warn('traffic-log', 'damaged');
    const before = list.list();
    list.warn('traffic-log', 'damaged');
    expect(before[0]!.count).toBe(1);
  });
});
