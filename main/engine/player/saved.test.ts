/**
 * A player across a restart: what `save` keeps, through JSON as the store keeps it, taken up by
 * a fresh player on the same engine clock. It is where it was, and its timers go on from there.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { playerHarness, playingHarness, type PlayerHarness } from '../testing/player-harness.js';
import { tracks } from '../testing/stub-cloud-queue.js';
import { BUFFERING_MS } from './audio.js';
import { CloudQueueClient } from './client.js';
import { Player, type TransitionRecord } from './player.js';
import { movedToOwnServer, readSavedPlayer, type SavedPlayer } from './saved.js';

let h: PlayerHarness;
let restarted: Player | null = null;
afterEach(async () => {
  restarted?.close();
  restarted = null;
  await h.close();
});

/** Stops the harness's player the way the engine does (save, then close) and starts a new one from the record. */
function restart(): { player: Player; transitions: TransitionRecord[] } {
  const record = readSavedPlayer(JSON.parse(JSON.stringify(h.player.save())));
  h.player.close();
  expect(record).not.toBeNull();
  const transitions: TransitionRecord[] = [];
  const client = new CloudQueueClient({ playerId: 'player-test', clock: h.clock });
  restarted = new Player({
    playerId: 'player-test',
    groupId: 'group-test',
    clock: h.clock,
    client,
    onTransition: (t) => transitions.push(t),
  });
  restarted.restore(record!);
  return { player: restarted, transitions };
}

