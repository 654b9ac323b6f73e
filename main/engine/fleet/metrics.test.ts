import { describe, expect, it } from 'vitest';
import type { PlayerExchange } from '../player/client.js';
import { isError } from './is-error.js';
import { FleetMetrics, newSketch, sampleOf, summarize } from './metrics.js';
import { latencyFigures } from './percentile.js';
import { parseThresholds } from '../api/thresholds.js';
import { judge } from './judge.js';
import { emptySnapshot, mergeShares } from './merge.js';
import { endpointLine } from './reports/text.js';
import type { ShareSnapshot } from './share.js';

const exchange = (change: Partial<PlayerExchange>): PlayerExchange => ({
  requestId: 'r',
  playerId: 'p',
  endpoint: 'context',
  method: 'GET',
  url: 'http://127.0.0.1/q/context',
  retry: 0,
  requestHeaders: {},
  startedAt: 0,
  wallAt: 0,
  durationMs: 1,
  latencyMs: 1,
  violations: [],
  trafficId: null,
  ...change,
});

describe('what the fleet counts as an error', () => {
  it('is an answer the player could not use: none, not 2xx, or a 2xx it could not read', () => {
    expect(isError(exchange({ status: 200 }))).toBe(false);
    expect(isError(exchange({ status: 204, endpoint: 'timePlayed' }))).toBe(false);
    expect(isError(exchange({ status: 503 }))).toBe(true);
    expect(isError(exchange({ failure: { kind: 'incomplete', message: 'no complete response within 10 s' } }))).toBe(
      true,
    );
    // A server's HTML page answered with 200: the player has no context, the fleet an error.
    expect(isError(exchange({ status: 200, failure: { kind: 'other', status: 200, message: 'not JSON' } }))).toBe(true);
  });

  it('is not a skip refused with 403, which the player takes as the skip answered: the track plays on', () => {
    const refused = { status: 403, failure: { kind: 'other', status: 403, message: 'SKIP_LIMIT_REACHED' } } as const;
    expect(isError(exchange({ ...refused, reason: 'skipNext' }))).toBe(false);
    expect(isError(exchange({ ...refused, reason: 'skipPrev' }))).toBe(false);
    // Any other request's 403 is one: the player could not use it.
    expect(isError(exchange({ ...refused, reason: 'refresh' }))).toBe(true);
    expect(isError(exchange({ ...refused, endpoint: 'context' }))).toBe(true);
    expect(isError(exchange({ status: 500, reason: 'skipNext' }))).toBe(true);
  });

  it('counts a 2xx it could not read among the errors, under its status, not as a transport error', () => {
    const metrics = new FleetMetrics();
    metrics.record(exchange({ status: 200 }));
    metrics.record(exchange({ status: 200, failure: { kind: 'other', status: 200, message: 'not JSON' } }));
    expect(metrics.totals).toMatchObject({ requests: 2, errors: 1, transportErrors: 0 });
    expect(metrics.endpointStats()[0]!.statuses).toEqual({ 200: 2 });
  });

  it('counts a first try sent again on a new connection as a request and a transport error, as the server saw it', () => {
    const metrics = new FleetMetrics();
    metrics.record(exchange({ status: 200 }));
    metrics.record(exchange({ status: 200, resentAfter: 'ECONNRESET' }));
    // The player got its answer (no error), but the server had two requests and dropped one (audit).
    expect(metrics.totals).toMatchObject({ requests: 3, errors: 0, transportErrors: 1 });
    expect(metrics.endpointStats()[0]).toMatchObject({ requests: 3, transportErrors: 1, statuses: { 200: 2 } });
  });
});

