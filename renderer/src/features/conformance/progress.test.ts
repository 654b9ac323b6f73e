import { describe, expect, it } from 'vitest';
import type { ConformanceProgress, ConformanceRun } from '@engine-api/conformance-types';
import { runWithProgress, summaryWithProgress } from '../../queries/conformance';

const run: ConformanceRun = {
  id: 'run-1',
  baseUrl: 'http://127.0.0.1:4100/queues/q1/v2.3/',
  authorization: null,
  rerunNeedsAuthorization: false,
  status: 'running',
  startedAt: 0,
  finishedAt: null,
  summary: { total: 17, pass: 0, fail: 0, warn: 0, skip: 0 },
  error: null,
  rerunOf: null,
  cases: [],
};

const context = {
  id: 'context',
  rule: 'docs/contract/platform.md §4.3',
  title: 'GET /context answers a context',
  outcome: 'pass' as const,
  message: 'ok',
  trafficIds: [7],
  durationMs: 2,
};
const settledContext: ConformanceProgress = {
  runId: 'run-1',
  status: 'running',
  settled: context,
  summary: { total: 17, pass: 1, fail: 0, warn: 0, skip: 0 },
  error: null,
};

describe('a pushed conformance.progress, written into the cache', () => {
  it('appends the settled case and takes over the tallies', () => {
    const next = runWithProgress(run, settledContext);
    expect(next.cases).toEqual([context]);
    expect(next.summary.pass).toBe(1);
  });

  it('appends a case once, when a refetch already brought it', () => {
    const again = runWithProgress(runWithProgress(run, settledContext), settledContext);
    expect(again.cases).toHaveLength(1);
  });

  it('takes the end of a run: its status and the error of a server not reached, no case added', () => {
    const end: ConformanceProgress = {
      runId: 'run-1',
      status: 'failed',
      settled: null,
      summary: run.summary,
      error: { kind: 'unreachable', message: 'no answer' },
    };
    expect(runWithProgress(run, end)).toMatchObject({ status: 'failed', error: { kind: 'unreachable' }, cases: [] });
    const { cases: _cases, ...listed } = run;
    expect(summaryWithProgress(listed, end)).toMatchObject({ status: 'failed', error: { kind: 'unreachable' } });
  });
});
