/**
 * The window part's owner: the queue's window, whether it drains, which items' audio is fetched,
 * the window a queueCompleted was asked for, and when /version was last polled. Only this module
 * writes them.
 */
import type { PlayerContext, WindowPart } from './context.js';
import type { ItemWindowResponse } from './wire.js';
import { QueueWindow } from './windows.js';

const own = (ctx: PlayerContext): WindowPart => ctx as unknown as WindowPart;

/**
 * A window the server answered becomes the player's: it drains no more (docs/contract/platform.md
 * §7.4.3 ends with a window). `fresh`: a window of its own asking, so queueCompleted may be asked of it again.
 */
export function adoptWindow(
  ctx: PlayerContext,
  response: ItemWindowResponse,
  { fresh }: { fresh: boolean },
): QueueWindow {
  const part = own(ctx);
  part.window = new QueueWindow(response);
  part.draining = false;
  if (fresh) part.queueCompletedAsked = null;
  // Audio is kept for the items of the window the player holds, and the track playing: the set
  // (and the saved record it goes into) stays the size of a window, not of everything played
  // since the load.
  const playing = ctx.track?.item.id;
  for (const id of part.fetched) if (id !== playing && !part.window.has(id)) part.fetched.delete(id);
  return part.window;
}

/** A window put back as it was (a failed load's snapshot), or none yet (a load's track started at once). */
export function putWindow(ctx: PlayerContext, window: QueueWindow | null): void {
  own(ctx).window = window;
}

/** docs/contract/platform.md §7.4.3: background retries ran out; what is left of the window plays. */
export function drain(ctx: PlayerContext): void {
  own(ctx).draining = true;
}

export function markFetched(ctx: PlayerContext, ids: Iterable<string>): void {
  const part = own(ctx);
  for (const id of ids) part.fetched.add(id);
}

export function forgetFetched(ctx: PlayerContext): void {
  own(ctx).fetched.clear();
}

/** The window a queueCompleted was asked for; null: asked for none yet (it may go again). */
export function noteQueueCompletedAsked(ctx: PlayerContext, key: string | null): void {
  own(ctx).queueCompletedAsked = key;
}

export function notePoll(ctx: PlayerContext, at: number): void {
  own(ctx).lastPollAt = at;
}

/** The queue went: no window, nothing fetched, nothing draining. */
export function dropWindow(ctx: PlayerContext): void {
  const part = own(ctx);
  part.window = null;
  part.draining = false;
  part.fetched.clear();
}

/** What a restart brings back of the window (saved.ts). */
export function restoreWindow(
  ctx: PlayerContext,
  saved: Pick<WindowPart, 'draining' | 'queueCompletedAsked' | 'lastPollAt'> & {
    window: ItemWindowResponse;
    fetched: readonly string[];
  },
): void {
  const part = own(ctx);
  part.window = new QueueWindow(saved.window);
  part.draining = saved.draining;
  for (const id of saved.fetched) part.fetched.add(id);
  part.queueCompletedAsked = saved.queueCompletedAsked;
  part.lastPollAt = saved.lastPollAt;
}
