/**
 * The player's state machine as one readable table: state, event, guard, next state, effects.
 * docs/contract/platform.md §3 names some rows; the rest are what a real player does between them. For one
 * (state, event) the guarded rows exclude each other, each guard saying all it checks; a row
 * marked `fallback` applies only when no row above it matched, in order (transitions.test.ts
 * holds the table to this). An event no row matches is ignored. What each effect
 * does lives in player.ts; when each guard holds lives in GUARDS below. The console's player
 * panel draws its state diagram from this same table.
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

const ANY: readonly MachineState[] = ['IDLE', 'BUFFERING', 'PLAYING', 'PAUSED', 'SUSPENDED'];
const WITH_QUEUE: readonly MachineState[] = ['BUFFERING', 'PLAYING', 'PAUSED', 'SUSPENDED'];
const ACTIVE: readonly MachineState[] = ['BUFFERING', 'PLAYING', 'PAUSED'];
const MOVING: readonly MachineState[] = ['BUFFERING', 'PLAYING'];

export const TRANSITIONS: readonly Transition[] = [
  // loadCloudQueue (docs/contract/platform.md §3 last row, §4.3 load, §7.3; docs/contract/console.md §3)
  {
    id: 'load-begins',
    from: ANY,
    on: ['load'],
    to: 'same',
    effects: ['beginLoad'],
    note: 'loadCloudQueue: GET /context, then the first GET /itemWindow; the state holds until the window answers',
  },
  {
    id: 'load-starts-at-once',
    from: ANY,
    on: ['loadStartedAtOnce'],
    to: 'BUFFERING',
    effects: ['startMetadataTrack'],
    note: 'with track metadata and no limitedSkips the player starts at once; its first window request is `refresh` (§4.3)',
  },
  {
    id: 'load-answered-at-edge-plays',
    from: ['BUFFERING'],
    on: ['loadAnswered'],
    guard: 'startedEdgeAnswerHasNext',
    to: 'BUFFERING',
    effects: ['adoptLoad', 'finalReport', 'startNext', 'answerLoad'],
    note: 'the track started at once (or one a skipToItem started since) ended before the load was answered and waited at the edge; the answer brings the next track: the ended one gets its final report, the next one plays',
  },
  {
    id: 'load-answered-at-edge-ends',
    from: ['BUFFERING'],
    on: ['loadAnswered'],
    guard: 'startedEdgeAnswerEnds',
    to: 'PAUSED',
    effects: ['adoptLoad', 'finalReport', 'stopAtEnd', 'armPauseTtl', 'answerLoad'],
    note: 'the track started at once (or one a skipToItem started since) ended before the load was answered, and the answer says it is the queue\u2019s last: final report, pause at its end',
  },
  {
    id: 'load-answered-at-edge-asks',
    from: ['BUFFERING'],
    on: ['loadAnswered'],
    guard: 'startedEdgeAnswerFallsShort',
    to: 'same',
    effects: ['adoptLoad', 'askAgainAtEdge', 'answerLoad'],
    note: 'the track started at once (or one a skipToItem started since) ended before the load was answered; the answer ends with it but says the queue goes on: keep waiting at the edge, asking (reason=refresh) for what follows it',
  },
  {
    id: 'load-answered-already-started',
    from: ANY,
    on: ['loadAnswered'],
    guard: 'startedAtOnceNotAtEdge',
    to: 'same',
    effects: ['adoptLoad', 'answerLoad'],
    note: 'the window arrives for a track that already started',
  },
  {
    id: 'load-answered-plays',
    from: ANY,
    on: ['loadAnswered'],
    guard: 'loadedToPlay',
    to: 'BUFFERING',
    effects: ['adoptLoad', 'bufferCurrent', 'answerLoad'],
    note: 'loaded with playOnCompletion: fetch the first track and play',
  },
  {
    id: 'load-answered-paused',
    from: ANY,
    on: ['loadAnswered'],
    fallback: true,
    to: 'PAUSED',
    effects: ['adoptLoad', 'armPauseTtl', 'answerLoad'],
    note: 'loaded without playOnCompletion: ready, paused on the first track (pauseTtlSec runs from here)',
  },
  {
    id: 'load-failed',
    from: ANY,
    on: ['loadFailed'],
    to: 'previous',
    effects: ['restorePrevious', 'failLoad'],
    note: 'docs/contract/platform.md §3/§7.3: the load fails with the error, no retry, the player stays in its previous state (a load that started its track at once puts back what it replaced; otherwise the player went on with its queue, and goes on)',
  },

  // playing and pausing
  {
    id: 'audio-ready',
    from: ['BUFFERING'],
    on: ['audioReady'],
    to: 'PLAYING',
    effects: ['playSegment'],
    note: 'the track has enough audio: play',
  },
  {
    id: 'pause-notifies',
    from: MOVING,
    on: ['pause'],
    guard: 'notifyUserIntent',
    to: 'PAUSED',
    effects: ['pauseSegment', 'armPauseTtl', 'notifyPause'],
    note: 'a user pause, told to the server with reason=pause (notifyUserIntent, §4.3)',
  },
  {
    id: 'pause',
    from: MOVING,
    on: ['pause'],
    fallback: true,
    to: 'PAUSED',
    effects: ['pauseSegment', 'armPauseTtl'],
    note: 'a user pause',
  },
  {
    id: 'play-at-end-more-notifies',
    from: ['PAUSED'],
    on: ['play', 'resume'],
    guard: 'atEndNextNotify',
    to: 'BUFFERING',
    effects: ['disarmPauseTtl', 'notifyPlay', 'startNext'],
    note: 'play after the queue ended, tracks added since, told with reason=play (notifyUserIntent, §4.3)',
  },
  {
    id: 'play-at-end-notifies',
    from: ['PAUSED'],
    on: ['play', 'resume'],
    guard: 'atEndReplayNotify',
    to: 'BUFFERING',
    effects: ['disarmPauseTtl', 'notifyPlay', 'restartCurrent'],
    note: 'play after the queue ended replays the last track, told with reason=play (notifyUserIntent, §4.3)',
  },
  {
    id: 'play-at-end-more',
    from: ['PAUSED'],
    on: ['play', 'resume'],
    guard: 'atEndNext',
    to: 'BUFFERING',
    effects: ['disarmPauseTtl', 'startNext'],
    note: 'play after the queue ended, and tracks were added since: the next one plays',
  },
  {
    id: 'play-at-end',
    from: ['PAUSED'],
    on: ['play', 'resume'],
    guard: 'atEndReplay',
    to: 'BUFFERING',
    effects: ['disarmPauseTtl', 'restartCurrent'],
    note: 'play after the queue ended replays the last track',
  },
  {
    id: 'play-notifies',
    from: ['PAUSED'],
    on: ['play', 'resume'],
    guard: 'playNotifies',
    to: 'PLAYING',
    effects: ['disarmPauseTtl', 'playSegment', 'notifyPlay'],
    note: 'a user play after a pause, told with reason=play (notifyUserIntent, §4.3)',
  },
  {
    id: 'play',
    from: ['PAUSED'],
    on: ['play', 'resume'],
    fallback: true,
    to: 'PLAYING',
    effects: ['disarmPauseTtl', 'playSegment'],
    note: 'a user play after a pause',
  },

  // suspension (docs/contract/platform.md §3 rows 2 and 3)
  {
    id: 'suspend-after-ttl',
    from: ['PAUSED'],
    on: ['pauseTtlExpired'],
    to: 'SUSPENDED',
    effects: ['suspendSession'],
    note: 'docs/contract/platform.md §3: paused for pauseTtlSec, the session is suspended and stays in the queue',
  },
  {
    id: 'suspend-command',
    from: ACTIVE,
    on: ['suspend'],
    to: 'SUSPENDED',
    effects: ['pauseSegment', 'disarmPauseTtl', 'suspendSession'],
    note: 'the suspend command suspends the session',
  },
  {
    id: 'resume-suspended',
    from: ['SUSPENDED'],
    on: ['resume', 'play'],
    to: 'same',
    effects: ['requestResume'],
    note: 'docs/contract/platform.md §3: an explicit resume sends GET /itemWindow reason=resume and waits for it',
  },
  {
    id: 'resume-answered-at-end-more',
    from: ['SUSPENDED'],
    on: ['resumeAnswered'],
    guard: 'atEndAnswerHasNext',
    to: 'BUFFERING',
    effects: ['adoptWindow', 'startNext'],
    note: 'a session suspended after the last track resumes, and tracks were added since: the next one plays (the last one had its final report)',
  },
  {
    id: 'resume-answered-at-end',
    from: ['SUSPENDED'],
    on: ['resumeAnswered'],
    guard: 'atEndAnswerEnds',
    to: 'BUFFERING',
    effects: ['adoptWindow', 'restartCurrent'],
    note: 'a session suspended after the last track resumes: the last track plays again, as a play after the end does',
  },
  {
    id: 'resume-answered',
    from: ['SUSPENDED'],
    on: ['resumeAnswered'],
    fallback: true,
    to: 'BUFFERING',
    effects: ['adoptWindow', 'bufferCurrent'],
    note: 'the resumed session plays again',
  },

  // the end of a track and of the queue (docs/contract/platform.md §4.3 queueCompleted)
  {
    id: 'track-ends-next',
    from: ['PLAYING'],
    on: ['trackEnded'],
    guard: 'hasNext',
    to: 'PLAYING',
    effects: ['finalReport', 'playNextTrack'],
    note: 'a track ends: one final report, the next track plays gaplessly',
  },
  {
    id: 'track-ends-window-edge',
    from: ['PLAYING'],
    on: ['trackEnded'],
    guard: 'windowEdgeQueueGoesOn',
    to: 'BUFFERING',
    effects: ['stallAtEdge'],
    note: 'the track ends at the window\u2019s edge, the queue goes on (includesEndOfQueue false) and the next window has not come (tracks shorter than its round trip): wait for it, buffering; the final report goes with what comes next',
  },
  {
    id: 'next-window-plays-fetched',
    from: ['BUFFERING'],
    on: ['windowAnswered'],
    guard: 'edgeAnswerHasNextFetched',
    to: 'BUFFERING',
    effects: ['adoptBackgroundWindow', 'finalReport', 'startNext', 'requestQueueCompleted'],
    note: 'the window waited for at the edge brings the next track, its audio all fetched already (short tracks arrive whole): one final report, play on, reason=queueCompleted checks for more',
  },
  {
    id: 'next-window-plays',
    from: ['BUFFERING'],
    on: ['windowAnswered'],
    guard: 'edgeAnswerHasNext',
    to: 'BUFFERING',
    effects: ['adoptBackgroundWindow', 'finalReport', 'startNext'],
    note: 'the window waited for at the edge brings the next track: the ended one gets its final report, the next one plays',
  },
  {
    id: 'next-window-asks-again',
    from: ['BUFFERING'],
    on: ['windowAnswered'],
    guard: 'edgeAnswerFallsShort',
    to: 'same',
    effects: ['adoptBackgroundWindow', 'askAgainAtEdge'],
    note: 'a window asked for an earlier track (a queueCompleted, say) ends where the old one did: ask again (reason=refresh) for the track that ended',
  },
  {
    id: 'next-window-waits',
    from: ['BUFFERING'],
    on: ['windowAnswered'],
    guard: 'edgeAnswerMoreQueued',
    to: 'same',
    effects: ['adoptBackgroundWindow'],
    note: 'nothing more in this window, but a refreshCloudQueue or a new version\u2019s window goes out after it: keep waiting for that one',
  },
  {
    id: 'next-window-ends',
    from: ['BUFFERING'],
    on: ['windowAnswered'],
    guard: 'edgeAnswerEnds',
    to: 'PAUSED',
    effects: ['adoptBackgroundWindow', 'finalReport', 'stopAtEnd', 'armPauseTtl'],
    note: 'the window waited for has nothing after the track that ended: the queue ended after all (or its server says it goes on, yet sends nothing more); final report, pause (§4.3 queueCompleted)',
  },
  {
    id: 'next-window-exhausted',
    from: ['BUFFERING'],
    on: ['backgroundExhausted'],
    guard: 'edgeWindowExhausted',
    to: 'PAUSED',
    effects: ['drainWindow', 'finalReport', 'stopAtEnd', 'armPauseTtl', 'reportError'],
    note: 'docs/contract/platform.md §3/§7.4: the window waited for at the edge used up its retries: no audio is left to play out; final report, pause, the session stays valid',
  },
  {
    id: 'track-ends-last',
    from: ['PLAYING'],
    on: ['trackEnded'],
    fallback: true,
    to: 'PAUSED',
    effects: ['finalReport', 'stopAtEnd', 'armPauseTtl'],
    note: 'no more tracks: pause after the last one (§4.3 queueCompleted)',
  },
  {
    id: 'window-fetched',
    from: ACTIVE,
    on: ['downloadComplete'],
    guard: 'windowFullyFetched',
    to: 'same',
    effects: ['recordDownload', 'requestQueueCompleted'],
    note: 'all audio of the window fetched: GET /itemWindow reason=queueCompleted checks for more',
  },
  {
    id: 'track-fetched',
    from: ACTIVE,
    on: ['downloadComplete'],
    fallback: true,
    to: 'same',
    effects: ['recordDownload'],
    note: 'a track\u2019s audio is fetched; the next one starts downloading',
  },

  // user skips (docs/contract/platform.md §4.3 skipNext/skipPrev)
  {
    id: 'skip-asks-server',
    from: ACTIVE,
    on: ['skipNext', 'skipPrev'],
    guard: 'skipAsksServer',
    to: 'same',
    effects: ['requestUserSkip'],
    waitsForServer: true,
    note: 'limitedSkips or notifyUserIntent: ask the server and wait for its answer before skipping',
  },
  {
    id: 'skip-next',
    from: MOVING,
    on: ['skipNext'],
    guard: 'localSkipNext',
    to: 'BUFFERING',
    effects: ['finalReportSkip', 'startNext'],
    note: 'skip to the next track at once',
  },
  {
    id: 'skip-next-paused',
    from: ['PAUSED'],
    on: ['skipNext'],
    guard: 'localSkipNext',
    to: 'PAUSED',
    effects: ['finalReportSkip', 'cueNext', 'armPauseTtl'],
    note: 'skip while paused: stay paused on the next track (pauseTtlSec starts again)',
  },
  {
    id: 'skip-prev',
    from: MOVING,
    on: ['skipPrev'],
    guard: 'localSkipPrevious',
    to: 'BUFFERING',
    effects: ['finalReportSkip', 'startPrevious'],
    note: 'skip to the previous track at once',
  },
  {
    id: 'skip-prev-paused',
    from: ['PAUSED'],
    on: ['skipPrev'],
    guard: 'localSkipPrevious',
    to: 'PAUSED',
    effects: ['finalReportSkip', 'cuePrevious', 'armPauseTtl'],
    note: 'skip back while paused: stay paused (pauseTtlSec starts again)',
  },
  {
    id: 'skip-answered-seeks',
    from: ACTIVE,
    on: ['skipAnswered'],
    guard: 'answerIsCurrentItem',
    to: 'same',
    effects: ['adoptWindow', 'seekSkipTarget', 'answerSkip'],
    note: 'the server answered a skipToItem to the playing item: the playhead moves within the same playback (§2.3)',
  },
  {
    id: 'skip-answered-plays',
    from: ACTIVE,
    on: ['skipAnswered'],
    fallback: true,
    guard: 'skipPlays',
    to: 'BUFFERING',
    effects: ['adoptWindow', 'finalReportSkip', 'startSkipTarget', 'answerSkip'],
    note: 'the server allowed the skip',
  },
  {
    id: 'skip-answered-paused',
    from: ACTIVE,
    on: ['skipAnswered'],
    fallback: true,
    to: 'PAUSED',
    effects: ['adoptWindow', 'finalReportSkip', 'cueSkipTarget', 'armPauseTtl', 'answerSkip'],
    note: 'the server allowed the skip; the player stays paused (pauseTtlSec starts again)',
  },
  {
    id: 'skip-refused',
    from: WITH_QUEUE,
    on: ['skipRefused'],
    to: 'same',
    effects: ['refuseSkip'],
    note: 'a 403 answers the skip itself (X-Rejected-Reason): the track goes on',
  },

  // control commands on a loaded queue (docs/contract/platform.md §4.3 skipToItem, §7.3)
  {
    id: 'seek',
    from: ACTIVE,
    on: ['skipToItem'],
    guard: 'sameItemLocally',
    to: 'same',
    effects: ['seek'],
    note: 'skipToItem to the playing item, with metadata and no limitedSkips, moves the playhead: one playback, durationPlayedMillis goes on (§2.3)',
  },
  {
    id: 'skip-to-item-asks-server',
    from: ACTIVE,
    on: ['skipToItem'],
    guard: 'skipToItemAsksServer',
    to: 'same',
    effects: ['requestSkipToItem'],
    note: 'limitedSkips or no metadata: GET /itemWindow reason=skipToItem with the command\u2019s itemId; retried in the background',
  },
  {
    id: 'skip-to-item-plays',
    from: ACTIVE,
    on: ['skipToItem'],
    fallback: true,
    guard: 'skipPlays',
    to: 'BUFFERING',
    effects: ['finalReportSkip', 'startCommandItem', 'requestRefreshLater'],
    note: 'with metadata: fetch the audio without a request, later send reason=refresh',
  },
  {
    id: 'skip-to-item-paused',
    from: ACTIVE,
    on: ['skipToItem'],
    fallback: true,
    to: 'PAUSED',
    effects: ['finalReportSkip', 'cueCommandItem', 'armPauseTtl', 'requestRefreshLater'],
    note: 'with metadata, not playing: cue the item, later send reason=refresh (pauseTtlSec starts again)',
  },

  // seek and seekRelative (docs/contract/console.md §3; canSeek, the item and the clamp to the
  // track are checked by Player.seek before the event is dispatched)
  {
    id: 'seek-after-end',
    from: ['PAUSED'],
    on: ['seek'],
    guard: 'seekAfterEnd',
    to: 'PAUSED',
    effects: ['cueSeekPosition', 'armPauseTtl'],
    note: 'a seek after the queue\u2019s last track ended (its final report posted): a new playback of it waits paused at the position (pauseTtlSec starts again), as a skipToItem to it would',
  },
  {
    id: 'seek-at-edge',
    from: ['BUFFERING'],
    on: ['seek'],
    guard: 'seekAtEdge',
    to: 'PLAYING',
    effects: ['seekPlayhead', 'playSegment'],
    note: 'a seek back into the track that waits at the window\u2019s edge: its playback goes on from there (its audio is all fetched), the window it waited for is no longer waited for',
  },
  {
    id: 'seek-playhead',
    from: ACTIVE,
    on: ['seek'],
    fallback: true,
    to: 'same',
    effects: ['seekPlayhead'],
    note: 'seek/seekRelative move the playhead within the playing item: a new segment of the same playback, durationPlayedMillis goes on (docs/contract/platform.md §2.3)',
  },
  {
    id: 'session-replaced',
    from: WITH_QUEUE,
    on: ['sessionReplaced'],
    to: 'IDLE',
    effects: ['finalReportCutOff', 'evictSession'],
    note: 'a new session on the group evicts the old one (ERROR_SESSION_EVICTED for its commands); the track it cut off gets its final report',
  },
  {
    id: 'refresh-command',
    from: WITH_QUEUE,
    on: ['refresh'],
    to: 'same',
    effects: ['requestCommandRefresh'],
    note: 'refreshCloudQueue: GET /itemWindow reason=refresh; answers at once, retries in the background (§7.3)',
  },
  {
    id: 'window-answered-fetched',
    from: MOVING,
    on: ['windowAnswered'],
    fallback: true,
    guard: 'answerFullyFetched',
    to: 'same',
    effects: ['adoptBackgroundWindow', 'requestQueueCompleted'],
    note: 'a background window whose tracks are all fetched already (short tracks arrive whole, so no download is left to end): reason=queueCompleted checks for more',
  },
  {
    id: 'window-answered',
    from: WITH_QUEUE,
    on: ['windowAnswered'],
    fallback: true,
    to: 'same',
    effects: ['adoptBackgroundWindow'],
    note: 'a background window (refresh, queueCompleted, new version) arrives',
  },

  // failures (docs/contract/platform.md §3 rows 1, 4, 5; §7.1 404)
  {
    id: 'window-not-found',
    from: WITH_QUEUE,
    on: ['windowNotFound'],
    to: 'IDLE',
    effects: ['finalReportAtEdge', 'clearQueue', 'reportError'],
    note: 'docs/contract/platform.md §3/§7.1: 404 on /itemWindow for the itemId sent: stop, empty the queue, wait for new content',
  },
  {
    id: 'session-not-found',
    from: WITH_QUEUE,
    on: ['sessionNotFound'],
    to: 'IDLE',
    effects: ['finalReportAtEdge', 'evictSession', 'reportError'],
    note: 'docs/contract/platform.md §7.1: 404 on any other request evicts the session',
  },
  {
    id: 'background-exhausted',
    from: ACTIVE,
    on: ['backgroundExhausted'],
    fallback: true,
    to: 'same',
    effects: ['drainWindow', 'reportError'],
    note: 'docs/contract/platform.md §3/§7.4: background retries used up: play out the window, then pause; the session stays valid',
  },
  {
    id: 'foreground-failed',
    from: WITH_QUEUE,
    on: ['foregroundFailed'],
    to: 'IDLE',
    effects: ['finalReportAtEdge', 'stopPlayback', 'reportError'],
    note: 'docs/contract/platform.md §3/§7.2: a request reached the retry limit of its error type: idle, error reported',
  },
];

export function findTransition(state: MachineState, event: PlayerEvent, context: GuardContext): Transition | undefined {
  return TRANSITIONS.find(
    (row) =>
      row.from.includes(state) && row.on.includes(event.type) && (!row.guard || GUARDS[row.guard](context, event)),
  );
}
