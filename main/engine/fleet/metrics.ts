/**
 * What a fleet measures of its players' exchanges: requests by endpoint and reason, statuses and
 * transport errors, retries, violations by rule (each with one sample exchange), and latency per
 * endpoint in a DDSketch, a mergeable sketch: the fleet's own percentiles are the endpoints'
 * sketches merged, as figures from several workers or machines would be.
 */
import { DDSketch } from '@datadog/sketches-js';
import type {
  FleetEndpointStats,
  FleetPlayerState,
  FleetTick,
  FleetViolationStats,
  LatencySummary,
} from '../api/fleet-types.js';
import type { PlayerExchange } from '../player/client.js';
import { isError } from './is-error.js';
import { quantileOf } from './percentile.js';

/** 1% relative error: a p99 of 250 ms is told within 2.5 ms, in a few KB a sketch. */
export const SKETCH_ACCURACY = 0.01;

export function newSketch(): DDSketch {
  return new DDSketch({ relativeAccuracy: SKETCH_ACCURACY });
}

/**
 * p50, p90 and p99 as k6 reads them (percentile.ts), up to the next tenth of a millisecond (never
 * below k6's, as percentile.ts promises: rounded to the nearest it could read 0.05 ms below, review),
 * and the exact max.
 */
export function summarize(sketch: DDSketch): LatencySummary {
  if (sketch.count === 0) return { count: 0, p50: NaN, p90: NaN, p99: NaN, max: NaN };
  // The nudge keeps a tenth that binary floating point stores a hair above it (12.3) at 12.3.
  const at = (q: number) => Math.ceil(quantileOf(sketch, q) * 10 - 1e-9) / 10;
  return { count: sketch.count, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: Math.round(sketch.max * 10) / 10 };
}

export interface TickCounts {
  requests: number;
  errors: number;
  retries: number;
  violations: number;
}

/** Ticks kept: an hour of wall seconds; past it, pairs are merged (`halveSeries`). */
export const MAX_TICKS = 3_600;

export const zeroCounts = (): TickCounts => ({ requests: 0, errors: 0, retries: 0, violations: 0 });

/** An exchange as a violation's sample: where to find it in the traffic log, and what it was. */
export function sampleOf(exchange: PlayerExchange): FleetViolationStats['sample'] {
  return {
    trafficId: exchange.trafficId,
    requestId: exchange.requestId,
    playerId: exchange.playerId,
    method: exchange.method,
    url: exchange.url,
    // An answer not read whole (over the cap, nested too deep) has no status of its own, but its
    // violation says "status 200, but …": the sample says the same status, not "no answer" (audit).
    status: exchange.status ?? exchange.failure?.status ?? null,
  };
}

/**
 * Counts and sketches are kept per endpoint and reason, under this key: the contract's summary
 * gives percentiles for each (an itemWindow `load` is not a `queueCompleted`), and an endpoint's
 * are its reasons' sketches merged.
 */
/** Causes of transport errors kept by name per endpoint and reason; the rest are `other`. */
export const FAILURE_CAUSES_KEPT = 5;
const OTHER_CAUSES = 'other';

/**
 * Counts `count` transport errors of `stats` to `cause` (at most 160 characters of it): a new
 * cause past FAILURE_CAUSES_KEPT is `other`, so a server failing every request its own way stays
 * a few lines (audit z1-5: a reset, a timeout and a redirect loop all read "no answer").
 */
export function noteFailure(stats: FleetEndpointStats, cause: string, count = 1): void {
  const failures = (stats.failures ??= {});
  let key = cause.length > 160 ? `${cause.slice(0, 159)}…` : cause;
  if (!(key in failures) && Object.keys(failures).filter((k) => k !== OTHER_CAUSES).length >= FAILURE_CAUSES_KEPT)
    key = OTHER_CAUSES;
  failures[key] = (failures[key] ?? 0) + count;
}

export function statsKey(endpoint: string, reason: string | null): string {
  return `${endpoint} ${reason ?? ''}`;
}

/** Sketches keyed by `statsKey`, merged and summed up per endpoint. */
export function latencyByEndpoint(sketches: ReadonlyMap<string, DDSketch>): Record<string, LatencySummary> {
  const byEndpoint = new Map<string, DDSketch>();
  for (const [key, sketch] of sketches) {
    const endpoint = key.slice(0, key.indexOf(' '));
    let merged = byEndpoint.get(endpoint);
    if (!merged) byEndpoint.set(endpoint, (merged = newSketch()));
    merged.merge(sketch);
  }
  return Object.fromEntries([...byEndpoint].map(([endpoint, sketch]) => [endpoint, summarize(sketch)]));
}

export class FleetMetrics {
  private readonly endpoints = new Map<string, FleetEndpointStats>();
  private readonly sketches = new Map<string, DDSketch>();
  private readonly rules = new Map<string, FleetViolationStats>();
  readonly totals = { ...zeroCounts(), transportErrors: 0 };
  /** What the current tick has seen so far. */
  private tickCounts = zeroCounts();
  readonly series: FleetTick[] = [];