describe('a player saved and restored', () => {
  it('plays on from where it was, in the same session, and moves to the next track on time', async () => {
    h = await playingHarness();
    await h.advance(60_000);
    const before = h.player.snapshot();
    const { player, transitions } = restart();
    expect(player.snapshot()).toEqual(before);
    expect(player.currentSession).toEqual(h.player.currentSession);
    expect(transitions).toEqual([]);

    // 180 s tracks: 120 s are left of this one.
    await h.advance(119_999);
    expect(player.status()).toMatchObject({
      playbackState: 'PLAYBACK_STATE_PLAYING',
      itemId: 't1',
      positionMillis: 179_999,
    });
    expect(transitions.map((t) => t.transition)).not.toContain('track-ends-next');
    await h.advance(1);
    expect(transitions.at(-1)?.transition).toBe('track-ends-next');
    expect(player.status()).toMatchObject({ itemId: 't2', positionMillis: 0 });
  });

  it('keeps the version poll on its rhythm and sends the load\u2019s httpAuthorization as before', async () => {
    h = await playingHarness();
    // The load answered at 0; the poll is due 600 s later while playing.
    await h.advance(100_000);
    restart();
    const polls = () => h.stub.sent('version');
    await h.advance(600_000 - h.elapsed() - 1);
    expect(polls()).toHaveLength(0);
    await h.advance(1);
    await h.settle();
    expect(polls()).toHaveLength(1);
    expect(polls()[0]!.headers.authorization).toBe('Bearer queue-token');
  });

  it('pauses where it was paused and is still suspended when its pauseTtlSec runs out', async () => {
    h = await playingHarness({ policies: { pauseTtlSec: 90 } });
    await h.advance(20_000);
    await h.player.act('pause', 'user');
    await h.advance(30_000);
    const { player, transitions } = restart();
    expect(player.status()).toMatchObject({
      playbackState: 'PLAYBACK_STATE_PAUSED',
      suspended: false,
      positionMillis: 20_000,
    });
    await h.advance(59_999);
    expect(transitions).toEqual([]);
    await h.advance(1);
    expect(transitions.map((t) => t.transition)).toEqual(['suspend-after-ttl']);
  });

  it('keeps its reports\u2019 played time across the restart', async () => {
    h = await playingHarness({ reports: { sendUpdateAfterMillis: 30_000 } });
    await h.advance(20_000);
    restart();
    await h.advance(10_000);
    await h.settle();
    expect(h.stub.postedReports()).toEqual([
      expect.objectContaining({ id: 't1', type: 'update', durationPlayedMillis: 30_000, positionMillis: 30_000 }),
    ]);
  });

  it('asks again what it was still waiting on: a queueCompleted between its retries', async () => {
    h = await playingHarness({ items: tracks(2, 60_000) });
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '5' } }, { reason: 'queueCompleted' });
    // t2 plays, its audio and so the whole window is fetched: queueCompleted is asked, refused, and waits 10 s to retry.
    await h.advance(90_000);
    expect(h.stub.sent('itemWindow', 'queueCompleted')).toHaveLength(1);
    h.stub.edit((items) => [...items, ...tracks(1, 60_000, 'more')]);
    const { player } = restart();
    await h.settle();
    expect(h.stub.sent('itemWindow', 'queueCompleted')).toHaveLength(2);
    await h.advance(30_000 + BUFFERING_MS);
    expect(player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 'more1' });
  });

  it('asks again for a queueCompleted that was waiting for the window request in flight', async () => {
    h = await playingHarness({ items: tracks(2, 60_000) });
    await h.advance(70_000);
    // The refresh is refused three times (10 s apart); t2's audio is all fetched at 90.5 s, so
    // queueCompleted waits behind it when the engine stops.
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '10' } }, { reason: 'refresh', times: 3 });
    h.player.refresh();
    await h.advance(25_000);
    expect(h.stub.sent('itemWindow', 'queueCompleted')).toEqual([]);
    restart();
    await h.settle();
    expect(h.stub.reasons().slice(-2)).toEqual(['refresh', 'queueCompleted']);
  });

  it('waits again at the window\u2019s edge: the track that ended there neither plays again nor reports twice', async () => {
    // 5 s tracks; the refresh asked at t9 gets 503s with Retry-After 10 s, so t11 ends (55.5 s)
    // while it is between tries.
    h = await playingHarness({
      items: tracks(14, 60_000).map((item, i) =>
        i < 11 ? { ...item, track: { ...item.track, durationMillis: 5_000 } } : item,
      ),
    });
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '10' } }, { times: 3, reason: 'refresh' });
    await h.advance(55_000);
    expect(h.player.snapshot()).toMatchObject({ state: 'BUFFERING', atEdge: true, itemId: 't11' });
    const { player, transitions } = restart();
    expect(player.snapshot()).toMatchObject({ state: 'BUFFERING', atEdge: true, itemId: 't11', positionMillis: 5_000 });
    await h.advance(10_000); // the refresh asked again at once gets the last 503, then its retry answers
    expect(transitions.map((t) => t.transition)).toEqual(['next-window-plays']);
    await h.advance(BUFFERING_MS);
    expect(player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't12' });
    const finals = h.stub.postedReports().filter((r) => r.type === 'final');
    expect(finals.filter((r) => r.id === 't11')).toHaveLength(1);
  });

  it('asks again for a skipToItem the control API had already answered', async () => {
    h = await playingHarness();
    h.stub.script('itemWindow', { hang: true }, { reason: 'skipToItem' });
    h.player.skipToItem({ itemId: 't7' });
    await h.settle();
    const { player } = restart();
    await h.settle();
    expect(h.stub.sent('itemWindow', 'skipToItem')).toHaveLength(2);
    await h.advance(BUFFERING_MS);
    expect(player.status()).toMatchObject({ itemId: 't7', playbackState: 'PLAYBACK_STATE_PLAYING' });
  });

  it('with a load that had started its track at once, asks again what the queue before was asking then', async () => {
    h = await playingHarness();
    h.stub.script('itemWindow', { hang: true }, { reason: 'skipToItem', times: 1 });
    h.player.skipToItem({ itemId: 't7' });
    await h.settle();
    h.stub.script('itemWindow', { hang: true }, { reason: 'refresh', times: 1 }); // the load's window (with metadata: refresh)
    const load = h.load({ itemId: 't3', trackMetadata: tracks(3)[2]!.track }).catch((error: unknown) => error);
    await h.settle();
    expect(h.rows()).toContain('load-starts-at-once');
    const { player } = restart();
    await load;
    await h.settle();
    expect(h.stub.sent('itemWindow', 'skipToItem')).toHaveLength(2);
    await h.advance(BUFFERING_MS);
    expect(player.status()).toMatchObject({ itemId: 't7', playbackState: 'PLAYBACK_STATE_PLAYING' });
  });

  it('keeps a paused player’s pauseTtlSec while a new load is waiting for its answer', async () => {
    h = await playingHarness({ policies: { pauseTtlSec: 90 } });
    await h.player.act('pause', 'user');
    h.stub.script('context', { hang: true });
    const load = h.load().catch((error: unknown) => error);
    await h.settle();
    const { player, transitions } = restart();
    await load;
    await h.advance(90_000);
    expect(transitions.map((t) => t.transition)).toEqual(['suspend-after-ttl']);
    expect(player.status().suspended).toBe(true);
  });

  it('leaves out a load that had not answered: the player is kept as it was before it', async () => {
    h = await playerHarness();
    h.stub.script('itemWindow', { hang: true });
    const load = h.load().catch((error: unknown) => error);
    await h.settle();
    const saved = h.player.save();
    expect(saved.playback).toBeNull();
    expect(saved.session).toEqual(h.player.currentSession);
    h.player.close();
    await load;
  });

  it('keeps an idle session, the volume and the sessions it evicted', async () => {
    h = await playerHarness();
    const first = h.player.currentSession!;
    h.player.createSession('com.example.app', 'second');
    h.player.setVolume(72);
    const { player } = restart();
    expect(player.currentSession).toEqual(h.player.currentSession);
    expect(player.getVolume()).toBe(72);
    expect(player.wasEvicted(first.id)).toBe(true);
    expect(player.status().playbackState).toBe('PLAYBACK_STATE_IDLE');
  });

  it('takes up a record with report intervals under a second as the player acts on them: at least 1,000 ms', async () => {
    h = await playingHarness();
    const saved = JSON.parse(JSON.stringify(h.player.save())) as SavedPlayer;
    // As a console from before the clamp wrote it.
    saved.playback!.queue = {
      ...saved.playback!.queue,
      reports: { sendUpdateAfterMillis: 1, periodicIntervalMillis: 5 },
    };
    h.player.close();
    const client = new CloudQueueClient({ playerId: 'player-test', clock: h.clock });
    restarted = new Player({ playerId: 'player-test', groupId: 'group-test', clock: h.clock, client });
    restarted.restore(readSavedPlayer(saved)!);
    expect(restarted.snapshot().reports).toEqual({ sendUpdateAfterMillis: 1_000, periodicIntervalMillis: 1_000 });
  });

  it('ignores a record of another version', () => {
    expect(readSavedPlayer({ version: 0, volume: 1, evictedSessions: [] })).toBeNull();
    expect(readSavedPlayer(null)).toBeNull();
    expect(readSavedPlayer('x')).toBeNull();
  });
});

