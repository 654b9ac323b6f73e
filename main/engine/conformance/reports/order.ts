/** The order a person reads a run in (docs/contract/console.md §8): failures, then warnings, then the rest, each in suite order. */
import type { ConformanceCaseResult, ConformanceOutcome } from '../../api/conformance-types.js';

const RANK: Record<ConformanceOutcome, number> = { fail: 0, warn: 1, pass: 2, skip: 2 };

export function readingOrder<T extends Pick<ConformanceCaseResult, 'outcome'>>(cases: readonly T[]): T[] {
  return cases
    .map((result, index) => ({ result, index }))
    .sort((a, b) => RANK[a.result.outcome] - RANK[b.result.outcome] || a.index - b.index)
    .map(({ result }) => result);
}