  /** Whether this exchange breaks a rule no exchange broke before (its sample must be kept). */
  breaksNewRule(exchange: PlayerExchange): boolean {
    return exchange.violations.some((v) => !this.rules.has(v.rule));
  }

  record(exchange: PlayerExchange): void {
    const reason = exchange.reason ?? null;
    const key = statsKey(exchange.endpoint, reason);
    let stats = this.endpoints.get(key);
    if (!stats) {
      stats = {
        endpoint: exchange.endpoint,
        reason,
        requests: 0,
        retries: 0,
        statuses: {},
        transportErrors: 0,
        faulted: 0,
      };
      this.endpoints.set(key, stats);
    }
    // A first try sent again on a new connection is a request the server saw and a transport
    // error, though the player got its answer from the second: the counts agree with the
    // server's, and transportErrors==0 fails on it (audit).
    const tries = exchange.resentAfter ? 2 : 1;
    stats.requests += tries;
    this.totals.requests += tries;
    this.tickCounts.requests += tries;
    if (exchange.resentAfter) {
      stats.transportErrors++;
      this.totals.transportErrors++;
      noteFailure(stats, `the kept connection closed as the request went out (${exchange.resentAfter}): sent again`);
    }
    if (exchange.redirectedTo) stats.redirected = (stats.redirected ?? 0) + 1;
    if (exchange.retry > 0) {
      stats.retries++;
      this.totals.retries++;
      this.tickCounts.retries++;
    }
    if (exchange.status === undefined) {
      stats.transportErrors++;
      this.totals.transportErrors++;
      noteFailure(stats, exchange.failure?.message ?? 'no answer');
    } else stats.statuses[exchange.status] = (stats.statuses[exchange.status] ?? 0) + 1;
    if (exchange.fault) stats.faulted++;
    if (isError(exchange)) {
      this.totals.errors++;
      this.tickCounts.errors++;
    }
    let sketch = this.sketches.get(key);
    if (!sketch) this.sketches.set(key, (sketch = newSketch()));
    // Wall latency: what the server made the player wait, whatever the engine clock's speed.
    sketch.accept(Math.max(exchange.latencyMs, 0.001));
    for (const violation of exchange.violations) {
      this.totals.violations++;
      this.tickCounts.violations++;
      const known = this.rules.get(violation.rule);
      if (known) known.count++;
      else
        this.rules.set(violation.rule, {
          rule: violation.rule,
          endpoint: violation.endpoint,
          severity: violation.severity,
          count: 1,
          message: violation.message,
          sample: sampleOf(exchange),
        });
    }
  }

  /** What was counted since the last call (a worker's share of one tick). */
  takeDelta(): TickCounts {
    const delta = this.tickCounts;
    this.tickCounts = zeroCounts();
    return delta;
  }

  /** Closes the current tick with the players' states at its end (and the counts its shares saw). */
  tick(
    atMs: number,
    wallMs: number,
    byState: Record<FleetPlayerState, number>,
    counts: TickCounts = this.takeDelta(),
  ): FleetTick {
    const tick: FleetTick = { atMs: Math.round(atMs), wallMs: Math.round(wallMs), ...counts, byState };
    this.series.push(tick);
    if (this.series.length > MAX_TICKS) this.halveSeries();
    return tick;
  }

  /** Neighbouring ticks merged in pairs: a day-long fleet keeps its whole curve, at a coarser step. */
  private halveSeries(): void {
    const merged: FleetTick[] = [];
    for (let i = 0; i < this.series.length; i += 2) {
      const [a, b] = [this.series[i]!, this.series[i + 1]];
      merged.push(
        b
          ? {
              ...b,
              requests: a.requests + b.requests,
              retries: a.retries + b.retries,
              errors: a.errors + b.errors,
              violations: a.violations + b.violations,
            }
          : a,
      );
    }
    this.series.splice(0, this.series.length, ...merged);
  }

  /** The sketches as they are now, by endpoint and reason (`statsKey`). */
  sketchesByEndpoint(): ReadonlyMap<string, DDSketch> {
    return this.sketches;
  }

  /** Every endpoint's sketch merged into one: the fleet's own latency. */
  merged(): DDSketch {
    const all = newSketch();
    for (const sketch of this.sketches.values()) all.merge(sketch);
    return all;
  }

  latencyByEndpoint(): Record<string, LatencySummary> {
    return latencyByEndpoint(this.sketches);
  }

  endpointStats(): FleetEndpointStats[] {
    return [...this.endpoints.values()]
      .map((s) => ({ ...s, statuses: { ...s.statuses } }))
      .sort((a, b) => a.endpoint.localeCompare(b.endpoint) || (a.reason ?? '').localeCompare(b.reason ?? ''));
  }

  violations(): FleetViolationStats[] {
    return [...this.rules.values()].map((v) => ({ ...v, sample: { ...v.sample } })).sort((a, b) => b.count - a.count);
  }
}
