/**
 * The reports carry the server's own words (its messages, headers and bodies are in the cases'
 * messages and exchanges): every report is read back by a parser, whatever the server sent
 * (`]]>`, NUL, escape sequences, `</script>`, `<!--`, lone surrogates), and says what it says in
 * the order a person works through it: failures, warnings, then the passes folded.
 */
import { Window } from 'happy-dom';
import { parse, type TestCase, type TestSuites } from 'junit2json';
import { describe, expect, it } from 'vitest';
import type { ConformanceCaseResult, ConformanceExchange, ConformanceRun } from '../../api/conformance-types.js';
import { exportRun } from './export.js';
import { escapeHtml, runHtml } from './html.js';
import { runJUnit } from './junit.js';
import { terminalSafe, xmlSafe } from './text.js';

const hostile = `]]> \u0000\u0001 \u001b[31mred\u001b[0m </script><script>alert("x")</script> <!-- & <img src=x onerror='y'> \uD800 \uDFFF \uFFFE`;
/** What a report can hold of it. */
const kept = xmlSafe(hostile);

const exchange: ConformanceExchange = {
  method: 'GET',
  url: `http://127.0.0.1:9/q/itemWindow?itemId=${hostile}`,
  status: 200,
  failure: null,
  requestHeaders: { authorization: 'Bearer abcd•••', 'x-conformance-case': 'item-window.unknown-item' },
  requestBody: null,
  responseHeaders: { 'content-type': 'application/json', 'x-hostile': hostile },
  responseBody: { text: `{"error":${JSON.stringify(hostile)}}`, bytes: 10_000, cut: true },
  latencyMs: 4,
};

const result = (
  id: string,
  outcome: ConformanceCaseResult['outcome'],
  message: string,
  extra: Partial<ConformanceCaseResult> = {},
): ConformanceCaseResult => ({
  id,
  rule: 'docs/contract/platform.md §7.1',
  title: `${id} ${hostile}`,
  outcome,
  message,
  trafficIds: [],
  durationMs: 3,
  ...extra,
});

const run: ConformanceRun = {
  id: 'run-1',
  baseUrl: `http://127.0.0.1:9/q/?a=<b>`,
  authorization: 'Bearer abcd•••',
  rerunNeedsAuthorization: false,
  status: 'failed',
  startedAt: Date.UTC(2025, 0, 2, 3, 4, 5),
  finishedAt: Date.UTC(2025, 0, 2, 3, 4, 7),
  summary: { total: 5, pass: 1, fail: 2, warn: 1, skip: 1 },
  error: null,
  rerunOf: null,
  cases: [
    result('context', 'pass', `GET /context: 200 ${hostile}`),
    result(
      'item-window.unknown-item',
      'fail',
      `GET /itemWindow: expected 404, got 200 (${hostile}); and another finding`,
      {
        exchanges: [exchange, { ...exchange, status: null, failure: hostile, responseBody: null }],
        exchangesLeftOut: 3,
        curl: `curl 'http://127.0.0.1:9/q/itemWindow?itemId=${hostile}' \\\n  -H "Authorization: $AUTHORIZATION"`,
      },
    ),
    result('auth.wrong-token', 'warn', `GET /context: 403 ${hostile}`, { exchanges: [exchange], curl: 'curl x' }),
    result('time-played.final', 'skip', `skipped: ${hostile}`),
    result('version', 'fail', 'GET /version: expected "v1", got "v2"', { exchanges: [exchange], curl: 'curl y' }),
  ],
};

/** XML 1.0's `Char` production, over the whole document. */
const XML_DOCUMENT_CHARS = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

describe('the JUnit report', () => {
  it("is XML 1.0 whatever the server sent, and reads back with the server's words, evidence and skip reasons", async () => {
    const xml = runJUnit(run);
    expect(xml).toMatch(XML_DOCUMENT_CHARS);
    const suite = ((await parse(xml)) as TestSuites).testsuite![0]!;
    expect(suite).toMatchObject({ tests: 5, failures: 2, skipped: 1 });
    const byId = (id: string) =>
      suite.testcase!.find((c) => c.name!.startsWith(`${id}:`)) as TestCase & { skipped?: { message?: string }[] };
    expect(byId('context').name).toBe(`context: context ${kept}`);
    const failing = byId('item-window.unknown-item');
    expect(failing.failure![0]!.message).toBe(`GET /itemWindow: expected 404, got 200 (${kept}); and another finding`);
    const output = failing['system-out']!.join('');
    expect(output).toContain(`-H "Authorization: $AUTHORIZATION"`);
    expect(output).toContain(`< x-hostile: ${kept}`);
    expect(output).toContain(
      `< (body, the first ${Buffer.byteLength(exchange.responseBody!.text)} of 10000 bytes)\n{"error":`,
    );
    expect(output).toContain('… and 3 more exchanges, not kept in the report');
    expect(byId('auth.wrong-token')['system-out']!.join('')).toMatch(/^warning: GET \/context: 403 /);
    expect(byId('time-played.final').skipped![0]!.message).toBe(`skipped: ${kept}`);
  });

  it('says a run that could not reach its server', async () => {
    const unreachable = (
      (await parse(
        runJUnit({ ...run, cases: [], error: { kind: 'unreachable', message: `cannot reach ${hostile}` } }),
      )) as TestSuites
    ).testsuite![0]!;
    expect(unreachable).toMatchObject({ tests: 1, failures: 1 });
    expect(unreachable.testcase![0]).toMatchObject({
      name: 'the server can be reached',
      failure: [{ message: `cannot reach ${kept}` }],
    });
  });
});