describe('what ended the transport errors, and redirects followed (audit z1-4, z1-5)', () => {
  const failed = (message: string) => exchange({ failure: { kind: 'incomplete', message } });

  it('counts each transport error by its cause, the most common five by name and the rest as other', () => {
    const metrics = new FleetMetrics();
    metrics.record(failed('no complete response within 10 s'));
    metrics.record(failed('no complete response within 10 s'));
    metrics.record(failed('connection failed: ECONNRESET'));
    metrics.record(exchange({ status: 200, resentAfter: 'ECONNRESET' }));
    for (const n of [1, 2, 3, 4]) metrics.record(failed(`cause ${n}`));
    metrics.record(exchange({ status: 200 }));
    expect(metrics.endpointStats()[0]!.failures).toEqual({
      'no complete response within 10 s': 2,
      'connection failed: ECONNRESET': 1,
      'the kept connection closed as the request went out (ECONNRESET): sent again': 1,
      'cause 1': 1,
      'cause 2': 1,
      other: 2,
    });
    expect(metrics.totals.transportErrors).toBe(8);
  });

  it('counts the requests answered after redirects, which the statuses do not show', () => {
    const metrics = new FleetMetrics();
    metrics.record(exchange({ status: 200, redirectedTo: 'http://127.0.0.1/q/context?r=1' }));
    metrics.record(exchange({ status: 200 }));
    expect(metrics.endpointStats()[0]).toMatchObject({ requests: 2, redirected: 1, statuses: { 200: 2 } });
    expect(metrics.endpointStats()[0]).not.toHaveProperty('failures');
  });

  it('adds up causes and redirects across threads, and says them on the endpoint line', () => {
    const share = (cause: string, n: number) => {
      const metrics = new FleetMetrics();
      for (let i = 0; i < n; i++) metrics.record(failed(cause));
      metrics.record(exchange({ status: 200, redirectedTo: 'http://127.0.0.1/elsewhere' }));
      return metrics.endpointStats();
    };
    const snapshot = (endpoints: ReturnType<FleetMetrics['endpointStats']>) =>
      ({ ...emptySnapshot(), endpoints }) as ShareSnapshot;
    const merged = mergeShares(
      [snapshot(share('no complete response within 10 s', 3)), snapshot(share('connection failed: ECONNRESET', 1))],
      new Map(),
    );
    const stats = merged.endpoints[0]!;
    expect(stats).toMatchObject({
      transportErrors: 4,
      redirected: 2,
      failures: { 'no complete response within 10 s': 3, 'connection failed: ECONNRESET': 1 },
    });
    expect(endpointLine({ ...stats, latency: summarize(newSketch()) })).toMatch(
      / · 4 transport errors \(no complete response within 10 s ×3; connection failed: ECONNRESET ×1\) · 0 retries · 2 answered after redirects · /,
    );
  });
});

describe('latency percentiles', () => {
  const sketchOf = (values: number[]) => {
    const sketch = newSketch();
    for (const value of values) sketch.accept(value);
    return sketch;
  };
  const figures = (sketch: ReturnType<typeof newSketch>) => ({
    ...latencyFigures(sketch),
    errorRate: 0,
    counts: { requests: sketch.count, errors: 0, transportErrors: 0, retries: 0, violations: 0 },
    requestsPerSecond: 1,
  });
  const verdicts = (sketch: ReturnType<typeof newSketch>, ...expressions: string[]) => {
    const parsed = parseThresholds(expressions);
    if (!parsed.ok) throw new Error(parsed.message);
    return judge(parsed.thresholds, figures(sketch)).map((r) => [r.expression, r.ok, r.actual]);
  };

  // The audit's two servers: every answer 3,030–3,042 ms, or every answer 2,986–2,996 ms. The
  // sketch's 1% put p99 at 3,011.6 in the first and at 3,012 in the second.
  it('never below the least seen: every request at 3,030 ms or more fails p99<3020ms', () => {
    const sketch = sketchOf(Array.from({ length: 24 }, (_, i) => 3_030 + (i % 13)));
    expect(summarize(sketch).p50).toBeGreaterThanOrEqual(3_030);
    expect(verdicts(sketch, 'p99<3020ms', 'p50<3020ms')).toEqual([
      ['p99<3020ms', false, expect.any(Number)],
      ['p50<3020ms', false, expect.any(Number)],
    ]);
  });

  it('never above the most seen: every request under 3 s passes p50<3s and p99<3s', () => {
    const sketch = sketchOf(Array.from({ length: 24 }, (_, i) => 2_986 + (i % 11)));
    const summary = summarize(sketch);
    expect(summary.p99).toBeLessThanOrEqual(summary.max);
    expect(verdicts(sketch, 'p50<3s', 'p99<3s', 'max<3s').map(([, ok]) => ok)).toEqual([true, true, true]);
  });

  it('says a latency to a tenth of a millisecond, not to the sketch’s thousandths', () => {
    const sketch = sketchOf([10.123, 250.789, 251.456]);
    const [[, , actual]] = verdicts(sketch, 'p50<1s').slice(0, 1) as [[string, boolean, number]];
    expect(String(actual).split('.')[1]?.length ?? 0).toBeLessThanOrEqual(4);
    const [[, , ms]] = verdicts(sketch, 'p90<300ms') as [[string, boolean, number]];
    expect(String(ms).split('.')[1]?.length ?? 0).toBeLessThanOrEqual(1);
  });
});

describe('a violation’s sample', () => {
  it('says the status of an answer the player did not read whole, as the violation does', () => {
    const refused = exchange({
      endpoint: 'itemWindow',
      violations: [
        { endpoint: 'itemWindow', severity: 'malformed', rule: 'itemWindow.size', message: 'status 200, but …' },
      ],
      failure: { kind: 'other', status: 200, message: 'over 8 MB' },
    });
    expect(sampleOf(refused).status).toBe(200);
    expect(
      sampleOf(exchange({ failure: { kind: 'incomplete', message: 'no complete response within 10 s' } })).status,
    ).toBeNull();
  });
});
