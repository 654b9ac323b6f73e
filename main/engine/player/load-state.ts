/**
 * The load part's owner: the loadCloudQueue waiting for its answer (what it will put back if it
 * fails, the reports it owes) and the user's skip waiting for the server. Only this module writes
 * them, and settles their callers.
 */
import {
  savedAsking,
  type LoadedQueue,
  type LoadPart,
  type PendingLoad,
  type PlayerContext,
  type PreparedReport,
  type Snapshot,
} from './context.js';
import { PlaybackError } from './errors.js';
import type { LoadParams } from './events.js';
import type { MachineState } from './states.js';
import type { TrackPlayback } from './track-playback.js';

const own = (ctx: PlayerContext): LoadPart => ctx as unknown as LoadPart;

/**
 * A new loadCloudQueue: one waiting is superseded (its caller told so); what it would put back,
 * and the reports it owes, are the new one's.
 */
export function beginLoad(
  ctx: PlayerContext,
  params: LoadParams,
  resolve: () => void,
  reject: (error: PlaybackError) => void,
): void {
  const part = own(ctx);
  const superseded = part.loading;
  superseded?.reject(new PlaybackError('ERROR_CLOUD_QUEUE_SERVER', 'superseded by a newer loadCloudQueue'));
  part.loading = {
    params,
    previous: superseded?.previous ?? null,
    cutOffs: superseded ? [...superseded.cutOffs] : [],
    startedAtOnce: false,
    resolve,
    reject,
  };
}

/** The queue being loaded, once its context answered. */
export function setLoadingQueue(pending: PendingLoad, queue: LoadedQueue): void {
  pending.queue = queue;
}

/** What a failure of the load puts back, taken once (a superseded load's stays). */
export function keepPrevious(pending: PendingLoad, snapshot: () => Snapshot): void {
  pending.previous ??= snapshot();
}

/** The load started its track at once: `cutOff`, the final report of the track it cut off, is owed. */
export function startedAtOnce(pending: PendingLoad, cutOff: PreparedReport | null): void {
  pending.startedAtOnce = true;
  if (cutOff) pending.cutOffs.push(cutOff);
}

export function setStartedTrack(pending: PendingLoad, track: TrackPlayback): void {
  pending.startedTrack = track;
}

/** The queue went: a load that would have put back the queue from before now has none. */
export function forgetPrevious(ctx: PlayerContext): void {
  if (ctx.loading) own(ctx).loading!.previous = null;
}

/** The load was answered. */
export function answerLoad(ctx: PlayerContext): void {
  const part = own(ctx);
  part.loading?.resolve();
  part.loading = null;
}

/** The load failed (or the player closed, or its session went): its caller gets `error`. */
export function settleLoad(ctx: PlayerContext, error: PlaybackError): void {
  const part = own(ctx);
  part.loading?.reject(error);
  part.loading = null;
}

/** A user's skip waits for the server. */
export function beginSkip(ctx: PlayerContext, resolve: () => void, reject: (error: PlaybackError) => void): void {
  own(ctx).skipping = { resolve, reject };
}

/** Ends the skip waiting for the server: done (no error), or refused with `error`. */
export function settleSkip(ctx: PlayerContext, error?: PlaybackError): void {
  const part = own(ctx);
  if (error) part.skipping?.reject(error);
  else part.skipping?.resolve();
  part.skipping = null;
}

/** The playback a load that starts its track at once replaces, as it stands now. */
export function takeSnapshot(ctx: PlayerContext): Snapshot {
  return {
    state: ctx.state,
    queue: ctx.queue,
    window: ctx.window,
    track: ctx.track,
    atEnd: ctx.atEnd,
    atEdge: ctx.atEdge,
    asking: savedAsking(ctx),
  };
}

/**
 * Where a failed load leaves the player: where it is, unless the load started its track at once,
 * which is put back with the state before it; a pause or suspension since still holds (the
 * user's, for the session, whichever track it plays), unless nothing was loaded before: then
 * there is no track left to hold it, and the player is idle again.
 */
export function stateBeforeLoad(ctx: PlayerContext, now: MachineState): MachineState {
  const previous = ctx.loading?.previous;
  if (!previous || ((now === 'PAUSED' || now === 'SUSPENDED') && previous.state !== 'IDLE')) return now;
  return previous.state;
}

/**
 * The load still stands: not superseded by a newer one, nor the player closed. Until a track
 * starts at once, the queue playing is the one before, and its dropping (a 404, a failure) says
 * nothing of the queue being loaded; after, the epoch moving on means this load's queue went.
 */
export function sameLoad(ctx: PlayerContext, epoch: number, pending: PendingLoad): boolean {
  return ctx.loading === pending && !ctx.closed && (!pending.startedAtOnce || ctx.epoch === epoch);
}
