/**
 * What a new window does to the audio the player keeps: the items of the window it holds, and the
 * track playing, nothing else (the saved record goes with it). Records built by hand.
 */
import { describe, expect, it } from 'vitest';
import { newPlayerContext } from './context.js';
import { TrackPlayback } from './track-playback.js';
import { adoptWindow, markFetched } from './window-state.js';
import type { ItemWindowResponse, QueueItem } from './wire.js';

const item = (n: number): QueueItem => ({
  id: `item-${n}`,
  track: { name: `T${n}`, mediaUrl: `https://m.example/${n}.mp3`, durationMillis: 20_000 },
});
const window = (ids: number[]): ItemWindowResponse => ({
  includesBeginningOfQueue: ids[0] === 1,
  includesEndOfQueue: false,
  queueVersion: 'v1',
  items: ids.map(item),
});

describe('a window adopted', () => {
  it('lets go of the audio of items it does not hold', () => {
    const ctx = newPlayerContext();
    adoptWindow(ctx, window([1, 2, 3, 4]), { fresh: true });
    markFetched(ctx, ['item-1', 'item-2', 'item-3', 'item-4']);
    ctx.track = new TrackPlayback(item(3), 0);

    adoptWindow(ctx, window([3, 4, 5, 6]), { fresh: false });

    expect([...ctx.fetched].sort()).toEqual(['item-3', 'item-4']);
  });

  it('keeps the audio of the track playing, even when the window does not hold it', () => {
    const ctx = newPlayerContext();
    adoptWindow(ctx, window([1, 2, 3]), { fresh: true });
    markFetched(ctx, ['item-2', 'item-3']);
    ctx.track = new TrackPlayback(item(2), 0);

    adoptWindow(ctx, window([7, 8, 9]), { fresh: true });

    expect([...ctx.fetched]).toEqual(['item-2']);
  });
});
