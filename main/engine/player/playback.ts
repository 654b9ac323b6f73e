/**
 * Playback mechanics the effects share: starting and seeking a track, the timers that follow the
 * playhead (audio ready, track end, download, update reports, pauseTtl, version poll), and
 * leaving a queue or a session.
 */
import { RETRY_SCHEDULE } from '../api/retry-schedule.js';
import { BUFFERING_MS, fetchCompletesAt, fetchedAtOnce } from './audio.js';
import type { PlayerCore } from './core.js';
import { policiesOf } from './context.js';
import { PlaybackError } from './errors.js';
import type { SkipToItemParams } from './events.js';
import { backgroundWindow, pollVersion } from './flows.js';
import { forgetPrevious, settleLoad } from './load-state.js';
import { armUpdateReport, sendReport } from './reports.js';
import { forgetSession, setQueue } from './session-state.js';
import { putTrack, seekTrack, startPlayback } from './track-state.js';
import type { QueueItem } from './wire.js';
import { dropWindow, markFetched } from './window-state.js';

/** docs/contract/platform.md §8: "Every 5 minutes while paused; every 10 minutes while playing". */
export const VERSION_POLL_PAUSED_MS = RETRY_SCHEDULE.versionPollPausedMs;
export const VERSION_POLL_PLAYING_MS = RETRY_SCHEDULE.versionPollPlayingMs;

/**
 * Moves to `item`; when `play`, through BUFFERING (the table set the state already). `unnamed`:
 * the new playback has no item id yet (see `untilFirstWindow`).
 */
export function startTrack(
  p: PlayerCore,
  item: QueueItem,
  play: boolean,
  positionMillis?: number,
  { unnamed = false }: { unnamed?: boolean } = {},
): void {
  stopTrackTimers(p);
  p.clearTimer('pauseTtl');
  startPlayback(p.ctx, item, positionMillis ?? 0, { unnamed });
  if (play) armAudioReady(p, p.ctx.fetched.has(item.id));
}

/**
 * Moves the playhead within the current playback: a new segment starts there
 * (positionMillisAtSegmentStart), durationPlayedMillis goes on (§2.3). A seek is a playback
 * action: with sendPlaybackActions a playing track's `update` report says where the new segment
 * starts (a paused one says it with the resume's).
 */
export function seek(p: PlayerCore, positionMillis: number | undefined): void {
  const track = p.ctx.track;
  if (positionMillis === undefined || !track) return;
  // One reading of the clock, as in playSegment (effects.ts).
  const now = p.deps.clock.now();
  seekTrack(p.ctx, positionMillis, now);
  if (!track.playing) return;
  startTrackTimers(p);
  if (p.ctx.queue?.reports.sendPlaybackActions && track.durationPlayed(now) > 0) sendReport(p, 'update');
}

export function startCommandItem(p: PlayerCore, params: SkipToItemParams, play: boolean): void {
  const fromWindow = p.ctx.window?.item(params.itemId);
  const item: QueueItem = fromWindow ?? { id: params.itemId, track: params.trackMetadata! };
  if (params.trackMetadata && fetchedAtOnce(params.trackMetadata)) markFetched(p.ctx, [params.itemId]);
  startTrack(p, item, play, params.positionMillis);
}

export function armAudioReady(p: PlayerCore, alreadyFetched: boolean): void {
  p.setTimer('audioReady', alreadyFetched ? 0 : BUFFERING_MS, () => p.dispatch({ type: 'audioReady' }));
}

/** Timers that follow the playhead: end of track, end of its audio download, update reports. */
export function startTrackTimers(p: PlayerCore): void {
  const track = p.ctx.track;
  if (!track?.playing) return;
  const now = p.deps.clock.now();
  p.setTimer('trackEnd', track.untilPosition(track.durationMillis, now), () => p.dispatch({ type: 'trackEnded' }));
  if (!p.ctx.fetched.has(track.item.id)) {
    p.setTimer('download', track.untilPosition(fetchCompletesAt(track.item.track), now), () =>
      p.dispatch({ type: 'downloadComplete' }),
    );
  }
  armUpdateReport(p);
}

export function armPauseTtl(p: PlayerCore): void {
  const ttl = policiesOf(p.ctx).pauseTtlSec;
  if (ttl !== undefined) p.setTimer('pauseTtl', ttl * 1_000, () => p.dispatch({ type: 'pauseTtlExpired' }));
}

export function stopTrackTimers(p: PlayerCore): void {
  for (const name of ['audioReady', 'trackEnd', 'download', 'reportUpdate'] as const) p.clearTimer(name);
}

/**
 * At the window's edge: a window request of this queue in flight is waited for (its answer
 * mostly reaches past the edge; `next-window-asks-again` covers one that does not); with none,
 * one is asked.
 */
export function awaitNextWindow(p: PlayerCore): void {
  // A track a pending load started at once waits for that load's answer, its first window.
  if (p.ctx.firstWindowPending) return;
  if (!p.ctx.backgroundWindowRun) void backgroundWindow(p, 'refresh', 'refresh');
}

/** BUFFERING taken up again (a restart, a failed load): the edge waits for a window, a track for its audio. */
export function bufferAgain(p: PlayerCore): void {
  if (p.ctx.atEdge) awaitNextWindow(p);
  else if (p.ctx.track) armAudioReady(p, p.ctx.fetched.has(p.ctx.track.item.id));
}

export function askForNextWindowIfNear(p: PlayerCore): void {
  const current = p.ctx.track?.item.id;
  if (current && !p.ctx.draining && p.ctx.window?.needsNextWindow(current))
    void backgroundWindow(p, 'refresh', 'refresh');
}

/** Polls /version every 600 s while playing, 300 s while paused; not when idle or suspended. */
export function rescheduleVersionPoll(p: PlayerCore): void {
  const interval =
    p.ctx.state === 'PLAYING' || p.ctx.state === 'BUFFERING'
      ? VERSION_POLL_PLAYING_MS
      : p.ctx.state === 'PAUSED'
        ? VERSION_POLL_PAUSED_MS
        : null;
  if (interval === null || !p.ctx.queue || !p.ctx.window) return p.clearTimer('versionPoll');
  const existing = p.timers.get('versionPoll');
  const due = Math.max(p.deps.clock.now(), p.ctx.lastPollAt + interval);
  if (existing && existing.due === due) return;
  p.setTimer('versionPoll', due - p.deps.clock.now(), () => {
    void pollVersion(p);
    rescheduleVersionPoll(p);
  });
}

export function dropQueue(p: PlayerCore): void {
  p.leaveRequests('the queue was dropped');
  for (const name of [...p.timers.keys()]) p.clearTimer(name);
  setQueue(p.ctx, null);
  dropWindow(p.ctx);
  putTrack(p.ctx, null);
  // A load whose track started at once is what was playing: it went with the queue. One that
  // would have put back a queue from before (taken from a load it superseded) now has none.
  if (p.ctx.loading?.startedAtOnce)
    settleLoad(p.ctx, new PlaybackError('ERROR_CLOUD_QUEUE_SERVER', 'the queue being loaded was dropped'));
  else forgetPrevious(p.ctx);
}

/** Drops the queue and forgets the session; a load it asked for, with a queue or still without one, is not the next session's. */
export function evictSession(p: PlayerCore): void {
  // Before the queue goes: a load whose track started at once would fail as the queue dropped.
  settleLoad(p.ctx, new PlaybackError('ERROR_SESSION_EVICTED', 'the session was evicted'));
  dropQueue(p);
  forgetSession(p.ctx);
}
