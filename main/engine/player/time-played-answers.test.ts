/**
 * What the player does with the answers to POST /timePlayed (docs/contract/console.md §5): 204 or
 * an empty 200 is fine; a context's reports and policies are taken; JSON that is neither is a
 * warning and the end of that track's `update` reports.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { playingHarness, type PlayerHarness } from '../testing/player-harness.js';
import { tracks } from '../testing/stub-cloud-queue.js';

let h: PlayerHarness;
afterEach(() => h.close());

const REPORTS = { sendUpdateAfterMillis: 2_000, periodicIntervalMillis: 10_000 };
const updates = (id: string) =>
  h.stub
    .postedReports()
    .filter((r) => r.type === 'update' && r.id === id)
    .map((r) => r.durationPlayedMillis);
const timePlayedExchanges = () => h.exchanges.filter((e) => e.endpoint === 'timePlayed');

describe('answers to POST /timePlayed', () => {
  it.each([
    ['204', null],
    ['200 with an empty body', { status: 200, body: '' }],
  ])('%s: nothing to read, the updates go on', async (_name, answer) => {
    h = await playingHarness({ items: tracks(2, 60_000), reports: REPORTS });
    if (answer) h.stub.script('timePlayed', answer, { times: 10 });
    await h.advance(40_000);
    expect(updates('t1')).toEqual([2_000, 12_000, 22_000, 32_000]);
    expect(timePlayedExchanges().flatMap((e) => e.violations)).toEqual([]);
  });

  it('200 with a context: the player takes its reports and policies', async () => {
    h = await playingHarness({ items: tracks(3, 60_000), reports: REPORTS });
    h.stub.script('timePlayed', {
      status: 200,
      body: { contextVersion: '1', reports: { periodicIntervalMillis: 20_000 }, playbackPolicies: { canSkip: false } },
    });
    await h.advance(45_000);
    // The first update's answer replaced the reports: every 20 s of play from then on.
    expect(updates('t1')).toEqual([2_000, 20_000, 40_000]);
    expect(h.player.snapshot()).toMatchObject({
      reports: { periodicIntervalMillis: 20_000 },
      policies: { canSkip: false },
    });
    await expect(h.player.act('skipNext', 'user')).rejects.toMatchObject({ errorCode: 'ERROR_DISALLOWED_BY_POLICY' });
    expect(timePlayedExchanges().flatMap((e) => e.violations)).toEqual([]);
  });

  it('200 with JSON that is neither: a warning, and no more updates for the rest of that track', async () => {
    h = await playingHarness({ items: tracks(2, 60_000), reports: REPORTS });
    h.stub.script('timePlayed', { status: 200, body: {} });
    await h.advance(60_000 + 30_000);
    expect(updates('t1')).toEqual([2_000]);
    // Its final still goes; the next track is reported again as usual.
    expect(
      h.stub
        .postedReports()
        .filter((r) => r.type === 'final')
        .map((r) => [r.id, r.durationPlayedMillis]),
    ).toEqual([['t1', 60_000]]);
    expect(updates('t2')).toEqual([2_000, 12_000, 22_000]);
    expect(timePlayedExchanges()[0]!.violations).toEqual([
      expect.objectContaining({ endpoint: 'timePlayed', severity: 'warning', rule: 'timePlayed.answer' }),
    ]);
    expect(h.player.status().playbackState).toBe('PLAYBACK_STATE_PLAYING');
    expect(h.player.snapshot().lastError).toBeNull();
  });

  it('keeps a track’s updates stopped across a restart', async () => {
    h = await playingHarness({ items: tracks(2, 60_000), reports: REPORTS });
    h.stub.script('timePlayed', { status: 200, body: 'OK' });
    await h.advance(5_000);
    h.restart();
    await h.advance(50_000);
    expect(updates('t1')).toEqual([2_000]);
  });
});
