/**
 * What the effects the transition table names do, each given the event that fired its row, typed
 * as the events of the rows that name it (EFFECT_EVENTS; a test holds the table to it). The table
 * says what happens; these say how.
 */
import { randomUUID } from 'node:crypto';
import { fetchedThrough } from './audio.js';
import type { PlayerCore } from './core.js';
import { cloudQueueError, PlaybackError } from './errors.js';
import type { PlayerEvent, PlayerEventType } from './events.js';
import { backgroundWindow, notifyIntent, runLoad, runResume, runSkipToItem, runUserSkip } from './flows.js';
import type { PreparedReport } from './context.js';
import { answerLoad, setStartedTrack, settleLoad, settleSkip, startedAtOnce } from './load-state.js';
import { restorePrevious } from './pending-load.js';
import {
  armAudioReady,
  armPauseTtl,
  askForNextWindowIfNear,
  awaitNextWindow,
  dropQueue,
  evictSession,
  seek,
  startCommandItem,
  startTrack,
  startTrackTimers,
  stopTrackTimers,
} from './playback.js';
import {
  postReport,
  prepareCutOff,
  reportCutOff,
  reportWhatWasHeard,
  sendReport,
  settleHeldReports,
  takeHeldReports,
} from './reports.js';
import { queueWindowAfter, takeFirstWindowAsks } from './requests-state.js';
import { setQueue } from './session-state.js';
import { TrackPlayback } from './track-playback.js';
import {
  identifyTrack,
  nameTracks,
  pauseTrack,
  playTrack,
  putTrack,
  setAtEdge,
  setAtEnd,
  setFirstWindowPending,
  startPlayback,
} from './track-state.js';
import type { EffectName } from './transitions.js';
import { adoptWindow, drain, markFetched, notePoll, putWindow } from './window-state.js';

/** The events each effect that reads its event takes; every other effect takes any event. */
export const EFFECT_EVENTS = {
  startMetadataTrack: ['loadStartedAtOnce'],
  adoptLoad: ['loadAnswered'],
  failLoad: ['loadFailed'],
  adoptWindow: ['resumeAnswered', 'skipAnswered'],
  requestUserSkip: ['skipNext', 'skipPrev'],
  startSkipTarget: ['skipAnswered'],
  cueSkipTarget: ['skipAnswered'],
  seekSkipTarget: ['skipAnswered'],
  refuseSkip: ['skipRefused'],
  requestSkipToItem: ['skipToItem'],
  seek: ['skipToItem'],
  seekPlayhead: ['seek'],
  cueSeekPosition: ['seek'],
  startCommandItem: ['skipToItem'],
  cueCommandItem: ['skipToItem'],
  adoptBackgroundWindow: ['windowAnswered'],
} as const satisfies Partial<Record<EffectName, readonly PlayerEventType[]>>;

/** The event an effect receives: those EFFECT_EVENTS lists for it, else any. */
export type EffectEvent<E extends EffectName> = E extends keyof typeof EFFECT_EVENTS
  ? PlayerEvent & { type: (typeof EFFECT_EVENTS)[E][number] }
  : PlayerEvent;

export type Effects = { [E in EffectName]: (event: EffectEvent<E>) => void };

