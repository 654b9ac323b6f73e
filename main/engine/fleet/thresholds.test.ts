/**
 * Thresholds parse strictly and never throw: any string is a threshold or a message; written
 * ones judge the figures in their unit; the same seed draws the same listeners.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PlayerExchange } from '../player/client.js';
import { listenerRandom, planTrack } from './listener.js';
import { FleetMetrics, MAX_TICKS } from './metrics.js';
import { parseThreshold, type ThresholdFigures } from '../api/thresholds.js';
import { judge } from './judge.js';

const FIGURES: ThresholdFigures = {
  latencyAt: (q) => ({ low: q * 400, high: q * 400 }),
  maxLatency: 900,
  errorRate: 0.004,
  counts: { requests: 5_000, errors: 20, transportErrors: 3, retries: 12, violations: 0 },
  requestsPerSecond: 83.3,
};

function judged(expression: string): { ok: boolean; actual: number } {
  const parsed = parseThreshold(expression);
  if (!parsed.ok) throw new Error(parsed.message);
  const [result] = judge([parsed.threshold], FIGURES);
  return { ok: result!.ok, actual: result!.actual };
}

/** `left OPERATOR right`, as the test's own model of a verdict: numbers, or whole numbers in BigInt. */
function compared<T extends number | bigint>(
  operator: '<' | '<=' | '>' | '>=' | '==' | '!=',
  left: T,
  right: T,
): boolean {
  switch (operator) {
    case '<':
      return left < right;
    case '<=':
      return left <= right;
    case '>':
      return left > right;
    case '>=':
      return left >= right;
    case '==':
      return left === right;
    case '!=':
      return left !== right;
  }
}

