/**
 * The reports carry the server's own words (its error messages are quoted in the cases'
 * messages): the HTML page escapes every one of them, and groups the cases by the rule they check;
 * the JUnit XML stays well-formed whatever they hold.
 */
import { parse, type TestSuites } from 'junit2json';
import { describe, expect, it } from 'vitest';
import type { ConformanceRun } from '../../api/conformance-types.js';
import { escapeHtml, runHtml } from './html.js';
import { runJUnit } from './junit.js';

const hostile = `<script>alert("x")</script> & <img src=x onerror='y'>`;

const run: ConformanceRun = {
  id: 'run-1',
  baseUrl: `http://127.0.0.1:9/q/?a=<b>`,
  authorization: 'Bearer abcd•••',
  rerunNeedsAuthorization: false,
  status: 'failed',
  startedAt: Date.UTC(2025, 0, 2, 3, 4, 5),
  finishedAt: Date.UTC(2025, 0, 2, 3, 4, 7),
  summary: { total: 3, pass: 1, fail: 1, warn: 0, skip: 1 },
  error: null,
  rerunOf: null,
  cases: [
    { id: 'context', rule: 'docs/contract/platform.md §4.3', title: 'GET /context answers with a context', outcome: 'pass', message: 'GET /context: 200', trafficIds: [1], durationMs: 3 },
    { id: 'item-window.unknown-item', rule: 'docs/contract/platform.md §7.1', title: 'An itemId the queue does not have is answered 404', outcome: 'fail', message: `expected 404, got 400 (${hostile})`, trafficIds: [2, 3], durationMs: 4 },
    { id: 'time-played.final', rule: 'docs/contract/platform.md §2.3', title: 'POST /timePlayed accepts a valid final report', outcome: 'skip', message: hostile, trafficIds: [], durationMs: 0 },
  ],
};

describe('the HTML report', () => {
  it('escapes everything the run holds, and carries no script, link or external asset', () => {
    const html = runHtml(run);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).toContain(escapeHtml(hostile));
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;img src=x onerror=&#39;y&#39;&gt;');
    expect(html).not.toMatch(/<link|<[a-z][^>]*\b(src|href)=|@import|url\(/i);
  });

  it('groups the cases by the rule they check, each with its outcome, message and traffic log entries', () => {
    const html = runHtml(run);
    const headings = [...html.matchAll(/<h2>(.*?)<\/h2>/g)].map((m) => m[1]);
    expect(headings).toEqual(['docs/contract/platform.md §4.3', 'docs/contract/platform.md §7.1', 'docs/contract/platform.md §2.3']);
    expect(html).toContain('<td class="outcome fail">FAIL</td><td class="id">item-window.unknown-item</td>');
    expect(html).toContain('#2, #3');
    expect(html).toContain('1 passed, 0 warned, 1 failed, 1 skipped, of 3 cases');
    expect(html).toContain('started 2025-01-02T03:04:05.000Z · 2.0 s');
  });
});

describe('the JUnit report', () => {
  it('stays well-formed with the server\'s words in it, and says a run that could not reach its server', async () => {
    const suite = ((await parse(runJUnit(run))) as TestSuites).testsuite![0]!;
    expect(suite).toMatchObject({ tests: 3, failures: 1, skipped: 1 });
    expect(suite.testcase![1]!.failure![0]!.message).toBe(`expected 404, got 400 (${hostile})`);

    const unreachable = ((await parse(runJUnit({ ...run, cases: [], error: { kind: 'unreachable', message: 'cannot reach the cloud queue server at http://127.0.0.1:9/q/: connection failed: ECONNREFUSED' } }))) as TestSuites).testsuite![0]!;
    expect(unreachable).toMatchObject({ tests: 1, failures: 1 });
    expect(unreachable.testcase![0]).toMatchObject({ name: 'the server can be reached', failure: [{ message: expect.stringMatching(/^cannot reach/) }] });
  });
});
