/**
 * A pending loadCloudQueue's snapshot and its restore (docs/contract/platform.md §3, §7.3): a load
 * that starts its track at once replaces the playback before the server answered; if it fails,
 * the player is put back as it was, with a pause or suspension made meanwhile.
 */
import type { PlayerCore } from './core.js';
import { savedAsking, type PendingLoad, type PlayerContext, type Snapshot } from './context.js';
import { askAgain } from './flows.js';
import { armPauseTtl, askForNextWindowIfNear, bufferAgain, stopTrackTimers, startTrackTimers } from './playback.js';
import { reportWhatWasHeard } from './reports.js';
import type { MachineState } from './states.js';

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
export function sameLoad(p: PlayerCore, epoch: number, pending: PendingLoad): boolean {
  return p.ctx.loading === pending && !p.ctx.closed && (!pending.startedAtOnce || p.ctx.epoch === epoch);
}

/** Puts back what a failed load that had started its track at once replaced. */
export function restorePrevious(p: PlayerCore): void {
  const previous = p.ctx.loading!.previous;
  if (!previous) return;
  reportWhatWasHeard(p);
  // What was asked of the queue that failed to load is not for the one put back.
  p.leaveRequests('the loadCloudQueue it was asked during failed');
  stopTrackTimers(p);
  p.ctx.queue = previous.queue;
  p.ctx.window = previous.window;
  p.ctx.track = previous.track;
  p.ctx.atEnd = previous.atEnd;
  p.ctx.atEdge = previous.atEdge;
  if (p.ctx.state === 'PAUSED' || p.ctx.state === 'SUSPENDED') p.ctx.track?.pause(p.deps.clock.now());
  // Paused again (it played the load's track meanwhile): pauseTtlSec runs from here, as after any pause.
  if (p.ctx.state === 'PAUSED' && !p.timers.has('pauseTtl')) armPauseTtl(p);
  // The track started at once stopped the timers and moved the epoch on: the state put back
  // asks again what it was asking then, and gets its timers again.
  askAgain(p, previous.asking);
  if (p.ctx.state === 'PLAYING') {
    p.ctx.track?.play(p.deps.clock.now());
    startTrackTimers(p);
    askForNextWindowIfNear(p);
  } else if (p.ctx.state === 'BUFFERING') bufferAgain(p);
}
