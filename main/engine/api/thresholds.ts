/**
 * Thresholds in k6's style (`p99<250ms`, `errors<1%`, `violations==0`), parsed strictly: a metric
 * the fleet measures, an operator, a number in the metric's own unit. Parsing answers a value,
 * never throws: a bad expression is said back with what was expected. Pure, shared with the
 * renderer: the Fleet form says a refused threshold beside its field, with the engine's words.
 */

/** Where k6's p(N) of the requests a sketch saw lies: at least `low`, at most `high` (fleet/percentile.ts). */
export interface QuantileBounds {
  low: number;
  high: number;
}

export type Operator = '<' | '<=' | '>' | '>=' | '==' | '!=';
export type MetricKind = 'latency' | 'rate' | 'count' | 'perSecond';

/** What a threshold reads of a fleet's figures. */
export interface ThresholdFigures {
  /**
   * Where k6's p(q) (q 0–1) of every request's latency lies, wall ms (percentile.ts); NaN with no
   * request. A bound from above reads the high, one from below the low: a latency sketch knows a
   * percentile within 1%, and a threshold passes only where k6 would pass it.
   */
  latencyAt(q: number): QuantileBounds;
  maxLatency: number;
  /** Share of requests that failed (0–1). */
  errorRate: number;
  counts: { requests: number; errors: number; transportErrors: number; retries: number; violations: number };
  requestsPerSecond: number;
}

export interface Threshold {
  expression: string;
  metric: string;
  kind: MetricKind;
  operator: Operator;
  /** The bound in the unit of `actual`: ms, a share 0–1, a count, per second. */
  bound: number;
  /** How the result is shown: the unit it was written in. */
  unit: 'ms' | 's' | '%' | '' | '/s';
  /** Reads the metric from the figures, in the bound's unit. */
  read(figures: ThresholdFigures): number;
  /**
   * What the verdict compares instead of `read` against `bound`: the sign of the measured value
   * less the bound, reckoned exactly. A rate is errors ÷ requests against the decimal written, in
   * whole numbers: 0.29 × 100 is 28.999999999999996, and errors<29% passed 29 errors in 100
   * (audit); in doubles, 2 errors in 14 failed errors<14.285714285714286% and passed
   * errors<=0.14285714285714285, both wrong (outside audit of 7 December 2026).
   */
  exact?: { compare(figures: ThresholdFigures): number };
}

export type ParsedThreshold = { ok: true; threshold: Threshold } | { ok: false; message: string };

const COUNTS = ['requests', 'errors', 'transportErrors', 'retries', 'violations'] as const;
const KNOWN =
  'p50, p90, p95, p99 (any pN or p(N)), max, errors (a rate), rps, requests, retries, transportErrors, violations';
const SHAPE = /^\s*([A-Za-z][A-Za-z0-9_.()]*)\s*(<=|>=|==|!=|<|>)\s*([0-9]+(?:\.[0-9]+)?)\s*(ms|s|%|\/s)?\s*$/;

export function parseThreshold(expression: string): ParsedThreshold {
  const parsed = parseShape(expression);
  if (!parsed.ok) return parsed;
  const decided = decidedBound(parsed.threshold);
  return decided ? { ok: false, message: `threshold ${expression}: ${decided}` } : parsed;
}

/**
 * What a bound says about every run, when it says the same of all: a gate that always holds
 * (`violations>=0`, `p99>=0`) passes quietly whatever the server does, one that never does
 * (`violations<0`, `errors>1`, `violations==0.5`) fails a right server (audit). Each metric has its
 * range: latencies and counts from 0 up, counts whole, the error rate 0 to all; and a run that is
 * judged at all made a request (every player asks for its context as it joins, and a fleet that
 * never played judges nothing), so its `requests` are 1 up and its `rps` above 0 (audit:
 * `requests<1` and `rps==0` were taken, and could only fail).
 */
function decidedBound({ kind, operator, bound, unit, metric }: Threshold): string | null {
  const high = kind === 'rate' ? (unit === '%' ? 100 : 1) : Infinity;
  const least = metric === 'requests' ? 1 : 0;
  // Whether the least is a value the metric takes (rps never is 0 in a judged run).
  const held = kind !== 'perSecond';
  const range =
    kind === 'rate'
      ? `from 0 to ${high}${unit}`
      : kind === 'count'
        ? `a whole number from ${least} up${least > 0 ? ' in a run that is judged' : ''}`
        : held
          ? 'from 0 up'
          : 'above 0 in a run that is judged';
  const always = 'holds whatever the run, so it checks nothing';
  const never = `fails whatever the run: ${metric} is ${range}`;
  // Below every value the metric takes: at the least when it is no value of it.
  const belowAll = held ? bound < least : bound <= least;
  // A rate bound at the whole: a mistaken gate, not one to pass quietly (errors<1 read as a share
  // passed 87% of errors). `<` it fails only a run whose every request failed; `<=` none (audit).
  const whole = kind === 'rate' && bound >= high;
  const asShare =
    kind === 'rate' && unit === ''
      ? ` (without %, ${metric} is a share from 0 to 1: write ${metric}${operator}${bound}% for a percentage)`
      : '';
  switch (operator) {
    case '<':
      return bound <= least ? never : whole ? `holds unless every request failed${asShare}` : null;
    case '<=':
      return belowAll ? never : whole ? `${always}${asShare}` : null;
    case '>':
      return bound >= high ? never : belowAll ? always : null;
    case '>=':
      return bound <= least ? always : bound > high ? never : null;
    case '==':
      return belowAll || (kind === 'count' && !Number.isInteger(bound)) ? never : null;
    case '!=':
      return belowAll || (kind === 'count' && !Number.isInteger(bound)) ? always : null;
  }
}

