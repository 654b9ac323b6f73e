/**
 * The fleet's figures from its shares' snapshots (share.ts): counts add up, endpoint stats add up
 * by endpoint and reason, sketches merge (a DDSketch merged is the sketch of all the values), and
 * violations add up by rule. A violation's sample is the one the fleet's main thread put in the
 * traffic log, so a rule broken in a worker is counted once, by the worker, and shown with the
 * exchange the log holds.
 */
import type { DDSketch } from '@datadog/sketches-js';
import type { FleetEndpointStats, FleetPlayerState, FleetViolationStats } from '../api/fleet-types.js';
import { FLEET_PLAYER_STATES } from '../api/fleet-types.js';
import { newSketch, noteFailure, statsKey, zeroCounts, type TickCounts } from './metrics.js';
import type { ShareSnapshot } from './share.js';
import { sketchOf } from './sketch-wire.js';

export interface MergedShares {
  joined: number;
  byState: Record<FleetPlayerState, number>;
  totals: TickCounts & { transportErrors: number };
  endpoints: FleetEndpointStats[];
  sketches: Map<string, DDSketch>;
  all: DDSketch;
  violations: FleetViolationStats[];
  lateness: DDSketch;
  skipped: number;
}

/** A share that has reported nothing yet: a thread lost before its first snapshot counts as this. */
export function emptySnapshot(): ShareSnapshot {
  return {
    joined: 0,
    byState: emptyByState(),
    delta: { requests: 0, errors: 0, retries: 0, violations: 0 },
    totals: { requests: 0, errors: 0, retries: 0, violations: 0, transportErrors: 0 },
    endpoints: [],
    sketches: {},
    rules: [],
    lateness: {
      count: 0,
      zeroCount: 0,
      min: Infinity,
      max: -Infinity,
      sum: 0,
      positive: { minKey: 0, counts: [] },
      negative: { minKey: 0, counts: [] },
    },
    skipped: 0,
  };
}

export function emptyByState(): Record<FleetPlayerState, number> {
  return Object.fromEntries(FLEET_PLAYER_STATES.map((s) => [s, 0])) as Record<FleetPlayerState, number>;
}

/** The counts of one tick: what every share saw since its last snapshot. */
export function sumDeltas(snapshots: readonly ShareSnapshot[]): TickCounts {
  const sum = zeroCounts();
  for (const { delta } of snapshots) {
    sum.requests += delta.requests;
    sum.errors += delta.errors;
    sum.retries += delta.retries;
    sum.violations += delta.violations;
  }
  return sum;
}

export function mergeShares(
  snapshots: readonly ShareSnapshot[],
  samples: ReadonlyMap<string, FleetViolationStats['sample']>,
): MergedShares {
  const byState = emptyByState();
  const totals = { ...zeroCounts(), transportErrors: 0 };
  const endpoints = new Map<string, FleetEndpointStats>();
  const sketches = new Map<string, DDSketch>();
  const rules = new Map<string, FleetViolationStats>();
  const lateness = newSketch();
  let joined = 0;
  let skipped = 0;
  for (const snap of snapshots) {
    joined += snap.joined;
    skipped += snap.skipped;
    for (const state of FLEET_PLAYER_STATES) byState[state] += snap.byState[state];
    for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] += snap.totals[key];
    for (const stats of snap.endpoints) {
      const key = statsKey(stats.endpoint, stats.reason);
      const known = endpoints.get(key);
      if (!known)
        endpoints.set(key, {
          ...stats,
          statuses: { ...stats.statuses },
          ...(stats.failures ? { failures: { ...stats.failures } } : {}),
        });
      else {
        known.requests += stats.requests;
        known.retries += stats.retries;
        known.transportErrors += stats.transportErrors;
        known.faulted += stats.faulted;
        for (const [status, n] of Object.entries(stats.statuses))
          known.statuses[status] = (known.statuses[status] ?? 0) + n;
        for (const [cause, n] of Object.entries(stats.failures ?? {})) noteFailure(known, cause, n);
        if (stats.redirected) known.redirected = (known.redirected ?? 0) + stats.redirected;
      }
    }
    for (const [endpoint, data] of Object.entries(snap.sketches)) {
      const sketch = sketches.get(endpoint);
      if (sketch) sketch.merge(sketchOf(data));
      else sketches.set(endpoint, sketchOf(data));
    }
    for (const rule of snap.rules) {
      const known = rules.get(rule.rule);
      if (known) known.count += rule.count;
      else rules.set(rule.rule, { ...rule, sample: samples.get(rule.rule) ?? { ...rule.sample } });
    }
    lateness.merge(sketchOf(snap.lateness));
  }
  const all = newSketch();
  for (const sketch of sketches.values()) all.merge(sketch);
  return {
    joined,
    byState,
    totals,
    endpoints: [...endpoints.values()].sort(
      (a, b) => a.endpoint.localeCompare(b.endpoint) || (a.reason ?? '').localeCompare(b.reason ?? ''),
    ),
    sketches,
    all,
    violations: [...rules.values()].sort((a, b) => b.count - a.count),
    lateness,
    skipped,
  };
}
