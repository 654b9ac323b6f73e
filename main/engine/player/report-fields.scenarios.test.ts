/**
 * Report items carry the fields of the version the base URL names (docs/contract/console.md §5;
 * the public docs of each version: docs/reports.md), over a whole playback.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { playingHarness, type PlayerHarness } from '../testing/player-harness.js';
import { tracks } from '../testing/stub-cloud-queue.js';
import { BUFFERING_MS } from './audio.js';

let h: PlayerHarness;
afterEach(() => h.close());

/** t1 plays 5 s, is paused by the user and played again, then skipped after 2 s more; t2 plays 1 s. */
async function pausedAndSkipped(version: string) {
  h = await playingHarness({ items: tracks(3, 60_000), reports: { sendPlaybackActions: true }, version });
  await h.advance(5_000);
  await h.player.act('pause', 'user');
  await h.advance(1_000);
  await h.player.act('play', 'user');
  await h.advance(2_000);
  await h.player.act('skipNext', 'user');
  await h.advance(BUFFERING_MS + 1_000);
  await h.player.act('pause', 'user');
  await h.settle();
  const [pause, play, final, next] = h.stub.postedReports();
  return { pause: pause!, play: play!, final: final!, next: next! };
}

const V20 = [
  'id',
  'mediaUrl',
  'queueVersion',
  'durationPlayedMillis',
  'timeSincePlaybackMillis',
  'positionMillis',
  'positionMillisAtSegmentStart',
  'type',
];

describe('report item fields by the version of the base URL', () => {
  it('v2.0: exactly the platform contract’s fields; skip on the final a skip ended', async () => {
    const { pause, play, final } = await pausedAndSkipped('v2.0');
    expect(Object.keys(pause).sort()).toEqual([...V20].sort());
    expect(Object.keys(play).sort()).toEqual([...V20].sort());
    expect(Object.keys(final).sort()).toEqual([...V20, 'skip'].sort());
    expect(final).toMatchObject({ type: 'final', positionMillis: 7_000, skip: { reportId: expect.any(String) } });
  });

  it('v2.1 adds the contextVersion the player holds', async () => {
    const { pause, final } = await pausedAndSkipped('v2.1');
    expect(pause).toMatchObject({ contextVersion: '1' });
    expect(final).toMatchObject({ contextVersion: '1', skip: { reportId: expect.any(String) } });
  });

  it('v2.2 says a pause and a skip in actions, in place of skip', async () => {
    const { pause, play, final } = await pausedAndSkipped('v2.2');
    expect(pause).toMatchObject({
      type: 'update',
      positionMillis: 5_000,
      actions: [{ pause: [{ positionMillis: 5_000 }] }],
    });
    expect(play).not.toHaveProperty('actions');
    expect(final).toMatchObject({
      type: 'final',
      positionMillis: 7_000,
      actions: [{ skip: [{ positionMillis: 7_000 }] }],
    });
    expect(final).not.toHaveProperty('skip');
    expect(pause).not.toHaveProperty('reportId');
  });

  it('v2.3 adds a reportId, one for every report of a playback', async () => {
    const { pause, play, final, next } = await pausedAndSkipped('v2.3');
    expect(pause.reportId).toMatch(/^[0-9a-f-]{36}$/);
    expect([play.reportId, final.reportId]).toEqual([pause.reportId, pause.reportId]);
    expect(next).toMatchObject({ id: 't2', actions: [{ pause: [{ positionMillis: 1_000 }] }] });
    expect(next.reportId).not.toBe(pause.reportId);
    expect(final).toMatchObject({ contextVersion: '1', actions: [{ skip: [{ positionMillis: 7_000 }] }] });
  });
});
