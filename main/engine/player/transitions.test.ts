/**
 * One test per row of the transition table, each against the stub cloud queue server with the
 * engine clock moved by hand. The last test checks that no row went untested.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { playerHarness, type PlayerHarness } from '../testing/player-harness.js';
import { fetchTransport, type HttpTransport } from './client.js';
import { tracks, type StubOptions } from '../testing/stub-cloud-queue.js';
import { AUDIO_AHEAD_MS, BUFFERING_MS } from './audio.js';
import { PlaybackError } from './errors.js';
import type { Player } from './player.js';
import { TRANSITIONS } from './transitions.js';

const covered = new Set<string>();
let h: PlayerHarness;

async function start(options: StubOptions = {}): Promise<PlayerHarness> {
  h = await playerHarness(options);
  return h;
}

afterEach(async () => {
  if (!h) return;
  for (const row of h.rows()) covered.add(row);
  await h.close();
});

/** Loads with playOnCompletion and lets the first track start. */
async function playing(options: StubOptions = {}): Promise<PlayerHarness> {
  await start(options);
  await h.load();
  await h.advance(BUFFERING_MS);
  expect(h.player.machineState).toBe('PLAYING');
  return h;
}

/**
 * t1 plays (or, `paused`, waits paused on it) 1 s; then a load of t2 with its metadata starts t2
 * at once, and its first window never comes. `first`: that load's outcome.
 */
async function startedAtOnce(options: StubOptions = {}, { paused = false } = {}): Promise<{ first: Promise<unknown> }> {
  if (paused) {
    await start({ items: tracks(5, 60_000), ...options });
    await h.load({ playOnCompletion: false });
    expect(h.player.machineState).toBe('PAUSED');
  } else await playing({ items: tracks(5, 60_000), ...options });
  await h.advance(1_000);
  h.stub.script('itemWindow', { hang: true }, { reason: 'refresh', times: 1 });
  const first = h.load({ itemId: 't2', trackMetadata: tracks(5, 60_000)[1]!.track }).catch((error: unknown) => error);
  await h.advance(BUFFERING_MS + 2_000);
  expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't2' });
  return { first }; // wrapped: an async function returning the promise would wait for it
}

const last = () => h.transitions.at(-1)!;
/** Ids of the final reports posted so far, in order; those of one item. */
const finals = () =>
  h.stub
    .postedReports()
    .filter((r) => r.type === 'final')
    .map((r) => r.id);
const finalsOf = (id: string) => finals().filter((each) => each === id);
const minutes = (n: number) => n * 60_000;

