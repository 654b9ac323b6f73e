/**
 * The player's requests to the cloud queue server, one flow each (load, resume, skips, intents,
 * background windows, version poll, context): what it asks, and which event its answer or its
 * failure dispatches. How each is retried and what a failure means is request-policies.ts's.
 */
import type { PlayerCore } from './core.js';
import { awaitsFirstWindow, isMoving, QUEUED_PURPOSES, windowKey } from './context.js';
import { reportIntervalsOf } from './contract-check.js';
import { fetchedAtOnce } from './audio.js';
import type { CloudQueueTarget } from './client.js';
import { cloudQueueError, PlaybackError } from './errors.js';
import type { SkipToItemParams, WindowPurpose } from './events.js';
import { keepPrevious, sameLoad, setLoadingQueue, settleSkip, takeSnapshot } from './load-state.js';
import { firstWindowReason, startsAtOnce } from './reasons.js';
import { reportVersionOfTarget } from './report-version.js';
import { backgroundWindowKind, dispatchFailure, meaningOf } from './request-policies.js';
import type { Failure } from './retry.js';
import type { SavedAsking } from './context.js';
import {
  askOnFirstWindow,
  doneAsking,
  freeWindowSlot,
  noteAsking,
  queueWindowAfter,
  takeWindowSlot,
} from './requests-state.js';
import { updateQueue } from './session-state.js';
import { forgetFetched, markFetched, noteQueueCompletedAsked, notePoll } from './window-state.js';
import { PREVIOUS_WINDOW_SIZE, QueueWindow, UPCOMING_WINDOW_SIZE } from './windows.js';
import { DEFAULT_POLICIES, type Reason } from './wire.js';

export async function runLoad(p: PlayerCore): Promise<void> {
  const pending = p.ctx.loading!;
  const { params } = pending;
  // The queue playing now goes on (its requests and their answers too) until the load replaces
  // it: adoptLoad, or a track started at once, moves the epoch on. A load that fails drops nothing.
  let epoch = p.ctx.epoch;
  const target: CloudQueueTarget = { queueBaseUrl: params.queueBaseUrl, httpAuthorization: params.httpAuthorization };
  // §7.3: the player does not retry before answering loadCloudQueue.
  const context = await p.deps.client.context(target);
  if (!sameLoad(p.ctx, epoch, pending)) return;
  p.noteViolations(context);
  if (!context.ok) return failLoad(p, context.failure, context.exchange.requestId);
  const policies = { ...DEFAULT_POLICIES, ...context.value.playbackPolicies };
  const metadata = params.trackMetadata;
  setLoadingQueue(pending, {
    target,
    policies,
    // Raised to the floor here, where the player takes them (the check flagged them).
    reports: reportIntervalsOf(context.value.reports),
    contextVersion: context.value.contextVersion,
    container: context.value.container,
  });
  const playsAtOnce = params.playOnCompletion === true && startsAtOnce(policies, metadata !== undefined);
  if (playsAtOnce) {
    keepPrevious(pending, () => takeSnapshot(p.ctx));
    p.dispatch({ type: 'loadStartedAtOnce', track: metadata! }, { requestId: context.exchange.requestId });
    epoch = p.ctx.epoch;
  }
  const reason = firstWindowReason(
    policies,
    metadata !== undefined,
    metadata !== undefined && fetchedAtOnce(metadata),
    reportVersionOfTarget(target),
  );
  // A new queue: the version the command named (if any), never the one of the queue it replaces.
  const { held: _held, ...query } = windowQuery(p, reason, params.itemId);
  const window = await p.deps.client.itemWindow(target, { ...query, queueVersion: params.queueVersion });
  if (!sameLoad(p.ctx, epoch, pending)) return;
  p.noteViolations(window);
  // (A window without the item asked for is malformed: the client fails it, see contract-check.ts.)
  if (!window.ok || window.value.items.length === 0) {
    const failure: Failure = window.ok
      ? { kind: 'other', status: 200, message: 'the queue is empty: nothing to play' }
      : window.failure;
    return failLoad(p, failure, window.exchange.requestId);
  }
  forgetFetched(p.ctx);
  if (metadata && fetchedAtOnce(metadata) && params.itemId) markFetched(p.ctx, [params.itemId]);
  p.dispatch({ type: 'loadAnswered', window: window.value }, { requestId: window.exchange.requestId });
}

/**
 * The load fails (docs/contract/platform.md §7.3: an error to the caller, the player as it was),
 * and, as every other failure does, it becomes the player's last error (docs/contract/console.md §5).
 */
