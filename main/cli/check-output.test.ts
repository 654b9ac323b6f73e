/**
 * What `check` prints comes partly from the server (its ids, its error messages): a terminal
 * would act on its escape sequences and control characters, so none reaches it, and a case stays
 * one line.
 */
import { describe, expect, it } from 'vitest';
import type { ConformanceCaseResult, ConformanceRun } from '../engine/api/conformance-types.js';
import { caseLine, summaryLine } from './check.js';

/** Any C0 or C1 control character. */
// eslint-disable-next-line no-control-regex -- finding them is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const hostile = 'got 200 \u001b[31mred\u001b[0m \u001b]0;owned\u0007\u0000\u0008\r\nnext line \u009b2J';

describe('check on a terminal', () => {
  it("prints a case without the server's control characters or escape sequences, on one line", () => {
    const result: ConformanceCaseResult = {
      id: 'item-window.ids',
      rule: 'r',
      title: 'Ids are unique',
      outcome: 'fail',
      message: `item \u001b[2Jx: ${hostile}`,
      trafficIds: [],
      durationMs: 1,
    };
    const line = caseLine(result, 0, 17);
    // Each sequence a mark, so that what differed still differs (audit Z7).
    expect(line).toBe(
      'FAIL   1/17 item-window.ids: Ids are unique — item \uFFFDx: got 200 \uFFFDred\uFFFD \uFFFD next line \uFFFD\n',
    );
    expect(line.slice(0, -1)).not.toMatch(CONTROL);
  });

  it("prints a run's error the same way", () => {
    const run = {
      status: 'failed',
      startedAt: 0,
      finishedAt: 1_000,
      summary: { total: 1, pass: 0, warn: 0, fail: 0, skip: 0 },
      error: { kind: 'unreachable', message: `cannot reach: ${hostile}` },
    } as ConformanceRun;
    expect(summaryLine(run)).not.toMatch(CONTROL);
  });
});