describe('loadCloudQueue', () => {
  it('load-begins: asks for the context, then the first window with reason=load', async () => {
    await start();
    await h.load({ playOnCompletion: false });
    expect(h.transitions[0]).toMatchObject({ transition: 'load-begins', from: 'IDLE', to: 'IDLE', cause: 'command' });
    expect(h.stub.requests.map((r) => `${r.endpoint}${r.reason ? `:${r.reason}` : ''}`)).toEqual([
      'context',
      'itemWindow:load',
    ]);
  });

  it('load-answered-paused: without playOnCompletion the player waits, paused on the first item', async () => {
    await start();
    await h.load({ playOnCompletion: false });
    expect(last()).toMatchObject({ transition: 'load-answered-paused', from: 'IDLE', to: 'PAUSED', cause: 'response' });
    expect(h.player.status()).toMatchObject({
      playbackState: 'PLAYBACK_STATE_PAUSED',
      itemId: 't1',
      positionMillis: 0,
      queueVersion: '1',
    });
  });

  it('load-answered-paused: a queue loaded paused is suspended after pauseTtlSec, as any pause (§3)', async () => {
    await start({ policies: { pauseTtlSec: 60 } });
    await h.load({ playOnCompletion: false });
    await h.advance(59_999);
    expect(h.player.status().suspended).toBe(false);
    await h.advance(1);
    expect(last()).toMatchObject({ transition: 'suspend-after-ttl', from: 'PAUSED', to: 'SUSPENDED' });
  });

  it('load-begins: the first window asks with the queueVersion the command named, never the replaced queue’s', async () => {
    await playing();
    h.stub.edit((items) => items.slice(0, 4)); // the loaded queue moves on to version 2
    await h.player.refresh();
    await h.settle();
    expect(h.player.status().queueVersion).toBe('2');
    await h.load({ queueVersion: '7' });
    await h.load({});
    const loads = h.stub.requests.filter((r) => r.reason === 'load');
    expect(loads.map((r) => r.query.queueVersion ?? null)).toEqual([null, '7', null]);
  });

  it('load-answered-plays and audio-ready: fetch the first track, then play', async () => {
    await start();
    await h.load({ itemId: 't3', positionMillis: 5_000 });
    expect(last()).toMatchObject({ transition: 'load-answered-plays', to: 'BUFFERING' });
    await h.advance(BUFFERING_MS);
    expect(last()).toMatchObject({ transition: 'audio-ready', from: 'BUFFERING', to: 'PLAYING', cause: 'timer' });
    await h.advance(10_000);
    expect(h.player.status()).toMatchObject({
      playbackState: 'PLAYBACK_STATE_PLAYING',
      itemId: 't3',
      positionMillis: 15_000,
    });
  });

  it('load-starts-at-once: with no itemId, what names the playing item waits for the load\u2019s answer (never itemId=pending, which a server answers 404)', async () => {
    await playing({
      items: tracks(5, 60_000),
      policies: { notifyUserIntent: true },
      reports: { sendUpdateAfterMillis: 2_000 },
    });
    h.stub.script('itemWindow', { hold: true }, { reason: 'refresh', times: 1 }); // the load's window (with metadata: refresh)
    const load = h.load({ trackMetadata: tracks(1, 60_000)[0]!.track }).then(
      () => 'loaded',
      (error: unknown) => error,
    );
    await h.settle();
    await h.advance(BUFFERING_MS + 3_000);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: null });
    h.player.refresh();
    await h.player.act('pause', 'user'); // notifyUserIntent: reason=pause
    await h.settle();
    const named = () => [...h.stub.sent('itemWindow').map((r) => r.itemId), ...h.stub.postedReports().map((r) => r.id)];
    expect(named()).not.toContain('pending');
    expect(h.stub.sent('itemWindow', 'pause')).toHaveLength(0);
    h.stub.release();
    expect(await load).toBe('loaded');
    await h.settle();
    expect(named()).not.toContain('pending');
    expect(h.stub.sent('itemWindow', 'pause')).toEqual([expect.objectContaining({ itemId: 't1' })]);
    expect(h.stub.sent('itemWindow', 'refresh').at(-1)).toMatchObject({ itemId: 't1' });
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PAUSED', itemId: 't1' });
  });

  describe('a track a load started at once without an itemId, before the answer names it', () => {
    /** Plays t1..t5, then loads again with t1's metadata and no itemId; the load's window is held until `h.stub.release()`. */
    async function unnamed(options: StubOptions = {}): Promise<{ load: Promise<unknown> }> {
      await playing({ items: tracks(5, 60_000), ...options });
      h.stub.script('itemWindow', { hold: true }, { reason: 'refresh', times: 1 });
      const load = h.load({ trackMetadata: tracks(1, 60_000)[0]!.track }).then(
        () => 'loaded',
        (error: unknown) => error,
      );
      await h.settle();
      return { load }; // wrapped: an async function returning the promise would wait for it
    }
    const reported = () => h.stub.postedReports().map((r) => `${r.type as string}:${r.id as string}`);
    /** After it played 2 s, a load of t4 (no metadata) supersedes it and waits for its context. */
    async function supersededWhileWaiting(): Promise<{ second: Promise<unknown> }> {
      await unnamed();
      await h.advance(BUFFERING_MS + 2_000);
      h.stub.script('context', { hang: true }, { times: 1 });
      const second = h.load({ itemId: 't4' }).catch((error: unknown) => error);
      await h.settle();
      return { second }; // wrapped, as `unnamed` does
    }

    it('its update reports wait, one at a time: the latest goes out under its id', async () => {
      const { load } = await unnamed({
        reports: { sendUpdateAfterMillis: 1_000, periodicIntervalMillis: 1_000, sendPlaybackActions: false },
      });
      await h.advance(BUFFERING_MS + 8_000);
      expect(reported()).toEqual([]);
      h.stub.release();
      expect(await load).toBe('loaded');
      await h.settle();
      // The track the load cut off (posted with the answer), then the one update kept.
      expect(reported()).toEqual(['final:t1', 'update:t1']);
      expect(h.stub.postedReports().at(-1)).toMatchObject({ durationPlayedMillis: 8_000 });
    });

    it('a skipToItem from it: its final report (a skip) is posted under its id once named, the target reports its own', async () => {
      const { load } = await unnamed();
      await h.advance(BUFFERING_MS + 2_000);
      h.player.skipToItem({ itemId: 't3', trackMetadata: tracks(3, 60_000)[2]!.track });
      await h.advance(BUFFERING_MS + 3_000);
      h.stub.release();
      expect(await load).toBe('loaded');
      await h.advance(60_000);
      const finals = h.stub.postedReports().filter((r) => r.type === 'final');
      expect(finals.map((r) => r.id)).toEqual(['t1', 't1', 't3']);
      expect(finals[1]).toMatchObject({
        queueVersion: '1',
        durationPlayedMillis: 2_500,
        skip: { reportId: expect.any(String) },
      });
      expect(finals[2]).not.toHaveProperty('skip');
      expect(reported()).not.toContainEqual(expect.stringContaining('pending'));
    });

    it('a new session cuts it off without a report: there is no id to report it under (the track the load cut off gets its final)', async () => {
      const { load } = await unnamed();
      await h.advance(BUFFERING_MS + 2_000);
      h.player.createSession('com.example.other', 'other');
      await h.settle();
      expect(reported()).toEqual(['final:t1']);
      expect(h.stub.postedReports()[0]).toMatchObject({ durationPlayedMillis: 0 }); // the queue before's t1, cut off as it began
      expect(await load).toMatchObject({ errorCode: 'ERROR_SESSION_EVICTED' });
    });

    it('a load that supersedes it and fails puts back the queue from before it, which plays and asks on', async () => {
      await unnamed();
      await h.advance(BUFFERING_MS + 2_000);
      h.stub.script('context', { status: 500 }, { times: 1 });
      await expect(h.load({ itemId: 't4' })).rejects.toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
      expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't1' });
      h.player.refresh();
      await h.settle();
      expect(h.stub.sent('itemWindow', 'refresh').at(-1)).toMatchObject({ itemId: 't1' });
      expect(h.player.snapshot().window?.items[0]).toMatchObject({ id: 't1' });
    });

    it('so does the last of two loads that supersede it, one after the other', async () => {
      const { second } = await supersededWhileWaiting();
      h.stub.script('context', { status: 500 }, { times: 1 });
      await expect(h.load({ itemId: 't5' })).rejects.toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
      expect(await second).toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
      expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't1' });
    });

    it('a started-at-once load that supersedes it and fails puts back the queue from before it, not the unnamed track', async () => {
      await unnamed();
      await h.advance(BUFFERING_MS + 2_000);
      h.stub.script('itemWindow', { status: 500 }, { reason: 'refresh', times: 1 });
      await expect(h.load({ itemId: 't2', trackMetadata: tracks(2, 60_000)[1]!.track })).rejects.toMatchObject({
        errorCode: 'ERROR_CLOUD_QUEUE_SERVER',
      });
      expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't1' });
      h.player.refresh();
      await h.settle();
      expect(h.stub.sent('itemWindow', 'refresh').at(-1)).toMatchObject({ itemId: 't1' });
    });

    it('a load that supersedes it and succeeds posts the final report of the track the first one cut off', async () => {
      const { load } = await unnamed();
      await h.advance(BUFFERING_MS + 2_000);
      await h.load({ itemId: 't4' });
      expect(await load).toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
      await h.settle();
      expect(reported()).toEqual(['final:t1']); // t1 as the queue before played it; the unnamed track has no id to report
      expect(h.player.status()).toMatchObject({ itemId: 't4' });
    });

    it('the queue dropped (a 404) while a load that superseded it waits: that load failing leaves the player idle', async () => {
      const { second } = await supersededWhileWaiting();
      h.player.skipToItem({ itemId: 'gone' }); // answered 404: the queue is dropped (§7.1)
      await h.settle();
      expect(h.player.machineState).toBe('IDLE');
      expect(h.player.save().playback).toBeNull();
      await h.advance(10_000); // the context times out: the load fails
      expect(await second).toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
      expect(h.player.machineState).toBe('IDLE');
    });

    it('played again from its end while a load that superseded it waits, it still has no item id', async () => {
      await playing({ items: tracks(5, 60_000) });
      h.stub.script('itemWindow', { hang: true }, { reason: 'refresh', times: 1 });
      const first = h
        .load({ trackMetadata: { mediaUrl: 'https://media.example/short.mp3', durationMillis: 3_000 } })
        .catch((error: unknown) => error);
      await h.settle();
      h.stub.script('context', { hang: true }, { times: 1 }); // a load that supersedes it waits for its context
      const second = h.load({ itemId: 't3' }).catch((error: unknown) => error);
      await h.advance(3_500); // the short track ends: the superseding load's answer is not a window for it
      await h.player.act('play', 'user'); // it plays again from the start
      await h.advance(BUFFERING_MS + 1_000);
      expect(h.player.status().itemId).toBeNull();
      expect(h.player.snapshot().track?.id).toBeNull();
      await h.advance(10_000); // the superseding load's context times out: both loads fail
      expect(await second).toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
      expect(await first).toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
      expect(h.stub.postedReports().map((r) => r.id)).not.toContain('pending');
      expect(h.stub.requests.map((r) => r.itemId)).not.toContain('pending');
    });

    it('the playback metadata, the status and the Player page name no item for it, until the answer does', async () => {
      const { load } = await unnamed();
      expect(h.player.metadata().currentItem).toEqual({ track: tracks(1, 60_000)[0]!.track });
      expect(h.player.status().itemId).toBeNull();
      expect(h.player.snapshot().track).toMatchObject({ id: null, name: tracks(1, 60_000)[0]!.track.name });
      h.stub.release();
      expect(await load).toBe('loaded');
      expect(h.player.snapshot().track).toMatchObject({ id: 't1' });
    });
  });

  describe('a track a load started at once that ends before the load is answered', () => {
    /** Plays 3 s tracks t1..t5, then loads with `itemId`'s metadata (or t1's and none); its window is held until released. */
    async function endsFirst(
      itemId: string | undefined,
      held: { body?: unknown } = {},
    ): Promise<{ load: Promise<unknown> }> {
      await playing({ items: tracks(5, 3_000) });
      h.stub.script('itemWindow', { hold: true, ...held }, { reason: 'refresh', times: 1 }); // the load's window (with metadata: refresh)
      const metadata = tracks(5, 3_000)[Number((itemId ?? 't1').slice(1)) - 1]!.track;
      const load = h.load({ ...(itemId ? { itemId } : {}), trackMetadata: metadata }).then(
        () => 'loaded',
        (error: unknown) => error,
      );
      await h.settle();
      await h.advance(BUFFERING_MS + 3_500); // it ends: its window, the load's answer, has not come
      expect(last()).toMatchObject({ transition: 'track-ends-window-edge', to: 'BUFFERING' });
      expect(h.player.snapshot().atEdge).toBe(true);
      return { load }; // wrapped: an async function returning the promise would wait for it
    }

    it('load-answered-at-edge-plays: it waits at the edge for the answer, which brings the next track; one final report', async () => {
      const { load } = await endsFirst('t2');
      expect(finalsOf('t2')).toEqual([]);
      expect(h.stub.sent('itemWindow', 'refresh')).toHaveLength(1); // only the load's own: nothing else is asked
      h.stub.release();
      expect(await load).toBe('loaded');
      await h.settle();
      expect(last()).toMatchObject({ transition: 'load-answered-at-edge-plays', from: 'BUFFERING', to: 'BUFFERING' });
      await h.advance(BUFFERING_MS);
      expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't3' });
      expect(finalsOf('t2')).toHaveLength(1);
      expect(h.stub.postedReports().find((r) => r.type === 'final' && r.id === 't2')).toMatchObject({
        queueVersion: '1',
      });
    });

    it('load-answered-at-edge-plays: also for a track the load named no item for; its final goes out under its id', async () => {
      const { load } = await endsFirst(undefined);
      h.stub.release();
      expect(await load).toBe('loaded');
      await h.advance(BUFFERING_MS);
      expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't2' });
      expect(finalsOf('t1')).toHaveLength(2); // the first queue's t1, cut off by the load, and the one started at once
      expect(finals()).not.toContain('pending');
    });

    it('load-answered-at-edge-ends: the answer says it is the queue\u2019s last: final report, paused at its end', async () => {
      const { load } = await endsFirst('t5');
      h.stub.release();
      expect(await load).toBe('loaded');
      await h.advance(10_000);
      expect(last()).toMatchObject({ transition: 'load-answered-at-edge-ends', to: 'PAUSED' });
      expect(h.player.snapshot()).toMatchObject({ state: 'PAUSED', itemId: 't5', atEnd: true, atEdge: false });
      expect(finalsOf('t5')).toHaveLength(1);
    });

    it('load-answered-at-edge-asks: the answer ends with it but says the queue goes on: it asks for what follows, then plays it', async () => {
      const window = {
        includesBeginningOfQueue: true,
        includesEndOfQueue: false,
        contextVersion: '1',
        queueVersion: '1',
        items: tracks(2, 3_000),
      };
      const { load } = await endsFirst('t2', { body: window });
      h.stub.release();
      expect(await load).toBe('loaded');
      await h.settle();
      expect(h.rows()).toContain('load-answered-at-edge-asks');
      await h.advance(BUFFERING_MS);
      expect(h.stub.sent('itemWindow', 'refresh').at(-1)).toMatchObject({ itemId: 't2' });
      expect(h.rows()).toContain('next-window-plays-fetched');
      expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't3' });
      expect(finalsOf('t2')).toHaveLength(1);
    });

    it('a refreshCloudQueue while it waits goes out after the answer, the queue\u2019s first window; one final report', async () => {
      const { load } = await endsFirst('t2');
      h.player.refresh();
      await h.settle();
      expect(h.stub.sent('itemWindow', 'refresh')).toHaveLength(1); // only the load's own
      h.stub.release();
      expect(await load).toBe('loaded');
      await h.advance(BUFFERING_MS);
      expect(h.stub.sent('itemWindow', 'refresh')).toHaveLength(2);
      expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't3' });
      await h.advance(10_000);
      expect(finalsOf('t2')).toHaveLength(1);
    });

    it('a skipToItem while it waits: its final report (not a skip: it played to its end) goes out with the answer\u2019s version', async () => {
      const { load } = await endsFirst('t2');
      h.player.skipToItem({ itemId: 't4', trackMetadata: tracks(5, 3_000)[3]!.track });
      await h.settle();
      expect(finalsOf('t2')).toEqual([]);
      h.stub.release();
      expect(await load).toBe('loaded');
      await h.settle();
      const final = h.stub.postedReports().filter((r) => r.type === 'final' && r.id === 't2');
      expect(final).toEqual([expect.objectContaining({ queueVersion: '1', durationPlayedMillis: 3_000 })]);
      expect(final[0]).not.toHaveProperty('skip');
    });

    /** Plays 3 s tracks, loads t2 with metadata (its window held, with `held.body` if given), skips to t4 with metadata, and lets t4 end. */
    async function skippedToItemThatEnds(held: { body?: unknown } = {}): Promise<{ load: Promise<unknown> }> {
      await playing({ items: tracks(5, 3_000) });
      h.stub.script('itemWindow', { hold: true, ...held }, { reason: 'refresh', times: 1 }); // the load's window
      const load = h.load({ itemId: 't2', trackMetadata: tracks(5, 3_000)[1]!.track }).then(
        () => 'loaded',
        (error: unknown) => error,
      );
      await h.advance(1_000);
      h.player.skipToItem({ itemId: 't4', trackMetadata: tracks(5, 3_000)[3]!.track }); // plays at once
      await h.advance(3_500); // t4 ends: no window has come
      return { load }; // wrapped: an async function returning the promise would wait for it
    }

    it.each([
      {
        row: 'load-answered-at-edge-plays',
        what: 'a track a skipToItem started meanwhile that also ends first waits at the edge too: one final report',
        held: {},
      },
      {
        row: 'load-answered-at-edge-asks',
        what: 'an answer without the track a skipToItem started asks for what follows that track',
        // The load's window: t1, t2 only, and the end of the queue.
        held: {
          body: {
            includesBeginningOfQueue: true,
            includesEndOfQueue: true,
            contextVersion: '1',
            queueVersion: '1',
            items: tracks(2, 3_000),
          },
        },
      },
    ])('$row: $what', async ({ row, held }) => {
      const { load } = await skippedToItemThatEnds(held);
      expect(h.player.snapshot()).toMatchObject({ state: 'BUFFERING', atEdge: true });
      h.stub.release();
      expect(await load).toBe('loaded');
      await h.advance(BUFFERING_MS);
      expect(h.rows()).toContain(row);
      expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't5' });
      expect(finalsOf('t4')).toHaveLength(1);
      expect(h.stub.postedReports().find((r) => r.type === 'final' && r.id === 't4')).toMatchObject({
        queueVersion: '1',
        durationPlayedMillis: 3_000,
      });
    });

    it('its held reports keep their order when a skipToItem\u2019s answer brings a window before the load\u2019s does', async () => {
      await playing({
        items: tracks(5, 60_000),
        reports: { sendUpdateAfterMillis: 1_000, sendPlaybackActions: false },
      });
      h.stub.script('itemWindow', { hold: true }, { reason: 'refresh', times: 1 });
      const load = h.load({ itemId: 't2', trackMetadata: tracks(2, 60_000)[1]!.track }).then(
        () => 'loaded',
        (error: unknown) => error,
      );
      await h.settle();
      await h.advance(BUFFERING_MS + 3_000); // t2's update is due and held
      h.player.skipToItem({ itemId: 't4' }); // no metadata: asked of the server, answered with a window
      await h.settle();
      h.stub.release();
      expect(await load).toBe('loaded');
      await h.settle();
      expect(
        h.stub
          .postedReports()
          .filter((r) => r.id === 't2')
          .map((r) => r.type),
      ).toEqual(['update', 'final']);
    });

    it('a pause and a play while it waits are not told for a track a skipToItem put in its place', async () => {
      await playing({ items: tracks(5, 60_000), policies: { notifyUserIntent: true } });
      h.stub.script('itemWindow', { hold: true }, { reason: 'refresh', times: 1 });
      const load = h.load({ itemId: 't2', trackMetadata: tracks(2, 60_000)[1]!.track }).then(
        () => 'loaded',
        (error: unknown) => error,
      );
      await h.settle();
      await h.advance(BUFFERING_MS + 1_000);
      await h.player.act('pause', 'user');
      await h.player.act('play', 'user');
      h.player.skipToItem({ itemId: 't4', trackMetadata: tracks(4, 60_000)[3]!.track });
      h.stub.release();
      expect(await load).toBe('loaded');
      await h.advance(BUFFERING_MS);
      expect(h.stub.sent('itemWindow').filter((r) => r.reason === 'pause' || r.reason === 'play')).toEqual([]);
      expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't4' });
    });

    it('a pause while it waits holds; a play after the answer goes on to the next track', async () => {
      const { load } = await endsFirst('t2');
      await h.player.act('pause', 'user');
      h.stub.release();
      expect(await load).toBe('loaded');
      await h.advance(5_000);
      expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PAUSED', itemId: 't2' });
      await h.player.act('play', 'user');
      await h.advance(BUFFERING_MS);
      expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't3' });
      expect(finalsOf('t2')).toHaveLength(1);
    });
  });

  it('load-starts-at-once and load-answered-already-started: with metadata the track starts before the server answers', async () => {
    await start({ items: tracks(5) });
    const metadata = tracks(5)[1]!.track;
    await h.load({ itemId: 't2', trackMetadata: metadata });
    expect(h.rows()).toEqual(['load-begins', 'load-starts-at-once', 'load-answered-already-started']);
    expect(h.stub.reasons()).toEqual(['refresh']);
    await h.advance(BUFFERING_MS);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't2' });
  });

  it('load-failed: a failing first window fails the command at once and keeps the previous state', async () => {
    await playing({ items: tracks(3) });
    const before = h.player.status();
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '3' } }, { reason: 'load' });
    const loadsBefore = h.stub.sent('itemWindow', 'load').length;
    const error = await h.load({ playOnCompletion: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlaybackError);
    expect(error).toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER', extra: { httpStatus: 503 } });
    expect(h.stub.sent('itemWindow', 'load')).toHaveLength(loadsBefore + 1); // §7.3: no retry
    expect(last()).toMatchObject({ transition: 'load-failed', from: 'PLAYING', to: 'PLAYING' });
    expect(h.player.status()).toEqual(before);
    await h.advance(1_000);
    expect(h.player.status().positionMillis).toBe(before.positionMillis + 1_000);
  });
});