function failLoad(p: PlayerCore, failure: Failure, requestId: string): void {
  p.noteError(failure);
  p.dispatch({ type: 'loadFailed', failure }, { requestId });
}

export async function runResume(p: PlayerCore): Promise<void> {
  if (waitsForFirstWindow(p, () => void runResume(p))) return;
  const epoch = p.ctx.epoch;
  const result = await waitingFor(p, 'resume', true, () =>
    p.retries.send('resume', (retry) =>
      p.deps.client.itemWindow(p.ctx.queue!.target, windowQuery(p, 'resume', p.ctx.track?.item.id), retry),
    ),
  );
  if (epoch !== p.ctx.epoch || p.ctx.state !== 'SUSPENDED') return;
  if (result.ok) p.dispatch({ type: 'resumeAnswered', window: result.value }, { requestId: result.exchange.requestId });
  else dispatchFailure(p, 'resume', result.failure, result.exchange.requestId);
}

/** `skip`: the skip this request is for; once it is settled otherwise (a suspension), no retry goes and the answer is not used. */
export async function runUserSkip(
  p: PlayerCore,
  direction: 'skipNext' | 'skipPrev',
  skip = p.ctx.skipping,
): Promise<void> {
  if (waitsForFirstWindow(p, () => void runUserSkip(p, direction, skip))) return;
  const wanted = () => skip !== null && p.ctx.skipping === skip;
  if (!wanted()) return;
  const epoch = p.ctx.epoch;
  const plays = isMoving(p.ctx);
  const from = p.ctx.track!.item.id;
  const result = await p.retries.send(
    'skip',
    (retry) => p.deps.client.itemWindow(p.ctx.queue!.target, windowQuery(p, direction, from), retry),
    wanted,
  );
  if (epoch !== p.ctx.epoch || !wanted()) return;
  if (!result.ok) {
    // A refused skip settles itself (skipRefused); any other failure fails the skip first.
    if (meaningOf('skip', result.failure) !== 'skipRefused') settleSkip(p.ctx, cloudQueueError(result.failure, from));
    return dispatchFailure(p, 'skip', result.failure, result.exchange.requestId);
  }
  const window = new QueueWindow(result.value);
  const target = direction === 'skipNext' ? window.after(from) : window.before(from);
  if (!target) {
    settleSkip(
      p.ctx,
      new PlaybackError(
        'ERROR_PLAYBACK_NO_CONTENT',
        direction === 'skipNext' ? 'the server has no next track' : 'the server has no previous track',
      ),
    );
    return void p.dispatch(
      { type: 'windowAnswered', window: result.value, purpose: direction, askedFor: from },
      { requestId: result.exchange.requestId },
    );
  }
  if (p.ctx.track?.item.id === target.id && target.id !== from) {
    // The track the skip left ended while it waited, and the player moved on to the target by
    // itself: the skip is done. Starting the target again would report it as skipped.
    settleSkip(p.ctx);
    return void p.dispatch(
      { type: 'windowAnswered', window: result.value, purpose: direction, askedFor: from },
      { requestId: result.exchange.requestId },
    );
  }
  p.dispatch(
    { type: 'skipAnswered', window: result.value, target, skipped: direction, plays },
    { requestId: result.exchange.requestId },
  );
}

export async function runSkipToItem(p: PlayerCore, params: SkipToItemParams): Promise<void> {
  const epoch = p.ctx.epoch;
  const plays = params.playOnCompletion ?? isMoving(p.ctx);
  let movedOn = false;
  // §7.3: skipToItem has answered already; the request is retried in the background.
  const result = await waitingFor(p, 'skipToItem', params, () =>
    p.retries.send('skipToItem', async (retry) => {
      const sent = await p.deps.client.itemWindow(
        p.ctx.queue!.target,
        windowQuery(p, 'skipToItem', params.itemId, params.queueVersion),
        retry,
      );
      if (!sent.ok && retry === 0 && epoch === p.ctx.epoch)
        movedOn = continueWithHeld(p, params, plays, sent.failure, sent.exchange.requestId);
      return sent;
    }),
  );
  if (epoch !== p.ctx.epoch || !p.ctx.queue) return;
  if (!result.ok) return dispatchFailure(p, 'skipToItem', result.failure, result.exchange.requestId);
  // The player moved to the item with the window it held: the window retried for it is a background one.
  if (movedOn)
    return void p.dispatch(
      { type: 'windowAnswered', window: result.value, purpose: 'skipToItem', askedFor: params.itemId },
      { requestId: result.exchange.requestId },
    );
  const target = new QueueWindow(result.value).item(params.itemId)!;
  p.dispatch(
    {
      type: 'skipAnswered',
      window: result.value,
      target,
      skipped: 'skipToItem',
      plays,
      positionMillis: params.positionMillis,
    },
    { requestId: result.exchange.requestId },
  );
}