describe('thresholds', () => {
  it("judge latency, rates and counts in the unit they were written in, k6's way", () => {
    expect(judged('p99<250ms')).toEqual({ ok: false, actual: 396 });
    expect(judged('p(50)<=200')).toEqual({ ok: true, actual: 200 });
    expect(judged('p90<1s')).toEqual({ ok: true, actual: 0.36 });
    expect(judged('max < 1000ms')).toEqual({ ok: true, actual: 900 });
    expect(judged('errors<1%')).toEqual({ ok: true, actual: 0.4 });
    expect(judged('errors<0.001')).toEqual({ ok: false, actual: 0.004 });
    expect(judged('violations==0')).toEqual({ ok: true, actual: 0 });
    expect(judged('retries!=12')).toEqual({ ok: false, actual: 12 });
    expect(judged('transportErrors<=3')).toEqual({ ok: true, actual: 3 });
    expect(judged('rps>80')).toEqual({ ok: true, actual: 83.3 });
    expect(judged('requests>=5000')).toEqual({ ok: true, actual: 5_000 });
  });

  it('judge an error rate in % as the exact fraction, whatever the float arithmetic (audit)', () => {
    const at = (errors: number, requests: number, expression: string) => {
      const parsed = parseThreshold(expression);
      if (!parsed.ok) throw new Error(parsed.message);
      const figures = { ...FIGURES, errorRate: errors / requests, counts: { ...FIGURES.counts, errors, requests } };
      const [result] = judge([parsed.threshold], figures);
      return { ok: result!.ok, actual: result!.actual };
    };
    // 0.29 × 100 is 28.999999999999996 and 0.07 × 100 is 7.000000000000001 in floating point.
    expect(at(29, 100, 'errors<29%').ok).toBe(false);
    expect(at(29, 100, 'errors>=29%').ok).toBe(true);
    expect(at(29, 100, 'errors==29%').ok).toBe(true);
    expect(at(7, 100, 'errors<=7%').ok).toBe(true);
    expect(at(7, 100, 'errors>7%').ok).toBe(false);
    expect(at(7, 100, 'errors!=7%').ok).toBe(false);
    // The value shown stays on the verdict's side of the bound: 2 of 6 is not 33.333%.
    expect(at(2, 6, 'errors<=33.333%')).toEqual({ ok: false, actual: 33.3333 });
    expect(at(2, 6, 'errors<=0.33333')).toEqual({ ok: false, actual: 0.333333 });

    // Any count of errors in any count of requests, against a whole or a tenth of a percent: the
    // verdict is the exact comparison of errors/requests with the percentage, in whole numbers.
    const operators = ['<', '<=', '>', '>=', '==', '!='] as const;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.nat(),
        fc.integer({ min: 1, max: 999 }),
        fc.constantFrom(...operators),
        (requests, errorsDraw, tenths, operator) => {
          const errors = errorsDraw % (requests + 1);
          const bound = tenths % 10 === 0 ? String(tenths / 10) : (tenths / 10).toFixed(1);
          // errors/requests against tenths/1000, cross-multiplied: whole numbers, exact.
          const [left, right] = [errors * 1000, tenths * requests];
          const expected = compared(operator, left, right);
          const expression = `errors${operator}${bound}%`;
          const parsed = parseThreshold(expression);
          if (!parsed.ok) return true; // a bound that decides every run is refused, tested above
          const result = at(errors, requests, expression);
          expect(result.ok, expression).toBe(expected);
          const shown = compared(operator, result.actual, +bound);
          expect(shown, `${expression} shown as ${result.actual}%`).toBe(expected);
        },
      ),
      { numRuns: 3_000 },
    );

    // A bound written to as many digits as a double holds, in % or as a share (outside audit):
    // 2 errors in 14 is 1/7, below 0.14285714285714286 and above 0.14285714285714285.
    expect(at(2, 14, 'errors<14.285714285714286%').ok).toBe(true);
    expect(at(2, 14, 'errors==14.285714285714286%').ok).toBe(false);
    expect(at(2, 14, 'errors!=14.285714285714286%').ok).toBe(true);
    expect(at(2, 14, 'errors<=0.14285714285714285').ok).toBe(false);
    expect(at(2, 14, 'errors>0.14285714285714285').ok).toBe(true);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.nat(),
        fc.bigInt({ min: 1n, max: 99_999_999_999_999_999n }),
        fc.integer({ min: 1, max: 17 }),
        fc.boolean(),
        fc.constantFrom(...operators),
        (requests, errorsDraw, mantissa, places, percent, operator) => {
          const errors = errorsDraw % (requests + 1);
          const text = mantissa.toString().padStart(places + 1, '0');
          const bound = `${text.slice(0, -places)}.${text.slice(-places)}`;
          const expression = `errors${operator}${bound}${percent ? '%' : ''}`;
          const parsed = parseThreshold(expression);
          if (!parsed.ok) return true; // over the whole, or deciding every run: refused, tested above
          // errors/requests against mantissa / 10^(places + 2 for %), cross-multiplied in BigInt.
          const left = BigInt(errors) * 10n ** BigInt(places + (percent ? 2 : 0));
          const right = mantissa * BigInt(requests);
          const expected = compared(operator, left, right);
          expect(at(errors, requests, expression).ok, `${errors} of ${requests}: ${expression}`).toBe(expected);
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it('refuse what is not METRIC OP NUMBER in the metric’s unit, saying why', () => {
    for (const bad of [
      '',
      'p99',
      'p99<',
      '<250ms',
      'p99<<250',
      'p99=250',
      'p99<250kb',
      'p99<-1ms',
      'p100<1s',
      'p0<1s',
      'errors<150%',
      'errors<2',
      'errors<1ms',
      'violations==0%',
      'latency<1s',
      'p99<1e3',
      'p99<250ms extra',
    ]) {
      const parsed = parseThreshold(bad);
      expect(parsed.ok, bad).toBe(false);
      if (!parsed.ok) expect(parsed.message).toMatch(/threshold/);
    }
  });

  it('refuse an errors bound that only a run of nothing but errors fails, or none does', () => {
    for (const [gate, why] of [
      [
        'errors<1',
        /holds unless every request failed \(without %, errors is a share from 0 to 1: write errors<1% for a percentage\)/,
      ],
      ['errors<=100%', /holds whatever the run, so it checks nothing$/],
      ['errors<=1', /errors<=1: holds whatever the run, so it checks nothing \(without %/],
      ['errors<100%', /holds unless every request failed$/],
      ['errors>=0%', /holds whatever the run/],
      ['errors>=0', /holds whatever the run/],
    ] as const) {
      const parsed = parseThreshold(gate);
      expect(parsed.ok, gate).toBe(false);
      if (!parsed.ok) expect(parsed.message).toMatch(why);
    }
    for (const gate of ['errors<0.99', 'errors<99%', 'errors>0', 'errors==0', 'errors<1%'])
      expect(parseThreshold(gate).ok, gate).toBe(true);
  });

  it('refuse a bound that every run holds or none does, whatever the metric (audit)', () => {
    for (const [gate, why] of [
      ['violations>=0', /violations>=0: holds whatever the run, so it checks nothing/],
      ['p99>=0', /holds whatever the run/],
      ['rps>=0/s', /holds whatever the run/],
      ['violations!=0.5', /holds whatever the run/],
      ['violations<0', /violations<0: fails whatever the run: violations is a whole number from 0 up/],
      ['violations==0.5', /fails whatever the run: violations is a whole number from 0 up/],
      ['p50<0', /fails whatever the run: p50 is from 0 up/],
      ['errors>1', /fails whatever the run: errors is from 0 to 1/],
      ['errors>100%', /fails whatever the run: errors is from 0 to 100%/],
      ['errors<0%', /fails whatever the run/],
      // A judged run made a request: its requests are 1 up, its rps above 0 (audit).
      [
        'requests<1',
        /requests<1: fails whatever the run: requests is a whole number from 1 up in a run that is judged/,
      ],
      ['requests==0', /fails whatever the run/],
      ['requests<=0', /fails whatever the run/],
      ['requests>=1', /holds whatever the run/],
      ['requests>0', /holds whatever the run/],
      ['requests!=0', /holds whatever the run/],
      ['rps<=0', /rps<=0: fails whatever the run: rps is above 0 in a run that is judged/],
      ['rps==0/s', /fails whatever the run/],
      ['rps>0', /holds whatever the run/],
    ] as const) {
      const parsed = parseThreshold(gate);
      expect(parsed.ok, gate).toBe(false);
      if (!parsed.ok) expect(parsed.message).toMatch(why);
    }
    for (const gate of [
      'violations==0',
      'violations<1',
      'violations<=0',
      'retries<0.5',
      'p99>0',
      'rps>1',
      'rps>=0.5/s',
      'requests>1',
      'requests==1',
      'errors>0.5',
    ])
      expect(parseThreshold(gate).ok, gate).toBe(true);
  });

  it('never throw on any string, and take every well-formed expression', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        const parsed = parseThreshold(text);
        expect(typeof parsed.ok).toBe('boolean');
      }),
      { numRuns: 2_000 },
    );
    const metric = fc.constantFrom('p50', 'p90', 'p99', 'p(95)', 'max');
    const op = fc.constantFrom('<', '<=', '>', '>=', '==', '!=');
    fc.assert(
      // From 1: `p99>=0` holds and `p99<0` fails whatever the run, and are refused.
      fc.property(metric, op, fc.integer({ min: 1, max: 100_000 }), fc.constantFrom('', 'ms', 's'), (m, o, n, unit) => {
        const parsed = parseThreshold(`${m}${o}${n}${unit}`);
        expect(parsed.ok).toBe(true);
        if (parsed.ok) expect(Number.isNaN(judge([parsed.threshold], FIGURES)[0]!.actual)).toBe(false);
      }),
    );
  });
});