describe('a load that fails leaves the player as it was', () => {
  it('load-failed: a started-at-once load on an idle player, paused since, leaves it idle: there is no track left to pause', async () => {
    await start({ items: tracks(5, 60_000), policies: { pauseTtlSec: 30 } });
    h.stub.script('itemWindow', { hang: true }, { reason: 'refresh', times: 1 }); // the load's first window (with metadata: refresh)
    const load = h.load({ itemId: 't2', trackMetadata: tracks(5, 60_000)[1]!.track }).catch((error: unknown) => error);
    await h.advance(BUFFERING_MS);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't2' });
    await h.player.act('pause', 'user');
    await h.advance(10_000); // the window times out: the load fails (§7.3: no retry)
    expect(await load).toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
    expect(last()).toMatchObject({ transition: 'load-failed', from: 'PAUSED', to: 'IDLE' });
    expect(h.player.snapshot()).toMatchObject({ state: 'IDLE', track: null, queueBaseUrl: null });
    await h.advance(60_000); // the pause's pauseTtl does not suspend a player with nothing loaded
    expect(h.player.machineState).toBe('IDLE');
  });

  it('load-failed: a player buffering a track when the load failed still starts it', async () => {
    await playing({ items: tracks(5, 60_000) });
    await h.player.act('skipNext', 'user');
    expect(h.player.machineState).toBe('BUFFERING');
    h.stub.script('context', { status: 500 });
    await expect(h.load()).rejects.toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
    expect(last()).toMatchObject({ transition: 'load-failed', to: 'BUFFERING' });
    await h.advance(BUFFERING_MS);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't2' });
  });

  it('load-failed: the queue playing goes on while a load waits: at the window\u2019s edge reached meanwhile it waits for its refresh, which the failed load did not drop', async () => {
    await playing({ items: tracks(14, 5_000) });
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '10' } }, { times: 3, reason: 'refresh' });
    await h.advance(50_000);
    h.stub.script('context', { hang: true });
    const load = h.load().catch((error: unknown) => error);
    await h.advance(5_500); // t11 ends: the edge
    expect(last()).toMatchObject({ transition: 'track-ends-window-edge' });
    await h.advance(4_500); // the context times out (10 s): the load fails
    expect(await load).toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
    expect(last()).toMatchObject({ transition: 'load-failed', from: 'BUFFERING', to: 'BUFFERING' });
    await h.advance(15_000);
    expect(h.rows()).toContain('next-window-plays-fetched');
    expect(h.stub.sent('itemWindow', 'refresh').map((r) => r.itemId)).toEqual(['t9', 't9', 't9', 't9']);
    expect(finalsOf('t11')).toHaveLength(1);
  });

  it('load-failed: a refreshCloudQueue while a load waits goes out for the queue playing, and is not lost when the load fails', async () => {
    await playing({ items: tracks(20, 600_000) });
    h.stub.script('context', { hang: true });
    const load = h.load().catch((error: unknown) => error);
    const asked = h.stub.sent('itemWindow', 'refresh').length;
    await h.player.refresh();
    await h.settle();
    expect(h.stub.sent('itemWindow', 'refresh').slice(asked)).toEqual([expect.objectContaining({ itemId: 't1' })]);
    await h.advance(10_000);
    expect(await load).toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
    expect(h.rows().slice(-2)).toEqual(['window-answered', 'load-failed']);
  });

  it('load-failed: a queueCompleted due while a load waits goes out, and what it found plays after the load failed', async () => {
    await playing({ items: tracks(3, 60_000) });
    await h.advance(145_000);
    h.stub.edit((items) => [...items, ...tracks(2, 60_000, 'u')]);
    h.stub.script('context', { hang: true });
    const load = h.load().catch((error: unknown) => error);
    await h.advance(5_000); // t3's audio all fetched at 150.5 s: queueCompleted
    expect(h.stub.sent('itemWindow', 'queueCompleted').at(-1)).toMatchObject({ itemId: 't3' });
    await h.advance(5_000);
    await load;
    await h.advance(25_000); // t3 ends at 180.5 s; u1 follows
    expect(h.rows().slice(-2)).toEqual(['load-failed', 'track-ends-next']);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 'u1' });
  });

  it('load-failed: a load that started its track at once and fails at the window\u2019s edge puts the wait back, and the wait asks again', async () => {
    await playing({ items: tracks(14, 5_000) });
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '10' } }, { times: 3, reason: 'refresh' });
    await h.advance(55_000);
    expect(last()).toMatchObject({ transition: 'track-ends-window-edge' });
    // With metadata the track starts at once; its window gets the third 503 and the load fails.
    await expect(h.load({ itemId: 't2', trackMetadata: tracks(2, 5_000)[1]!.track })).rejects.toMatchObject({
      errorCode: 'ERROR_CLOUD_QUEUE_SERVER',
    });
    expect(h.rows().slice(-2)).toEqual(['load-starts-at-once', 'load-failed']);
    expect(h.player.snapshot()).toMatchObject({ state: 'BUFFERING', atEdge: true, itemId: 't11' });
    await h.advance(30_000);
    expect(h.stub.sent('itemWindow', 'refresh').at(-1)).toMatchObject({ itemId: 't11' });
    expect(h.rows()).toContain('next-window-plays-fetched');
    expect(finalsOf('t11')).toHaveLength(1);
  });

  it('load-answered-plays: the queue before dropping itself while a load waits (a 404, a failure) does not stop the load', async () => {
    await playing({ items: tracks(20, 600_000), policies: { notifyUserIntent: true } });
    h.stub.script('context', { hang: true });
    h.stub.script('itemWindow', { status: 404 }, { reason: 'refresh' });
    const load = h.load({ itemId: 't5' }).then(
      () => 'loaded',
      (error: unknown) => error,
    );
    await h.player.refresh();
    await h.settle();
    expect(last()).toMatchObject({ transition: 'window-not-found', to: 'IDLE' });
    await h.advance(10_000); // the context's first try times out: the load fails, it is not left waiting
    expect(await load).toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });

    // Once more, with the load answered after the queue before failed (a pause intent's 500).
    await h.load();
    await h.advance(BUFFERING_MS);
    h.stub.script('itemWindow', { status: 500 }, { reason: 'pause' });
    const second = h.load({ itemId: 't5' });
    await h.player.act('pause', 'user');
    await second;
    await h.advance(BUFFERING_MS);
    expect(h.rows()).toContain('foreground-failed');
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't5' });
  });

  it('window-not-found: a load whose track started at once is rejected when its queue is dropped before it answered', async () => {
    await playing({ items: tracks(5, 60_000) });
    h.stub.script('itemWindow', { hang: true }, { reason: 'refresh' }); // the load's first window (with metadata: refresh)
    const load = h.load({ itemId: 't2', trackMetadata: tracks(2, 60_000)[1]!.track }).then(
      () => 'loaded',
      (error: unknown) => error,
    );
    await h.settle();
    expect(h.rows().slice(-2)).toEqual(['load-starts-at-once', 'audio-ready']);
    h.player.skipToItem({ itemId: 'gone' }); // asked of the server (no metadata): 404
    await h.settle();
    expect(last()).toMatchObject({ transition: 'window-not-found', to: 'IDLE' });
    expect(await load).toMatchObject({
      errorCode: 'ERROR_CLOUD_QUEUE_SERVER',
      message: 'the queue being loaded was dropped',
    });
  });

  it('a new session while the first load of an idle player waits rejects that load (ERROR_SESSION_EVICTED)', async () => {
    await start({ items: tracks(5, 60_000) });
    const load = h.load().then(
      () => 'loaded',
      (error: unknown) => error,
    );
    h.player.createSession('com.other.app', 'other');
    expect(await load).toMatchObject({ errorCode: 'ERROR_SESSION_EVICTED' });
    await h.advance(BUFFERING_MS);
    expect(h.player.machineState).toBe('IDLE');
  });

  it('load-answered-already-started: a skipToItem while a started-at-once load waits plays on once the load is answered', async () => {
    // The load's first window (reason=refresh, with metadata) is held until released.
    let release = () => {};
    let held = false;
    const transport: HttpTransport = async (request) => {
      if (!held && request.url.includes('reason=refresh')) {
        held = true;
        await new Promise<void>((resolve) => (release = resolve));
      }
      return fetchTransport(request);
    };
    h = await playerHarness({ items: tracks(6, 60_000) }, { transport: () => transport });
    await h.load();
    await h.advance(BUFFERING_MS);
    const items = tracks(6, 60_000);
    const load = h.load({ itemId: 't3', trackMetadata: items[2]!.track });
    while (!held) await new Promise((resolve) => setTimeout(resolve, 2));
    await h.advance(BUFFERING_MS);
    h.player.skipToItem({ itemId: 't5', trackMetadata: items[4]!.track });
    release();
    await load;
    await h.settle();
    expect(h.rows()).toContain('load-answered-already-started');
    expect(h.player.status()).toMatchObject({ itemId: 't5' });
    expect(h.player.snapshot().track).toMatchObject({ id: 't5', mediaUrl: items[4]!.track.mediaUrl });
  });

  it('load-failed: a skip asked of a started-at-once load\u2019s queue is refused when the load fails; the track put back plays on', async () => {
    await playing({ items: tracks(6, 60_000), policies: { notifyUserIntent: true } });
    h.stub.script('itemWindow', { hang: true }, { reason: 'refresh' }); // the load's first window
    const load = h.load({ itemId: 't3', trackMetadata: tracks(6, 60_000)[2]!.track }).catch((error: unknown) => error);
    await h.settle();
    await h.advance(BUFFERING_MS);
    const skip = h.player.act('skipNext', 'user').then(
      () => 'skipped',
      (error: unknown) => error,
    );
    await h.advance(10_000); // the load's window times out: the load fails, t1 comes back
    expect(await load).toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
    expect(await skip).toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
    await h.advance(3_000);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't1' });
    // The skip waited for the load's answer (the queue's first window), which never came.
    expect(h.stub.sent('itemWindow', 'skipNext')).toHaveLength(0);
  });

  it('load-failed: a started-at-once load that fails asks again what the queue put back was asking: a refreshCloudQueue waiting to retry', async () => {
    await playing({ items: tracks(20, 600_000) });
    h.stub.edit((items) => items.slice(0, 8)); // version 2 on the server
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '2' } }, { reason: 'refresh', times: 1 });
    await h.player.refresh();
    await h.settle(); // 503: retried 10 s after it was sent (§7.4)
    h.stub.script('itemWindow', { status: 500 }, { reason: 'refresh', times: 1 }); // the load's window (with metadata: refresh)
    await expect(h.load({ itemId: 't2', trackMetadata: tracks(2, 600_000)[1]!.track })).rejects.toMatchObject({
      errorCode: 'ERROR_CLOUD_QUEUE_SERVER',
    });
    expect(h.rows().slice(-2)).toEqual(['load-starts-at-once', 'load-failed']);
    await h.settle();
    expect(h.stub.sent('itemWindow', 'refresh').at(-1)).toMatchObject({ itemId: 't1' });
    expect(h.player.status()).toMatchObject({
      playbackState: 'PLAYBACK_STATE_PLAYING',
      itemId: 't1',
      queueVersion: '2',
    });
  });

  it('load-failed: a started-at-once load that fails asks again what the queue put back was asking: a queueCompleted in flight', async () => {
    await playing({ items: tracks(3, 60_000) });
    await h.advance(145_000);
    h.stub.edit((items) => [...items, ...tracks(2, 60_000, 'u')]);
    h.stub.script('itemWindow', { hang: true }, { reason: 'queueCompleted', times: 1 });
    await h.advance(6_000); // t3's audio all fetched at 150.5 s: queueCompleted, which hangs
    expect(h.stub.sent('itemWindow', 'queueCompleted')).toHaveLength(1);
    h.stub.script('itemWindow', { status: 500 }, { reason: 'refresh', times: 1 });
    await expect(h.load({ itemId: 't2', trackMetadata: tracks(3, 60_000)[1]!.track })).rejects.toMatchObject({
      errorCode: 'ERROR_CLOUD_QUEUE_SERVER',
    });
    await h.advance(40_000); // t3 ends at 180.5 s; u1 follows
    expect(h.stub.sent('itemWindow', 'queueCompleted')).toHaveLength(2);
    expect(h.rows().at(-1)).toBe('track-ends-next');
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 'u1' });
  });

  it('load-failed: a started-at-once load that fails while the session is suspended asks nothing again but a resume', async () => {
    await playing({ items: tracks(6, 900_000) });
    h.stub.script('version', { hang: true }, { times: 1 });
    await h.advance(600_000); // the version poll (every 600 s playing) hangs
    expect(h.stub.sent('version')).toHaveLength(1);
    h.stub.script('itemWindow', { hang: true }, { reason: 'refresh', times: 1 });
    const load = h.load({ itemId: 't3', trackMetadata: tracks(6, 900_000)[2]!.track }).catch((error: unknown) => error);
    await h.settle();
    h.player.suspend();
    await h.advance(10_000); // the load's window times out: the load fails, the session stays suspended
    expect(await load).toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
    expect(last()).toMatchObject({ transition: 'load-failed', to: 'SUSPENDED' });
    await h.advance(60_000);
    expect(h.stub.sent('version')).toHaveLength(1);
  });

  it('load-failed: the track a failed started-at-once load put back goes on from where it was when the load began', async () => {
    await playing({ items: tracks(6, 60_000) });
    await h.advance(5_000);
    const { positionMillis } = h.player.status();
    h.stub.script('itemWindow', { hang: true }, { reason: 'refresh', times: 1 });
    const load = h.load({ itemId: 't3', trackMetadata: tracks(6, 60_000)[2]!.track }).catch((error: unknown) => error);
    await h.settle();
    await h.advance(10_000); // the load's window times out: the load fails
    expect(await load).toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't1', positionMillis });
    await h.advance(60_000 - positionMillis);
    expect(finalsOf('t1')).toHaveLength(1);
    expect(h.stub.postedReports().find((r) => r.type === 'final' && r.id === 't1')).toMatchObject({
      durationPlayedMillis: 60_000,
    });
  });

  it('load-failed: an answer whose window does not hold the item the load named fails the load; the track put back plays on', async () => {
    await playing({ items: tracks(6, 60_000) });
    const window = {
      includesBeginningOfQueue: true,
      includesEndOfQueue: false,
      contextVersion: '1',
      queueVersion: '1',
      items: tracks(3, 60_000),
    };
    h.stub.script('itemWindow', { status: 200, body: window }, { reason: 'refresh', times: 1 }); // the load's window (with metadata: refresh)
    await expect(h.load({ itemId: 't6', trackMetadata: tracks(6, 60_000)[5]!.track })).rejects.toMatchObject({
      errorCode: 'ERROR_CLOUD_QUEUE_SERVER',
    });
    expect(h.rows().slice(-2)).toEqual(['load-starts-at-once', 'load-failed']);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't1' });
  });

  it('load-failed: the track a failed started-at-once load played, with an item id, still gets its reports and its final', async () => {
    await playing({
      items: tracks(6, 60_000),
      reports: { sendUpdateAfterMillis: 1_000, sendPlaybackActions: false },
    });
    h.stub.script('itemWindow', { hang: true }, { reason: 'refresh', times: 1 });
    const load = h.load({ itemId: 't3', trackMetadata: tracks(6, 60_000)[2]!.track }).catch((error: unknown) => error);
    await h.settle();
    await h.advance(10_000); // the load's window times out: the load fails
    expect(await load).toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
    const t3 = h.stub.postedReports().filter((r) => r.id === 't3');
    expect(t3.map((r) => r.type)).toEqual(['update', 'final']);
    expect(t3[1]).toMatchObject({ queueVersion: '', durationPlayedMillis: 10_000 });
  });

  it('load-failed: a suspension during a started-at-once load holds when the load fails; the track put back waits paused', async () => {
    await playing({ items: tracks(6, 60_000) });
    h.stub.script('itemWindow', { hang: true }, { reason: 'refresh' });
    const load = h.load({ itemId: 't3', trackMetadata: tracks(6, 60_000)[2]!.track }).catch((error: unknown) => error);
    await h.settle();
    await h.advance(BUFFERING_MS);
    h.player.suspend();
    await h.advance(10_000);
    await load;
    expect(last()).toMatchObject({ transition: 'load-failed', from: 'SUSPENDED', to: 'SUSPENDED' });
    const position = h.player.status().positionMillis;
    await h.advance(5_000);
    expect(h.player.status()).toMatchObject({ suspended: true, itemId: 't1', positionMillis: position });
  });

  it('load-failed: a paused queue that a failed started-at-once load puts back is suspended pauseTtlSec later, as after any pause', async () => {
    await start({ items: tracks(5, 60_000), policies: { pauseTtlSec: 30 } });
    await h.load({ playOnCompletion: false }); // paused on t1
    await h.advance(25_000);
    h.stub.script('itemWindow', { hang: true }, { reason: 'refresh', times: 1 });
    const load = h.load({ itemId: 't2', trackMetadata: tracks(5, 60_000)[1]!.track }).catch((error: unknown) => error);
    await h.advance(10_000); // t2 plays; its window times out: the load fails, the paused t1 is back
    expect(await load).toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
    expect(h.player.snapshot()).toMatchObject({ state: 'PAUSED', itemId: 't1' });
    await h.advance(29_999);
    expect(h.player.machineState).toBe('PAUSED');
    await h.advance(1);
    expect(last()).toMatchObject({ transition: 'suspend-after-ttl', to: 'SUSPENDED' });
  });

  describe('a load that supersedes one that started its track at once', () => {
    /** Plays t1 1 s, then loads t2 with metadata (its window never comes) and plays it 2.5 s (its audio came with the metadata: no buffering). */
    const finalsPlayed = () =>
      h.stub
        .postedReports()
        .filter((r) => r.type === 'final')
        .map((r) => `${r.id as string}:${r.durationPlayedMillis as number}`);

    it('answered: a track skipped to while the first waited is reported as heard, with the one the first load cut off', async () => {
      const { first } = await startedAtOnce();
      h.player.skipToItem({ itemId: 't3', trackMetadata: tracks(5, 60_000)[2]!.track }); // t2's final (a skip) is held for the first window
      await h.advance(BUFFERING_MS + 1_000);
      await h.load({ itemId: 't4' });
      expect(await first).toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
      await h.settle();
      expect(finalsPlayed().sort()).toEqual(['t1:1000', 't2:2500', 't3:1000']);
    });

    it('started at once too and failed: the track the first load played gets its final, as when the first fails by itself', async () => {
      const { first } = await startedAtOnce();
      h.stub.script('itemWindow', { status: 500 }, { reason: 'refresh', times: 1 });
      await expect(h.load({ itemId: 't3', trackMetadata: tracks(5, 60_000)[2]!.track })).rejects.toMatchObject({
        errorCode: 'ERROR_CLOUD_QUEUE_SERVER',
      });
      expect(await first).toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
      await h.settle();
      expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't1' });
      expect(finalsPlayed()).toEqual(['t2:2500']); // t1 plays on: no final for it
    });

    it('session-replaced: a track skipped to while it waited is reported as heard too', async () => {
      await startedAtOnce();
      h.player.skipToItem({ itemId: 't3', trackMetadata: tracks(5, 60_000)[2]!.track }); // t2's final (a skip) is held for the first window
      await h.advance(BUFFERING_MS + 1_000);
      h.player.createSession('com.example.other', 'other');
      await h.settle();
      expect(finalsPlayed().sort()).toEqual(['t1:1000', 't2:2500', 't3:1000']);
    });

    it('session-replaced: the track the first load cut off and the one it played both get their final; the load fails as evicted', async () => {
      const { first } = await startedAtOnce();
      h.player.createSession('com.example.other', 'other');
      expect(await first).toMatchObject({ errorCode: 'ERROR_SESSION_EVICTED' });
      await h.settle();
      expect(finalsPlayed().sort()).toEqual(['t1:1000', 't2:2500']);
    });
  });

  it('session-replaced: a new session while a load waits rejects the load, which was the evicted session\u2019s', async () => {
    await playing({ items: tracks(5, 60_000) });
    h.stub.script('context', { hang: true });
    const load = h.load({ itemId: 't3' }).then(
      () => 'loaded',
      (error: unknown) => error,
    );
    await h.settle();
    h.player.createSession('com.example.app', 'another');
    expect(await load).toMatchObject({ errorCode: 'ERROR_SESSION_EVICTED' });
  });

  it('load-answered-plays: a user skip waiting for the server when the load is adopted is refused, and the next skip works', async () => {
    await playing({ items: tracks(10, 600_000), policies: { notifyUserIntent: true } });
    h.stub.script('itemWindow', { hang: true }, { reason: 'skipNext' });
    const load = h.load({ itemId: 't5' });
    const skip = h.player.act('skipNext', 'user').then(
      () => 'skipped',
      (error: unknown) => error,
    );
    await load;
    expect(await skip).toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
    await h.advance(BUFFERING_MS);
    await h.player.act('skipNext', 'user');
    await h.settle();
    expect(h.player.status()).toMatchObject({ itemId: 't6' });
  });

  it('load-answered-plays: a request of the queue before, asked while the load waited, cannot drop the new queue when it fails later', async () => {
    await playing({ items: tracks(10, 60_000), policies: { notifyUserIntent: true } });
    h.stub.script('itemWindow', { hang: true }, { reason: 'pause' });
    h.stub.script('itemWindow', { status: 500 }, { reason: 'pause' });
    const load = h.load({ itemId: 't5' });
    await h.player.act('pause', 'user'); // while the load waits: told with reason=pause
    await load;
    await h.advance(BUFFERING_MS);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't5' });
    await h.advance(30_000); // the pause times out; it belonged to the queue before
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't5' });
    expect(h.rows()).not.toContain('foreground-failed');
  });

  it('load-failed: the queue ended while a load waited for its answer: the player stays paused at the end', async () => {
    await playing({ items: tracks(2, 60_000) });
    await h.advance(115_000);
    h.stub.script('context', { hang: true });
    const load = h.load().catch((error: unknown) => error);
    await h.advance(11_000);
    await load;
    expect(h.rows().slice(-2)).toEqual(['track-ends-last', 'load-failed']);
    expect(h.player.snapshot()).toMatchObject({ state: 'PAUSED', atEnd: true, itemId: 't2', positionMillis: 60_000 });
  });

  it('load-failed: a skip while a load waited for its answer holds; the track it left gets one final report', async () => {
    await playing({ items: tracks(5, 60_000) });
    h.stub.script('context', { hang: true });
    const load = h.load().catch((error: unknown) => error);
    await h.settle();
    await h.player.act('skipNext', 'user');
    await h.advance(10_000);
    await load;
    await h.advance(BUFFERING_MS);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't2' });
    await h.advance(60_000);
    expect(finalsOf('t1')).toHaveLength(1);
  });

  it('track-ends-last: a track that ended at the end of the queue posts no update after its final report when suspended', async () => {
    await playing({ items: tracks(2, 60_000), reports: { sendPlaybackActions: true } });
    await h.advance(120_000);
    h.player.suspend();
    await h.settle();
    expect(
      h.stub
        .postedReports()
        .filter((r) => r.id === 't2')
        .map((r) => r.type),
    ).toEqual(['final']);
  });
});

