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

describe('TrackPlayback on the engine clock (docs/contract/console.md §6)', () => {
  it('ends a segment where the playhead reaches the end, however late the end is seen', () => {
    const t = new TrackPlayback({ id: 'i1', track: { mediaUrl: 'https://m/1.mp3', durationMillis: 25_000 } });
    t.play(1_000);
    // The track-end timer ran 16 ms after the end was due.
    expect(t.report('final', 26_016, 'v1')).toMatchObject({
      durationPlayedMillis: 25_000,
      positionMillis: 25_000,
      positionMillisAtSegmentStart: 0,
    });
    t.pause(26_016);
    expect(t.durationPlayed(30_000)).toBe(25_000);
    // A seek back plays on, and counts on (cumulative, §2.3).
    t.seek(20_000, 30_000);
    t.play(30_000);
    expect(t.durationPlayed(40_000)).toBe(30_000);
  });

  it('keeps one reportId per playback, across a restart, and a new one for the next playback', () => {
    const t = new TrackPlayback(item);
    t.play(0);
    t.stopUpdates();
    const restored = TrackPlayback.restore(JSON.parse(JSON.stringify(t.save(5_000))));
    expect(restored.reportId).toBe(t.reportId);
    expect(restored.updatesStopped).toBe(true);
    expect(new TrackPlayback(item).reportId).not.toBe(t.reportId);
  });
});
