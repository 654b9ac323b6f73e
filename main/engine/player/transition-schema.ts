/**
 * The transition table's vocabulary: what a guard may look at (GuardContext) and when each guard
 * holds (GUARDS), the effects a row may name (EFFECTS; what each does lives in effects.ts), and
 * the shape of a row. The rows themselves sit in the transitions-*.ts files, one per group of
 * events, put together in order by transitions.ts.
 */
import { notifiesUserIntent, skipToItemAsksServer, userSkipAsksServer } from './reasons.js';
import type { MachineState } from './states.js';
import type { EventOf, PlayerEvent, PlayerEventType } from './events.js';
import type { PlaybackPolicies } from './wire.js';

/** What guards may look at: a read-only view of the player. */
export interface GuardContext {
  policies: PlaybackPolicies;
  /** The pending loadCloudQueue asked to play once loaded. */
  playOnCompletion: boolean;
  /** The pending load started its track before the server answered. */
  startedAtOnce: boolean;
  /**
   * That track (or one a skipToItem started in its queue since) played to its end before the
   * answer came, and waits for it at the window's edge (the answer is the window it waits for):
   * its final report goes with what the answer brings.
   */
  startedTrackAtEdge: boolean;
  /** The window the load's answer brings ends with no track after that one, and says so (includesEndOfQueue). */
  answerEndsQueue: boolean;
  /** The last track of the queue ended and had its final report: paused there (or suspended since). */
  atEnd: boolean;
  hasNext: boolean;
  hasPrevious: boolean;
  /** Every track of the window has its audio fetched. */
  windowFullyFetched: boolean;
  /**
   * A background window just answered (not to queueCompleted) holds the playing track, and every
   * track of it is fetched once adopted (the playing one already is, the rest arrive whole).
   */
  answerFullyFetched: boolean;
  /**
   * The playing track reached its end at the window's edge before the next window came, and waits
   * for it: its playhead at the end, its final report not yet posted (it goes with what comes next).
   */
  atEdge: boolean;
  /**
   * The track that just ended is the window's last, but not the queue's (includesEndOfQueue
   * false), and background requests still run (not draining): the next window will have more.
   */
  queueGoesOn: boolean;
  /** A window just answered (a background one, a skip's, a resume's) holds the playing track and a track after it. */
  answerHasNext: boolean;
  /**
   * A window just answered holds the playing track with nothing after it, says the queue goes on,
   * and was asked for another track (before the playing one ended): asking for this one may get more.
   */
  answerFallsShort: boolean;
  /** The window just answered was asked in the background, not for a user's skip or intent. */
  answerInBackground: boolean;
  /** A window request that always goes out (a command's, a new version's) waits behind the one answering. */
  windowQueued: boolean;
  /** The background request whose retries ran out asked for a window. */
  windowExhausted: boolean;
  /** The skip (command or answer) leaves the player playing rather than paused. */
  skipPlays: boolean;
  currentItemId: string | undefined;
}

/** §4.3 skipToItem: the request goes to the server with limitedSkips or without track metadata. */
function commandAsksServer(c: GuardContext, e: PlayerEvent): boolean {
  return skipToItemAsksServer(c.policies, (e as EventOf<'skipToItem'>).params.trackMetadata !== undefined);
}

