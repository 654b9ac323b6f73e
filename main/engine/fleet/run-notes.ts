/**
 * What a fleet's report says of how it ran, beside its figures: time that was not real time,
 * threads too busy to measure on time, and players that joined in a burst.
 *
 * A fleet measures a request's latency in wall time, from its send to its answer read. When the
 * fleet's own threads are short of a core, an answer that came on time waits for its thread, and
 * the server is blamed for the wait (audit: 1,000 players of huge answers ran their timers 2.7 s
 * late, and requests "took" 12.5 s). The lateness probe (a timer every 100 ms in each thread, how
 * late it fired) measures that wait; past BUSY_P99_MS the report says so, beside the figures it
 * taints, so that a latency threshold failed by the fleet is not read as the server's.
 */
import type { FleetEndpointStats, LatencySummary } from '../api/fleet-types.js';

/** Timers late by this much at p99: the thread waited on a core for a good share of a request's time. */
export const BUSY_P99_MS = 100;

export function busyNote(lateness: LatencySummary, players: number, workers: number): string | null {
  if (lateness.count === 0 || !(lateness.p99 >= BUSY_P99_MS)) return null;
  const threads = `${workers} thread${workers === 1 ? '' : 's'}`;
  return (
    `the fleet's own threads were busy: their timers fired ${formatMs(lateness.p99)} late at p99 (${formatMs(lateness.max)} at most), ` +
    `so a request's latency may hold that much of the fleet's own waiting, not the server's. ` +
    `${players.toLocaleString('en-US')} players on ${threads} were more than this machine plays on time: ` +
    `fewer players, or the Artillery engine across machines (docs/fleet.md), measure the server alone`
  );
}

/**
 * Players joining faster than this a real second send their first requests (a context and a load
 * each) in a burst whose latency is partly the fleet's own: 200 joined at once read a p99 of
 * 351 ms where a client of their own measured 119–132 ms against the same server, and the
 * lateness probe saw nothing past its bound (outside audit of 7 December 2026: the wait was in
 * opening 200 connections and reading their answers, not in timers).
 */
export const BURST_PER_SECOND = 100;

/** Said when the players joined in a burst (`rampMs` of engine time, at `speed`, in a fleet of `durationMs`). */
export function burstNote(players: number, rampMs: number, speed: number, durationMs: number): string | null {
  const realRampMs = rampMs / speed;
  if (players < BURST_PER_SECOND || players <= (BURST_PER_SECOND * realRampMs) / 1_000) return null;
  const joined =
    realRampMs === 0
      ? `${players.toLocaleString('en-US')} players joined at once`
      : `${players.toLocaleString('en-US')} players joined in ${formatMs(realRampMs)} of real time`;
  // A ramp that joins BURST_PER_SECOND a real second, in the engine seconds a ramp is given in.
  const ramp = Math.ceil(Math.ceil(players / BURST_PER_SECOND) * speed);
  return (
    `${joined}: their first requests went out together, so the start's latencies hold the burst's queueing, ` +
    `the fleet's own (connections opened at once on this machine) as well as the server's. ` +
    `A ramp of ${ramp} s or more (--ramp ${ramp}s${ramp * 1_000 > durationMs ? `, with a --duration at least as long: a ramp is part of the run` : ''}) spreads the joins as listeners come, and measures the server alone`
  );
}

/** Said whenever the fleet's time is not real time. */
export function timeNote(speed: number, durationMs: number): string | null {
  if (speed === 1) return null;
  const listening = formatMs(durationMs);
  const real = formatMs(durationMs / speed);
  return speed > 1
    ? `speed ${speed}: time is compressed, each real second is ${speed} s of listening (${listening} of listening in ${real})`
    : `speed ${speed}: time is slowed, each real second is ${speed} s of listening (${listening} of listening in ${real})`;
}

/** `150 ms`, `2.7 s`, `10 min`, `1.5 h`. */
export function formatMs(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 6_000) / 10} min`;
  return `${Math.round(ms / 360_000) / 10} h`;
}

/** Errors a request meets on the fleet's own machine, before it reaches any server. */
const OWN_LIMITS: Record<string, string> = {
  EMFILE: 'this process had every file descriptor it may open',
  ENFILE: 'the machine had every file descriptor it may open',
  EADDRNOTAVAIL: 'the machine ran out of local ports',
  ENOBUFS: 'the machine ran out of network buffers',
};

/** Requests that failed on the fleet's own machine, by code, with their total; null with none. */
function ownLimitFailures(
  endpoints: readonly Pick<FleetEndpointStats, 'failures'>[],
): { total: number; codes: string; said: string } | null {
  const counts = new Map<string, number>();
  for (const { failures } of endpoints)
    for (const [cause, count] of Object.entries(failures ?? {})) {
      const code = Object.keys(OWN_LIMITS).find((name) => new RegExp(`\\b${name}\\b`).test(cause));
      if (code) counts.set(code, (counts.get(code) ?? 0) + count);
    }
  if (counts.size === 0) return null;
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  const each = [...counts].map(([code, count]) => [`${code} ×${count.toLocaleString('en-US')}`, OWN_LIMITS[code]]);
  return {
    total,
    codes: each.map(([counted]) => counted).join(', '),
    said: each.map(([counted, why]) => `${counted}: ${why}`).join('; '),
  };
}

const requestsSaid = (n: number) => `${n.toLocaleString('en-US')} request${n === 1 ? '' : 's'}`;

/**
 * Said when requests failed on the fleet's own machine (outsider: 20,000 players, the documented
 * most, on a machine that let a process open 20,000 files: 6,004 `EMFILE` counted as the server's
 * errors, and `errors<1%` failed the server for them).
 */
export function ownLimitNote(endpoints: readonly Pick<FleetEndpointStats, 'failures'>[]): string | null {
  const own = ownLimitFailures(endpoints);
  if (!own) return null;
  return (
    `${requestsSaid(own.total)} failed on this machine, before reaching the server (${own.said}): ` +
    `they count as errors in the figures, and no threshold is judged, for the server did not get the load asked for. ` +
    `Raise the open-files limit (ulimit -n: each player holds a connection, and the reference server in the same process one more for each), or play fewer players on one machine`
  );
}

/**
 * Why no threshold is judged when requests failed on the fleet's own machine, or null: an errors
 * threshold they failed blamed the server, and a latency one they let pass was measured under less
 * load than asked (after "not judged: ").
 */
export function ownLimitsWhy(endpoints: readonly Pick<FleetEndpointStats, 'failures'>[]): string | null {
  const own = ownLimitFailures(endpoints);
  return own
    ? `${requestsSaid(own.total)} failed on this machine before reaching the server (${own.codes}): raise ulimit -n or play fewer players`
    : null;
}
