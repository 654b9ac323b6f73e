/**
 * A fleet's `pN` is k6's: a trend's p(N) interpolates linearly between the closest ranks of the
 * sorted values (rank N% × (n − 1)), read from a DDSketch without ever stating less than k6
 * would, so that `pN<X` passes only where k6 passes it too (audit V5: with one request of 38 at
 * 3 s, `p99<500ms` passed at the lower rank, measured 28 ms).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newSketch, summarize } from './metrics.js';
import { sketchData, sketchOf } from './sketch-wire.js';
import { latencyFigures, quantileOf } from './percentile.js';
import { parseThresholds, type ThresholdFigures } from '../api/thresholds.js';
import { judge } from './judge.js';

/** k6's TrendSink.P (metrics/sink.go): sorted values, linear between the closest ranks. */
function k6Percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 1) return sorted[0]!;
  const rank = q * (sorted.length - 1);
  const [low, high] = [sorted[Math.floor(rank)]!, sorted[Math.ceil(rank)]!];
  return low + (high - low) * (rank - Math.floor(rank));
}

function sketchOfValues(values: readonly number[]) {
  const sketch = newSketch();
  for (const value of values) sketch.accept(value);
  return sketch;
}

/** The thresholds' verdicts on a sketch's latencies, read as the fleet reads them. */
function verdicts(sketch: ReturnType<typeof newSketch>, ...expressions: string[]) {
  const parsed = parseThresholds(expressions);
  if (!parsed.ok) throw new Error(parsed.message);
  const figures: ThresholdFigures = {
    ...latencyFigures(sketch),
    errorRate: 0,
    counts: { requests: sketch.count, errors: 0, transportErrors: 0, retries: 0, violations: 0 },
    requestsPerSecond: 1,
  };
  return judge(parsed.thresholds, figures).map((r) => [r.expression, r.ok]);
}

/** Floating-point noise: k6's own interpolation rounds too. */
const ULPS = 1e-12;

/** The audit's run: 37 answers of 9–28 ms and one of 3,024 ms. */
const AUDIT = [...Array.from({ length: 37 }, (_, i) => 9 + (i * 19) / 36), 3_024];

describe("a fleet's percentiles, k6's way", () => {
  it('interpolate between the closest ranks: one slow request of 38 fails p99<500ms and p(98)<500ms', () => {
    const sketch = sketchOfValues(AUDIT);
    // k6: p(99) = v36 + 0.63 × (v37 − v36) ≈ 1.9 s, p(98) = v36 + 0.26 × (v37 − v36) ≈ 0.8 s.
    expect(quantileOf(sketch, 0.99)).toBeGreaterThanOrEqual(k6Percentile(AUDIT, 0.99));
    expect(quantileOf(sketch, 0.98)).toBeGreaterThanOrEqual(k6Percentile(AUDIT, 0.98));
    expect(summarize(sketch).p99).toBeGreaterThan(1_000);
    expect(verdicts(sketch, 'p99<500ms', 'p(98)<500ms', 'p(97)<500ms', 'max<500ms')).toEqual([
      ['p99<500ms', false],
      ['p(98)<500ms', false],
      // k6: rank 35.89, both neighbours fast: 97% of 38 requests were under 500 ms.
      ['p(97)<500ms', true],
      ['max<500ms', false],
    ]);
  });

  it('read the top ranks near the slowest: 41 requests of 300–323 ms put p(99.99) at 323 ms, not 314', () => {
    const values = Array.from({ length: 41 }, (_, i) => 300 + (i * 23) / 40);
    const sketch = sketchOfValues(values);
    expect(quantileOf(sketch, 0.9999)).toBeGreaterThanOrEqual(k6Percentile(values, 0.9999));
    expect(quantileOf(sketch, 0.9999)).toBeLessThanOrEqual(323);
  });

  it('are the one value when there is one, and nothing when there is none', () => {
    expect(quantileOf(sketchOfValues([42.5]), 0.5)).toBe(42.5);
    expect(quantileOf(sketchOfValues([42.5]), 0.99)).toBe(42.5);
    expect(quantileOf(newSketch(), 0.99)).toBeNaN();
  });

  it("never state less than k6's value, nor more than the sketch's 1% above it", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.001, max: 20_000, noNaN: true }), { minLength: 1, maxLength: 300 }),
        fc.double({ min: 0.001, max: 0.9999, noNaN: true }),
        (values, q) => {
          const exact = k6Percentile(values, q);
          const stated = quantileOf(sketchOfValues(values), q);
          expect(stated).toBeGreaterThanOrEqual(exact * (1 - ULPS));
          // Each rank's bin is 1% either side of its middle: 2% wide at most.
          expect(stated).toBeLessThanOrEqual(exact * 1.0205);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("state none of p50, p90, p99 in a fleet's summary below k6's, to the tenth of a ms it is said to (review)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.001, max: 20_000, noNaN: true }), { minLength: 1, maxLength: 300 }),
        (values) => {
          const summary = summarize(sketchOfValues(values));
          for (const [q, stated] of [
            [0.5, summary.p50],
            [0.9, summary.p90],
            [0.99, summary.p99],
          ] as const)
            expect(stated).toBeGreaterThanOrEqual(k6Percentile(values, q) * (1 - ULPS));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('judge a bound only where k6 judges it the same: `<` reads the most it can be, `>` the least', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.001, max: 5_000, noNaN: true }), { minLength: 1, maxLength: 120 }),
        fc.integer({ min: 1, max: 99 }),
        fc.double({ min: 0.001, max: 5_000, noNaN: true }),
        (values, n, bound) => {
          const exact = k6Percentile(values, n / 100);
          const at = `${Math.round(bound * 1000) / 1000}`;
          // A tie within rounding noise is no verdict of either kind.
          fc.pre(Math.abs(exact - Number(at)) > exact * ULPS);
          const [below, atMost, above, atLeast] = verdicts(
            sketchOfValues(values),
            `p${n}<${at}ms`,
            `p${n}<=${at}ms`,
            `p${n}>${at}ms`,
            `p${n}>=${at}ms`,
          ).map(([, ok]) => ok);
          if (below) expect(exact).toBeLessThan(Number(at));
          if (atMost) expect(exact).toBeLessThanOrEqual(Number(at));
          if (above) expect(exact).toBeGreaterThan(Number(at));
          if (atLeast) expect(exact).toBeGreaterThanOrEqual(Number(at));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('read the same from a sketch that crossed from a worker thread and merged', () => {
    const [a, b] = [sketchOfValues(AUDIT.slice(0, 20)), sketchOfValues(AUDIT.slice(20))];
    const merged = sketchOf(sketchData(a));
    merged.merge(sketchOf(sketchData(b)));
    for (const q of [0.5, 0.9, 0.98, 0.99]) expect(quantileOf(merged, q)).toBe(quantileOf(sketchOfValues(AUDIT), q));
  });
});