describe('the HTML report', () => {
  const page = () => new new Window().DOMParser().parseFromString(runHtml(run), 'text/html');

  it('holds none of the characters HTML calls parse errors: DEL, the C1 controls, noncharacters (audit D7)', () => {
    const raw = `ESC \u001b[2J bell \u0007 del \u007f csi \u009b31m nel \u0085 nonchar \ufdd0 \u{1fffe} end`;
    const html = escapeHtml(raw);
    // eslint-disable-next-line no-control-regex -- control characters are what it looks for
    expect(html).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\p{Noncharacter_Code_Point}/u);
    expect(html).toBe('ESC [2J bell  del  csi 31m nel  nonchar   end');
  });

  it('escapes everything the run holds, and carries no script, link or external asset', () => {
    const html = runHtml(run);
    expect(html).toMatch(XML_DOCUMENT_CHARS);
    expect(html).not.toMatch(/<script|<img|<b>|<!--/);
    expect(html).toContain(escapeHtml(hostile));
    expect(html).not.toMatch(/<link|<[a-z][^>]*\b(src|href)=|@import|url\(/i);
    const doc = page();
    expect(doc.querySelectorAll('script, img, link')).toHaveLength(0);
    expect(doc.querySelector('#case-item-window\\.unknown-item .sentence')!.textContent).toBe(
      `GET /itemWindow: expected 404, got 200 (${kept})`,
    );
  });

  it('shows failures first, then warnings, each with its sentence, curl and exchanges; then the passes and skips folded', () => {
    const doc = page();
    const sections = [...doc.querySelectorAll('body > section')].map((section) => section.className);
    expect(sections).toEqual(['failures', 'warnings', 'passes']);
    expect(
      [...doc.querySelectorAll('.failures article')].map((a) => a.getAttribute('data-outcome') + ' ' + a.id),
    ).toEqual(['fail case-item-window.unknown-item', 'fail case-version']);
    expect([...doc.querySelectorAll('.warnings article')].map((a) => a.id)).toEqual(['case-auth.wrong-token']);
    const failing = doc.querySelector('#case-item-window\\.unknown-item')!;
    expect(failing.querySelector('pre.curl')!.textContent).toBe(run.cases[1]!.curl!.replace(hostile, kept));
    expect(failing.querySelectorAll('details.exchange')).toHaveLength(2);
    expect(failing.querySelector('details.exchange')!.hasAttribute('open')).toBe(true);
    expect(failing.querySelector('details.exchange summary')!.textContent).toContain('→ 200 (4 ms)');
    const folded = doc.querySelector('.passes > details')!;
    expect(folded.hasAttribute('open')).toBe(false);
    // Folded under their count: the summary says how many, the rows stay closed below it.
    expect(folded.querySelector('summary')!.textContent).toBe('Passed (1) and skipped (1)');
    expect([...folded.querySelectorAll('tr[data-outcome]')].map((row) => row.getAttribute('data-outcome'))).toEqual([
      'pass',
      'skip',
    ]);
    expect(doc.body.textContent).toContain('1 passed, 1 warned, 2 failed, 1 skipped, of 5 cases');
  });
});

describe('the JSON report', () => {
  it('is the run, with its evidence, read back by JSON.parse; a lone surrogate as U+FFFD, for jq (audit)', () => {
    const { content } = exportRun(run, 'json');
    const report = JSON.parse(content) as ConformanceRun & { kind: string };
    expect(report.kind).toBe('cloud-queue-console/conformance-run');
    expect(report.cases[1]!.exchanges![0]!.responseHeaders['x-hostile']).toBe(
      hostile.replace('\uD800', '\uFFFD').replace('\uDFFF', '\uFFFD'),
    );
    // No escape of a lone surrogate (an escaped backslash before `ud800` is text, and stays).
    expect(content).not.toMatch(/(?<!\\)(\\\\)*\\ud[89a-f]/i);
    expect(report.cases[1]!.curl).toContain('$AUTHORIZATION');
  });
});

describe('server text on a terminal', () => {
  it('keeps no escape sequence or control character, and stays one line', () => {
    // Each sequence shown as one mark, so that what differed still differs (audit Z7).
    expect(terminalSafe(`a\u001b[31mred\u001b[0m\u001b]0;title\u0007 b\u0000c\u009bd\nline\ttab \uD800`)).toBe(
      'a\uFFFDred\uFFFD b\uFFFDc\uFFFD line tab \uFFFD',
    );
    expect(terminalSafe('x\u001b[31mred-5')).not.toBe(terminalSafe('xred-5'));
  });

  it('(audit) keeps no bidirectional override or isolate that would reorder the line as shown', () => {
    expect(terminalSafe('FAIL \u202egnissap\u202c ok \u2066x\u2069 é 😀')).toBe(
      'FAIL \uFFFDgnissap\uFFFD ok \uFFFDx\uFFFD é 😀',
    );
  });
});
