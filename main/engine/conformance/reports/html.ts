/**
 * A run as one self-contained HTML page: inline CSS, no script, no external asset, so that it
 * opens from a CI artifact or a mail as it is. It reads as a person works through it
 * (docs/contract/console.md §8): the failures first, then the warnings, each with what was
 * expected and what came back in one sentence, the curl that repeats its decisive request and the
 * exchanges behind it; then the passes and skips, folded. Every text from the run (the server's
 * own words are in the messages and the exchanges) is escaped, and stripped of what HTML and XML
 * forbid.
 */
import type {
  ConformanceCaseResult,
  ConformanceExchange,
  ConformanceOutcome,
  ConformanceRun,
} from '../../api/conformance-types.js';
import { AUTHORIZATION_NOTE, exchangeLine, exchangeLines } from './evidence-text.js';
import { readingOrder } from './order.js';
import { firstFinding, xmlSafe } from './text.js';
import { conformanceRunWord } from '../../api/conformance-word.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * What HTML calls a parse error on top of what XML refuses (html.spec.whatwg.org, "preprocessing
 * the input stream"): DEL and the C1 controls, and the noncharacters. A server's text carries them
 * (audit D7: an ESC-laden 403 body, a track name with U+009B), and a report must parse cleanly.
 */
const NOT_HTML_CHAR = /[\u007f-\u009f]|\p{Noncharacter_Code_Point}/gu;

