import { describe, expect, it } from 'vitest';
import type { ConformanceCaseResult } from '@engine-api/conformance-types';
import { rerunDiff, rerunDiffText } from './rerun-diff';

const cases = (outcomes: Record<string, ConformanceCaseResult['outcome']>) => ({
  cases: Object.entries(outcomes).map(([id, outcome]) => ({ id, outcome }) as ConformanceCaseResult),
});

describe('a rerun against the run it reruns (ui-x3 U8)', () => {
  it('says each case that failed before fixed, still failing or not judged, and what fails only now', () => {
    const before = cases({ a: 'fail', b: 'fail', c: 'fail', d: 'fail', e: 'pass', f: 'warn', g: 'skip' });
    const after = cases({ a: 'pass', b: 'warn', c: 'fail', d: 'skip', e: 'fail', f: 'warn', g: 'fail', h: 'fail' });
    const diff = rerunDiff(before, after);
    expect(diff).toEqual({
      fixed: ['a', 'b'],
      stillFailing: ['c'],
      notJudged: ['d'],
      newlyFailing: ['e'],
      failingNotJudgedBefore: ['g', 'h'],
    });
    expect(rerunDiffText(diff)).toBe(
      '2 fixed: a, b · 1 still failing: c · 1 failing now, not before: e · 2 failing, not judged before: g, h · 1 not judged this time: d',
    );
  });

  it('counts a failing case the rerun never reached as not judged, and says nothing when neither failed', () => {
    expect(rerunDiff(cases({ a: 'fail' }), cases({}))).toMatchObject({ notJudged: ['a'], fixed: [] });
    expect(rerunDiffText(rerunDiff(cases({ a: 'pass' }), cases({ a: 'warn' })))).toBeNull();
  });
});