describe('pause and play', () => {
  it('pause-notifies: with notifyUserIntent a pause sends reason=pause', async () => {
    await playing({ policies: { notifyUserIntent: true } });
    await h.player.act('pause', 'user');
    await h.settle();
    expect(h.transitions.find((t) => t.transition === 'pause-notifies')).toMatchObject({
      from: 'PLAYING',
      to: 'PAUSED',
      cause: 'user',
    });
    expect(h.stub.reasons()).toContain('pause');
  });

  it('pause: without notifyUserIntent nothing is sent', async () => {
    await playing();
    const requests = h.stub.requests.length;
    await h.player.act('pause', 'user');
    await h.settle();
    expect(last()).toMatchObject({ transition: 'pause', to: 'PAUSED' });
    expect(h.stub.requests).toHaveLength(requests);
  });

  it('play-notifies: with notifyUserIntent a play after a pause sends reason=play', async () => {
    await playing({ policies: { notifyUserIntent: true } });
    await h.player.act('pause', 'user');
    await h.player.act('play', 'command');
    await h.settle();
    expect(h.transitions.find((t) => t.transition === 'play-notifies')).toMatchObject({
      from: 'PAUSED',
      to: 'PLAYING',
      cause: 'command',
    });
    expect(h.stub.reasons().slice(-2)).toEqual(['pause', 'play']);
  });

  it('play: without notifyUserIntent playing again sends nothing and the playhead moves on', async () => {
    await playing();
    await h.advance(3_000);
    await h.player.act('pause', 'user');
    await h.advance(60_000);
    await h.player.act('play', 'user');
    expect(last()).toMatchObject({ transition: 'play', from: 'PAUSED', to: 'PLAYING' });
    await h.advance(2_000);
    expect(h.player.status().positionMillis).toBe(5_000);
  });

  it('play-at-end: after the last track, play replays it', async () => {
    await playing({ items: tracks(1, 60_000) });
    await h.advance(60_000);
    expect(h.player.machineState).toBe('PAUSED');
    await h.player.act('play', 'user');
    expect(last()).toMatchObject({ transition: 'play-at-end', to: 'BUFFERING' });
    await h.advance(0); // its audio is still there: no buffering time
    expect(h.player.status()).toMatchObject({
      playbackState: 'PLAYBACK_STATE_PLAYING',
      itemId: 't1',
      positionMillis: 0,
    });
  });

  it('play-at-end-more: after the last track, tracks added since play next', async () => {
    await playing({ items: tracks(1, 60_000) });
    await h.advance(60_000);
    h.stub.edit((items) => [...items, ...tracks(2, 60_000, 'new')]);
    await h.advance(300_000); // the paused version poll sees the new version and fetches the window
    await h.player.act('play', 'user');
    expect(last()).toMatchObject({ transition: 'play-at-end-more', to: 'BUFFERING' });
    expect(h.player.status().itemId).toBe('new1');
  });

  it('play-at-end-notifies: with notifyUserIntent, play after the last track is told with reason=play', async () => {
    await playing({ items: tracks(1, 60_000), policies: { notifyUserIntent: true } });
    await h.advance(60_000);
    await h.player.act('play', 'user');
    expect(last()).toMatchObject({ transition: 'play-at-end-notifies', to: 'BUFFERING' });
    await h.settle();
    expect(h.stub.sent('itemWindow', 'play').map((r) => r.itemId)).toEqual(['t1']);
  });

  it('play-at-end-more-notifies: with notifyUserIntent, and tracks added since, reason=play and the next one plays', async () => {
    await playing({ items: tracks(1, 60_000), policies: { notifyUserIntent: true } });
    await h.advance(60_000);
    h.stub.edit((items) => [...items, ...tracks(2, 60_000, 'new')]);
    await h.advance(300_000);
    await h.player.act('play', 'user');
    expect(last()).toMatchObject({ transition: 'play-at-end-more-notifies', to: 'BUFFERING' });
    await h.settle();
    expect(h.stub.sent('itemWindow', 'play')).toHaveLength(1);
    expect(h.player.status().itemId).toBe('new1');
  });
});