/**
 * docs/contract/platform.md §7.3: a skipToItem whose request failed "continues with current window
 * and track data": an item in the window the player holds is played (or cued) from that window at
 * once, while the request is retried in the background. Not for a 404 (the queue no longer has the
 * item: §7.1 empties it) or a refusal (403: the skip is the server's to refuse), and not for an
 * item the player does not hold (it has no track data to go on with). True when it moved.
 */
function continueWithHeld(
  p: PlayerCore,
  params: SkipToItemParams,
  plays: boolean,
  failure: Failure,
  requestId: string,
): boolean {
  const meaning = meaningOf('skipToItem', failure);
  if (meaning !== 'windowPlaysOut' || !p.ctx.queue || !p.ctx.window) return false;
  const target = p.ctx.window.item(params.itemId);
  if (!target) return false;
  p.dispatch(
    {
      type: 'skipAnswered',
      window: p.ctx.window.response,
      target,
      skipped: 'skipToItem',
      plays,
      positionMillis: params.positionMillis,
    },
    { requestId },
  );
  return true;
}

export async function notifyIntent(p: PlayerCore, reason: 'pause' | 'play'): Promise<void> {
  // About the track it was asked for: not sent for one a skipToItem replaced meanwhile.
  const asked = p.ctx.track;
  if (waitsForFirstWindow(p, () => void (p.ctx.track === asked && notifyIntent(p, reason)))) return;
  const epoch = p.ctx.epoch;
  const itemId = p.ctx.track?.item.id;
  const result = await p.retries.send('intent', (retry) =>
    p.deps.client.itemWindow(p.ctx.queue!.target, windowQuery(p, reason, itemId), retry),
  );
  if (epoch !== p.ctx.epoch) return;
  if (result.ok)
    return void p.dispatch(
      { type: 'windowAnswered', window: result.value, purpose: reason, askedFor: itemId },
      { requestId: result.exchange.requestId },
    );
  dispatchFailure(p, 'intent', result.failure, result.exchange.requestId);
}

/**
 * A background window request (§7.4): one at a time; retried, and drained when exhausted. One of
 * QUEUED_PURPOSES asked for while another is in flight goes out once that one ends.
 */
export async function backgroundWindow(p: PlayerCore, reason: Reason, purpose: WindowPurpose): Promise<void> {
  if (!p.ctx.queue) return;
  if (waitsForFirstWindow(p, () => void backgroundWindow(p, reason, purpose))) return;
  if (purpose === 'queueCompleted' && !mayAskQueueCompleted(p)) return;
  if (p.ctx.backgroundWindowRun) {
    if (QUEUED_PURPOSES.includes(purpose)) queueWindowAfter(p.ctx, reason, purpose);
    // One of the others waiting takes precedence: its answer asks again if the window is all
    // fetched (the window is counted as asked only once the request goes out).
    else if (purpose === 'queueCompleted') queueWindowAfter(p.ctx, reason, purpose, { unlessWaiting: true });
    return;
  }
  if (purpose === 'queueCompleted') noteQueueCompletedAsked(p.ctx, windowKey(p.ctx.window!));
  const run = {};
  takeWindowSlot(p.ctx, run);
  const epoch = p.ctx.epoch;
  try {
    const itemId = p.ctx.track?.item.id;
    // Every try goes where the first went, even if a load replaces the queue meanwhile.
    const target = p.ctx.queue.target;
    const result = await waitingFor(p, 'window', { reason, purpose }, () =>
      p.retries.send(backgroundWindowKind(purpose), (retry) =>
        p.deps.client.itemWindow(target, windowQuery(p, reason, itemId), retry),
      ),
    );
    if (epoch !== p.ctx.epoch || !p.ctx.queue) return;
    if (result.ok)
      p.dispatch(
        { type: 'windowAnswered', window: result.value, purpose, askedFor: itemId },
        { requestId: result.exchange.requestId },
      );
    else dispatchFailure(p, backgroundWindowKind(purpose), result.failure, result.exchange.requestId, purpose);
  } finally {
    // Unless a load or a dropped queue freed the slot meanwhile: what waits now is the new queue's.
    const next = freeWindowSlot(p.ctx, run);
    if (next) void backgroundWindow(p, next.reason, next.purpose);
  }
}

/**
 * queueCompleted goes out once per window (its version and last item), and never from a
 * draining player (docs/contract/platform.md §7.4.3: it asks for nothing more) or a suspended one (only a resume
 * wakes it, docs/contract/platform.md §3).
 */
