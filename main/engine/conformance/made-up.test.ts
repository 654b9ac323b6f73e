/**
 * The suite's made-up values (made-up.ts): one of a kind each run, the recalled ones in a replay, and
 * found again in a report's texts whatever stands around them.
 */
import { describe, expect, it } from 'vitest';
import { MADE_UP_PATTERN } from '../api/conformance-types.js';
import { MadeUp, madeUpIn } from './made-up.js';

describe('made-up values', () => {
  it('are one of each kind a run, new each run without a recall, and of the command input pattern', () => {
    const made = new MadeUp();
    const [a, b] = [made.make('no-such-item'), made.make('no-such-item')];
    // Two cases send the same one (a replay recalls one value of a kind for both).
    expect(a).toBe(b);
    expect(new MadeUp().make('no-such-item')).not.toBe(a);
    expect(a).toMatch(/^cqc-check-no-such-item-[0-9a-f]{12}$/);
    expect(made.make('wrong')).toMatch(/^cqc-check-wrong-[\w-]{22}$/);
    for (const value of [a, made.make('wrong')]) expect(value).toMatch(new RegExp(MADE_UP_PATTERN));
  });

  it('are the recalled ones in a replay, by kind, the first of each', () => {
    const made = new MadeUp(['cqc-check-wrong-abc_-1', 'cqc-check-no-such-item-00ff', 'cqc-check-wrong-second']);
    expect(made.make('no-such-item')).toBe('cqc-check-no-such-item-00ff');
    expect(made.make('wrong')).toBe('cqc-check-wrong-abc_-1');
    expect(new MadeUp(['cqc-check-no-such-item-00ff']).make('wrong')).toMatch(/^cqc-check-wrong-/);
  });

  it('are found in URLs and headers, each once, and nothing else is', () => {
    expect(
      madeUpIn([
        'http://q.example/itemWindow?reason=skipToItem&itemId=cqc-check-no-such-item-3900d12e&previousWindowSize=5',
        'Bearer cqc-check-wrong-Zm9v_-Ym',
        'http://q.example/itemWindow?itemId=cqc-check-no-such-item-3900d12e',
        'Bearer toke•••',
        'cqc-check-other-thing cqc-check-wrong-',
      ]),
    ).toEqual(['cqc-check-no-such-item-3900d12e', 'cqc-check-wrong-Zm9v_-Ym']);
  });
});