describe('suspension (docs/contract/platform.md §3)', () => {
  it('suspend-after-ttl: paused for pauseTtlSec, the session is suspended', async () => {
    await playing({ policies: { pauseTtlSec: 90 } });
    await h.player.act('pause', 'user');
    await h.advance(89_999);
    expect(h.player.status().suspended).toBe(false);
    await h.advance(1);
    expect(last()).toMatchObject({ transition: 'suspend-after-ttl', from: 'PAUSED', to: 'SUSPENDED', cause: 'timer' });
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PAUSED', suspended: true });
  });

  it('suspend-command: the suspend command suspends a playing session', async () => {
    await playing();
    h.player.suspend();
    expect(last()).toMatchObject({ transition: 'suspend-command', from: 'PLAYING', to: 'SUSPENDED' });
  });

  it('suspend-command: a skip waiting for the server is refused, its retry is not sent, and skips work again after a resume', async () => {
    await playing({ items: tracks(5, 60_000), policies: { limitedSkips: true } });
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '2' } }, { reason: 'skipNext', times: 1 });
    const skip = h.player.act('skipNext', 'user').catch((error: unknown) => error);
    await h.settle(); // answered 503: it waits 2 s to retry
    expect(h.player.snapshot().retrying).toMatchObject([{ endpoint: 'itemWindow', reason: 'skipNext', retry: 1 }]);
    h.player.suspend();
    expect(await skip).toMatchObject({ errorCode: 'ERROR_PLAYBACK_NO_CONTENT' });
    // No retry follows, so none is shown as waiting (its timer still runs out its 2 s).
    expect(h.player.snapshot().retrying).toEqual([]);
    await h.advance(60_000);
    expect(h.stub.sent('itemWindow', 'skipNext')).toHaveLength(1);
    expect(h.player.status()).toMatchObject({ itemId: 't1', suspended: true });
    await h.player.act('resume', 'user');
    await h.advance(BUFFERING_MS);
    expect(h.player.machineState).toBe('PLAYING');
    await h.player.act('skipNext', 'user');
    await h.settle();
    expect(h.player.status().itemId).toBe('t2');
  });

  it('resume-suspended and resume-answered: an explicit resume sends reason=resume and plays again', async () => {
    await playing({ policies: { pauseTtlSec: 10 } });
    await h.player.act('pause', 'user');
    await h.advance(10_000);
    await h.player.act('resume', 'user');
    expect(last()).toMatchObject({ transition: 'resume-suspended', from: 'SUSPENDED', to: 'SUSPENDED', cause: 'user' });
    await h.settle();
    expect(h.stub.reasons().at(-1)).toBe('resume');
    expect(h.stub.sent('itemWindow', 'resume')[0]?.itemId).toBe('t1');
    expect(last()).toMatchObject({ transition: 'resume-answered', to: 'BUFFERING' });
    await h.advance(BUFFERING_MS);
    expect(h.player.machineState).toBe('PLAYING');
  });
});

describe('resuming after the end of the queue', () => {
  it('resume-answered-at-end: a session suspended after the last track resumes by replaying it; its first playback had its one final report', async () => {
    await playing({ items: tracks(2, 60_000), policies: { pauseTtlSec: 10 } });
    await h.advance(120_000);
    expect(last()).toMatchObject({ transition: 'track-ends-last' });
    await h.advance(10_000);
    expect(h.player.machineState).toBe('SUSPENDED');
    await h.player.act('resume', 'user');
    await h.settle();
    // Its audio is still there: it plays at once.
    expect(h.rows().slice(-2)).toEqual(['resume-answered-at-end', 'audio-ready']);
    expect(h.transitions.at(-2)).toMatchObject({ from: 'SUSPENDED', to: 'BUFFERING' });
    expect(h.player.status()).toMatchObject({
      playbackState: 'PLAYBACK_STATE_PLAYING',
      itemId: 't2',
      positionMillis: 0,
    });
    expect(
      h.stub
        .postedReports()
        .filter((r) => r.type === 'final')
        .map((r) => r.id),
    ).toEqual(['t1', 't2']);
  });

  it('resume-answered-at-end-more: tracks added while suspended after the last one: the next plays', async () => {
    await playing({ items: tracks(2, 60_000), policies: { pauseTtlSec: 10 } });
    await h.advance(130_000);
    expect(h.player.machineState).toBe('SUSPENDED');
    h.stub.edit((items) => [...items, ...tracks(1, 60_000, 'u')]);
    await h.player.act('resume', 'user');
    await h.settle();
    expect(last()).toMatchObject({ transition: 'resume-answered-at-end-more', to: 'BUFFERING' });
    await h.advance(BUFFERING_MS);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 'u1' });
    expect(
      h.stub
        .postedReports()
        .filter((r) => r.type === 'final')
        .map((r) => r.id),
    ).toEqual(['t1', 't2']);
  });
});

describe('tracks ending and audio fetched', () => {
  it('track-ends-next: the next track plays and the ended one gets one final report', async () => {
    await playing({ items: tracks(5, 60_000) });
    await h.advance(60_000);
    await h.settle();
    expect(h.transitions.find((t) => t.transition === 'track-ends-next')).toMatchObject({
      from: 'PLAYING',
      to: 'PLAYING',
      cause: 'timer',
    });
    expect(h.player.status()).toMatchObject({ itemId: 't2', positionMillis: 0 });
    const finals = h.stub.postedReports().filter((r) => r.type === 'final');
    expect(finals).toEqual([
      expect.objectContaining({ id: 't1', durationPlayedMillis: 60_000, positionMillis: 60_000 }),
    ]);
  });

  it('track-ends-last: with nothing after the last track the player pauses', async () => {
    await playing({ items: tracks(2, 60_000) });
    await h.advance(120_000);
    expect(last()).toMatchObject({ transition: 'track-ends-last', from: 'PLAYING', to: 'PAUSED' });
    expect(h.player.status()).toMatchObject({ itemId: 't2', playbackState: 'PLAYBACK_STATE_PAUSED' });
  });

  it('track-fetched: a track\u2019s audio is all fetched 30 s before it ends', async () => {
    await playing({ items: tracks(5, 100_000) });
    await h.advance(100_000 - AUDIO_AHEAD_MS - 1);
    expect(h.rows()).not.toContain('track-fetched');
    await h.advance(1);
    expect(last()).toMatchObject({ transition: 'track-fetched', cause: 'timer' });
  });

  it('window-fetched: once all audio of the window is fetched, reason=queueCompleted asks for more', async () => {
    await playing({ items: tracks(2, 100_000) });
    await h.advance(100_000); // t2 plays
    expect(h.stub.reasons()).not.toContain('queueCompleted');
    await h.advance(100_000 - AUDIO_AHEAD_MS);
    await h.settle();
    expect(h.rows()).toContain('window-fetched');
    expect(h.stub.sent('itemWindow', 'queueCompleted')).toEqual([expect.objectContaining({ itemId: 't2' })]);
  });
});