export function mayAskQueueCompleted(p: PlayerCore): boolean {
  if (p.ctx.draining || p.ctx.state === 'SUSPENDED' || !p.ctx.window) return false;
  return p.ctx.queueCompletedAsked !== windowKey(p.ctx.window);
}

export async function pollVersion(p: PlayerCore): Promise<void> {
  if (!p.ctx.queue) return;
  const epoch = p.ctx.epoch;
  notePoll(p.ctx, p.deps.clock.now());
  const result = await waitingFor(p, 'versionPoll', true, () =>
    p.retries.send('versionPoll', (retry) => p.deps.client.version(p.ctx.queue!.target, retry)),
  );
  if (epoch !== p.ctx.epoch || !p.ctx.queue) return;
  if (!result.ok) return dispatchFailure(p, 'versionPoll', result.failure, result.exchange.requestId);
  if (
    result.value.contextVersion !== undefined &&
    p.ctx.queue.contextVersion !== undefined &&
    result.value.contextVersion !== p.ctx.queue.contextVersion
  ) {
    void refetchContext(p);
  }
  // docs/contract/platform.md §4.3: "If the version changed, the player follows with GET /itemWindow."
  if (p.ctx.window && result.value.queueVersion !== p.ctx.window.queueVersion)
    void backgroundWindow(p, 'refresh', 'versionChanged');
}

export async function refetchContext(p: PlayerCore): Promise<void> {
  const epoch = p.ctx.epoch;
  const result = await waitingFor(p, 'context', true, () =>
    p.retries.send('contextRefetch', (retry) => p.deps.client.context(p.ctx.queue!.target, retry)),
  );
  if (epoch !== p.ctx.epoch || !p.ctx.queue) return;
  if (!result.ok) return dispatchFailure(p, 'contextRefetch', result.failure, result.exchange.requestId);
  updateQueue(p.ctx, {
    policies: { ...DEFAULT_POLICIES, ...result.value.playbackPolicies },
    reports: reportIntervalsOf(result.value.reports),
    contextVersion: result.value.contextVersion,
    container: result.value.container,
  });
  p.changed();
}

/**
 * Sends again what a queue put back was asking (after a restart, or a failed load that had
 * started its track at once): its requests of then were cut off when the epoch moved on.
 */
export function askAgain(p: PlayerCore, asked: SavedAsking): void {
  // A suspended session asks for nothing until it is resumed (docs/contract/platform.md §3).
  if (p.ctx.state === 'SUSPENDED') {
    if (asked.resume) void runResume(p);
    return;
  }
  if (asked.context) void refetchContext(p);
  if (asked.versionPoll) void pollVersion(p);
  if (asked.window) {
    // Asked again from the start: a queueCompleted still counts as not yet asked.
    if (asked.window.purpose === 'queueCompleted') noteQueueCompletedAsked(p.ctx, null);
    void backgroundWindow(p, asked.window.reason, asked.window.purpose);
  }
  // Waits again behind the one just asked (or goes now, if none was).
  if (asked.windowAfter) void backgroundWindow(p, asked.windowAfter.reason, asked.windowAfter.purpose);
  if (asked.skipToItem) void runSkipToItem(p, asked.skipToItem);
}

/** True, with `ask` kept for the load's answer, while the queue has no first window yet. */
export function waitsForFirstWindow(p: PlayerCore, ask: () => void): boolean {
  if (!awaitsFirstWindow(p.ctx)) return false;
  askOnFirstWindow(p.ctx, ask);
  return true;
}

/** Runs a request flow, noted in `asking` until it ends (answered, or out of retries). */
export async function waitingFor<K extends keyof SavedAsking, T>(
  p: PlayerCore,
  kind: K,
  what: NonNullable<SavedAsking[K]>,
  flow: () => Promise<T>,
): Promise<T> {
  const asking = noteAsking(p.ctx, kind, what);
  try {
    return await flow();
  } finally {
    doneAsking(asking, kind, what);
  }
}

/** `queueVersion`: the version the player holds (its window's) unless said otherwise. */
export function windowQuery(
  p: PlayerCore,
  reason: Reason,
  itemId: string | undefined,
  queueVersion: string | undefined = p.ctx.window?.queueVersion,
) {
  return {
    reason,
    itemId,
    previousWindowSize: PREVIOUS_WINDOW_SIZE,
    upcomingWindowSize: UPCOMING_WINDOW_SIZE,
    queueVersion,
    // What the answer's ids are held to (contract-check.ts); a load asks of a new queue and holds none.
    ...(p.ctx.window ? { held: p.ctx.window } : {}),
  };
}
