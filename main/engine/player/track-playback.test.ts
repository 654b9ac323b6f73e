import { describe, expect, it } from 'vitest';
import { TrackPlayback } from './track-playback.js';

const item = { id: 'i1', track: { mediaUrl: 'https://m/1.mp3', durationMillis: 100_000 } };

describe('TrackPlayback (docs/contract/platform.md §2.3)', () => {
  it('counts played time, time since playback (pauses included) and the segment start', () => {
    const t = new TrackPlayback(item);
    t.play(1_000);
    t.pause(11_000); // played 10 s
    t.play(41_000); // paused 30 s
    expect(t.report('update', 46_000, 'v1')).toEqual({
      id: 'i1',
      mediaUrl: 'https://m/1.mp3',
      queueVersion: 'v1',
      durationPlayedMillis: 15_000,
      timeSincePlaybackMillis: 45_000,
      positionMillis: 15_000,
      positionMillisAtSegmentStart: 10_000,
      type: 'update',
    });
  });

  it('keeps durationPlayedMillis cumulative across seeks, so it can exceed the track', () => {
    const t = new TrackPlayback(item);
    t.play(0);
    t.seek(90_000, 60_000); // played 60 s, jump to 90 s
    t.seek(0, 70_000); // played 10 more, back to start
    const report = t.report('update', 120_000, 'v1'); // 50 more
    expect(report.durationPlayedMillis).toBe(120_000);
    expect(report.positionMillis).toBe(50_000);
    expect(report.positionMillisAtSegmentStart).toBe(0);
  });

  it('carries skip.reportId only on a final report that ended by a skip', () => {
    const t = new TrackPlayback(item, 5_000);
    t.play(0);
    expect(t.report('final', 1_000, 'v', 'skip-1').skip).toEqual({ reportId: 'skip-1' });
    expect(t.report('final', 1_000, 'v').skip).toBeUndefined();
    expect(t.report('update', 1_000, 'v', 'skip-1').skip).toBeUndefined();
  });

  it('never moves the playhead past the end of the track', () => {
    const t = new TrackPlayback(item);
    t.play(0);
    expect(t.position(500_000)).toBe(100_000);
    expect(t.untilPosition(100_000, 40_000)).toBe(60_000);
  });
});