describe('the window\u2019s edge (docs/contract/platform.md §4.3 Next Window)', () => {
  const short = (count: number, prefix = 't') => tracks(count, 5_000, prefix);

  /**
   * Tracks shorter than the next window's round trip: the first window is t1…t11 of `items`
   * (includesEndOfQueue false), all 5 s. The refresh asked at t9 (40.5 s) gets three 503s with
   * Retry-After 10 s, so t11 ends (55.5 s) 15 s before the fourth try answers (70.5 s).
   */
  async function atWindowEdge(options: StubOptions = {}, items = short(14)): Promise<void> {
    await playing({ items, ...options });
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '10' } }, { times: 3, reason: 'refresh' });
    await h.advance(54_999);
    expect(h.rows()).not.toContain('track-ends-window-edge');
    await h.advance(1);
    expect(last()).toMatchObject({
      transition: 'track-ends-window-edge',
      from: 'PLAYING',
      to: 'BUFFERING',
      cause: 'timer',
    });
    expect(h.player.snapshot()).toMatchObject({
      state: 'BUFFERING',
      atEdge: true,
      atEnd: false,
      itemId: 't11',
      positionMillis: 5_000,
    });
  }

  it('track-ends-window-edge and next-window-plays: the player waits, buffering, for the window in flight; t11\u2019s final report goes with the next track', async () => {
    // t12 on are long tracks: the new window is not all fetched when it comes.
    await atWindowEdge({}, [...short(11), ...tracks(3, 60_000, 'u')]);
    expect(finals()).toEqual(['t1', 't2', 't3', 't4', 't5', 't6', 't7', 't8', 't9', 't10']);
    // Nothing asked twice: the refresh in flight is what the player waits for.
    await h.advance(14_999);
    expect(h.stub.sent('itemWindow', 'refresh')).toHaveLength(3);
    expect(h.player.snapshot()).toMatchObject({ state: 'BUFFERING', positionMillis: 5_000 });
    await h.advance(1);
    expect(h.stub.sent('itemWindow', 'refresh')).toHaveLength(4);
    expect(last()).toMatchObject({
      transition: 'next-window-plays',
      from: 'BUFFERING',
      to: 'BUFFERING',
      cause: 'response',
    });
    expect(finalsOf('t11')).toHaveLength(1);
    expect(h.stub.postedReports().find((r) => r.type === 'final' && r.id === 't11')).toMatchObject({
      durationPlayedMillis: 5_000,
      positionMillis: 5_000,
    });
    await h.advance(BUFFERING_MS);
    expect(h.player.status()).toMatchObject({
      playbackState: 'PLAYBACK_STATE_PLAYING',
      itemId: 'u1',
      positionMillis: 0,
    });
  });

  it('next-window-plays-fetched: a window of short tracks comes all fetched; reason=queueCompleted asks for more at once', async () => {
    await atWindowEdge({}, short(30));
    await h.advance(15_000);
    expect(h.rows()).toContain('next-window-plays-fetched');
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't12' });
    expect(h.stub.sent('itemWindow').slice(-2)).toEqual([
      expect.objectContaining({ reason: 'refresh', itemId: 't9' }),
      expect.objectContaining({ reason: 'queueCompleted', itemId: 't12' }),
    ]);
    expect(finalsOf('t11')).toHaveLength(1);
  });

  it('track-ends-window-edge: with no window request in flight the player asks for one (reason=refresh)', async () => {
    // A server that says the queue goes on (t1…t3, u1, u2) but answers every window request
    // before the edge (load, a refresh at each track, one queueCompleted) with t1…t3 alone.
    await start({ items: [...short(3), ...short(2, 'u')] });
    const window = { includesBeginningOfQueue: true, includesEndOfQueue: false, queueVersion: '1', items: short(3) };
    h.stub.script('itemWindow', { status: 200, body: window }, { times: 5 });
    await h.load();
    await h.advance(BUFFERING_MS + 15_000 - 1);
    expect(h.stub.sent('itemWindow').map((r) => r.reason)).toEqual([
      'load',
      'refresh',
      'queueCompleted',
      'refresh',
      'refresh',
    ]);
    expect(h.player.machineState).toBe('PLAYING');
    await h.advance(1);
    // u1 arrived whole with t3's audio (short tracks do): it plays at once.
    const rows = h.rows();
    expect(rows.slice(rows.indexOf('track-ends-window-edge'), rows.indexOf('track-ends-window-edge') + 2)).toEqual([
      'track-ends-window-edge',
      'next-window-plays-fetched',
    ]);
    expect(h.stub.sent('itemWindow')[5]).toMatchObject({ reason: 'refresh', itemId: 't3' });
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 'u1' });
  });

  it('next-window-asks-again: a queueCompleted asked at the first track answers after the edge with the same window; the player asks for the track that ended', async () => {
    // 2 s tracks, fetched whole: the queueCompleted asked at t1 (0.5 s) gets three 503s with
    // Retry-After 10 s, and while it waits the refreshes are not sent; t11 ends at 22.5 s.
    await start({ items: tracks(14, 2_000) });
    h.stub.script(
      'itemWindow',
      { status: 503, headers: { 'retry-after': '10' } },
      { times: 3, reason: 'queueCompleted' },
    );
    await h.load();
    await h.advance(BUFFERING_MS + 22_000);
    expect(last()).toMatchObject({ transition: 'track-ends-window-edge' });
    expect(h.stub.sent('itemWindow').map((r) => r.reason)).toEqual([
      'load',
      'queueCompleted',
      'queueCompleted',
      'queueCompleted',
    ]);
    await h.advance(8_000); // the fourth try answers t1…t11 again, anchored on t1
    expect(h.transitions.find((t) => t.transition === 'next-window-asks-again')).toMatchObject({
      from: 'BUFFERING',
      to: 'BUFFERING',
      cause: 'response',
    });
    expect(h.stub.sent('itemWindow').slice(4, 6)).toEqual([
      expect.objectContaining({ reason: 'queueCompleted' }),
      expect.objectContaining({ reason: 'refresh', itemId: 't11' }),
    ]);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't12' });
  });

  it('next-window-waits: the window in flight falls short, but a refreshCloudQueue waits behind it; its answer plays on', async () => {
    // As above: t1…t3 alone until the integration adds u1, u2 and sends refreshCloudQueue.
    await start({ items: [...short(3), ...short(2, 'u')] });
    const window = { includesBeginningOfQueue: true, includesEndOfQueue: false, queueVersion: '1', items: short(3) };
    h.stub.script('itemWindow', { status: 200, body: window }, { times: 5 });
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '10' } }, { times: 1, reason: 'refresh' });
    h.stub.script('itemWindow', { status: 200, body: window }, { times: 1 });
    await h.load();
    await h.advance(BUFFERING_MS + 15_000);
    expect(last()).toMatchObject({ transition: 'track-ends-window-edge' });
    await h.player.refresh();
    await h.advance(10_000);
    const rows = h.rows();
    expect(rows.slice(rows.indexOf('refresh-command'), rows.indexOf('refresh-command') + 3)).toEqual([
      'refresh-command',
      'next-window-waits',
      'next-window-plays-fetched',
    ]);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 'u1' });
  });

  it('next-window-ends: the window waited for has nothing after the ended track; the player pauses at the end', async () => {
    await atWindowEdge();
    h.stub.edit((items) => items.slice(0, 11));
    await h.advance(15_000);
    expect(last()).toMatchObject({
      transition: 'next-window-ends',
      from: 'BUFFERING',
      to: 'PAUSED',
      cause: 'response',
    });
    expect(h.player.snapshot()).toMatchObject({
      state: 'PAUSED',
      atEnd: true,
      atEdge: false,
      itemId: 't11',
      window: { includesEndOfQueue: true },
    });
    expect(finalsOf('t11')).toHaveLength(1);
    // Play replays the last track, as after any end of the queue.
    await h.player.act('play', 'user');
    expect(last()).toMatchObject({ transition: 'play-at-end' });
  });

  it('next-window-ends: a window that no longer holds the ended track pauses there; it does not ask for an item the server removed', async () => {
    await atWindowEdge({}, short(30));
    h.stub.edit((items) => items.filter((item) => item.id !== 't11'));
    await h.advance(15_000);
    expect(last()).toMatchObject({ transition: 'next-window-ends', to: 'PAUSED' });
    expect(h.stub.sent('itemWindow').filter((r) => r.itemId === 't11')).toEqual([]);
  });

  it('next-window-ends: a server that keeps answering the same short window (saying the queue goes on) is asked once at the edge, not again and again', async () => {
    await start({ items: short(3) });
    const window = { includesBeginningOfQueue: true, includesEndOfQueue: false, queueVersion: '1', items: short(3) };
    h.stub.script('itemWindow', { status: 200, body: window }, { times: 1_000 });
    await h.load();
    await h.advance(BUFFERING_MS + 15_000);
    expect(h.rows().slice(-2)).toEqual(['track-ends-window-edge', 'next-window-ends']);
    const asked = h.stub.sent('itemWindow').length;
    await h.advance(30 * 60_000);
    expect(h.stub.sent('itemWindow')).toHaveLength(asked);
    expect(h.player.snapshot()).toMatchObject({ state: 'PAUSED', atEnd: true, itemId: 't3' });
  });

  it('next-window-exhausted: the window waited for used up its retries: final report, pause, the session stays', async () => {
    await atWindowEdge();
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '10' } }, { times: 1, reason: 'refresh' });
    await h.advance(15_000);
    expect(last()).toMatchObject({ transition: 'next-window-exhausted', from: 'BUFFERING', to: 'PAUSED' });
    expect(h.player.snapshot()).toMatchObject({
      state: 'PAUSED',
      draining: true,
      atEnd: true,
      itemId: 't11',
      lastError: { status: 503 },
    });
    expect(finalsOf('t11')).toHaveLength(1);
    expect(h.player.currentSession).not.toBeNull();
  });

  it('track-ends-window-edge: a version poll whose retries run out meanwhile does not end the wait', async () => {
    // 199 s tracks: t3 ends at 597.5 s, the poll due at 600 s gets a 500 (never retried).
    await start({ items: [...tracks(3, 199_000), ...tracks(2, 199_000, 'u')] });
    const window = {
      includesBeginningOfQueue: true,
      includesEndOfQueue: false,
      queueVersion: '1',
      items: tracks(3, 199_000),
    };
    h.stub.script('itemWindow', { status: 200, body: window }, { times: 5 });
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '10' } }, { times: 1, reason: 'refresh' });
    h.stub.script('version', { status: 500 });
    await h.load();
    await h.advance(BUFFERING_MS + 597_000);
    expect(last()).toMatchObject({ transition: 'track-ends-window-edge' });
    await h.advance(3_000);
    expect(last()).toMatchObject({ transition: 'background-exhausted', from: 'BUFFERING', to: 'BUFFERING' });
    await h.advance(10_000);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 'u1' });
  });

  it('track-ends-window-edge: a skip the server answers with nothing after the ended track (limitedSkips) leaves the player waiting', async () => {
    await atWindowEdge({ policies: { limitedSkips: true } });
    const window = {
      includesBeginningOfQueue: false,
      includesEndOfQueue: false,
      queueVersion: '1',
      items: short(11).slice(5),
    };
    h.stub.script('itemWindow', { status: 200, body: window }, { reason: 'skipNext' });
    await expect(h.player.act('skipNext', 'user')).rejects.toMatchObject({ errorCode: 'ERROR_PLAYBACK_NO_CONTENT' });
    expect(h.player.snapshot()).toMatchObject({ state: 'BUFFERING', atEdge: true });
    await h.advance(15_000);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't12' });
  });

  it('track-ends-window-edge: a skip (limitedSkips) answered after the window came and the next track started is done; that track is not started again', async () => {
    await atWindowEdge({ policies: { limitedSkips: true } });
    await h.advance(14_000); // 69.5 s: the window answers at 70.5 s
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '2' } }, { reason: 'skipNext' });
    const skip = h.player.act('skipNext', 'user').then(
      () => 'skipped',
      (error: unknown) => error,
    );
    await h.advance(1_000); // the window came: t12 plays
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't12' });
    await h.advance(1_000); // the skip's retry answers: its target, t12, already plays
    expect(await skip).toBe('skipped');
    await h.advance(2_000);
    expect(h.rows()).not.toContain('skip-answered-plays');
    expect(h.player.status()).toMatchObject({ itemId: 't12', positionMillis: 3_000 });
    expect(h.stub.postedReports().filter((r) => r.id === 't12')).toEqual([]);
  });

  it('track-ends-window-edge: a pause while waiting, then play: the ended track\u2019s end is seen again, and one final report goes', async () => {
    await atWindowEdge({ reports: { sendPlaybackActions: true } });
    await h.player.act('pause', 'user');
    expect(last()).toMatchObject({ transition: 'pause', from: 'BUFFERING', to: 'PAUSED' });
    // Nothing was playing: no update report for the wait.
    expect(h.stub.postedReports().filter((r) => r.id === 't11')).toEqual([]);
    await h.player.act('play', 'user');
    await h.settle();
    // Played on from its end, the track ends again at once, and the player waits again.
    expect(h.rows().slice(-2)).toEqual(['play', 'track-ends-window-edge']);
    expect(h.player.snapshot()).toMatchObject({ state: 'BUFFERING', atEdge: true, itemId: 't11' });
    await h.advance(15_000);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't12' });
    expect(finalsOf('t11')).toHaveLength(1);
  });

  it('track-ends-window-edge: suspended while waiting, then resumed: the track ends once, then the next plays', async () => {
    await atWindowEdge();
    h.player.suspend();
    await h.advance(15_000); // the awaited window answers while suspended
    await h.player.act('resume', 'user');
    await h.settle();
    await h.advance(BUFFERING_MS);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't12' });
    expect(finalsOf('t11')).toHaveLength(1);
  });

  it('seek-at-edge: a seek back into the waiting track plays on from there; its one final report counts both segments', async () => {
    await atWindowEdge();
    h.player.seek({ positionMillis: 1_000 });
    expect(last()).toMatchObject({ transition: 'seek-at-edge', from: 'BUFFERING', to: 'PLAYING', cause: 'command' });
    expect(h.player.snapshot()).toMatchObject({
      state: 'PLAYING',
      atEdge: false,
      itemId: 't11',
      positionMillis: 1_000,
    });
    // It plays to its end again (59.5 s) and waits for the same window, which answers at 70.5 s.
    await h.advance(4_000);
    expect(last()).toMatchObject({ transition: 'track-ends-window-edge' });
    await h.advance(11_000);
    expect(h.rows()).toContain('next-window-plays-fetched');
    expect(h.stub.sent('itemWindow', 'refresh')).toHaveLength(4);
    expect(finalsOf('t11')).toHaveLength(1);
    // Both plays of it count; its last segment is where it stopped again at the edge.
    expect(h.stub.postedReports().find((r) => r.type === 'final' && r.id === 't11')).toMatchObject({
      durationPlayedMillis: 9_000,
      positionMillis: 5_000,
    });
  });

  it('skip-to-item-plays: skipToItem to the waiting track plays it anew; the playback that ended gets a plain final report (it was not skipped)', async () => {
    await atWindowEdge();
    h.player.skipToItem({ itemId: 't11', trackMetadata: short(11)[10]!.track, positionMillis: 1_000 });
    expect(last()).toMatchObject({ transition: 'skip-to-item-plays', to: 'BUFFERING' });
    await h.settle();
    const ended = h.stub.postedReports().filter((r) => r.type === 'final' && r.id === 't11');
    expect(ended).toEqual([expect.objectContaining({ durationPlayedMillis: 5_000 })]);
    expect(ended[0]).not.toHaveProperty('skip');
    await h.advance(0);
    expect(h.player.status()).toMatchObject({
      playbackState: 'PLAYBACK_STATE_PLAYING',
      itemId: 't11',
      positionMillis: 1_000,
    });
  });

  it('skip-answered-plays: skipToItem without metadata to the waiting track is asked of the server, then plays it anew (not a seek in the ended playback)', async () => {
    await atWindowEdge();
    h.player.skipToItem({ itemId: 't11' });
    await h.settle();
    expect(h.rows()).toContain('skip-answered-plays');
    expect(h.rows()).not.toContain('skip-answered-seeks');
    await h.advance(0);
    expect(h.player.snapshot()).toMatchObject({ state: 'PLAYING', atEdge: false, itemId: 't11', positionMillis: 0 });
    expect(finalsOf('t11')).toHaveLength(1);
  });

  it('skip-prev: a skip while waiting sends the ended track\u2019s final report without `skip`: it ended by itself', async () => {
    await atWindowEdge();
    await h.player.act('skipPrev', 'user');
    await h.settle();
    expect(h.player.status().itemId).toBe('t10');
    const ended = h.stub.postedReports().filter((r) => r.type === 'final' && r.id === 't11');
    expect(ended).toHaveLength(1);
    expect(ended[0]).not.toHaveProperty('skip');
  });

  it('window-not-found: a 404 for the window waited for still sends the ended track\u2019s final report', async () => {
    await atWindowEdge();
    h.stub.script('itemWindow', { status: 404 }, { reason: 'refresh' });
    await h.advance(15_000);
    expect(last()).toMatchObject({ transition: 'window-not-found', to: 'IDLE' });
    expect(finalsOf('t11')).toHaveLength(1);
  });

  it('background-exhausted: the window waited for runs out of retries while a refreshCloudQueue waits behind it: the wait goes on, and the refresh plays on', async () => {
    await atWindowEdge();
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '10' } }, { times: 1, reason: 'refresh' });
    await h.player.refresh();
    await h.advance(15_000);
    const rows = h.rows();
    expect(rows.slice(rows.indexOf('refresh-command') + 1, rows.indexOf('refresh-command') + 3)).toEqual([
      'background-exhausted',
      'next-window-plays-fetched',
    ]);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't12' });
  });

  it('track-ends-window-edge: a loadCloudQueue that fails meanwhile leaves the player waiting for the same window', async () => {
    await atWindowEdge();
    h.stub.script('context', { status: 500 });
    await expect(h.load()).rejects.toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
    expect(last()).toMatchObject({ transition: 'load-failed', from: 'BUFFERING', to: 'BUFFERING' });
    await h.advance(15_000);
    expect(h.rows()).toContain('next-window-plays-fetched');
    expect(h.stub.sent('itemWindow', 'refresh').map((r) => r.itemId)).toEqual(['t9', 't9', 't9', 't9']);
    expect(finalsOf('t11')).toHaveLength(1);
  });
});