describe('listeners', () => {
  const rates = { skipRate: 0.3, pauseRate: 0.2, seekRate: 0.2 };
  const plans = (seed: number, player: number) => {
    const random = listenerRandom(seed, player);
    return Array.from({ length: 50 }, () => planTrack(random, rates, 200_000));
  };

  it('are the same for the same seed, and differ between players and seeds', () => {
    expect(plans(7, 3)).toEqual(plans(7, 3));
    expect(plans(7, 3)).not.toEqual(plans(7, 4));
    expect(plans(7, 3)).not.toEqual(plans(8, 3));
  });

  it('skip, pause and seek at about their rates, inside the track', () => {
    const all = Array.from({ length: 40 }, (_, p) => plans(1, p + 1)).flat();
    const share = (action: string) => all.filter((plan) => plan.action === action).length / all.length;
    expect(share('skip')).toBeCloseTo(0.3, 1);
    expect(share('pause')).toBeCloseTo(0.2, 1);
    expect(share('seek')).toBeCloseTo(0.2, 1);
    for (const plan of all) {
      expect(plan.atMs).toBeGreaterThan(0);
      expect(plan.atMs).toBeLessThan(200_000);
    }
  });
});

describe('the fleet’s series', () => {
  it('keeps a long fleet’s whole curve within its cap, merging neighbouring ticks', () => {
    const metrics = new FleetMetrics();
    const byState = { IDLE: 0, BUFFERING: 0, PLAYING: 1, PAUSED: 0, SUSPENDED: 0 };
    const exchange = {
      endpoint: 'version',
      retry: 1,
      status: 200,
      latencyMs: 2,
      violations: [],
    } as unknown as PlayerExchange;
    for (let second = 1; second <= MAX_TICKS * 3; second++) {
      metrics.record(exchange);
      metrics.tick(second * 1_000, second * 1_000, byState);
    }
    expect(metrics.series.length).toBeLessThanOrEqual(MAX_TICKS);
    expect(metrics.series.reduce((n, t) => n + t.retries, 0)).toBe(MAX_TICKS * 3);
    expect(metrics.series.at(-1)!.atMs).toBe(MAX_TICKS * 3 * 1_000);
  });
});
