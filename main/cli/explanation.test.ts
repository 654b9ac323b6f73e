/**
 * The explanation's text for a check whose transitions were met (explanation.ts): the legend of
 * its `>` says what it marks, and says so when it marks nothing (no request failed).
 */
import { describe, expect, it } from 'vitest';
import type { ExpectationExplanation, ExplainedExchange } from '../engine/api/expectation-types.js';
import { explanationLines } from './explanation.js';

const exchange = (anchor: boolean, caused: string[] = []): ExplainedExchange => ({
  trafficId: 1,
  at: 1_000,
  method: 'GET',
  path: '/q/itemWindow',
  reason: 'load',
  status: 200,
  outcome: 'answered',
  retry: 0,
  requestId: 'r1',
  fault: null,
  caused,
  ...(anchor ? { anchor: true as const } : {}),
});

const end = (subject: ExpectationExplanation['subject'], exchanges: ExplainedExchange[]): ExpectationExplanation => ({
  playerId: 'player-kitchen',
  firstDifference: 1,
  at: 1_000,
  checkedAt: 2_000,
  rows: [
    {
      expected: 'load-begins',
      actual: { seq: 1, transition: 'load-begins', at: 1_000, from: 'IDLE', to: 'BUFFERING', requestId: 'r1' },
      mark: 'same',
    },
  ],
  omitted: { before: 0, after: 0 },
  exchanges,
  exchangesOmitted: { before: 0, after: 0 },
  subject,
});

describe('the explanation of a check whose transitions were met', () => {
  it('says what its > marks: the answer the end came from, else the last exchange, else that none failed', () => {
    const header = (explanation: ExpectationExplanation) =>
      explanationLines(explanation, 0).find((line) => line.startsWith('exchanges of'));
    expect(header(end('state', [exchange(true, ['load-begins'])]))).toBe(
      'exchanges of player-kitchen up to the check (>: the answer its state came from):',
    );
    expect(header(end('item', [exchange(true)]))).toBe(
      'exchanges of player-kitchen up to the check (>: the last before the check: no answer made its last transition):',
    );
    expect(header(end('requests', [exchange(true)]))).toMatch(/\(>: the first that failed\):$/);
    expect(header(end('requests', [exchange(false)]))).toMatch(/\(>: none failed\):$/);
    expect(explanationLines(end('state', []), 0)).toContain(
      '  (the transitions were met: the check failed on where it ended, its state)',
    );
  });
});
