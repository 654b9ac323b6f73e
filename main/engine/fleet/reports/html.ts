/**
 * A fleet as one self-contained HTML page: its summary, thresholds, charts (requests, retries and
 * errors per wall second; players by state over time) as inline SVG, the endpoints' counts,
 * statuses and latency percentiles, and the violations by rule with their sample's traffic entry.
 */
import type { FleetReport } from '../../api/fleet-types.js';
import { FLEET_PLAYER_STATES } from '../../api/fleet-types.js';
import { failuresSaid } from '../../api/fleet-failures.js';
import { fleetWord } from '../../api/fleet-word.js';
import { escapeHtml as e } from '../../conformance/reports/html.js';
import { lineChart } from './svg.js';
import { headline } from './text.js';

const STATE_COLORS: Record<string, string> = {
  IDLE: '#888',
  BUFFERING: '#d98b00',
  PLAYING: '#1a7f37',
  PAUSED: '#0969da',
  SUSPENDED: '#8250df',
};
const num = (v: number) => (Number.isFinite(v) ? String(v) : '–');

export function fleetHtml(report: FleetReport): string {
  const xs = report.series.map((t) => t.atMs / 1000);
  const charts = [
    lineChart('Requests, retries and errors per wall second', xs, [
      { label: 'requests', color: '#0969da', values: report.series.map((t) => t.requests) },
      { label: 'retries', color: '#d98b00', values: report.series.map((t) => t.retries) },
      { label: 'errors', color: '#cf222e', values: report.series.map((t) => t.errors) },
    ]),
    lineChart(
      'Players by state',
      xs,
      FLEET_PLAYER_STATES.map((s) => ({
        label: s,
        color: STATE_COLORS[s]!,
        values: report.series.map((t) => t.byState[s]),
      })),
    ),
  ].join('\n');
  const thresholds = report.thresholds.length
    ? `<table><tr><th>threshold</th><th>measured</th><th></th></tr>${report.thresholds
        .map((t) =>
          t.notJudged
            ? `<tr><td><code>${e(t.expression)}</code></td><td colspan="2">${e(t.notJudged)}</td></tr>`
            : `<tr><td><code>${e(t.expression)}</code></td><td>${num(t.actual)}${e(t.unit)}</td><td class="${t.ok ? 'ok' : 'bad'}">${t.ok ? 'holds' : 'FAILS'}</td></tr>`,
        )
        .join('')}</table>`
    : '<p>No threshold was set.</p>';
  const endpoints = `<table><tr><th>endpoint</th><th>reason</th><th>requests</th><th>retries</th><th>statuses</th><th>transport errors</th><th>by fault rules</th><th>p50</th><th>p90</th><th>p99</th><th>max</th></tr>${report.endpoints
    .map(
      (s) =>
        `<tr><td>${e(s.endpoint)}</td><td>${e(s.reason ?? '')}</td><td>${s.requests}</td><td>${s.retries}</td><td>${e(
          Object.entries(s.statuses)
            .map(([status, n]) => `${status}: ${n}`)
            .join(', '),
        )}</td><td>${s.transportErrors}${e(failuresSaid(s))}${s.redirected ? e(` · ${s.redirected} answered after redirects`) : ''}</td><td>${s.faulted}</td><td>${num(s.latency.p50)} ms</td><td>${num(s.latency.p90)} ms</td><td>${num(s.latency.p99)} ms</td><td>${num(s.latency.max)} ms</td></tr>`,
    )
    .join('')}</table>`;
  const latency = `<table><tr><th>endpoint</th><th>count</th><th>p50</th><th>p90</th><th>p99</th><th>max</th></tr>${[
    ['all', report.latency] as const,
    ...Object.entries(report.latencyByEndpoint),
  ]
    .map(
      ([name, l]) =>
        `<tr><td>${e(name)}</td><td>${l.count}</td><td>${num(l.p50)} ms</td><td>${num(l.p90)} ms</td><td>${num(l.p99)} ms</td><td>${num(l.max)} ms</td></tr>`,
    )
    .join('')}</table>`;
  const violations = report.violations.length
    ? `<table><tr><th>rule</th><th>count</th><th>first message</th><th>sample</th></tr>${report.violations
        .map(
          (v) =>
            `<tr><td><code>${e(v.rule)}</code>${v.severity === 'warning' ? ' (warning)' : ''}</td><td>${v.count}</td><td>${e(v.message)}</td><td>${e(`${v.sample.method} ${v.sample.url}`)}${
              v.sample.trafficId === null ? '' : ` (traffic #${v.sample.trafficId})`
            }</td></tr>`,
        )
        .join('')}</table>`
    : '<p>No contract violation.</p>';
  // The tab and a CI artifact's list show the title: it says the word the heading says (audit z1-10).
  const heading = `Fleet ${report.id}: ${fleetWord({ status: report.status, verdict: report.verdict, errorKind: report.error?.kind ?? null })}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${e(heading)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;max-width:60rem}table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}.ok{color:#1a7f37}.bad{color:#cf222e;font-weight:bold}figure{margin:1rem 0}figcaption{font-weight:bold}</style>
</head><body>
<h1>${e(heading)}</h1>
<p>${e(headline(report))}</p>
${report.timeNote ? `<p>${e(report.timeNote)}</p>` : ''}${report.notes.map((n) => `<p>${e(n)}</p>`).join('')}
${report.error ? `<p class="bad">${e(report.error.message)}</p>` : ''}
<p>${e(`${report.options.players} player${report.options.players === 1 ? '' : 's'} over ${report.options.baseUrl ?? 'the reference server'}, ${Math.round(report.elapsed.engineMs / 1000)} s of engine time in ${(report.elapsed.wallMs / 1000).toFixed(1)} s`)}</p>
<h2>Thresholds</h2>${thresholds}
<h2>Over time</h2>${charts}
<h2>Latency (wall ms, DDSketch, 1% relative error)</h2>${latency}
<h2>Requests by endpoint and reason</h2>${endpoints}
<h2>Contract violations by rule</h2>${violations}
</body></html>
`;
}
