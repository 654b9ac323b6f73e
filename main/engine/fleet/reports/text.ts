/** The fleet in words: the live line a second on stderr and the one-line summary every report opens with. */
import type { FleetEndpointReport, FleetReport, FleetTick } from '../../api/fleet-types.js';
import { FLEET_PLAYER_STATES } from '../../api/fleet-types.js';
import { failuresSaid } from '../../api/fleet-failures.js';

/** To a tenth of a millisecond, as the JSON and the thresholds say it: `2ms` beside `2.1` read as two figures (audit z1-7). */
const ms = (value: number): string => (Number.isFinite(value) ? `${Math.round(value * 10) / 10}ms` : '–');

/** `t=120s  players 200 (PLAYING 198, BUFFERING 2)  req/s 35.0  p50 3ms p99 12ms  errors 0  retries/s 0  violations 0` */
export function liveLine(report: FleetReport, tick: FleetTick | undefined): string {
  const states = FLEET_PLAYER_STATES.filter((s) => report.players.byState[s] > 0)
    .map((s) => `${s} ${report.players.byState[s]}`)
    .join(', ');
  const seconds = tick ? Math.max((tick.wallMs - (report.series.at(-2)?.wallMs ?? 0)) / 1000, 0.001) : 1;
  const rate = (n: number) => (tick ? (n / seconds).toFixed(1) : '0.0');
  return (
    `t=${Math.round(report.elapsed.engineMs / 1000)}s  players ${report.players.joined}${states ? ` (${states})` : ''}` +
    `  req/s ${rate(tick?.requests ?? 0)}  p50 ${ms(report.latency.p50)} p99 ${ms(report.latency.p99)}` +
    `  errors ${report.totals.errors}  retries/s ${rate(tick?.retries ?? 0)}  violations ${report.totals.violations}`
  );
}

/** `200 players · 4,210 requests (35.1/s) · p50 3ms p90 6ms p99 12ms max 40ms · 0 errors · 0 retries · 0 violations` */
export function headline(report: FleetReport): string {
  const { totals, latency } = report;
  return (
    `${report.players.joined} player${report.players.joined === 1 ? '' : 's'} · ${totals.requests.toLocaleString('en-US')} requests (${totals.requestsPerSecond}/s)` +
    ` · p50 ${ms(latency.p50)} p90 ${ms(latency.p90)} p99 ${ms(latency.p99)} max ${ms(latency.max)}` +
    ` · ${totals.errors} errors (${(totals.errorRate * 100).toFixed(2)}%) · ${totals.retries} retries · ${totals.violations} violations`
  );
}

/**
 * `itemWindow load  200 requests · 200 ×198, 500 ×2 · 0 transport errors · 0 retries · p50 3ms p90 6ms p99 12ms max 40ms`:
 * one endpoint and reason, what the server answered (the statuses the terminal summary showed
 * none of, so "15 errors" did not say they were 401s), and how many of those the fleet's own fault
 * rules made (a 503 storm of `--fault` is not the server's).
 */
export function endpointLine(stats: FleetEndpointReport): string {
  const statuses = Object.entries(stats.statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, count]) => `${status} ×${count.toLocaleString('en-US')}`)
    .join(', ');
  const { latency } = stats;
  return (
    `${stats.endpoint}${stats.reason ? ` ${stats.reason}` : ''}  ${stats.requests.toLocaleString('en-US')} requests` +
    ` · ${statuses || 'no answer'} · ${stats.transportErrors} transport errors${failuresSaid(stats)} · ${stats.retries} retries` +
    (stats.redirected ? ` · ${stats.redirected.toLocaleString('en-US')} answered after redirects` : '') +
    (stats.faulted ? ` · ${stats.faulted.toLocaleString('en-US')} failed or delayed by fault rules` : '') +
    ` · p50 ${ms(latency.p50)} p90 ${ms(latency.p90)} p99 ${ms(latency.p99)} max ${ms(latency.max)}`
  );
}
