/**
 * What the guards see is a pure function of the player's state record and the event: tested here
 * on records built by hand, with no clock, timer or server.
 */
import { describe, expect, it } from 'vitest';
import { newPlayerContext, type PlayerState } from './context.js';
import { guardInputs } from './guards.js';
import { TrackPlayback } from './track-playback.js';
import { QueueWindow } from './windows.js';
import type { ItemWindowResponse, QueueItem } from './wire.js';

const item = (n: number): QueueItem => ({
  id: `item-${n}`,
  track: { name: `T${n}`, mediaUrl: `https://m.example/${n}.mp3`, durationMillis: 200_000 },
});
const window = (ids: number[], includesEndOfQueue: boolean): ItemWindowResponse => ({
  includesBeginningOfQueue: ids[0] === 1,
  includesEndOfQueue,
  queueVersion: 'v1',
  items: ids.map(item),
});

function playing(ids: number[], current: number, includesEndOfQueue: boolean): PlayerState {
  const ctx = newPlayerContext();
  ctx.state = 'PLAYING';
  ctx.window = new QueueWindow(window(ids, includesEndOfQueue));
  ctx.track = new TrackPlayback(item(current), 0);
  return ctx;
}

describe('guard inputs', () => {
  it('see the next and previous track in the window the player holds', () => {
    const inputs = guardInputs(playing([1, 2, 3], 2, true), { type: 'skipNext', by: 'user' });
    expect(inputs).toMatchObject({ hasNext: true, hasPrevious: true, currentItemId: 'item-2', queueGoesOn: false });
  });

  it('say the queue goes on when a track ends as the window\u2019s last and the window says there is more', () => {
    expect(guardInputs(playing([1, 2], 2, false), { type: 'trackEnded' })).toMatchObject({
      hasNext: false,
      queueGoesOn: true,
    });
    expect(guardInputs(playing([1, 2], 2, true), { type: 'trackEnded' })).toMatchObject({
      hasNext: false,
      queueGoesOn: false,
    });
    // Background retries ran out: no window will come, the queue does not go on for this player.
    const draining = playing([1, 2], 2, false);
    draining.draining = true;
    expect(guardInputs(draining, { type: 'trackEnded' }).queueGoesOn).toBe(false);
  });

  it('read a window answer against the playing track: a next track, or none while the queue goes on', () => {
    const ctx = playing([1, 2], 2, false);
    const more = guardInputs(ctx, {
      type: 'windowAnswered',
      window: window([2, 3], false),
      purpose: 'refresh',
      askedFor: 'item-1',
    });
    expect(more).toMatchObject({ answerHasNext: true, answerFallsShort: false, answerInBackground: true });
    const short = guardInputs(ctx, {
      type: 'windowAnswered',
      window: window([1, 2], false),
      purpose: 'queueCompleted',
      askedFor: 'item-1',
    });
    expect(short).toMatchObject({ answerHasNext: false, answerFallsShort: true });
    // Asked for the playing track itself, an answer ending with it does not fall short: it is all there is now.
    expect(
      guardInputs(ctx, {
        type: 'windowAnswered',
        window: window([1, 2], false),
        purpose: 'refresh',
        askedFor: 'item-2',
      }).answerFallsShort,
    ).toBe(false);
    // A user's skip or intent is not background work.
    expect(
      guardInputs(ctx, { type: 'windowAnswered', window: window([2, 3], false), purpose: 'pause', askedFor: 'item-2' })
        .answerInBackground,
    ).toBe(false);
  });

  it('see a window request queued behind the one in flight only for the queue of now', () => {
    const ctx = playing([1, 2], 2, false);
    ctx.windowAfterInFlight = { reason: 'refresh', purpose: 'refreshCommand', epoch: ctx.epoch };
    expect(
      guardInputs(ctx, {
        type: 'backgroundExhausted',
        failure: { kind: 'incomplete', message: 'x' },
        purpose: 'refresh',
      }),
    ).toMatchObject({ windowQueued: true, windowExhausted: true });
    ctx.epoch++;
    expect(
      guardInputs(ctx, { type: 'backgroundExhausted', failure: { kind: 'incomplete', message: 'x' } }),
    ).toMatchObject({ windowQueued: false, windowExhausted: false });
  });

  it('take a skipToItem\u2019s playOnCompletion, else whether the player moves', () => {
    const ctx = playing([1, 2], 1, true);
    expect(guardInputs(ctx, { type: 'skipToItem', params: { itemId: 'item-2' } }).skipPlays).toBe(true);
    expect(
      guardInputs(ctx, { type: 'skipToItem', params: { itemId: 'item-2', playOnCompletion: false } }).skipPlays,
    ).toBe(false);
    ctx.state = 'PAUSED';
    expect(guardInputs(ctx, { type: 'skipToItem', params: { itemId: 'item-2' } }).skipPlays).toBe(false);
  });
});
