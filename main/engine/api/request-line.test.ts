import { describe, expect, it } from 'vitest';
import { expectedRequestLine, isRequestLine, unmetRequestLine } from './request-line.js';

describe('a request as an expectation names it', () => {
  it.each([
    [{ path: '/q/v2.3/itemWindow', reason: 'skipNext', status: 503, retry: 0 }, 'itemWindow skipNext → 503'],
    [{ path: '/q/v2.3/itemWindow', reason: 'skipNext', status: 200, retry: 2 }, 'itemWindow skipNext → 200 (retry 2)'],
    [{ path: '/q/v2.3/version', reason: null, status: null, retry: 0 }, 'version → no answer'],
    [{ path: '/q/v2.3/timePlayed', reason: null, status: 204, retry: 0 }, null],
  ])('%j → %s', (source, line) => {
    expect(expectedRequestLine(source)).toBe(line);
  });
});

describe('requests met in order', () => {
  const skip = ['itemWindow skipNext → 503', 'itemWindow skipNext → 200 (retry 1)'];
  it('within one endpoint and reason, in order, others between them', () => {
    expect(unmetRequestLine(skip, ['itemWindow skipNext → 503', 'timePlayed → 503', skip[1]!])).toBeNull();
    expect(unmetRequestLine(skip, [skip[1]!, skip[0]!])).toEqual({ line: skip[1], after: skip[0] });
  });

  it('across streams in either order: overlapping requests end in either order (review)', () => {
    const expected = ['version → no answer', ...skip];
    expect(unmetRequestLine(expected, [...skip, 'version → no answer'])).toBeNull();
  });

  it('names the first line missing, and the one before it of its own stream', () => {
    expect(unmetRequestLine(skip, ['timePlayed → 503'])).toEqual({ line: skip[0], after: null });
    expect(unmetRequestLine(skip, [skip[0]!])).toEqual({ line: skip[1], after: skip[0] });
  });
});

describe('a line an expectation may name (audit X8)', () => {
  it('is one a player request makes: failed, or a retry', () => {
    for (const line of [
      'itemWindow skipNext → 503',
      'itemWindow load+queueCompleted → 200 (retry 2)',
      'version → no answer',
      'timePlayed → 500',
      'version → 999',
    ])
      expect(isRequestLine(line), line).toBe(true);
    for (const line of [
      'nonsense',
      'itemWindow load → 200',
      'stream → 503',
      'itemWindow skipNext → 503 (retry 0)',
      'version → 503 ',
    ])
      expect(isRequestLine(line), line).toBe(false);
  });
});