export const GUARDS = {
  // A load's answer. Its track started at once and waits at the window's edge for it:
  startedEdgeAnswerHasNext: (c: GuardContext) => c.startedTrackAtEdge && c.answerHasNext,
  startedEdgeAnswerEnds: (c: GuardContext) => c.startedTrackAtEdge && !c.answerHasNext && c.answerEndsQueue,
  startedEdgeAnswerFallsShort: (c: GuardContext) => c.startedTrackAtEdge && !c.answerHasNext && !c.answerEndsQueue,
  // …its track started at once and still plays; or it started none and plays once loaded.
  startedAtOnceNotAtEdge: (c: GuardContext) => c.startedAtOnce && !c.startedTrackAtEdge,
  loadedToPlay: (c: GuardContext) => !c.startedAtOnce && c.playOnCompletion,
  notifyUserIntent: (c: GuardContext) => notifiesUserIntent(c.policies),
  // A play after the queue ended: the next track if one was added since, else the last again;
  // told to the server with notifyUserIntent or not.
  atEndNextNotify: (c: GuardContext) => c.atEnd && c.hasNext && notifiesUserIntent(c.policies),
  atEndReplayNotify: (c: GuardContext) => c.atEnd && !c.hasNext && notifiesUserIntent(c.policies),
  atEndNext: (c: GuardContext) => c.atEnd && c.hasNext && !notifiesUserIntent(c.policies),
  atEndReplay: (c: GuardContext) => c.atEnd && !c.hasNext && !notifiesUserIntent(c.policies),
  playNotifies: (c: GuardContext) => !c.atEnd && notifiesUserIntent(c.policies),
  // A resumed session that was suspended after the queue's last track.
  atEndAnswerHasNext: (c: GuardContext) => c.atEnd && c.answerHasNext,
  atEndAnswerEnds: (c: GuardContext) => c.atEnd && !c.answerHasNext,
  hasNext: (c: GuardContext) => c.hasNext,
  windowEdgeQueueGoesOn: (c: GuardContext) => !c.hasNext && c.queueGoesOn,
  skipAsksServer: (c: GuardContext) => userSkipAsksServer(c.policies),
  localSkipNext: (c: GuardContext) => !userSkipAsksServer(c.policies) && c.hasNext,
  localSkipPrevious: (c: GuardContext) => !userSkipAsksServer(c.policies) && c.hasPrevious,
  skipToItemAsksServer: (c: GuardContext, e: PlayerEvent) => commandAsksServer(c, e),
  windowFullyFetched: (c: GuardContext) => c.windowFullyFetched,
  answerFullyFetched: (c: GuardContext) => c.answerFullyFetched,
  // The window a track waits for at the window's edge answers: it brings the next track (all
  // fetched, or not), or nothing after the ended one, asked in the background: then it was asked
  // for an earlier track (ask again), another window is queued behind it (wait), or the queue ended.
  edgeAnswerHasNextFetched: (c: GuardContext) => c.atEdge && c.answerHasNext && c.answerFullyFetched,
  edgeAnswerHasNext: (c: GuardContext) => c.atEdge && c.answerHasNext && !c.answerFullyFetched,
  edgeAnswerFallsShort: (c: GuardContext) => c.atEdge && !c.answerHasNext && c.answerInBackground && c.answerFallsShort,
  edgeAnswerMoreQueued: (c: GuardContext) =>
    c.atEdge && !c.answerHasNext && c.answerInBackground && !c.answerFallsShort && c.windowQueued,
  edgeAnswerEnds: (c: GuardContext) =>
    c.atEdge && !c.answerHasNext && c.answerInBackground && !c.answerFallsShort && !c.windowQueued,
  edgeWindowExhausted: (c: GuardContext) => c.atEdge && c.windowExhausted && !c.windowQueued,
  skipPlays: (c: GuardContext) => c.skipPlays,
  /** The server answered a skipToItem to the item that is playing. */
  answerIsCurrentItem: (c: GuardContext, e: PlayerEvent) => {
    const answer = e as EventOf<'skipAnswered'>;
    // A track that reached its end (of the queue, or of the window) is not sought: it plays anew.
    return (
      !c.atEnd &&
      !c.atEdge &&
      answer.skipped === 'skipToItem' &&
      c.currentItemId !== undefined &&
      answer.target.id === c.currentItemId
    );
  },
  /**
   * skipToItem to the playing item that §4.3 does not send to the server: a seek. Not once the
   * item reached its end (of the queue, or of the window): that starts a new playback.
   */
  /**
   * A seek command after the queue's last track ended (its final report posted): that playback is
   * over, so the playhead goes back into a new one of the same item.
   */
  seekAfterEnd: (c: GuardContext) => c.atEnd,
  /** A seek while the track waits, buffering, at the window's edge: it plays on from there. */
  seekAtEdge: (c: GuardContext) => c.atEdge && !c.atEnd,
  sameItemLocally: (c: GuardContext, e: PlayerEvent) =>
    !c.atEnd &&
    !c.atEdge &&
    c.currentItemId !== undefined &&
    (e as EventOf<'skipToItem'>).params.itemId === c.currentItemId &&
    !commandAsksServer(c, e),
} satisfies Record<string, (context: GuardContext, event: PlayerEvent) => boolean>;

export type GuardName = keyof typeof GUARDS;

export const EFFECTS = [
  'beginLoad',
  'startMetadataTrack',
  'adoptLoad',
  'answerLoad',
  'restorePrevious',
  'failLoad',
  'bufferCurrent',
  'playSegment',
  'pauseSegment',
  'notifyPause',
  'notifyPlay',
  'armPauseTtl',
  'disarmPauseTtl',
  'restartCurrent',
  'suspendSession',
  'requestResume',
  'adoptWindow',
  'finalReport',
  'finalReportSkip',
  'finalReportAtEdge',
  'playNextTrack',
  'stopAtEnd',
  'stallAtEdge',
  'askAgainAtEdge',
  'recordDownload',
  'requestQueueCompleted',
  'requestUserSkip',
  'startNext',
  'cueNext',
  'startPrevious',
  'cuePrevious',
  'startSkipTarget',
  'cueSkipTarget',
  'answerSkip',
  'refuseSkip',
  'requestSkipToItem',
  'seek',
  'seekSkipTarget',
  'seekPlayhead',
  'cueSeekPosition',
  'startCommandItem',
  'cueCommandItem',
  'requestRefreshLater',
  'requestCommandRefresh',
  'adoptBackgroundWindow',
  'clearQueue',
  'finalReportCutOff',
  'evictSession',
  'drainWindow',
  'stopPlayback',
  'reportError',
] as const;

export type EffectName = (typeof EFFECTS)[number];

/** `same`: the state does not change; `previous`: back to the state before the pending load. */
export type Target = MachineState | 'same' | 'previous';

export interface Transition {
  id: string;
  from: readonly MachineState[];
  on: readonly PlayerEventType[];
  guard?: GuardName;
  to: Target;
  effects: readonly EffectName[];
  /**
   * The user's action waits for the server's answer (a skip under limitedSkips or
   * notifyUserIntent): the caller is answered once the request settles, not when the row fires.
   */
  waitsForServer?: true;
  /**
   * Applies only when no row above it for the same state and event matched: an explicitly
   * ordered fallback (its guard, if any, is what it checks beyond that).
   */
  fallback?: true;
  /** Where the rule comes from and why, in a line. */
  note: string;
}

export const ANY: readonly MachineState[] = ['IDLE', 'BUFFERING', 'PLAYING', 'PAUSED', 'SUSPENDED'];
export const WITH_QUEUE: readonly MachineState[] = ['BUFFERING', 'PLAYING', 'PAUSED', 'SUSPENDED'];
export const ACTIVE: readonly MachineState[] = ['BUFFERING', 'PLAYING', 'PAUSED'];
export const MOVING: readonly MachineState[] = ['BUFFERING', 'PLAYING'];
