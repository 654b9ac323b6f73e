/**
 * Every reason rule of docs/contract/platform.md §4.3 as a scenario: what the player sends, and what it does not.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { playerHarness, type PlayerHarness } from '../testing/player-harness.js';
import { tracks, type StubOptions } from '../testing/stub-cloud-queue.js';
import { BUFFERING_MS } from './audio.js';
import { PREVIOUS_WINDOW_SIZE, UPCOMING_WINDOW_SIZE } from './windows.js';

let h: PlayerHarness;
afterEach(() => h.close());

async function start(options: StubOptions = {}) {
  h = await playerHarness(options);
  return h;
}

describe('load', () => {
  it('is sent without track metadata', async () => {
    await start();
    await h.load();
    expect(h.stub.reasons()).toEqual(['load']);
  });

  it('is sent with metadata when limitedSkips is on, and the player waits for it', async () => {
    await start({ policies: { limitedSkips: true } });
    await h.load({ itemId: 't1', trackMetadata: tracks(1)[0]!.track });
    expect(h.stub.reasons()).toEqual(['load']);
    expect(h.rows()).not.toContain('load-starts-at-once');
  });

  it('becomes load+queueCompleted when a very short track was fetched whole before the first window request', async () => {
    await start({ policies: { limitedSkips: true }, items: tracks(3, 12_000), version: 'v2.2' });
    await h.load({ itemId: 't1', trackMetadata: tracks(1, 12_000)[0]!.track });
    expect(h.stub.reasons()).toEqual(['load+queueCompleted']);
  });

  it('stays load to a v2.0 server: joined reasons are v2.2’s (platform.md §9.3)', async () => {
    await start({ policies: { limitedSkips: true }, items: tracks(3, 12_000) });
    await h.load({ itemId: 't1', trackMetadata: tracks(1, 12_000)[0]!.track });
    expect(h.stub.reasons()).toEqual(['load']);
  });

  it('is replaced by refresh when metadata lets the player start at once', async () => {
    await start();
    await h.load({ itemId: 't1', trackMetadata: tracks(1)[0]!.track });
    expect(h.stub.reasons()).toEqual(['refresh']);
  });
});

describe('play and pause (notifyUserIntent)', () => {
  it('are sent for explicit user actions only when notifyUserIntent is on', async () => {
    await start({ policies: { notifyUserIntent: true } });
    await h.load();
    await h.advance(BUFFERING_MS);
    await h.player.act('pause', 'user');
    await h.player.act('play', 'user');
    await h.settle();
    expect(h.stub.reasons()).toEqual(['load', 'pause', 'play']);
  });

  it('are never sent without notifyUserIntent', async () => {
    await start({ policies: { limitedSkips: true } });
    await h.load();
    await h.advance(BUFFERING_MS);
    await h.player.act('pause', 'user');
    await h.player.act('play', 'user');
    await h.settle();
    expect(h.stub.reasons()).toEqual(['load']);
  });

  it('play is not sent when playback starts from loadCloudQueue or skipToItem', async () => {
    await start({ policies: { notifyUserIntent: true } });
    await h.load();
    await h.advance(BUFFERING_MS);
    h.player.skipToItem({ itemId: 't5', trackMetadata: tracks(5)[4]!.track });
    await h.advance(BUFFERING_MS);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't5' });
    expect(h.stub.reasons()).not.toContain('play');
  });
});

describe('skipNext and skipPrev', () => {
  it.each([
    ['limitedSkips', { limitedSkips: true }],
    ['notifyUserIntent', { notifyUserIntent: true }],
  ])('are sent, and waited for, with %s', async (_name, policies) => {
    await start({ policies });
    await h.load();
    await h.advance(BUFFERING_MS);
    await h.player.act('skipNext', 'user');
    await h.player.act('skipPrev', 'user');
    expect(
      h.stub
        .sent('itemWindow')
        .slice(1)
        .map((r) => [r.reason, r.itemId]),
    ).toEqual([
      ['skipNext', 't1'],
      ['skipPrev', 't2'],
    ]);
    expect(h.player.status().itemId).toBe('t1');
  });

  it('are not sent without either policy, and never when playback starts', async () => {
    await start();
    await h.load();
    await h.advance(BUFFERING_MS);
    await h.player.act('skipNext', 'user');
    await h.player.act('skipPrev', 'user');
    expect(h.stub.reasons()).toEqual(['load']);
  });

  it('are refused without a request when canSkip / canSkipBack forbid them', async () => {
    await start({ policies: { canSkip: false, canSkipBack: false, notifyUserIntent: true } });
    await h.load();
    await expect(h.player.act('skipNext', 'user')).rejects.toMatchObject({ errorCode: 'ERROR_DISALLOWED_BY_POLICY' });
    await expect(h.player.act('skipPrev', 'user')).rejects.toMatchObject({ errorCode: 'ERROR_DISALLOWED_BY_POLICY' });
    expect(h.stub.reasons()).toEqual(['load']);
  });

  it('follow the playing item’s own policies over the queue’s (docs/contract/console.md §4 items[].policies)', async () => {
    const items = tracks(5).map((item) => (item.id === 't2' ? { ...item, policies: { canSkip: false } } : item));
    await start({ items });
    await h.load();
    await h.advance(BUFFERING_MS);
    await h.player.act('skipNext', 'user'); // t1 may be skipped
    await h.advance(BUFFERING_MS);
    await expect(h.player.act('skipNext', 'user')).rejects.toMatchObject({ errorCode: 'ERROR_DISALLOWED_BY_POLICY' });
    expect(h.player.status().itemId).toBe('t2');
    await h.player.act('skipPrev', 'user'); // only canSkip is the item's own
    expect(h.player.status().itemId).toBe('t1');
  });
});

describe('skipToItem', () => {
  it('is refused on a suspended session, which only an explicit resume wakes (docs/contract/platform.md §3)', async () => {
    await start({ policies: { pauseTtlSec: 10 } });
    await h.load({ playOnCompletion: false });
    await h.advance(10_000);
    expect(h.player.status().suspended).toBe(true);
    expect(() => h.player.skipToItem({ itemId: 't3' })).toThrow(
      expect.objectContaining({ errorCode: 'ERROR_PLAYBACK_NO_CONTENT' }),
    );
    expect(h.stub.sent('itemWindow', 'skipToItem')).toEqual([]);
  });

  it('to the playing item with a position is a seek, refused when canSeek is off', async () => {
    await start({ policies: { canSeek: false } });
    await h.load();
    await h.advance(BUFFERING_MS);
    expect(() => h.player.skipToItem({ itemId: 't1', positionMillis: 60_000 })).toThrow(
      expect.objectContaining({ errorCode: 'ERROR_DISALLOWED_BY_POLICY' }),
    );
    h.player.skipToItem({ itemId: 't3', positionMillis: 60_000 }); // another item: a skip, not a seek
    await h.settle();
    expect(h.stub.sent('itemWindow').at(-1)).toMatchObject({ reason: 'skipToItem', itemId: 't3' });
  });

  it('is sent with the command\u2019s itemId without metadata', async () => {
    await start();
    await h.load();
    h.player.skipToItem({ itemId: 't6' });
    await h.settle();
    expect(h.stub.sent('itemWindow').at(-1)).toMatchObject({ reason: 'skipToItem', itemId: 't6' });
  });

  it('is sent with limitedSkips even with metadata', async () => {
    await start({ policies: { limitedSkips: true } });
    await h.load();
    h.player.skipToItem({ itemId: 't6', trackMetadata: tracks(6)[5]!.track });
    await h.settle();
    expect(h.stub.reasons()).toEqual(['load', 'skipToItem']);
  });

  it('is replaced by a later refresh when metadata is given', async () => {
    await start();
    await h.load();
    h.player.skipToItem({ itemId: 't6', trackMetadata: tracks(6)[5]!.track });
    await h.settle();
    expect(h.stub.reasons()).toEqual(['load', 'refresh']);
  });
});

describe('refresh (next window) and queueCompleted', () => {
  it('asks for the next window 2 tracks before the edge of the window', async () => {
    await start({ items: tracks(40, 60_000) });
    await h.load();
    await h.advance(BUFFERING_MS);
    // The first window holds t1…t11; the request goes out when t9 starts.
    await h.advance(7 * 60_000);
    expect(h.stub.sent('itemWindow', 'refresh')).toEqual([]);
    await h.advance(60_000);
    await h.settle();
    expect(h.stub.sent('itemWindow', 'refresh')).toEqual([expect.objectContaining({ itemId: 't9' })]);
    expect(h.player.snapshot().window?.items.at(-1)?.id).toBe('t19');
  });

  it('sends queueCompleted at the end of the queue and pauses after the last track when there is no more', async () => {
    await start({ items: tracks(3, 60_000) });
    await h.load();
    await h.advance(BUFFERING_MS + 3 * 60_000);
    expect(h.stub.reasons()).toEqual(['load', 'queueCompleted']);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PAUSED', itemId: 't3' });
  });

  it('plays on when queueCompleted finds that tracks were added', async () => {
    await start({ items: tracks(2, 60_000) });
    await h.load();
    await h.advance(BUFFERING_MS + 60_000 + 30_000); // t2's audio fetched: queueCompleted
    h.stub.edit((items) => [...items, ...tracks(1, 60_000, 'more')]);
    // The stub answered queueCompleted before the edit; the next poll finds the new version.
    await h.advance(10 * 60_000);
    expect(h.transitions.some((t) => t.detail === 'versionChanged')).toBe(true);
  });

  it('sends queueCompleted for every window of short tracks, down to the end of the queue', async () => {
    // Tracks of 30 s or less arrive whole, so a window of them is all fetched as soon as it is
    // adopted: no download is left to end and say so.
    await start({ items: tracks(25, 10_000) });
    await h.load();
    await h.advance(BUFFERING_MS + 25 * 10_000);
    const asked = h.stub.sent('itemWindow').map((request) => `${request.query.reason}@${request.query.itemId ?? ''}`);
    expect(asked).toEqual([
      'load@',
      'queueCompleted@t1',
      'refresh@t9',
      'queueCompleted@t9',
      'refresh@t17',
      'queueCompleted@t17',
    ]);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PAUSED', itemId: 't25' });
  });

  it('sends queueCompleted once the window request in flight has its answer', async () => {
    await start({ items: tracks(2, 60_000) });
    await h.load();
    await h.advance(BUFFERING_MS + 70_000);
    // A refresh refused three times (retried 10 s apart, §7.4) is still in flight when t2's
    // audio is all fetched, at 90.5 s.
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '10' } }, { reason: 'refresh', times: 3 });
    h.player.refresh();
    await h.advance(25_000);
    expect(h.stub.sent('itemWindow', 'queueCompleted')).toEqual([]);
    await h.advance(10_000);
    expect(h.stub.reasons()).toEqual(['load', 'refresh', 'refresh', 'refresh', 'refresh', 'queueCompleted']);
  });

  describe('a queueCompleted waiting for the window request in flight', () => {
    const refused = { status: 503, headers: { 'retry-after': '10' } };
    async function waiting(refusals: number) {
      await start({ items: tracks(2, 60_000) });
      await h.load();
      await h.advance(BUFFERING_MS + 70_000);
      h.stub.script('itemWindow', refused, { reason: 'refresh', times: refusals });
      h.player.refresh();
      await h.advance(25_000); // t2 all fetched at 90.5 s: queueCompleted waits
    }

    it('is sent after a refresh command that took its place', async () => {
      await waiting(3);
      h.player.refresh();
      await h.advance(200_000);
      expect(h.stub.sent('itemWindow', 'queueCompleted')).toHaveLength(1);
    });

    it('is not sent once the retries ran out and the player plays out its window (§7.4.3)', async () => {
      await waiting(4);
      await h.advance(5_000);
      expect(h.rows()).toContain('background-exhausted');
      expect(h.stub.sent('itemWindow', 'queueCompleted')).toEqual([]);
    });

    it('is not sent by a suspended player', async () => {
      await waiting(3);
      h.player.suspend();
      await h.advance(10_000);
      expect(h.stub.sent('itemWindow', 'queueCompleted')).toEqual([]);
    });
  });

  it('does not ask queueCompleted again from a queueCompleted answer, even when the queue grew', async () => {
    await start({ items: tracks(30, 10_000) });
    // A server that adds a track whenever it is asked for more: each answer is a new window.
    let added = 0;
    const stub = h.stub as unknown as { window: (query: Record<string, string>, reply: unknown) => unknown };
    const answer = stub.window.bind(h.stub);
    stub.window = (query, reply) => {
      if (query.reason === 'queueCompleted')
        h.stub.edit((items) => [...items, ...tracks(1, 10_000, `more${++added}-`)]);
      return answer(query, reply);
    };
    await h.load();
    await h.advance(BUFFERING_MS + 2_000);
    expect(h.stub.sent('itemWindow', 'queueCompleted')).toHaveLength(1);
  });

  it('asks for windows of 5 previous and 10 upcoming items (docs/contract/console.md §5)', async () => {
    await start();
    await h.load();
    h.player.refresh();
    await h.settle();
    for (const request of h.stub.sent('itemWindow')) {
      expect(request.query).toMatchObject({
        previousWindowSize: String(PREVIOUS_WINDOW_SIZE),
        upcomingWindowSize: String(UPCOMING_WINDOW_SIZE),
      });
    }
  });
});

describe('resume', () => {
  it('is sent only to resume a suspended session', async () => {
    await start({ policies: { pauseTtlSec: 30 } });
    await h.load();
    await h.advance(BUFFERING_MS);
    await h.player.act('pause', 'user');
    await h.player.act('resume', 'user'); // a paused, not suspended, session just plays
    await h.player.act('pause', 'user');
    await h.advance(30_000);
    await h.player.act('resume', 'user');
    await h.settle();
    expect(h.stub.reasons()).toEqual(['load', 'resume']);
  });
});