describe('user skips (docs/contract/platform.md §4.3)', () => {
  it('skip-next: without limitedSkips or notifyUserIntent the skip happens at once, reported as a skip', async () => {
    await playing();
    await h.advance(5_000);
    await h.player.act('skipNext', 'user');
    expect(last()).toMatchObject({ transition: 'skip-next', from: 'PLAYING', to: 'BUFFERING' });
    expect(h.player.status().itemId).toBe('t2');
    await h.settle();
    expect(h.stub.reasons()).toEqual(['load']);
    const [final] = h.stub.postedReports();
    expect(final).toMatchObject({
      id: 't1',
      type: 'final',
      durationPlayedMillis: 5_000,
      skip: { reportId: expect.any(String) },
    });
  });

  it('skip-next-paused: a skip while paused stays paused on the next track', async () => {
    await playing();
    await h.player.act('pause', 'user');
    await h.player.act('skipNext', 'user');
    expect(last()).toMatchObject({ transition: 'skip-next-paused', from: 'PAUSED', to: 'PAUSED' });
    expect(h.player.status().itemId).toBe('t2');
  });

  it('skip-next-paused: a skip while paused starts pauseTtlSec again; the paused session is still suspended', async () => {
    await playing({ policies: { pauseTtlSec: 60 } });
    await h.player.act('pause', 'user');
    await h.advance(30_000);
    await h.player.act('skipNext', 'user');
    await h.advance(59_999);
    expect(h.player.status()).toMatchObject({ itemId: 't2', suspended: false });
    await h.advance(1);
    expect(last()).toMatchObject({ transition: 'suspend-after-ttl', from: 'PAUSED', to: 'SUSPENDED' });
  });

  it('skip-prev: back to the previous track', async () => {
    await playing();
    await h.player.act('skipNext', 'user');
    await h.advance(BUFFERING_MS);
    await h.player.act('skipPrev', 'user');
    expect(last()).toMatchObject({ transition: 'skip-prev', from: 'PLAYING', to: 'BUFFERING' });
    expect(h.player.status().itemId).toBe('t1');
  });

  it('skip-prev-paused: back while paused stays paused', async () => {
    await playing();
    await h.player.act('skipNext', 'user');
    await h.player.act('pause', 'user');
    await h.player.act('skipPrev', 'user');
    expect(last()).toMatchObject({ transition: 'skip-prev-paused', to: 'PAUSED' });
    expect(h.player.status().itemId).toBe('t1');
  });

  it('skip-prev-paused: back from the end of the queue sends no second final report for the track that ended', async () => {
    await playing({ items: tracks(2, 60_000) });
    await h.advance(120_000);
    expect(last()).toMatchObject({ transition: 'track-ends-last' });
    await h.player.act('skipPrev', 'user');
    expect(last()).toMatchObject({ transition: 'skip-prev-paused', to: 'PAUSED' });
    await h.advance(60_000);
    const finals = h.stub.postedReports().filter((r) => r.type === 'final');
    expect(finals.map((r) => r.id)).toEqual(['t1', 't2']);
  });

  it('skip-asks-server and skip-answered-plays: with limitedSkips the player waits for the server before skipping', async () => {
    await playing({ policies: { limitedSkips: true } });
    const skip = h.player.act('skipNext', 'user');
    expect(last()).toMatchObject({ transition: 'skip-asks-server', to: 'PLAYING' });
    expect(h.player.status().itemId).toBe('t1'); // not yet
    await skip;
    expect(h.stub.sent('itemWindow', 'skipNext')).toEqual([expect.objectContaining({ itemId: 't1' })]);
    expect(last()).toMatchObject({ transition: 'skip-answered-plays', to: 'BUFFERING' });
    expect(h.player.status().itemId).toBe('t2');
  });

  it('skip-answered-paused: a server-approved skip while paused stays paused', async () => {
    await playing({ policies: { notifyUserIntent: true } });
    await h.player.act('pause', 'user');
    await h.settle();
    await h.player.act('skipPrev', 'user').catch(() => undefined); // no previous track at t1
    await h.player.act('skipNext', 'user');
    expect(last()).toMatchObject({ transition: 'skip-answered-paused', from: 'PAUSED', to: 'PAUSED' });
    expect(h.player.status().itemId).toBe('t2');
  });

  it('skip-refused: a 403 with X-Rejected-Reason refuses the skip and the track goes on', async () => {
    await playing({ policies: { limitedSkips: true } });
    h.stub.script(
      'itemWindow',
      { status: 403, headers: { 'x-rejected-reason': 'SKIP_LIMIT_REACHED' } },
      { reason: 'skipNext' },
    );
    const error = await h.player.act('skipNext', 'user').catch((e: unknown) => e);
    expect(error).toMatchObject({ errorCode: 'ERROR_SKIP_LIMIT_REACHED' });
    expect(last()).toMatchObject({ transition: 'skip-refused', from: 'PLAYING', to: 'PLAYING' });
    expect(h.player.status()).toMatchObject({ itemId: 't1', playbackState: 'PLAYBACK_STATE_PLAYING' });
  });
});

describe('control commands on a loaded queue', () => {
  it('skip-to-item-asks-server: without metadata skipToItem asks with the command\u2019s itemId', async () => {
    await playing();
    h.player.skipToItem({ itemId: 't9' });
    expect(last()).toMatchObject({ transition: 'skip-to-item-asks-server', to: 'PLAYING' });
    await h.settle();
    expect(h.stub.sent('itemWindow', 'skipToItem')).toEqual([expect.objectContaining({ itemId: 't9' })]);
    expect(h.player.status().itemId).toBe('t9');
  });

  it('skip-to-item-plays: with metadata the player fetches the audio without a request, later sends refresh', async () => {
    await playing();
    h.player.skipToItem({ itemId: 't7', trackMetadata: tracks(7)[6]!.track });
    expect(last()).toMatchObject({ transition: 'skip-to-item-plays', to: 'BUFFERING' });
    await h.settle();
    expect(h.stub.reasons()).toEqual(['load', 'refresh']);
    expect(h.stub.sent('itemWindow', 'refresh')[0]?.itemId).toBe('t7');
  });

  it('skip-to-item-paused: playOnCompletion=false cues the item paused', async () => {
    await playing();
    h.player.skipToItem({ itemId: 't4', trackMetadata: tracks(4)[3]!.track, playOnCompletion: false });
    expect(last()).toMatchObject({ transition: 'skip-to-item-paused', to: 'PAUSED' });
    expect(h.player.status()).toMatchObject({ itemId: 't4', playbackState: 'PLAYBACK_STATE_PAUSED' });
  });

  it('seek: skipToItem to the playing item, with its metadata, moves the playhead within one playback', async () => {
    await playing();
    await h.advance(20_000);
    h.player.skipToItem({ itemId: 't1', positionMillis: 90_000, trackMetadata: tracks(1)[0]!.track });
    expect(last()).toMatchObject({ transition: 'seek', from: 'PLAYING', to: 'PLAYING' });
    await h.advance(1_000);
    expect(h.player.status()).toMatchObject({ itemId: 't1', positionMillis: 91_000 });
    expect(h.stub.postedReports()).toEqual([]);
    expect(h.stub.sent('itemWindow', 'skipToItem')).toEqual([]);
  });

  it('skip-to-item-plays: skipToItem to the last track once it ended (its final report posted) starts a new playback of it, not a seek', async () => {
    await playing({
      items: tracks(2, 60_000),
      reports: { sendUpdateAfterMillis: 1_000, periodicIntervalMillis: 1_000 },
    });
    await h.advance(120_000);
    expect(last()).toMatchObject({ transition: 'track-ends-last', to: 'PAUSED' });
    const reports = h.stub.postedReports().length;
    h.player.skipToItem({
      itemId: 't2',
      positionMillis: 50_000,
      trackMetadata: tracks(2, 60_000)[1]!.track,
      playOnCompletion: false,
    });
    expect(last()).toMatchObject({ transition: 'skip-to-item-paused', to: 'PAUSED' });
    // Cued, not running: no timer of the ended playback goes on posting updates.
    await h.advance(20_000);
    expect(h.stub.postedReports().slice(reports)).toEqual([]);
    expect(h.player.status()).toMatchObject({
      itemId: 't2',
      positionMillis: 50_000,
      playbackState: 'PLAYBACK_STATE_PAUSED',
    });
  });

  it('skip-answered-plays: without metadata, skipToItem to the last track once it ended plays it anew from the position', async () => {
    await playing({ items: tracks(2, 60_000) });
    await h.advance(120_000);
    h.player.skipToItem({ itemId: 't2', positionMillis: 50_000, playOnCompletion: true });
    await h.settle();
    expect(h.rows()).toContain('skip-answered-plays');
    await h.advance(0);
    expect(h.player.snapshot()).toMatchObject({ state: 'PLAYING', atEnd: false, itemId: 't2', positionMillis: 50_000 });
  });

  it('skip-answered-seeks: without metadata, skipToItem to the playing item asks the server (§4.3), then seeks', async () => {
    await playing();
    await h.advance(20_000);
    h.player.skipToItem({ itemId: 't1', positionMillis: 90_000 });
    expect(last()).toMatchObject({ transition: 'skip-to-item-asks-server' });
    await h.settle();
    expect(h.stub.sent('itemWindow', 'skipToItem').map((r) => r.itemId)).toEqual(['t1']);
    expect(last()).toMatchObject({ transition: 'skip-answered-seeks', from: 'PLAYING', to: 'PLAYING' });
    await h.advance(1_000);
    expect(h.player.status()).toMatchObject({ itemId: 't1', positionMillis: 91_000 });
    expect(h.stub.postedReports()).toEqual([]);
  });

  it('refresh-command: a refreshCloudQueue that arrives while a window request is in flight goes out after it (§7.3)', async () => {
    await playing();
    h.player.refresh();
    h.stub.edit((items) => items.slice(0, 3)); // changed after the first refresh was sent
    h.player.refresh();
    await h.settle();
    expect(h.stub.sent('itemWindow', 'refresh')).toHaveLength(2);
    expect(h.player.snapshot().window?.items.map((i) => i.id)).toEqual(['t1', 't2', 't3']);
  });

  it('refresh-command: a refresh asked for a queue loaded while an old window request hangs goes out at once', async () => {
    await playing();
    h.stub.script('itemWindow', { hang: true }, { reason: 'refresh', times: 1 });
    h.player.refresh();
    await h.settle();
    await h.load({});
    h.player.refresh(); // the new queue's: the old request's answer would be dropped, so nothing waits for it
    await h.settle();
    expect(h.stub.sent('itemWindow', 'refresh')).toHaveLength(2);
    expect(last()).toMatchObject({ transition: 'window-answered' });
    await h.advance(11_000); // the old request times out: not retried, nothing changes
    expect(h.stub.sent('itemWindow', 'refresh')).toHaveLength(2);
    expect(h.transitions.filter((t) => t.transition === 'window-answered')).toHaveLength(1);
  });

  it('refresh-command: a refresh of a queue loaded while an old one waits to retry goes out at once; the old retry is never sent', async () => {
    await playing();
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '2' } }, { reason: 'refresh', times: 1 }); // retried 10 s later
    h.player.refresh();
    await h.settle();
    await h.load({});
    h.player.refresh();
    await h.settle();
    expect(h.stub.sent('itemWindow', 'refresh')).toHaveLength(2);
    await h.advance(30_000);
    expect(h.stub.sent('itemWindow', 'refresh')).toHaveLength(2);
  });

  it('refresh-command: the old request ending does not free the new queue\u2019s slot; a refresh queued behind the new one still waits for it', async () => {
    await playing();
    h.stub.script('itemWindow', { hang: true }, { reason: 'refresh', times: 1 });
    h.player.refresh(); // the old queue's, hangs until 10 s
    await h.settle();
    await h.advance(3_000);
    await h.load({});
    await h.advance(BUFFERING_MS);
    h.stub.script('itemWindow', { hang: true }, { reason: 'refresh', times: 1 });
    h.player.refresh(); // the new queue's, hangs until 13 s
    await h.settle();
    h.stub.edit((items) => items.slice(0, 5));
    h.player.refresh(); // waits behind it
    await h.settle();
    expect(h.stub.sent('itemWindow', 'refresh')).toHaveLength(2);
    await h.advance(7_000 - BUFFERING_MS); // the old one times out at 10 s
    expect(h.stub.sent('itemWindow', 'refresh')).toHaveLength(2);
    await h.advance(3_000); // the new one times out at 13 s: the one behind it goes (§7.4 retries wait behind)
    await h.advance(10_000);
    await h.settle();
    expect(h.stub.sent('itemWindow', 'refresh').length).toBeGreaterThan(2);
    expect(h.player.snapshot().window?.items).toHaveLength(5);
  });

  it('skip-to-item-plays: its later refresh waits for a window request in flight instead of being dropped', async () => {
    await playing({ items: tracks(20, 60_000) });
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '2' } }, { reason: 'refresh', times: 1 }); // retried 10 s later
    h.player.refresh();
    await h.settle();
    h.player.skipToItem({ itemId: 't15', trackMetadata: tracks(20, 60_000)[14]!.track, playOnCompletion: true });
    await h.advance(30_000);
    expect(h.stub.sent('itemWindow', 'refresh').map((r) => r.itemId)).toEqual(['t1', 't1', 't15']);
    expect(h.player.snapshot().window?.items.map((i) => i.id)).toContain('t20');
  });

  it('refresh-command and window-answered: refreshCloudQueue asks for a window in the background', async () => {
    await playing();
    h.stub.edit((items) => items.slice(0, 3));
    h.player.refresh();
    expect(last()).toMatchObject({ transition: 'refresh-command', cause: 'command' });
    await h.settle();
    expect(last()).toMatchObject({ transition: 'window-answered', cause: 'response' });
    expect(h.player.snapshot().window?.items.map((i) => i.id)).toEqual(['t1', 't2', 't3']);
    expect(h.player.status().queueVersion).toBe('2');
  });

  it('session-replaced: a new session evicts the old one and its queue', async () => {
    await playing();
    const old = h.player.currentSession!.id;
    h.player.createSession('com.other.app', 'x');
    expect(last()).toMatchObject({ transition: 'session-replaced', from: 'PLAYING', to: 'IDLE' });
    expect(h.player.currentSession!.id).not.toBe(old);
    expect(h.player.status().itemId).toBeNull();
  });
});