/** Text as HTML: escaped, and without the characters HTML calls parse errors. */
export function escapeHtml(text: string): string {
  return xmlSafe(text)
    .replace(NOT_HTML_CHAR, '')
    .replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const LABEL: Record<ConformanceOutcome, string> = { pass: 'pass', fail: 'FAIL', warn: 'warn', skip: 'skip' };

const STYLE = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 70rem; padding: 0 1rem; color: #1d1d1f; }
h1 { font-size: 1.4rem; margin: 0 0 .5rem; }
h2 { font-size: 1.1rem; margin: 1.75rem 0 .5rem; }
h3 { font-size: 1rem; margin: 0 0 .25rem; }
.meta { color: #555; margin: 0 0 1rem; }
code, pre { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .85rem; }
.meta code { background: #f2f2f2; padding: 0 .25rem; border-radius: 3px; }
.summary { font-weight: 600; padding: .5rem .75rem; border-radius: 6px; }
.summary.passed { background: #e7f6ea; } .summary.failed { background: #fdeaea; } .summary.running { background: #eef2fb; }
.summary.stopped, .error.stopped { background: #f1f3f5; }
article { border: 1px solid #e5e5e5; border-left-width: 4px; border-radius: 6px; padding: .75rem 1rem; margin: 0 0 1rem; }
article.fail { border-left-color: #c5221f; } article.warn { border-left-color: #9a6700; }
.sentence { font-weight: 600; margin: .25rem 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.message { white-space: pre-wrap; overflow-wrap: anywhere; color: #444; }
.rule { color: #666; font-size: .85rem; }
pre { background: #f6f8fa; padding: .5rem .75rem; border-radius: 4px; white-space: pre-wrap; overflow-wrap: anywhere; margin: .25rem 0 .5rem; }
details { margin: .25rem 0; } summary { cursor: pointer; } .passes summary h2 { display: inline; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid #e5e5e5; }
th { font-size: .8rem; color: #666; font-weight: 600; }
td.outcome { font-weight: 700; white-space: nowrap; width: 3.5rem; }
td.id { white-space: nowrap; }
.pass { color: #1a7f37; } .fail { color: #c5221f; } .warn { color: #9a6700; } .skip { color: #6e7781; }
.error { background: #fdeaea; padding: .75rem; border-radius: 6px; }
`;

export function runHtml(run: ConformanceRun): string {
  const { summary } = run;
  const when = new Date(run.startedAt).toISOString();
  const took = run.finishedAt === null ? 'not finished' : `${((run.finishedAt - run.startedAt) / 1000).toFixed(1)} s`;
  const ordered = readingOrder(run.cases);
  const failures = ordered.filter((result) => result.outcome === 'fail');
  const warnings = ordered.filter((result) => result.outcome === 'warn');
  const rest = ordered.filter((result) => result.outcome === 'pass' || result.outcome === 'skip');
  const word = conformanceRunWord(run);
  const sections = [
    failures.length
      ? `<section class="failures">\n<h2>Failures (${failures.length})</h2>\n${failures.map(finding).join('\n')}\n</section>`
      : '',
    warnings.length
      ? `<section class="warnings">\n<h2>Warnings (${warnings.length})</h2>\n${warnings.map(finding).join('\n')}\n</section>`
      : '',
    rest.length ? restSection(rest) : '',
  ].filter(Boolean);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance of ${escapeHtml(run.baseUrl)}: ${escapeHtml(word)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Cloud queue conformance: ${escapeHtml(word === 'running' ? 'running' : word.toUpperCase())}</h1>
<p class="meta">Server <code>${escapeHtml(run.baseUrl)}</code>${run.authorization ? `, Authorization <code>${escapeHtml(run.authorization)}</code>` : ', no Authorization'} · run <code>${escapeHtml(run.id)}</code> · started ${escapeHtml(when)} · ${escapeHtml(took)}</p>
<p class="summary ${escapeHtml(word)}">${summary.pass} passed, ${summary.warn} warned, ${summary.fail} failed, ${summary.skip} skipped, of ${summary.total} cases</p>
${run.error ? `<p class="error ${escapeHtml(word)}">${escapeHtml(run.error.message)}</p>` : ''}
${sections.join('\n')}
<p class="meta">Each case names the rule it checks: the files cited are in the package (<code>node_modules/cloud-queue-console/docs/</code>) and in the repository's <code>docs/</code>. The Authorization a run sent is never in a report: a curl with <code>$AUTHORIZATION</code> takes it from the environment. <code>cloud-queue-console check --replay</code> re-sends the failing cases of a JSON report.</p>
</body>
</html>
`;
}

/** A failure or a warning: the one sentence, the curl, and the exchanges behind it. */
function finding(result: ConformanceCaseResult): string {
  const sentence = firstFinding(result.message);
  const exchanges = result.exchanges ?? [];
  return `<article class="${result.outcome}" id="case-${escapeHtml(result.id)}" data-outcome="${result.outcome}">
<h3><span class="${result.outcome}">${LABEL[result.outcome]}</span> <code>${escapeHtml(result.id)}</code> ${escapeHtml(result.title)}</h3>
<p class="rule">${escapeHtml(result.rule)}</p>
<p class="sentence">${escapeHtml(sentence)}</p>
${sentence === result.message ? '' : `<p class="message">${escapeHtml(result.message)}</p>`}
${result.curl ? `<p class="rule">Repeat the decisive request${result.curl.includes('$AUTHORIZATION') ? ` (${escapeHtml(AUTHORIZATION_NOTE)})` : ''}:</p>\n<pre class="curl">${escapeHtml(result.curl)}</pre>` : ''}
${exchanges.map((exchange, index) => exchangeDetails(exchange, index)).join('\n')}
${result.exchangesLeftOut ? `<p class="rule">… and ${result.exchangesLeftOut} more exchanges, not kept in the report</p>` : ''}
${result.trafficIds.length ? `<p class="rule">Traffic log entries of the console that ran it: ${escapeHtml(result.trafficIds.map((id) => `#${id}`).join(', '))}</p>` : ''}
</article>`;
}

function exchangeDetails(exchange: ConformanceExchange, index: number): string {
  const lines = exchangeLines(exchange);
  return `<details class="exchange"${index === 0 ? ' open' : ''}><summary>${index === 0 ? 'Decisive exchange' : `Exchange ${index + 1}`}: <code>${escapeHtml(exchangeLine(exchange))}</code></summary>
<pre>${escapeHtml(lines.join('\n'))}</pre></details>`;
}

/** The passes and skips, folded: a table by case, each with its rule and message. */
function restSection(rest: readonly ConformanceCaseResult[]): string {
  const passed = rest.filter((result) => result.outcome === 'pass').length;
  const skipped = rest.length - passed;
  const rows = rest.map(
    (result) =>
      `<tr data-outcome="${result.outcome}"><td class="outcome ${result.outcome}">${LABEL[result.outcome]}</td><td class="id"><code>${escapeHtml(result.id)}</code></td><td><strong>${escapeHtml(result.title)}</strong> <span class="rule">${escapeHtml(result.rule)}</span><div class="message">${escapeHtml(result.message)}</div></td></tr>`,
  );
  return `<section class="passes">
<details><summary><h2>Passed (${passed}) and skipped (${skipped})</h2></summary>
<table>
<thead><tr><th>outcome</th><th>case</th><th>what and why</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
</details>
</section>`;
}
