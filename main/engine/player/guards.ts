/**
 * What the transition table's guards look at, computed from the player's state record and the
 * event alone: a pure function, so what a guard sees can be tested without timers or a server.
 */
import { fetchedToEnd } from './audio.js';
import { policiesOf, FOREGROUND_PURPOSES, isMoving, QUEUED_PURPOSES, type PlayerContext } from './context.js';
import type { PlayerEvent } from './events.js';
import type { GuardContext } from './transitions.js';
import { QueueWindow } from './windows.js';

export function guardInputs(ctx: PlayerContext, event: PlayerEvent): GuardContext {
  const current = ctx.track?.item.id;
  let windowFullyFetched = false;
  if (event.type === 'downloadComplete' && ctx.window && current)
    windowFullyFetched = fetchedToEnd(ctx.window, current);
  let answerFullyFetched = false;
  let answerHasNext = false;
  let answerFallsShort = false;
  const pending = ctx.loading;
  // The track a pending load started at once, or one a skipToItem started in its queue since: no
  // window has come for either, so the load's answer is the next window.
  const beforeFirstWindow = !!pending?.startedAtOnce && ctx.firstWindowPending && !ctx.window;
  const startedTrackAtEdge = event.type === 'loadAnswered' && beforeFirstWindow && ctx.atEdge;
  let answerEndsQueue = false;
  if (event.type === 'loadAnswered' && startedTrackAtEdge) {
    const answer = new QueueWindow(event.window);
    // The load's own track is the item it named, or the answer's first.
    const ended =
      ctx.track === pending!.startedTrack ? (pending!.params.itemId ?? event.window.items[0]!.id) : current!;
    answerHasNext = answer.after(ended) !== undefined;
    // An answer without the ended track (one a skipToItem started) says nothing of what follows it.
    answerEndsQueue = !answerHasNext && answer.has(ended) && answer.includesEndOfQueue;
  }
  if ((event.type === 'windowAnswered' || event.type === 'resumeAnswered') && current) {
    const answer = new QueueWindow(event.window);
    answerHasNext = answer.after(current) !== undefined;
    if (event.type === 'windowAnswered') {
      answerFallsShort =
        answer.has(current) && !answerHasNext && !answer.includesEndOfQueue && event.askedFor !== current;
      // Not from a queueCompleted answer: that was the check for more, and a server that grows the
      // queue (or moves its version) on every one would be asked again without end.
      if (event.purpose !== 'queueCompleted' && ctx.fetched.has(current))
        answerFullyFetched = fetchedToEnd(answer, current);
    }
  }
  const answerInBackground = event.type === 'windowAnswered' && !FOREGROUND_PURPOSES.includes(event.purpose);
  const queued = ctx.windowAfterInFlight;
  const windowQueued = queued !== null && queued.epoch === ctx.epoch && QUEUED_PURPOSES.includes(queued.purpose);
  // Before a started-at-once load's first window, the load's answer is the next one.
  const queueGoesOn =
    event.type === 'trackEnded' &&
    ((!!current && !!ctx.window && !ctx.window.after(current) && !ctx.window.includesEndOfQueue && !ctx.draining) ||
      beforeFirstWindow);
  let skipPlays = false;
  if (event.type === 'skipToItem') skipPlays = event.params.playOnCompletion ?? isMoving(ctx);
  if (event.type === 'skipAnswered') skipPlays = event.plays;
  return {
    policies: policiesOf(ctx),
    playOnCompletion: ctx.loading?.params.playOnCompletion ?? false,
    startedAtOnce: ctx.loading?.startedAtOnce ?? false,
    startedTrackAtEdge,
    answerEndsQueue,
    atEnd: ctx.atEnd,
    atEdge: ctx.atEdge,
    hasNext: !!(current && ctx.window?.after(current)),
    hasPrevious: !!(current && ctx.window?.before(current)),
    windowFullyFetched,
    answerFullyFetched,
    queueGoesOn,
    answerHasNext,
    answerFallsShort,
    answerInBackground,
    windowQueued,
    windowExhausted: event.type === 'backgroundExhausted' && event.purpose !== undefined,
    skipPlays,
    currentItemId: current,
  };
}