function parseShape(expression: string): ParsedThreshold {
  const match = SHAPE.exec(expression);
  if (!match)
    return {
      ok: false,
      message: `threshold ${JSON.stringify(expression)} is not METRIC OP NUMBER[UNIT] (e.g. p99<250ms, errors<1%, violations==0)`,
    };
  const [, name, operator, digits, unit = ''] = match as unknown as [string, string, Operator, string, string?];
  const value = Number(digits);
  if (!Number.isFinite(value)) return { ok: false, message: `threshold ${expression}: ${digits} is not a number` };
  const quantile = /^p\(?([0-9]{1,2}(?:\.[0-9]+)?)\)?$/.exec(name);
  const base = { expression: expression.trim(), metric: name, operator };
  if (quantile || name === 'max') {
    const q = quantile ? Number(quantile[1]) / 100 : 1;
    if (quantile && !(q > 0 && q < 1))
      return { ok: false, message: `threshold ${expression}: a percentile is above 0 and below 100` };
    if (unit !== '' && unit !== 'ms' && unit !== 's')
      return { ok: false, message: `threshold ${expression}: ${name} is a latency, in ms or s (e.g. ${name}<250ms)` };
    const factor = unit === 's' ? 1_000 : 1;
    const fromBelow = operator === '>' || operator === '>=';
    const percentile = (f: ThresholdFigures) => {
      const { low, high } = f.latencyAt(q);
      return fromBelow ? low : high;
    };
    return {
      ok: true,
      threshold: {
        ...base,
        kind: 'latency',
        bound: value,
        unit: unit === 's' ? 's' : 'ms',
        read: (f) => (quantile ? percentile(f) : f.maxLatency) / factor,
      },
    };
  }
  if (name === 'errors') {
    if (unit !== '' && unit !== '%')
      return {
        ok: false,
        message: `threshold ${expression}: errors is a rate, in % or as a share from 0 to 1 (e.g. errors<1%)`,
      };
    if (unit === '' && value > 1)
      return {
        ok: false,
        message: `threshold ${expression}: errors without % is a share from 0 to 1; write ${value}% for a percentage`,
      };
    if (unit === '%' && value > 100) return { ok: false, message: `threshold ${expression}: a rate is at most 100%` };
    const scale = unit === '%' ? 100 : 1;
    return {
      ok: true,
      threshold: {
        ...base,
        kind: 'rate',
        bound: value,
        unit: unit === '%' ? '%' : '',
        read: (f) => f.errorRate * scale,
        exact: { compare: shareAgainst(digits, unit === '%' ? 2 : 0) },
      },
    };
  }
  if (name === 'rps') {
    if (unit !== '' && unit !== '/s')
      return { ok: false, message: `threshold ${expression}: rps is requests per second (e.g. rps>100)` };
    return {
      ok: true,
      threshold: { ...base, kind: 'perSecond', bound: value, unit: '/s', read: (f) => f.requestsPerSecond },
    };
  }
  const count = COUNTS.find((c) => c === name);
  if (count) {
    if (unit !== '')
      return { ok: false, message: `threshold ${expression}: ${name} is a count, without a unit (e.g. ${name}==0)` };
    return { ok: true, threshold: { ...base, kind: 'count', bound: value, unit: '', read: (f) => f.counts[count] } };
  }
  return {
    ok: false,
    message: `threshold ${expression}: unknown metric ${JSON.stringify(name)}; the metrics are ${KNOWN}`,
  };
}

/**
 * The sign of errors ÷ requests less the decimal `digits` × 10^-`places`, in whole numbers: errors
 * × 10^k against the decimal's digits × requests. No request at all is a rate of 0.
 */
function shareAgainst(digits: string, places: number): (figures: ThresholdFigures) => number {
  const [whole = '', fraction = ''] = digits.split('.');
  const bound = BigInt(whole + fraction);
  const scale = 10n ** BigInt(fraction.length + places);
  return ({ counts: { errors, requests } }) => {
    if (requests === 0) return bound === 0n ? 0 : -1;
    const measured = BigInt(errors) * scale;
    const against = bound * BigInt(requests);
    return measured === against ? 0 : measured < against ? -1 : 1;
  };
}

/** Every expression parsed, or the first one that is not, said. */
export function parseThresholds(
  expressions: readonly string[],
): { ok: true; thresholds: Threshold[] } | { ok: false; message: string } {
  const thresholds: Threshold[] = [];
  for (const expression of expressions) {
    const parsed = parseThreshold(expression);
    if (!parsed.ok) return parsed;
    thresholds.push(parsed.threshold);
  }
  return { ok: true, thresholds };
}
