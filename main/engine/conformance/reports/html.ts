/**
 * A run as one self-contained HTML page: inline CSS, no script, no external asset, so that it
 * opens from a CI artifact or a mail as it is. Cases are grouped by the rule they check; every
 * text from the run (the server's own words are in the messages) is escaped.
 */
import type { ConformanceCaseResult, ConformanceOutcome, ConformanceRun } from '../../api/conformance-types.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const LABEL: Record<ConformanceOutcome, string> = { pass: 'pass', fail: 'FAIL', warn: 'warn', skip: 'skip' };

const STYLE = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 70rem; padding: 0 1rem; color: #1d1d1f; }
h1 { font-size: 1.4rem; margin: 0 0 .5rem; }
h2 { font-size: 1rem; margin: 1.5rem 0 .4rem; color: #444; }
.meta { color: #555; margin: 0 0 1rem; }
.meta code { background: #f2f2f2; padding: 0 .25rem; border-radius: 3px; }
.summary { font-weight: 600; padding: .5rem .75rem; border-radius: 6px; }
.summary.passed { background: #e7f6ea; } .summary.failed { background: #fdeaea; } .summary.running { background: #eef2fb; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid #e5e5e5; }
th { font-size: .8rem; color: #666; font-weight: 600; }
td.outcome { font-weight: 700; white-space: nowrap; width: 3.5rem; }
td.id { white-space: nowrap; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .85rem; }
td.evidence { font-size: .8rem; color: #555; width: 9rem; }
.pass { color: #1a7f37; } .fail { color: #c5221f; } .warn { color: #9a6700; } .skip { color: #6e7781; }
.message { white-space: pre-wrap; overflow-wrap: anywhere; }
.error { background: #fdeaea; padding: .75rem; border-radius: 6px; }
`;

export function runHtml(run: ConformanceRun): string {
  const { summary } = run;
  const when = new Date(run.startedAt).toISOString();
  const took = run.finishedAt === null ? 'not finished' : `${((run.finishedAt - run.startedAt) / 1000).toFixed(1)} s`;
  const groups = new Map<string, ConformanceCaseResult[]>();
  for (const result of run.cases) groups.set(result.rule, [...(groups.get(result.rule) ?? []), result]);
  const sections = [...groups].map(
    ([rule, cases]) => `<h2>${escapeHtml(rule)}</h2>
<table>
<thead><tr><th>outcome</th><th>case</th><th>what and why</th><th>traffic log entries</th></tr></thead>
<tbody>
${cases.map(row).join('\n')}
</tbody>
</table>`,
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance of ${escapeHtml(run.baseUrl)}: ${escapeHtml(run.status)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Cloud queue conformance: ${escapeHtml(run.status === 'running' ? 'running' : run.status.toUpperCase())}</h1>
<p class="meta">Server <code>${escapeHtml(run.baseUrl)}</code>${run.authorization ? `, Authorization <code>${escapeHtml(run.authorization)}</code>` : ', no Authorization'} · run <code>${escapeHtml(run.id)}</code> · started ${escapeHtml(when)} · ${escapeHtml(took)}</p>
<p class="summary ${escapeHtml(run.status)}">${summary.pass} passed, ${summary.warn} warned, ${summary.fail} failed, ${summary.skip} skipped, of ${summary.total} cases</p>
${run.error ? `<p class="error">${escapeHtml(run.error.message)}</p>` : ''}
${sections.join('\n')}
<p class="meta">The rules are those of the console's docs/contract/platform.md and docs/contract/console.md; the traffic log entries are the console's own ids, for the requests each case judged.</p>
</body>
</html>
`;
}

function row(result: ConformanceCaseResult): string {
  const ids = result.trafficIds.length ? result.trafficIds.map((id) => `#${id}`).join(', ') : '—';
  return `<tr><td class="outcome ${result.outcome}">${LABEL[result.outcome]}</td><td class="id">${escapeHtml(result.id)}</td><td><strong>${escapeHtml(result.title)}</strong><div class="message">${escapeHtml(result.message)}</div></td><td class="evidence">${escapeHtml(ids)}</td></tr>`;
}
