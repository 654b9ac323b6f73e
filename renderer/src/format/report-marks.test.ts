import { describe, expect, it } from 'vitest';
import type { TimePlayedReport } from '@engine-api/queue-types';
import { playTime, reportActions } from './report-marks';

const base: TimePlayedReport = {
  id: 'a',
  mediaUrl: 'm',
  queueVersion: '1',
  durationPlayedMillis: 1,
  timeSincePlaybackMillis: 1,
  positionMillis: 1,
  positionMillisAtSegmentStart: 0,
  type: 'final',
};

describe('reportActions', () => {
  it('reads v2.0 skip and v2.2+ actions alike', () => {
    expect(reportActions({ ...base, skip: {} })).toEqual(['skip']);
    expect(reportActions({ ...base, actions: [{ skip: [{ positionMillis: 5 }] }] })).toEqual(['skip']);
    expect(reportActions({ ...base, type: 'update', actions: [{ pause: [{ positionMillis: 5 }] }] })).toEqual([
      'pause',
    ]);
  });

  it('ignores what is not an action list', () => {
    expect(reportActions(base)).toEqual([]);
    expect(reportActions({ ...base, actions: 'skip' })).toEqual([]);
    expect(reportActions({ ...base, actions: [null, 3] })).toEqual([]);
  });
});

describe('playTime', () => {
  it('reads as a track clock, and a dash where the player sent no number', () => {
    expect(playTime(187_400)).toBe('3:07');
    expect(playTime(0)).toBe('0:00');
    expect(playTime(undefined)).toBe('—');
    expect(playTime(Number.NaN)).toBe('—');
  });
});
