/**
 * The requests part's owner: the epoch the player's requests belong to, what they are asking,
 * the background window slot and the request waiting behind it, and what waits for a
 * started-at-once load's first window. Only this module writes them.
 */
import type { PlayerContext, RequestsPart } from './context.js';
import type { WindowPurpose } from './events.js';
import type { SavedAsking } from './context.js';
import type { Reason } from './wire.js';

const own = (ctx: PlayerContext): RequestsPart => ctx as unknown as RequestsPart;

/**
 * The player leaves the requests it made of its queue: their answers and retries no longer
 * count (the epoch moves on), the background window slot is free, and nothing waits for a
 * first window.
 */
export function leaveRequests(ctx: PlayerContext): void {
  const part = own(ctx);
  part.epoch++;
  part.asking = {};
  part.backgroundWindowRun = null;
  part.windowAfterInFlight = null;
  part.untilFirstWindow = [];
}

/** The player closed: whatever answers belongs to no queue, and nothing queued goes out. */
export function closeRequests(ctx: PlayerContext): void {
  const part = own(ctx);
  part.epoch++;
  part.windowAfterInFlight = null;
}

/** Notes that a request of `kind` is out; returns the record it is noted in (see `doneAsking`). */
export function noteAsking<K extends keyof SavedAsking>(
  ctx: PlayerContext,
  kind: K,
  what: NonNullable<SavedAsking[K]>,
): SavedAsking {
  const asking = own(ctx).asking;
  asking[kind] = what;
  return asking;
}

/** The request ended: off the record it was noted in, unless another of its kind took its place. */
export function doneAsking<K extends keyof SavedAsking>(
  asking: SavedAsking,
  kind: K,
  what: NonNullable<SavedAsking[K]>,
): void {
  if (asking[kind] === what) delete asking[kind];
}

/** Takes the background window slot for `run`. */
export function takeWindowSlot(ctx: PlayerContext, run: object): void {
  own(ctx).backgroundWindowRun = run;
}

/** Frees the slot if `run` still holds it; returns the request waiting behind it, if it is of this epoch. */
export function freeWindowSlot(ctx: PlayerContext, run: object): { reason: Reason; purpose: WindowPurpose } | null {
  const part = own(ctx);
  if (part.backgroundWindowRun !== run) return null;
  part.backgroundWindowRun = null;
  const next = part.windowAfterInFlight;
  part.windowAfterInFlight = null;
  return next && next.epoch === part.epoch ? next : null;
}

/** A window request waits behind the one in flight; `unlessWaiting`: only if none waits already. */
export function queueWindowAfter(
  ctx: PlayerContext,
  reason: Reason,
  purpose: WindowPurpose,
  { unlessWaiting = false }: { unlessWaiting?: boolean } = {},
): void {
  const part = own(ctx);
  if (unlessWaiting && part.windowAfterInFlight) return;
  part.windowAfterInFlight = { reason, purpose, epoch: part.epoch };
}

/** Keeps `ask` for the first window of a load that started its track at once. */
export function askOnFirstWindow(ctx: PlayerContext, ask: () => void): void {
  own(ctx).untilFirstWindow.push(ask);
}

/** The first window came: what waited for it, taken (to be asked now). */
export function takeFirstWindowAsks(ctx: PlayerContext): (() => void)[] {
  const part = own(ctx);
  const waiting = part.untilFirstWindow;
  part.untilFirstWindow = [];
  return waiting;
}