describe('failures (docs/contract/platform.md §3, §7)', () => {
  it('window-not-found: 404 on /itemWindow for the item sent empties the queue and goes idle', async () => {
    await playing();
    h.stub.script('itemWindow', { status: 404 }, { reason: 'refresh' });
    h.player.refresh();
    await h.settle();
    expect(last()).toMatchObject({ transition: 'window-not-found', from: 'PLAYING', to: 'IDLE' });
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_IDLE', itemId: null, queueVersion: null });
    expect(h.player.currentSession).not.toBeNull();
  });

  it('session-not-found: 404 on /version evicts the session', async () => {
    await playing();
    h.stub.script('version', { status: 404 });
    await h.advance(minutes(10));
    expect(h.rows()).toContain('session-not-found');
    expect(h.player.currentSession).toBeNull();
    expect(h.player.machineState).toBe('IDLE');
  });

  it('background-exhausted: background retries used up, the player plays out its window, then pauses', async () => {
    await playing({ items: tracks(30, 60_000) });
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '1' } }, { reason: 'refresh', times: 4 });
    // t9 is 2 tracks before the edge of the first window (t1…t11): the next-window request goes out.
    await h.advance(minutes(8));
    await h.advance(30_000);
    expect(h.stub.sent('itemWindow', 'refresh')).toHaveLength(4);
    expect(h.rows()).toContain('background-exhausted');
    expect(h.player.machineState).toBe('PLAYING');
    await h.advance(minutes(3));
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PAUSED', itemId: 't11' });
    expect(h.player.currentSession).not.toBeNull();
  });

  it('foreground-failed: a play intent that fails with 500 (never retried) stops playback, idle', async () => {
    await playing({ policies: { notifyUserIntent: true } });
    h.stub.script('itemWindow', { status: 500 }, { reason: 'pause' });
    await h.player.act('pause', 'user');
    await h.settle();
    expect(last()).toMatchObject({ transition: 'foreground-failed', from: 'PAUSED', to: 'IDLE' });
    expect(h.stub.sent('itemWindow', 'pause')).toHaveLength(1);
    expect(h.player.snapshot().lastError).toMatchObject({ status: 500 });
    // A queue loaded afterwards starts clean: the error was the queue before's.
    await h.load();
    expect(h.player.snapshot().lastError).toBeNull();
  });
});

describe('seek and seekRelative (docs/contract/console.md §3)', () => {
  const finalOf = (id: string) => h.stub.postedReports().find((r) => r.type === 'final' && r.id === id);

  it('seek-playhead: a seek while playing starts a new segment of the same playback; durationPlayedMillis goes on', async () => {
    await playing();
    await h.advance(20_000);
    h.player.seek({ positionMillis: 90_000, itemId: 't1' });
    expect(last()).toMatchObject({
      transition: 'seek-playhead',
      from: 'PLAYING',
      to: 'PLAYING',
      cause: 'command',
      detail: '→ 90000 ms',
    });
    await h.advance(10_000);
    expect(h.player.status()).toMatchObject({ itemId: 't1', positionMillis: 100_000 });
    // No request, no report: a seek is the player's own business (reports are not immediate).
    expect(h.stub.postedReports()).toEqual([]);
    expect(h.stub.reasons()).toEqual(['load']);
    await h.player.act('skipNext', 'user');
    await h.settle();
    expect(finalOf('t1')).toMatchObject({
      durationPlayedMillis: 30_000,
      timeSincePlaybackMillis: 30_000,
      positionMillis: 100_000,
      positionMillisAtSegmentStart: 90_000,
    });
  });

  it('seek-playhead: seekRelative moves from the playhead and clamps to the track: before 0 is 0, past the end ends it and the next track plays', async () => {
    await playing({ items: tracks(5, 60_000) });
    await h.advance(5_000);
    h.player.seek({ deltaMillis: -10_000 });
    expect(h.player.status().positionMillis).toBe(0);
    await h.advance(1_000);
    h.player.seek({ deltaMillis: 20_000 }, 'user');
    expect(last()).toMatchObject({ transition: 'seek-playhead', cause: 'user' });
    expect(h.player.status().positionMillis).toBe(21_000);
    h.player.seek({ deltaMillis: 120_000 });
    await h.settle();
    expect(h.rows().slice(-2)).toEqual(['seek-playhead', 'track-ends-next']);
    expect(h.player.status()).toMatchObject({ itemId: 't2', positionMillis: 0 });
    expect(finalOf('t1')).toMatchObject({
      durationPlayedMillis: 6_000,
      positionMillis: 60_000,
      positionMillisAtSegmentStart: 60_000,
    });
    expect(finalOf('t1')).not.toHaveProperty('skip');
  });

  it('seek-playhead: while paused the playhead waits at the new position; the resume\u2019s segment starts there (sendPlaybackActions)', async () => {
    await playing({ reports: { sendPlaybackActions: true } });
    await h.advance(10_000);
    h.player.seek({ positionMillis: 50_000 });
    await h.settle();
    // A playing track tells its new segment at once.
    expect(h.stub.postedReports().at(-1)).toMatchObject({
      type: 'update',
      durationPlayedMillis: 10_000,
      positionMillis: 50_000,
      positionMillisAtSegmentStart: 50_000,
    });
    await h.advance(5_000);
    await h.player.act('pause', 'user');
    await h.settle();
    const before = h.stub.postedReports().length;
    h.player.seek({ positionMillis: 30_000 });
    await h.settle();
    expect(last()).toMatchObject({ transition: 'seek-playhead', from: 'PAUSED', to: 'PAUSED' });
    // Paused, nothing is told until the resume; the playhead does not move meanwhile.
    expect(h.stub.postedReports()).toHaveLength(before);
    await h.advance(60_000);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PAUSED', positionMillis: 30_000 });
    await h.player.act('play', 'user');
    await h.settle();
    expect(h.stub.postedReports().at(-1)).toMatchObject({
      type: 'update',
      durationPlayedMillis: 15_000,
      positionMillis: 30_000,
      positionMillisAtSegmentStart: 30_000,
    });
    await h.advance(5_000);
    await h.player.act('skipNext', 'user');
    await h.settle();
    expect(finalOf('t1')).toMatchObject({
      durationPlayedMillis: 20_000,
      positionMillis: 35_000,
      positionMillisAtSegmentStart: 30_000,
    });
  });

  it('seek-after-end: after the last track ended, a seek cues a new playback of it at the position; it gets its own final report', async () => {
    await playing({ items: tracks(2, 60_000) });
    await h.advance(120_000);
    expect(last()).toMatchObject({ transition: 'track-ends-last', to: 'PAUSED' });
    h.player.seek({ positionMillis: 30_000, itemId: 't2' });
    expect(last()).toMatchObject({ transition: 'seek-after-end', from: 'PAUSED', to: 'PAUSED' });
    expect(h.player.snapshot()).toMatchObject({ atEnd: false, itemId: 't2', positionMillis: 30_000 });
    await h.player.act('play', 'user');
    expect(last()).toMatchObject({ transition: 'play', to: 'PLAYING' });
    await h.advance(30_000);
    expect(last()).toMatchObject({ transition: 'track-ends-last' });
    expect(finals()).toEqual(['t1', 't2', 't2']);
    expect(
      h.stub
        .postedReports()
        .filter((r) => r.type === 'final')
        .at(-1),
    ).toMatchObject({ id: 't2', durationPlayedMillis: 30_000, positionMillisAtSegmentStart: 30_000 });
  });

  it('is refused when canSeek is off (the queue\u2019s or the playing item\u2019s), for another item, with nothing loaded, and while suspended', async () => {
    const items = tracks(3, 60_000).map((item) =>
      item.id === 't2' ? { ...item, policies: { canSeek: false } } : item,
    );
    await start({ items });
    const refusal = (act: () => void) => {
      try {
        act();
      } catch (error) {
        return error;
      }
      return null;
    };
    expect(refusal(() => h.player.seek({ positionMillis: 1_000 }))).toMatchObject({
      errorCode: 'ERROR_PLAYBACK_NO_CONTENT',
    });
    await h.load();
    await h.advance(BUFFERING_MS + 1_000);
    expect(refusal(() => h.player.seek({ positionMillis: 1_000, itemId: 't2' }))).toMatchObject({
      errorCode: 'ERROR_INVALID_PARAMETER',
      reason: expect.stringContaining('t1'),
    });
    await h.player.act('skipNext', 'user');
    await h.advance(BUFFERING_MS);
    expect(refusal(() => h.player.seek({ deltaMillis: 1_000 }))).toMatchObject({
      errorCode: 'ERROR_DISALLOWED_BY_POLICY',
    });
    const rows = h.rows().length;
    h.player.suspend();
    expect(refusal(() => h.player.seek({ positionMillis: 1_000 }))).toMatchObject({
      errorCode: 'ERROR_PLAYBACK_NO_CONTENT',
    });
    expect(h.rows().slice(rows)).toEqual(['suspend-command']);
    h.stub.policies = { canSeek: false };
    await h.load();
    await h.advance(BUFFERING_MS);
    expect(h.player.status().itemId).toBe('t1');
    expect(refusal(() => h.player.seek({ positionMillis: 1_000 }))).toMatchObject({
      errorCode: 'ERROR_DISALLOWED_BY_POLICY',
    });
  });
});

// Last in the file, so it runs after every row's test (and is skipped when a filter picks tests).
it('leaves no row of the transition table without a test', () => {
  const untested = TRANSITIONS.map((row) => row.id).filter((id) => !covered.has(id));
  expect(untested).toEqual([]);
});

describe('a restart (saved.ts): the player closed, a fresh one takes up its record', () => {
  /** Counts what `player`'s own client sends from now on. */
  function countSends(player: Player): () => number {
    const client = (
      player as unknown as {
        deps: { client: Record<'itemWindow' | 'version' | 'context' | 'timePlayed', (...args: unknown[]) => unknown> };
      }
    ).deps.client;
    let sent = 0;
    for (const name of ['itemWindow', 'version', 'context', 'timePlayed'] as const) {
      const send = client[name]!.bind(client);
      client[name] = (...args: unknown[]) => {
        sent++;
        return send(...args);
      };
    }
    return () => sent;
  }

  it('the closed player sends nothing more: not a refresh queued behind one waiting to retry', async () => {
    await playing({ items: tracks(3, 180_000) });
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '5' } }, { reason: 'refresh', times: 1 });
    h.player.refresh();
    h.player.refresh(); // queued behind the first, which now waits 10 s to retry
    await h.advance(3_000);
    const sentByClosed = countSends(h.player);
    h.restart();
    await h.advance(20_000);
    expect(sentByClosed()).toBe(0);
    // The successor asked again for what was asked.
    expect(h.stub.sent('itemWindow', 'refresh').length).toBeGreaterThanOrEqual(2);
  });

  it('the closed player sends nothing more: not what a version poll answered after the close asks for', async () => {
    await playing({ items: tracks(3, 180_000) });
    h.stub.script('version', { hold: true });
    while (h.stub.sent('version').length === 0) await h.advance(1_000); // the poll goes out and is held
    await h.settle();
    const sentByClosed = countSends(h.player);
    h.restart();
    h.stub.edit((items) => items.slice(0, 2)); // a new version, which the held answer brings
    h.stub.release();
    await h.advance(1_000);
    expect(sentByClosed()).toBe(0);
  });

  describe('while a load that started its track at once waits: saved as its failure would leave the player', () => {
    it.each([
      ['pause', 'PAUSED'],
      ['suspend', 'SUSPENDED'],
    ] as const)(
      'a %s made since comes back with the queue before: %s, not playing on by itself',
      async (action, state) => {
        await startedAtOnce();
        if (action === 'pause') await h.player.act('pause', 'user');
        else h.player.suspend();
        h.restart();
        expect(h.player.snapshot()).toMatchObject({ state, itemId: 't1' });
        await h.advance(30_000);
        expect(h.player.machineState).toBe(state);
      },
    );

    it('a queue loaded paused comes back paused, and is suspended pauseTtlSec after the restart (its timer went while the load\u2019s track played)', async () => {
      await startedAtOnce({ policies: { pauseTtlSec: 5 } }, { paused: true });
      await h.advance(6_000);
      h.restart();
      expect(h.player.snapshot()).toMatchObject({ state: 'PAUSED', itemId: 't1' });
      await h.advance(4_999);
      expect(h.player.machineState).toBe('PAUSED');
      await h.advance(1);
      expect(h.player.machineState).toBe('SUSPENDED');
    });

    it('the track the load started gets its final, as the load failing would post it', async () => {
      await startedAtOnce();
      h.restart();
      await h.settle();
      expect(h.stub.postedReports().filter((r) => r.type === 'final')).toMatchObject([
        { id: 't2', durationPlayedMillis: BUFFERING_MS + 2_000 },
      ]);
      await h.advance(BUFFERING_MS);
      expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't1' });
    });
  });
});

describe('item policies', () => {
  it('the playing item\u2019s policies as the newest window gives them: an edit that forbids skipping it is followed', async () => {
    await playing({ items: tracks(5, 60_000) });
    await h.player.act('skipNext', 'user');
    await h.advance(BUFFERING_MS);
    expect(h.player.status().itemId).toBe('t2');
    h.stub.edit((items) => items.map((item) => (item.id === 't2' ? { ...item, policies: { canSkip: false } } : item)));
    h.player.refresh();
    await h.settle();
    expect(h.player.snapshot().window?.queueVersion).toBe(String(h.stub.version));
    await expect(h.player.act('skipNext', 'user')).rejects.toMatchObject({ errorCode: 'ERROR_DISALLOWED_BY_POLICY' });
    expect(h.player.status().itemId).toBe('t2');
  });
});
