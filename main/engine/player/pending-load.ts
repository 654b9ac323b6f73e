/**
 * A failed loadCloudQueue's restore (docs/contract/platform.md §3, §7.3): a load that starts its
 * track at once replaces the playback before the server answered; if it fails, the player is put
 * back as it was (the snapshot load-state.ts took), with a pause or suspension made meanwhile.
 */
import type { PlayerCore } from './core.js';
import { askAgain } from './flows.js';
import { armPauseTtl, askForNextWindowIfNear, bufferAgain, stopTrackTimers, startTrackTimers } from './playback.js';
import { reportWhatWasHeard } from './reports.js';
import { setQueue } from './session-state.js';
import { pauseTrack, playTrack, putTrack } from './track-state.js';
import { putWindow } from './window-state.js';

/** Puts back what a failed load that had started its track at once replaced. */
export function restorePrevious(p: PlayerCore): void {
  const previous = p.ctx.loading!.previous;
  if (!previous) return;
  reportWhatWasHeard(p);
  // What was asked of the queue that failed to load is not for the one put back.
  p.leaveRequests('the loadCloudQueue it was asked during failed');
  stopTrackTimers(p);
  setQueue(p.ctx, previous.queue);
  putWindow(p.ctx, previous.window);
  putTrack(p.ctx, previous.track, previous);
  if (p.ctx.state === 'PAUSED' || p.ctx.state === 'SUSPENDED') pauseTrack(p.ctx, p.deps.clock.now());
  // Paused again (it played the load's track meanwhile): pauseTtlSec runs from here, as after any pause.
  if (p.ctx.state === 'PAUSED' && !p.timers.has('pauseTtl')) armPauseTtl(p);
  // The track started at once stopped the timers and moved the epoch on: the state put back
  // asks again what it was asking then, and gets its timers again.
  askAgain(p, previous.asking);
  if (p.ctx.state === 'PLAYING') {
    playTrack(p.ctx, p.deps.clock.now());
    startTrackTimers(p);
    askForNextWindowIfNear(p);
  } else if (p.ctx.state === 'BUFFERING') bufferAgain(p);
}
