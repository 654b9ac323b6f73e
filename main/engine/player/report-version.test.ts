/** Report items by the version the base URL names (docs/contract/console.md §5; docs/reports.md). */
import { describe, expect, it } from 'vitest';
import { reportForVersion, reportVersionOf, reportVersionOfTarget } from './report-version.js';
import type { PlaybackReport } from './wire.js';

const base: PlaybackReport = {
  id: 'i1',
  mediaUrl: 'https://media.example/1.mp3',
  queueVersion: 'q1',
  durationPlayedMillis: 500,
  timeSincePlaybackMillis: 1_250,
  positionMillis: 500,
  positionMillisAtSegmentStart: 0,
  type: 'final',
  skip: { reportId: 'skip-1' },
};
const extras = { contextVersion: 'c1', reportId: 'r-1', action: 'skip' } as const;

describe('the version a base URL names', () => {
  it.each([
    ['http://h/queues/q1/v2.3/', 3],
    ['http://h/queues/q1/v2.2', 2],
    ['http://h/cloudqueue/v2.1/', 1],
    ['http://h/v2.0/queues/q1/', 0],
    ['http://h/api/v2.0/queues/v2.3/', 3],
    ['http://h/queues/q1/', 0],
    ['http://h/queues/q1/v1.0/', 0],
    ['http://h/queues/q1/v3.1/', 3],
    ['http://h/queues/q1/v2.9/', 3],
    ['not a url', 0],
  ])('%s: v2.%i fields', (url, version) => {
    expect(reportVersionOf(url)).toBe(version);
  });
});

describe('report item fields by version', () => {
  it('v2.0: the platform contract’s fields, skip on a skipped final', () => {
    expect(reportForVersion(base, 0, extras)).toEqual(base);
  });

  it('v2.1 adds contextVersion', () => {
    expect(reportForVersion(base, 1, extras)).toEqual({ ...base, contextVersion: 'c1' });
    expect(reportForVersion(base, 1, { ...extras, contextVersion: undefined })).not.toHaveProperty('contextVersion');
  });

  it('v2.2 replaces skip with actions, and marks a pause', () => {
    const { skip: _skip, ...withoutSkip } = base;
    expect(reportForVersion(base, 2, extras)).toEqual({
      ...withoutSkip,
      contextVersion: 'c1',
      actions: [{ skip: [{ positionMillis: 500 }] }],
    });
    const update = { ...withoutSkip, type: 'update' as const, positionMillis: 4_211 };
    expect(reportForVersion(update, 2, { ...extras, action: 'pause' }).actions).toEqual([
      { pause: [{ positionMillis: 4_211 }] },
    ]);
    expect(reportForVersion(update, 2, { ...extras, action: undefined })).not.toHaveProperty('actions');
  });

  it('v2.3 adds reportId', () => {
    const { skip: _skip, ...withoutSkip } = base;
    expect(reportForVersion(base, 3, extras)).toEqual({
      ...withoutSkip,
      contextVersion: 'c1',
      actions: [{ skip: [{ positionMillis: 500 }] }],
      reportId: 'r-1',
    });
  });
});

describe('the version of a queue target', () => {
  it('is read from the base URL once per target: a new base URL comes with a new target', () => {
    const target = { queueBaseUrl: 'http://h/queues/q1/v2.2/' };
    expect(reportVersionOfTarget(target)).toBe(2);
    // Targets are replaced whole, never edited: what was read for this one stands.
    target.queueBaseUrl = 'http://h/queues/q1/v2.0/';
    expect(reportVersionOfTarget(target)).toBe(2);
    expect(reportVersionOfTarget({ queueBaseUrl: 'http://h/queues/q1/v2.0/' })).toBe(0);
  });
});