export function playerEffects(p: PlayerCore): Effects {
  return {
    beginLoad: () => void runLoad(p),
    startMetadataTrack: (event) => {
      const { track } = event;
      const pending = p.ctx.loading!;
      const params = pending.params;
      let cutOff: PreparedReport | null = null;
      if (pending.previous && p.ctx.track !== pending.previous.track) {
        // It supersedes a load that started its track at once: that load's queue is left for good
        // (a failure puts back what came before it), so what was heard of it is reported now.
        reportWhatWasHeard(p);
      } else {
        cutOff = prepareCutOff(p);
      }
      startedAtOnce(pending, cutOff);
      // The playback is replaced: what the queue before was asking is not for this one.
      p.leaveRequests('a new loadCloudQueue replaced the queue');
      // Not heard while the new track plays: should the load fail, it goes on from here.
      pauseTrack(p.ctx, p.deps.clock.now());
      stopTrackTimers(p);
      setQueue(p.ctx, pending.queue!);
      putWindow(p.ctx, null);
      nameTracks(p.ctx);
      const started = startPlayback(p.ctx, { id: params.itemId ?? 'pending', track }, params.positionMillis ?? 0, {
        unnamed: params.itemId === undefined,
      });
      setStartedTrack(pending, started);
      setFirstWindowPending(p.ctx, true);
      armAudioReady(p, true);
    },
    adoptLoad: (event) => {
      const { window } = event;
      const pending = p.ctx.loading!;
      // The track the load replaces: the one playing now (after what was held for the first window
      // of a started-at-once load this one superseded), or the one a start at once replaced.
      const cutOffs = pending.startedAtOnce ? pending.cutOffs : [...pending.cutOffs, settleHeldReports(p)];
      for (const cutOff of cutOffs) if (cutOff) postReport(p, cutOff, { cutOff: true, ofQueueBefore: true });
      // Answers to what the queue before asked are for a queue that is gone (a track started at
      // once moved the epoch on already: what was asked since is this queue's).
      if (!pending.startedAtOnce) p.leaveRequests('a new loadCloudQueue replaced the queue');
      setQueue(p.ctx, pending.queue!);
      const adopted = adoptWindow(p.ctx, window, { fresh: true });
      // A new queue starts clean: an error left from the one before is not this queue's.
      p.clearError();
      setAtEnd(p.ctx, false);
      // Unless the track playing waits at its end for this answer (see `startedTrackAtEdge`).
      setAtEdge(p.ctx, pending.startedAtOnce && p.ctx.atEdge);
      const id = pending.params.itemId ?? window.items[0]!.id;
      const item = adopted.item(id)!;
      if (!pending.startedAtOnce || !p.ctx.track) {
        stopTrackTimers(p);
        putTrack(p.ctx, new TrackPlayback(item, pending.params.positionMillis ?? 0), {
          atEnd: false,
          atEdge: p.ctx.atEdge,
        });
      } else if (p.ctx.track === pending.startedTrack) {
        identifyTrack(p.ctx, item);
      }
      // Otherwise a command moved on from the track the load started (a skipToItem): that one
      // plays on, in the window the load brought.
      notePoll(p.ctx, p.deps.clock.now());
      setFirstWindowPending(p.ctx, false);
      // Reports due before this first window: the unnamed track's under its id now (also if a
      // skipToItem moved on from it), each with this window's version.
      for (const { playback, prepared } of takeHeldReports(p)) {
        const id = p.ctx.unnamedTracks.has(playback) ? item.id : prepared.report.id;
        postReport(p, {
          target: prepared.target,
          report: { ...prepared.report, id, queueVersion: prepared.report.queueVersion || adopted.queueVersion },
        });
      }
      nameTracks(p.ctx);
      for (const ask of takeFirstWindowAsks(p.ctx)) ask();
    },
    answerLoad: () => answerLoad(p.ctx),
    restorePrevious: () => restorePrevious(p),
    failLoad: (event) => {
      const { failure } = event;
      const pending = p.ctx.loading;
      if (pending) settleLoad(p.ctx, cloudQueueError(failure, pending.params.itemId));
    },
    bufferCurrent: () => armAudioReady(p, p.ctx.track ? p.ctx.fetched.has(p.ctx.track.item.id) : false),
    playSegment: () => {
      if (!p.ctx.track) return;
      // A track paused at the window's edge plays on from its end: its end is seen again.
      setAtEdge(p.ctx, false);
      // One reading of the clock: a running clock moves between two, and a track that only now
      // began would seem to have played (20 ms at speed 20) and send a resume's report.
      const now = p.deps.clock.now();
      playTrack(p.ctx, now);
      startTrackTimers(p);
      askForNextWindowIfNear(p);
      if (p.ctx.queue?.reports.sendPlaybackActions && p.ctx.track.durationPlayed(now) > 0) sendReport(p, 'update');
    },
    pauseSegment: () => {
      p.clearTimer('audioReady');
      if (!p.ctx.track?.playing) return;
      pauseTrack(p.ctx, p.deps.clock.now());
      stopTrackTimers(p);
      if (p.ctx.queue?.reports.sendPlaybackActions) sendReport(p, 'update');
    },
    notifyPause: () => void notifyIntent(p, 'pause'),
    notifyPlay: () => void notifyIntent(p, 'play'),
    armPauseTtl: () => armPauseTtl(p),
    disarmPauseTtl: () => p.clearTimer('pauseTtl'),
    restartCurrent: () => {
      if (!p.ctx.track) return;
      // Played again, it still has no item id (a load superseding the one that started it waits).
      startPlayback(p.ctx, p.ctx.track.item, 0, { unnamed: p.ctx.unnamedTracks.has(p.ctx.track) });
      armAudioReady(p, true);
    },
    suspendSession: () => {
      p.clearTimer('versionPoll');
      // Only a resume wakes the session (docs/contract/platform.md §3): a skip waiting for the server is not made.
      settleSkip(
        p.ctx,
        new PlaybackError(
          'ERROR_PLAYBACK_NO_CONTENT',
          'the session was suspended while the skip waited for the server',
        ),
      );
    },
    requestResume: () => void runResume(p),
    adoptWindow: (event) => void adoptWindow(p.ctx, event.window, { fresh: true }),
    finalReport: () => sendReport(p, 'final'),
    finalReportSkip: () => {
      // A track that ended at the end of the queue had its final report; one that ended at the
      // window's edge gets it now, but it ended by itself, not by the skip.
      if (p.ctx.track?.hasStarted && !p.ctx.atEnd)
        sendReport(p, 'final', p.ctx.atEdge ? undefined : `skip-${randomUUID()}`);
    },
    finalReportAtEdge: () => {
      // Played to its end at the window's edge: its final report is owed whatever drops the queue.
      if (p.ctx.atEdge) reportCutOff(p);
    },
    playNextTrack: () => {
      const next = p.ctx.window!.after(p.ctx.track!.item.id)!;
      stopTrackTimers(p);
      startPlayback(p.ctx, next);
      playTrack(p.ctx, p.deps.clock.now());
      startTrackTimers(p);
      askForNextWindowIfNear(p);
    },
    stopAtEnd: () => {
      // The playhead stays at the end: nothing more is played (or reported) of this track.
      pauseTrack(p.ctx, p.deps.clock.now());
      stopTrackTimers(p);
      setAtEnd(p.ctx, true);
      setAtEdge(p.ctx, false);
    },
    stallAtEdge: () => {
      pauseTrack(p.ctx, p.deps.clock.now());
      stopTrackTimers(p);
      setAtEdge(p.ctx, true);
      awaitNextWindow(p);
    },
    askAgainAtEdge: () => {
      // Asked for the track that ended, after the request answering now (its slot is still taken).
      if (p.ctx.backgroundWindowRun) queueWindowAfter(p.ctx, 'refresh', 'refresh', { unlessWaiting: true });
      else void backgroundWindow(p, 'refresh', 'refresh');
    },
    recordDownload: () => {
      if (!p.ctx.window || !p.ctx.track) return;
      markFetched(p.ctx, fetchedThrough(p.ctx.window, p.ctx.track.item.id));
    },
    requestQueueCompleted: () => void backgroundWindow(p, 'queueCompleted', 'queueCompleted'),
    requestUserSkip: (event) => void runUserSkip(p, event.type),
    startNext: () => startTrack(p, p.ctx.window!.after(p.ctx.track!.item.id)!, true),
    cueNext: () => startTrack(p, p.ctx.window!.after(p.ctx.track!.item.id)!, false),
    startPrevious: () => startTrack(p, p.ctx.window!.before(p.ctx.track!.item.id)!, true),
    cuePrevious: () => startTrack(p, p.ctx.window!.before(p.ctx.track!.item.id)!, false),
    startSkipTarget: (event) => startTrack(p, event.target, true, event.positionMillis),
    cueSkipTarget: (event) => startTrack(p, event.target, false, event.positionMillis),
    answerSkip: () => settleSkip(p.ctx),
    refuseSkip: (event) => {
      const { failure } = event;
      p.noteError(failure);
      settleSkip(
        p.ctx,
        failure.rejectedReason
          ? new PlaybackError('ERROR_SKIP_LIMIT_REACHED', `the server refused the skip: ${failure.rejectedReason}`, {
              httpStatus: failure.status,
            })
          : cloudQueueError(failure),
      );
    },
    requestSkipToItem: (event) => void runSkipToItem(p, event.params),
    seek: (event) => seek(p, event.params.positionMillis),
    seekSkipTarget: (event) => seek(p, event.positionMillis),
    seekPlayhead: (event) => {
      // Moved back from its end at the window's edge, the track is no longer waiting there.
      setAtEdge(p.ctx, false);
      seek(p, event.positionMillis);
    },
    cueSeekPosition: (event) => {
      const track = p.ctx.track!;
      // A new playback of the same item: still without an id if the old one had none (as restartCurrent).
      startTrack(p, track.item, false, event.positionMillis, { unnamed: p.ctx.unnamedTracks.has(track) });
    },
    startCommandItem: (event) => startCommandItem(p, event.params, true),
    cueCommandItem: (event) => startCommandItem(p, event.params, false),
    requestRefreshLater: () => void backgroundWindow(p, 'refresh', 'skipToItem'),
    requestCommandRefresh: () => void backgroundWindow(p, 'refresh', 'refreshCommand'),
    adoptBackgroundWindow: (event) => {
      const { window } = event;
      const current = p.ctx.track?.item.id;
      // A window that no longer holds the playing track cannot be played from; keep the old one.
      if (current && !window.items.some((item) => item.id === current)) return;
      const adopted = adoptWindow(p.ctx, window, { fresh: false });
      if (current && p.ctx.fetched.has(current)) markFetched(p.ctx, fetchedThrough(adopted, current));
    },
    clearQueue: () => dropQueue(p),
    finalReportCutOff: () => reportCutOff(p),
    evictSession: () => evictSession(p),
    drainWindow: () => {
      // docs/contract/platform.md §7.4.3: what is left of the window still plays; nothing more is asked for.
      drain(p.ctx);
    },
    stopPlayback: () => dropQueue(p),
    reportError: (event) => {
      const failure = 'failure' in event ? event.failure : undefined;
      if (failure) p.noteError(failure);
    },
  };
}
