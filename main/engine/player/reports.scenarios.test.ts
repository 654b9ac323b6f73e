/**
 * Playback reports (docs/contract/platform.md §2.3) and version polling (docs/contract/platform.md §4.3, §8) over whole playbacks.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { playerHarness, playingHarness, type PlayerHarness } from '../testing/player-harness.js';
import { tracks, type StubOptions } from '../testing/stub-cloud-queue.js';
import { BUFFERING_MS } from './audio.js';

let h: PlayerHarness;
afterEach(() => h.close());

async function playing(options: StubOptions = {}) {
  h = await playingHarness(options);
  return h;
}

describe('playback reports (docs/contract/platform.md §2.3)', () => {
  it('sends updates after sendUpdateAfterMillis of play, then every periodicIntervalMillis', async () => {
    await playing({
      items: tracks(3, 100_000),
      reports: { sendUpdateAfterMillis: 10_000, periodicIntervalMillis: 30_000 },
    });
    await h.advance(99_000);
    const updates = h.stub.postedReports().filter((r) => r.type === 'update');
    expect(updates.map((r) => r.positionMillis)).toEqual([10_000, 40_000, 70_000]);
  });

  it('counts played time, not wall time: pauses hold the updates back', async () => {
    await playing({ items: tracks(3, 100_000), reports: { sendUpdateAfterMillis: 10_000 } });
    await h.advance(6_000);
    await h.player.act('pause', 'user');
    await h.advance(60_000);
    await h.player.act('play', 'user');
    await h.advance(4_000);
    expect(h.stub.postedReports()).toEqual([
      expect.objectContaining({
        type: 'update',
        positionMillis: 10_000,
        durationPlayedMillis: 10_000,
        timeSincePlaybackMillis: 70_000,
        positionMillisAtSegmentStart: 6_000,
      }),
    ]);
  });

  it('sends exactly one final report per track, with the queueVersion of the last window', async () => {
    await playing({ items: tracks(3, 40_000) });
    await h.advance(3 * 40_000);
    const finals = h.stub.postedReports().filter((r) => r.type === 'final');
    expect(finals.map((r) => [r.id, r.durationPlayedMillis, r.queueVersion, 'skip' in r])).toEqual([
      ['t1', 40_000, '1', false],
      ['t2', 40_000, '1', false],
      ['t3', 40_000, '1', false],
    ]);
  });

  it('sends the final report of a track a new loadCloudQueue cuts off, and none twice at the end of the queue', async () => {
    await playing({ items: tracks(3, 40_000) });
    await h.advance(30_000);
    await h.load({ itemId: 't3' });
    await h.settle();
    expect(h.stub.postedReports().filter((r) => r.type === 'final')).toEqual([
      expect.objectContaining({ id: 't1', durationPlayedMillis: 30_000, positionMillis: 30_000 }),
    ]);
    expect(h.stub.postedReports().find((r) => r.type === 'final')).not.toHaveProperty('skip');
    await h.advance(BUFFERING_MS + 40_000); // t3, the last, plays to the end: paused there
    await h.load({});
    await h.settle();
    expect(
      h.stub
        .postedReports()
        .filter((r) => r.type === 'final')
        .map((r) => r.id),
    ).toEqual(['t1', 't3']);
  });

  it('sends the cut-off report of a load that started at once only when the load is answered', async () => {
    await playing({ items: tracks(5, 60_000) });
    await h.advance(20_000);
    h.stub.script('itemWindow', { status: 500 }, { times: 1 });
    await expect(h.load({ itemId: 't3', trackMetadata: tracks(5, 60_000)[2]!.track })).rejects.toMatchObject({
      errorCode: 'ERROR_CLOUD_QUEUE_SERVER',
    });
    expect(h.player.status().itemId).toBe('t1'); // the failed load put t1 back
    await h.advance(40_000); // t1 plays to its end: its one final report
    await h.settle();
    expect(
      h.stub
        .postedReports()
        .filter((r) => r.type === 'final')
        .map((r) => [r.id, r.positionMillis]),
    ).toEqual([['t1', 60_000]]);

    await h.load({ itemId: 't4', trackMetadata: tracks(5, 60_000)[3]!.track });
    await h.settle();
    expect(
      h.stub
        .postedReports()
        .filter((r) => r.type === 'final')
        .map((r) => r.id),
    ).toEqual(['t1', 't2']);
  });

  it('sends the final report of a track a new session cuts off, but none to a server whose 404 dropped the queue', async () => {
    await playing({ items: tracks(20, 40_000) });
    await h.advance(20_000);
    h.player.createSession('another-app', 'ctx');
    await h.settle();
    expect(h.player.machineState).toBe('IDLE');
    expect(h.stub.postedReports().filter((r) => r.type === 'final')).toEqual([
      expect.objectContaining({ id: 't1', durationPlayedMillis: 20_000 }),
    ]);

    await h.load();
    await h.advance(BUFFERING_MS + 10_000);
    h.stub.script('itemWindow', { status: 404 }, { reason: 'refresh' });
    h.player.refresh();
    await h.settle();
    expect(h.player.machineState).toBe('IDLE');
    expect(h.stub.postedReports().filter((r) => r.type === 'final')).toHaveLength(1);
  });

  it('marks a final report that ended by a skip with skip.reportId, unique per skip', async () => {
    await playing();
    await h.advance(3_000);
    await h.player.act('skipNext', 'user');
    await h.advance(BUFFERING_MS + 2_000);
    await h.player.act('skipNext', 'user');
    await h.settle();
    const [first, second] = h.stub.postedReports();
    expect(first).toMatchObject({
      id: 't1',
      type: 'final',
      positionMillis: 3_000,
      skip: { reportId: expect.any(String) },
    });
    expect(second).toMatchObject({ id: 't2', type: 'final', positionMillis: 2_000 });
    expect((first!.skip as { reportId: string }).reportId).not.toBe((second!.skip as { reportId: string }).reportId);
  });

  it('keeps durationPlayedMillis cumulative across seeks within one playback', async () => {
    await playing({ items: tracks(2, 100_000) });
    await h.advance(50_000);
    h.player.skipToItem({ itemId: 't1', positionMillis: 10_000 }); // seek back 40 s
    await h.advance(90_000); // plays to the end
    const final = h.stub.postedReports().find((r) => r.type === 'final' && r.id === 't1');
    expect(final).toMatchObject({
      durationPlayedMillis: 140_000,
      positionMillis: 100_000,
      positionMillisAtSegmentStart: 10_000,
    });
  });

  it('sends an update on pause and play when sendPlaybackActions is on', async () => {
    await playing({ reports: { sendPlaybackActions: true } });
    await h.advance(5_000);
    await h.player.act('pause', 'user');
    await h.advance(1_000);
    await h.player.act('play', 'user');
    await h.settle();
    expect(h.stub.postedReports().map((r) => [r.type, r.positionMillis, r.timeSincePlaybackMillis])).toEqual([
      ['update', 5_000, 5_000],
      ['update', 5_000, 6_000],
    ]);
  });

  it('sends no resume update as a track begins while the clock runs between two readings of it', async () => {
    // A running clock moves between readings (20 ms at speed 20 for 1 ms of wall time): here, 1 ms a reading.
    h = await playerHarness({ reports: { sendPlaybackActions: true } });
    await h.load();
    const read = h.clock.now.bind(h.clock);
    let moved = 0;
    vi.spyOn(h.clock, 'now').mockImplementation(() => read() + moved++);
    await h.advance(BUFFERING_MS);
    await h.settle();
    vi.restoreAllMocks();
    expect(h.player.machineState).toBe('PLAYING');
    expect(h.stub.postedReports().filter((r) => r.type === 'update')).toEqual([]);
  });

  it("leaves no error standing from the queue a load replaced: its cut-off report failing is that queue's", async () => {
    await playing({ items: tracks(5, 60_000) });
    await h.advance(20_000);
    h.stub.script('timePlayed', { status: 500 }, { times: 1 });
    await h.load();
    await h.settle();
    expect(
      h.stub
        .postedReports()
        .filter((r) => r.type === 'final')
        .map((r) => r.id),
    ).toEqual(['t1']);
    expect(h.player.machineState).toBe('BUFFERING');
    expect(h.player.snapshot().lastError).toBeNull();
  });

  it('never stops playback because a report failed', async () => {
    await playing({ items: tracks(3, 30_000) });
    h.stub.script('timePlayed', { status: 500 }, { times: 5 });
    await h.advance(45_000);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't2' });
  });
});

describe('version polling (docs/contract/platform.md §4.3, §8)', () => {
  it('polls every 10 minutes while playing and every 5 minutes while paused', async () => {
    await playing({ items: tracks(20, 3_600_000) });
    await h.advance(30 * 60_000);
    expect(h.stub.sent('version')).toHaveLength(3);
    await h.player.act('pause', 'user');
    await h.advance(30 * 60_000);
    expect(h.stub.sent('version')).toHaveLength(9);
  });

  it('follows a changed version with GET /itemWindow around the playing item', async () => {
    await playing({ items: tracks(20, 3_600_000) });
    h.stub.edit((items) => [items[0]!, ...tracks(2, 1_000, 'new'), ...items.slice(1)]);
    await h.advance(10 * 60_000);
    await h.settle();
    expect(h.stub.sent('itemWindow').at(-1)).toMatchObject({ reason: 'refresh', itemId: 't1' });
    expect(
      h.player
        .snapshot()
        .window?.items.map((i) => i.id)
        .slice(0, 3),
    ).toEqual(['t1', 'new1', 'new2']);
    expect(h.player.status().queueVersion).toBe('2');
  });

  it('asks for nothing when the version did not change', async () => {
    await playing({ items: tracks(20, 3_600_000) });
    await h.advance(20 * 60_000);
    expect(h.stub.reasons()).toEqual(['load']);
  });

  it('stops polling while suspended and when idle', async () => {
    await playing({ policies: { pauseTtlSec: 60 } });
    await h.player.act('pause', 'user');
    await h.advance(60_000);
    const polls = h.stub.sent('version').length;
    await h.advance(60 * 60_000);
    expect(h.stub.sent('version')).toHaveLength(polls);
  });
});
