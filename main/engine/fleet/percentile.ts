/**
 * A fleet's latency percentiles, the one place they are read: the live line, the summary, the
 * reports (JSON, HTML, JUnit) and the thresholds all take `pN` from here, from the DDSketch the
 * shares' sketches merged into (merge.ts; a worker's sketch crosses bin by bin, sketch-wire.ts).
 *
 * The definition is k6's, as the thresholds are in k6's style (docs/fleet.md): a trend's p(N) is
 * the sorted values' rank N% × (n − 1), interpolated linearly between the two closest ranks
 * (k6's `TrendSink.P`, metrics/sink.go), one value when there is one. The lower rank alone, as
 * the sketch's own `getValueAtQuantile` reads it, let one slow request of 38 pass `p99<500ms`
 * (audit V5: measured 28 ms where k6 says 1.9 s).
 *
 * The sketch does not keep the values, only how many fell in each bin (1% wide); the exact least
 * and most are kept beside it. So each of the two ranks is known to lie between its bin's bounds
 * (the first and the last rank exactly), and the interpolation between the two (its weights are
 * never negative) lies between the interpolation of their lows and that of their highs. The high
 * is what a fleet says its pN is: never less than k6 would say of the same requests, at most the
 * sketch's 2% above it, so a `pN<X` that passes here passes in k6. A bound from below (`pN>X`)
 * reads the low, for the same reason.
 */
import type { DDSketch } from '@datadog/sketches-js';

import type { QuantileBounds } from '../api/thresholds.js';

/**
 * Floating-point slack on a bin's edges: a value within a rounding error of an edge may have been
 * put in the bin beside it. A billionth is far under the 0.1 ms a latency is said to.
 */
const EDGE_SLACK = 1e-9;

/** k6's p(q) of the sketch's values, as bounds; NaN for both when it saw none. */
export function quantileBounds(sketch: DDSketch, q: number): QuantileBounds {
  const n = sketch.count;
  if (n === 0) return { low: NaN, high: NaN };
  if (n === 1) return { low: sketch.min, high: sketch.max };
  const rank = Math.min(Math.max(q, 0), 1) * (n - 1);
  const below = Math.floor(rank);
  const weight = rank - below;
  const [a, b] = boundsAtRanks(sketch, below, Math.ceil(rank));
  return { low: a.low + (b.low - a.low) * weight, high: a.high + (b.high - a.high) * weight };
}

/** The latency a fleet states at quantile q: the most k6's p(q) can be. */
export function quantileOf(sketch: DDSketch, q: number): number {
  return quantileBounds(sketch, q).high;
}

/** What the thresholds read of the fleet's latency: its percentiles as bounds, and the exact max. */
export function latencyFigures(all: DDSketch): { latencyAt(q: number): QuantileBounds; maxLatency: number } {
  return { latencyAt: (q) => quantileBounds(all, q), maxLatency: all.count === 0 ? NaN : all.max };
}

/**
 * The bounds of the values at 0-based ranks `first` ≤ `second`, in one walk of the bins from the
 * least value up. Latencies are accepted from 0.001 ms and lateness from 0, so the negative store
 * is empty; were it not, its values' most would be 0, still never understated.
 */
function boundsAtRanks(sketch: DDSketch, first: number, second: number): [QuantileBounds, QuantileBounds] {
  const { min, max, count } = sketch;
  const exact = (rank: number): QuantileBounds | null =>
    rank <= 0 ? { low: min, high: min } : rank >= count - 1 ? { low: max, high: max } : null;
  const clamp = (low: number, high: number): QuantileBounds => ({
    low: Math.min(max, Math.max(min, low)),
    high: Math.max(min, Math.min(max, high)),
  });
  const found: (QuantileBounds | null)[] = [exact(first), exact(second)];
  const wanted = [first, second];
  let seen = sketch.negativeStore.count;
  const settle = (bounds: () => QuantileBounds): boolean => {
    for (let i = 0; i < 2; i++) if (!found[i] && wanted[i]! < seen) found[i] = bounds();
    return found.every(Boolean);
  };
  if (settle(() => clamp(min, 0))) return found as [QuantileBounds, QuantileBounds];
  seen += sketch.zeroCount;
  if (settle(() => clamp(0, 0))) return found as [QuantileBounds, QuantileBounds];
  const { store, mapping } = sketch;
  for (let key = store.minKey; key <= store.maxKey; key++) {
    seen += store.bins[key - store.offset] ?? 0;
    // A key's values are above gamma^(k-1) and at most gamma^k; `value` is their middle, 2/(1+gamma) of the top.
    const top = (mapping.value(key) * (1 + mapping.gamma)) / 2;
    if (settle(() => clamp((top / mapping.gamma) * (1 - EDGE_SLACK), top * (1 + EDGE_SLACK))))
      return found as [QuantileBounds, QuantileBounds];
  }
  // Counts that do not add up to the sketch's count (never, but not a reason to understate).
  return [found[0] ?? { low: min, high: max }, found[1] ?? { low: min, high: max }];
}