describe('a saved queue of the console\u2019s own server', () => {
  const record = (queueBaseUrl: string) =>
    ({
      version: 1,
      session: null,
      volume: 30,
      evictedSessions: [],
      lastError: null,
      playback: { queue: { target: { queueBaseUrl, httpAuthorization: 'Bearer t' } } },
    }) as unknown as SavedPlayer;
  const urlOf = (saved: SavedPlayer) => saved.playback!.queue.target.queueBaseUrl;

  it('is found where that server listens now', () => {
    const moved = movedToOwnServer(
      record('http://127.0.0.1:40003/queues/q1/v2.3/'),
      'http://127.0.0.1:40003',
      'http://127.0.0.1:51003',
    );
    expect(urlOf(moved)).toBe('http://127.0.0.1:51003/queues/q1/v2.3/');
    expect(moved.playback!.queue.target.httpAuthorization).toBe('Bearer t');
    const byName = movedToOwnServer(
      record('http://localhost:40003/queues/q1/v2.3/'),
      'http://127.0.0.1:40003',
      'http://127.0.0.1:51003',
    );
    expect(urlOf(byName)).toBe('http://127.0.0.1:51003/queues/q1/v2.3/');
  });

  it('while a queue of another server stays where it is', () => {
    for (const url of [
      'https://cq.example/v2.3/',
      'http://127.0.0.1:40004/queues/q1/v2.3/',
      'http://cq.example:40003/q/',
      'not a url',
    ]) {
      expect(urlOf(movedToOwnServer(record(url), 'http://127.0.0.1:40003', 'http://127.0.0.1:51003'))).toBe(url);
    }
    expect(urlOf(movedToOwnServer(record('http://127.0.0.1:40003/q/'), null, 'http://127.0.0.1:51003'))).toBe(
      'http://127.0.0.1:40003/q/',
    );
  });

  it('and so are the reports a load pending at the save owes it (another server\u2019s stay)', () => {
    const owed = (queueBaseUrl: string) => ({
      target: { queueBaseUrl, httpAuthorization: 'Bearer t' },
      report: { id: 'i1' },
    });
    const saved = {
      ...record('https://cq.example/v2.3/'),
      reportsOwed: [owed('http://127.0.0.1:40003/queues/q2/v2.3/'), owed('https://cq.example/v2.3/')],
    } as unknown as SavedPlayer;
    const moved = movedToOwnServer(saved, 'http://127.0.0.1:40003', 'http://127.0.0.1:51003');
    expect(moved.reportsOwed!.map((r) => r.target.queueBaseUrl)).toEqual([
      'http://127.0.0.1:51003/queues/q2/v2.3/',
      'https://cq.example/v2.3/',
    ]);
    expect(urlOf(moved)).toBe('https://cq.example/v2.3/');
  });
});
