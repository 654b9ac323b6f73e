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
import { restorePrevious } from './pending-load.js';
import {
  armAudioReady,
  armPauseTtl,
  askForNextWindowIfNear,
  awaitNextWindow,
  dropQueue,
  evictSession,
  seek,
  settleSkip,
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
} from './reports.js';
import { TrackPlayback } from './track-playback.js';
import type { EffectName } from './transitions.js';
import { QueueWindow } from './windows.js';

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
      pending.startedAtOnce = true;
      if (pending.previous && p.ctx.track !== pending.previous.track) {
        // It supersedes a load that started its track at once: that load's queue is left for good
        // (a failure puts back what came before it), so what was heard of it is reported now.
        reportWhatWasHeard(p);
      } else {
        const cutOff = prepareCutOff(p);
        if (cutOff) pending.cutOffs.push(cutOff);
      }
      // The playback is replaced: what the queue before was asking is not for this one.
      p.leaveRequests('a new loadCloudQueue replaced the queue');
      // Not heard while the new track plays: should the load fail, it goes on from here.
      p.ctx.track?.pause(p.deps.clock.now());
      stopTrackTimers(p);
      p.ctx.queue = pending.queue!;
      p.ctx.window = null;
      p.ctx.track = new TrackPlayback({ id: params.itemId ?? 'pending', track }, params.positionMillis ?? 0);
      pending.startedTrack = p.ctx.track;
      p.ctx.unnamedTracks.clear();
      if (params.itemId === undefined) p.ctx.unnamedTracks.add(p.ctx.track);
      p.ctx.firstWindowPending = true;
      p.ctx.atEnd = false;
      p.ctx.atEdge = false;
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
      p.ctx.queue = pending.queue!;
      p.ctx.window = new QueueWindow(window);
      // A new queue starts clean: an error left from the one before is not this queue's.
      p.ctx.lastError = null;
      p.ctx.draining = false;
      p.ctx.atEnd = false;
      // Unless the track playing waits at its end for this answer (see `startedTrackAtEdge`).
      p.ctx.atEdge = pending.startedAtOnce && p.ctx.atEdge;
      p.ctx.queueCompletedAsked = null;
      const id = pending.params.itemId ?? window.items[0]!.id;
      const item = p.ctx.window.item(id)!;
      if (!pending.startedAtOnce || !p.ctx.track) {
        stopTrackTimers(p);
        p.ctx.track = new TrackPlayback(item, pending.params.positionMillis ?? 0);
      } else if (p.ctx.track === pending.startedTrack) {
        p.ctx.track.identify(item);
      }
      // Otherwise a command moved on from the track the load started (a skipToItem): that one
      // plays on, in the window the load brought.
      p.ctx.lastPollAt = p.deps.clock.now();
      p.ctx.firstWindowPending = false;
      // Reports due before this first window: the unnamed track's under its id now (also if a
      // skipToItem moved on from it), each with this window's version.
      for (const { playback, prepared } of p.ctx.reportsUntilFirstWindow) {
        const id = p.ctx.unnamedTracks.has(playback) ? item.id : prepared.report.id;
        postReport(p, {
          target: prepared.target,
          report: { ...prepared.report, id, queueVersion: prepared.report.queueVersion || p.ctx.window.queueVersion },
        });
      }
      p.ctx.unnamedTracks.clear();
      p.ctx.reportsUntilFirstWindow = [];
      const waiting = p.ctx.untilFirstWindow;
      p.ctx.untilFirstWindow = [];
      for (const ask of waiting) ask();
    },
    answerLoad: () => {
      p.ctx.loading?.resolve();
      p.ctx.loading = null;
    },
    restorePrevious: () => restorePrevious(p),
    failLoad: (event) => {
      const { failure } = event;
      p.ctx.loading?.reject(cloudQueueError(failure, p.ctx.loading.params.itemId));
      p.ctx.loading = null;
    },
    bufferCurrent: () => armAudioReady(p, p.ctx.track ? p.ctx.fetched.has(p.ctx.track.item.id) : false),
    playSegment: () => {
      if (!p.ctx.track) return;
      // A track paused at the window's edge plays on from its end: its end is seen again.
      p.ctx.atEdge = false;
      p.ctx.track.play(p.deps.clock.now());
      startTrackTimers(p);
      askForNextWindowIfNear(p);
      if (p.ctx.queue?.reports.sendPlaybackActions && p.ctx.track.durationPlayed(p.deps.clock.now()) > 0)
        sendReport(p, 'update');
    },
    pauseSegment: () => {
      p.clearTimer('audioReady');
      if (!p.ctx.track?.playing) return;
      p.ctx.track.pause(p.deps.clock.now());
      stopTrackTimers(p);
      if (p.ctx.queue?.reports.sendPlaybackActions) sendReport(p, 'update');
    },
    notifyPause: () => void notifyIntent(p, 'pause'),
    notifyPlay: () => void notifyIntent(p, 'play'),
    armPauseTtl: () => armPauseTtl(p),
    disarmPauseTtl: () => p.clearTimer('pauseTtl'),
    restartCurrent: () => {
      if (!p.ctx.track) return;
      const unnamed = p.ctx.unnamedTracks.has(p.ctx.track);
      p.ctx.track = new TrackPlayback(p.ctx.track.item, 0);
      // Played again, it still has no item id (a load superseding the one that started it waits).
      if (unnamed) p.ctx.unnamedTracks.add(p.ctx.track);
      p.ctx.atEnd = false;
      p.ctx.atEdge = false;
      armAudioReady(p, true);
    },
    suspendSession: () => {
      p.clearTimer('versionPoll');
      // Only a resume wakes the session (docs/contract/platform.md §3): a skip waiting for the server is not made.
      settleSkip(
        p,
        new PlaybackError(
          'ERROR_PLAYBACK_NO_CONTENT',
          'the session was suspended while the skip waited for the server',
        ),
      );
    },
    requestResume: () => void runResume(p),
    adoptWindow: (event) => {
      const { window } = event;
      p.ctx.window = new QueueWindow(window);
      p.ctx.draining = false;
      p.ctx.queueCompletedAsked = null;
    },
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
      p.ctx.track = new TrackPlayback(next);
      p.ctx.track.play(p.deps.clock.now());
      startTrackTimers(p);
      askForNextWindowIfNear(p);
    },
    stopAtEnd: () => {
      // The playhead stays at the end: nothing more is played (or reported) of this track.
      p.ctx.track?.pause(p.deps.clock.now());
      stopTrackTimers(p);
      p.ctx.atEnd = true;
      p.ctx.atEdge = false;
    },
    stallAtEdge: () => {
      p.ctx.track?.pause(p.deps.clock.now());
      stopTrackTimers(p);
      p.ctx.atEdge = true;
      awaitNextWindow(p);
    },
    askAgainAtEdge: () => {
      // Asked for the track that ended, after the request answering now (its slot is still taken).
      if (p.ctx.backgroundWindowRun)
        p.ctx.windowAfterInFlight ??= { reason: 'refresh', purpose: 'refresh', epoch: p.ctx.epoch };
      else void backgroundWindow(p, 'refresh', 'refresh');
    },
    recordDownload: () => {
      if (!p.ctx.window || !p.ctx.track) return;
      for (const id of fetchedThrough(p.ctx.window, p.ctx.track.item.id)) p.ctx.fetched.add(id);
    },
    requestQueueCompleted: () => void backgroundWindow(p, 'queueCompleted', 'queueCompleted'),
    requestUserSkip: (event) => void runUserSkip(p, event.type),
    startNext: () => startTrack(p, p.ctx.window!.after(p.ctx.track!.item.id)!, true),
    cueNext: () => startTrack(p, p.ctx.window!.after(p.ctx.track!.item.id)!, false),
    startPrevious: () => startTrack(p, p.ctx.window!.before(p.ctx.track!.item.id)!, true),
    cuePrevious: () => startTrack(p, p.ctx.window!.before(p.ctx.track!.item.id)!, false),
    startSkipTarget: (event) => startTrack(p, event.target, true, event.positionMillis),
    cueSkipTarget: (event) => startTrack(p, event.target, false, event.positionMillis),
    answerSkip: () => settleSkip(p),
    refuseSkip: (event) => {
      const { failure } = event;
      p.noteError(failure);
      settleSkip(
        p,
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
      p.ctx.atEdge = false;
      seek(p, event.positionMillis);
    },
    cueSeekPosition: (event) => {
      const track = p.ctx.track!;
      const unnamed = p.ctx.unnamedTracks.has(track);
      startTrack(p, track.item, false, event.positionMillis);
      // A new playback of the same item: still without an id if the old one had none (as restartCurrent).
      if (unnamed) p.ctx.unnamedTracks.add(p.ctx.track!);
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
      p.ctx.window = new QueueWindow(window);
      p.ctx.draining = false;
      if (current && p.ctx.fetched.has(current))
        for (const id of fetchedThrough(p.ctx.window, current)) p.ctx.fetched.add(id);
    },
    clearQueue: () => dropQueue(p),
    finalReportCutOff: () => reportCutOff(p),
    evictSession: () => evictSession(p),
    drainWindow: () => {
      // docs/contract/platform.md §7.4.3: what is left of the window still plays; nothing more is asked for.
      p.ctx.draining = true;
    },
    stopPlayback: () => dropQueue(p),
    reportError: (event) => {
      const failure = 'failure' in event ? event.failure : undefined;
      if (failure) p.noteError(failure);
    },
  };
}
