/** "Trigger now" at the player (trigger.ts): each request as the player sends it on its own, or refused with why. */
import { afterEach, describe, expect, it } from 'vitest';
import { playingHarness, type PlayerHarness } from '../testing/player-harness.js';
import { tracks } from '../testing/stub-cloud-queue.js';

let h: PlayerHarness;
afterEach(() => h?.close());

describe('trigger now', () => {
  it('sends the user\u2019s pause and play intents with notifyUserIntent, each only when it makes sense', async () => {
    h = await playingHarness({ items: tracks(10, 60_000), policies: { notifyUserIntent: true } });
    await expect(h.player.trigger('play')).rejects.toThrow(/not paused/);
    expect(await h.player.trigger('pause')).toMatchObject({ sent: 'GET /itemWindow?reason=pause' });
    await h.settle();
    expect(h.player.machineState).toBe('PAUSED');
    expect(await h.player.trigger('play')).toMatchObject({ sent: 'GET /itemWindow?reason=play' });
    await h.settle();
    expect(h.stub.reasons().filter((r) => r === 'pause' || r === 'play')).toEqual(['pause', 'play']);
  });

  it('sends GET /context, and refuses a second version poll while the first waits for its retry', async () => {
    h = await playingHarness({ items: tracks(10, 60_000) });
    const before = h.stub.sent('context').length;
    expect(await h.player.trigger('context')).toMatchObject({ sent: 'GET /context' });
    await h.settle();
    expect(h.stub.sent('context')).toHaveLength(before + 1);
    h.stub.script('version', { status: 503, headers: { 'retry-after': '3' } });
    await h.player.trigger('versionPoll');
    await h.settle();
    await expect(h.player.trigger('versionPoll')).rejects.toThrow(/in flight or waiting for its next try/);
    await h.advance(10_000);
    expect(h.stub.sent('version')).toHaveLength(2);
  });

  it('refuses a second refresh while the first waits for its retry, as it would go out only after it (audit X20)', async () => {
    h = await playingHarness({ items: tracks(10, 60_000) });
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '3' } });
    expect(await h.player.trigger('refresh')).toMatchObject({ sent: 'GET /itemWindow?reason=refresh' });
    await h.settle();
    await expect(h.player.trigger('refresh')).rejects.toThrow(
      /a background window request is in flight or waiting for its next try already/,
    );
    // Nothing more went out for it: the one refresh and its retry.
    await h.advance(10_000);
    expect(h.stub.reasons().filter((reason) => reason === 'refresh')).toHaveLength(2);
  });

  it('refuses an intent the queue does not ask for, and everything once the session is suspended', async () => {
    h = await playingHarness({ items: tracks(10, 60_000), policies: { pauseTtlSec: 1 } });
    await expect(h.player.trigger('pause')).rejects.toMatchObject({ errorCode: 'ERROR_DISALLOWED_BY_POLICY' });
    await h.player.act('pause', 'user');
    await h.advance(1_000);
    expect(h.player.machineState).toBe('SUSPENDED');
    await expect(h.player.trigger('refresh')).rejects.toThrow(/suspended/);
  });
});
