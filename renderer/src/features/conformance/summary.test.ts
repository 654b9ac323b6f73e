import { describe, expect, it } from 'vitest';
import { conformanceRunWord as runWord } from '@engine-api/conformance-word';
import type { ConformanceRunSummary } from '@engine-api/conformance-types';
import {
  durationText,
  unreachableWord,
  progressText,
  serverLabel,
  serverLabelParts,
  shortTallyText,
  summaryLine,
  tallyText,
} from './summary';

const base: ConformanceRunSummary = {
  id: 'run-1',
  baseUrl: 'http://127.0.0.1:4100/queues/q1/v2.3/',
  authorization: 'Bearer abcd•••',
  rerunNeedsAuthorization: false,
  status: 'passed',
  startedAt: 1_000_000,
  finishedAt: 1_000_420,
  summary: { total: 17, pass: 15, fail: 0, warn: 1, skip: 1 },
  error: null,
  rerunOf: null,
};

describe('a run in words', () => {
  it('tallies every outcome, zeros included, with one warning said as one', () => {
    expect(tallyText(base.summary)).toBe('15 passed, 0 failed, 1 warning, 1 skipped');
    expect(tallyText({ total: 17, pass: 0, fail: 2, warn: 3, skip: 0 })).toBe(
      '0 passed, 2 failed, 3 warnings, 0 skipped',
    );
  });

  it('says the verdict, the tallies of how many cases, how long and which server', () => {
    expect(summaryLine(base)).toBe(
      'Passed: 15 passed, 0 failed, 1 warning, 1 skipped of 17 cases · in 0.4 s · server http://127.0.0.1:4100/queues/q1/v2.3/',
    );
    expect(summaryLine({ ...base, status: 'failed', summary: { ...base.summary, pass: 14, fail: 1 } })).toMatch(
      /^Failed: 14 passed, 1 failed/,
    );
  });

  it('says a run stopped from the console is stopped, not failed, with what it settled', () => {
    const stopped: ConformanceRunSummary = {
      ...base,
      status: 'failed',
      finishedAt: 1_012_300,
      summary: { total: 17, pass: 6, fail: 0, warn: 1, skip: 0 },
      error: { kind: 'stopped', message: 'the run was stopped after 7 of 17 cases; the rest did not run' },
    };
    expect(runWord(stopped)).toBe('stopped');
    expect(runWord({ ...stopped, error: null })).toBe('failed');
    expect(runWord(base)).toBe('passed');
    // A case it failed before the stop is a verdict all the same (review).
    expect(runWord({ ...stopped, summary: { ...stopped.summary, fail: 1 } })).toBe('failed');
    expect(summaryLine(stopped)).toBe(
      'Stopped: 6 passed, 0 failed, 1 warning, 0 skipped of 17 cases · in 12.3 s · server http://127.0.0.1:4100/queues/q1/v2.3/',
    );
  });

  it('says a run going on is going on, how far it got, and no duration', () => {
    const running = {
      ...base,
      status: 'running' as const,
      finishedAt: null,
      summary: { total: 17, pass: 4, fail: 1, warn: 0, skip: 0 },
    };
    expect(summaryLine(running)).toBe(
      'Running: 5 of 17 cases settled, 4 passed, 1 failed, 0 warnings, 0 skipped so far · server http://127.0.0.1:4100/queues/q1/v2.3/',
    );
    expect(progressText(running.summary)).toBe('5 of 17 cases');
    expect(durationText(running)).toBeNull();
  });

  it('says an unreachable server was not reached, not that nothing passed', () => {
    const line = summaryLine({
      ...base,
      status: 'failed',
      summary: { total: 17, pass: 0, fail: 0, warn: 0, skip: 0 },
      error: { kind: 'unreachable', message: 'cannot reach the cloud queue server at x: connection refused' },
    });
    expect(line).toBe(
      'Failed: no server answered at this URL, no case ran · in 0.4 s · server http://127.0.0.1:4100/queues/q1/v2.3/',
    );
    // One that answered 404s is there, only no queue (review).
    const notAQueue = {
      kind: 'unreachable' as const,
      message: "x is not a cloud queue's base URL: GET context answered 404",
    };
    expect(
      summaryLine({
        ...base,
        status: 'failed',
        summary: { total: 17, pass: 0, fail: 0, warn: 0, skip: 0 },
        error: notAQueue,
      }),
    ).toMatch(/^Failed: no cloud queue found at this URL, no case ran/);
    expect(unreachableWord(notAQueue.message)).toBe('no queue found');
  });

  it('writes durations to the tenth of a second, minutes past one', () => {
    expect(durationText({ startedAt: 0, finishedAt: 12_345 })).toBe('12.3 s');
    expect(durationText({ startedAt: 0, finishedAt: 125_000 })).toBe('2 min 5 s');
    expect(durationText({ startedAt: 0, finishedAt: 120_000 })).toBe('2 min');
    expect(durationText({ startedAt: 0, finishedAt: 20 })).toBe('under 0.1 s');
  });

  it('tallies runs in the list briefly, without the zeros', () => {
    expect(shortTallyText({ total: 17, pass: 17, fail: 0, warn: 0, skip: 0 })).toBe('17 pass');
    expect(shortTallyText({ total: 17, pass: 14, fail: 1, warn: 2, skip: 0 })).toBe('14 pass · 1 fail · 2 warn');
    expect(shortTallyText({ total: 17, pass: 0, fail: 0, warn: 0, skip: 0 })).toBe('no cases');
  });

  it('names the server by host and path', () => {
    expect(serverLabel('https://queue.example.com/v2.3/')).toBe('queue.example.com/v2.3/');
    expect(serverLabel('http://localhost:8080/')).toBe('localhost:8080');
  });

  it('keeps the queue and version of a server label as its tail, the part cut last', () => {
    expect(serverLabelParts('127.0.0.1:41999/queues/queue-5f343a27/v2.3/')).toEqual({
      head: '127.0.0.1:41999/queues/',
      tail: 'queue-5f343a27/v2.3/',
    });
    expect(serverLabelParts('queue.example.com/v2.3/')).toEqual({ head: '', tail: 'queue.example.com/v2.3/' });
    expect(serverLabelParts('localhost:8080')).toEqual({ head: '', tail: 'localhost:8080' });
  });
});
