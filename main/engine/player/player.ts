/**
 * One simulated player (one per group): it holds the playback session, calls the cloud queue
 * server the last loadCloudQueue named, and moves through the transition table on the engine
 * clock. The table (transitions.ts) says what happens; the effects here say how.
 */
import { randomUUID } from 'node:crypto';
import type { EngineClock, Timer } from '../clock/clock.js';
import { BUFFERING_MS, fetchCompletesAt, fetchedAtOnce, fetchedThrough, fetchedToEnd } from './audio.js';
import type { ClientResult, CloudQueueClient, CloudQueueTarget } from './client.js';
import type { Violation } from './contract-check.js';
import { PlaybackError } from './errors.js';
import { causeOf, type EventOf, type LoadParams, type PlayerEvent, type SkipToItemParams, type TransitionCause, type UserAction, type WindowPurpose } from './events.js';
import { firstWindowReason, startsAtOnce } from './reasons.js';
import { type Failure } from './retry.js';
import { backgroundWindowKind, failureEvent, meaningOf, RequestRetries, type RequestKind } from './request-policies.js';
import { SAVED_PLAYER_VERSION, type SavedAsking, type SavedPlayback, type SavedPlayer } from './saved.js';
import { playbackStateOf, type MachineState } from './states.js';
import { TrackPlayback } from './track-playback.js';
import { findTransition, type EffectName, type GuardContext, type Transition } from './transitions.js';
import { PREVIOUS_WINDOW_SIZE, QueueWindow, UPCOMING_WINDOW_SIZE } from './windows.js';
import {
  DEFAULT_POLICIES,
  type ContextResponse,
  type ItemWindowResponse,
  type PlaybackPolicies,
  type PlaybackReport,
  type QueueItem,
  type Reason,
  type ReportSettings,
} from './wire.js';

/** docs/contract/platform.md §8: "Every 5 minutes while paused; every 10 minutes while playing". */
export const VERSION_POLL_PAUSED_MS = 300_000;
export const VERSION_POLL_PLAYING_MS = 600_000;

export interface PlaybackSession {
  id: string;
  appId: string;
  appContext: string;
  customData?: unknown;
  createdAt: number;
}

export interface TransitionRecord {
  playerId: string;
  groupId: string;
  at: number;
  from: MachineState;
  to: MachineState;
  event: PlayerEvent['type'];
  cause: TransitionCause;
  transition: string;
  /** The request whose answer caused it, for the traffic log's link. */
  requestId?: string;
  detail?: string;
}

export interface PlayerErrorRecord {
  at: number;
  message: string;
  status?: number;
}

export interface PlayerDeps {
  playerId: string;
  groupId: string;
  clock: EngineClock;
  client: CloudQueueClient;
  onTransition?: (record: TransitionRecord) => void;
  onViolations?: (violations: Violation[], requestId: string) => void;
  /** Anything a view shows changed. */
  onChange?: () => void;
}

export interface LoadedQueue {
  target: CloudQueueTarget;
  policies: PlaybackPolicies;
  reports: ReportSettings;
  contextVersion?: string;
  container?: ContextResponse['container'];
}

/**
 * Window requests that wait for one in flight rather than being dropped: their answer is about a
 * change made after it was sent (a command, a new version, a skipToItem's item). The next-window
 * check needs no second try: the playhead asks again when the next track starts. A queueCompleted
 * check waits as well (see backgroundWindow), as nothing would ask it again.
 */
const QUEUED_PURPOSES: readonly WindowPurpose[] = ['refreshCommand', 'versionChanged', 'skipToItem'];
/** Windows asked for a user's skip or intent, not by the player's own background work. */
const FOREGROUND_PURPOSES: readonly WindowPurpose[] = ['skipNext', 'skipPrev', 'pause', 'play'];

/** Which window a queueCompleted was asked for: its version and its last item. */
const windowKey = (window: QueueWindow): string => `${window.queueVersion}:${window.items.at(-1)?.id ?? ''}`;

interface PreparedReport {
  target: CloudQueueTarget;
  report: PlaybackReport;
}

interface PendingLoad {
  params: LoadParams;
  /** The queue being loaded, once its context answered; it replaces the current one on success. */
  queue?: LoadedQueue;
  /**
   * What a failed load puts back (docs/contract/platform.md §3: "Unchanged (previous state)"), taken when the load
   * started its track at once, the one thing that replaces the playback before the server answered.
   * Null until then: the player goes on with its queue meanwhile, and a failure leaves it as it is.
   * A load that supersedes another takes that one's (set if it started a track at once, or took
   * one in turn): the queue started was never confirmed, so what it replaced is still the state
   * to go back to.
   */
  previous: Snapshot | null;
  startedAtOnce: boolean;
  /** The playback a started-at-once load began: adopted as the load's item only if it still plays. */
  startedTrack?: TrackPlayback;
  /**
   * The final report of the track a started-at-once load cut off (inherited by a load that
   * supersedes it): posted once the load is answered, or a new session cuts it off too; never if
   * it fails (the track put back gets its own report later). What a superseded started-at-once
   * load played is not kept here: it is reported once the load that superseded it starts its own
   * track, is answered or fails, for that queue never comes back.
   */
  cutOffs: PreparedReport[];
  resolve: () => void;
  reject: (error: PlaybackError) => void;
}

interface PendingSkip {
  resolve: () => void;
  reject: (error: PlaybackError) => void;
}

/**
 * The policies in force: the queue's, with the playing item's own over them as the newest window
 * that holds it gives them (an edit can change them, and moves the version the player follows),
 * else as they were when it started.
 */
function policiesOf({ queue, window, track }: { queue: LoadedQueue | null; window: QueueWindow | null; track: TrackPlayback | null }): PlaybackPolicies {
  const base = queue?.policies ?? DEFAULT_POLICIES;
  const newest = track ? (window?.item(track.item.id) ?? track.item) : undefined;
  return newest?.policies ? { ...base, ...newest.policies } : base;
}

interface Snapshot {
  state: MachineState;
  queue: LoadedQueue | null;
  window: QueueWindow | null;
  track: TrackPlayback | null;
  atEnd: boolean;
  atEdge: boolean;
  /** What the queue was asking its server: asked again when the snapshot is put back. */
  asking: SavedAsking;
}

type Timers = 'audioReady' | 'trackEnd' | 'download' | 'reportUpdate' | 'pauseTtl' | 'versionPoll';

export class Player {
  readonly id: string;
  readonly groupId: string;
  private state: MachineState = 'IDLE';
  private session: PlaybackSession | null = null;
  private queue: LoadedQueue | null = null;
  private window: QueueWindow | null = null;
  private track: TrackPlayback | null = null;
  private atEnd = false;
  /** The track reached its end at the window's edge and waits for the next window (its final report with it). */
  private atEdge = false;
  /** Background retries ran out: no more windows, pause at the window's end (§7.4.3). */
  private draining = false;
  private readonly fetched = new Set<string>();
  private queueCompletedAsked: string | null = null;
  /**
   * The background window request in flight for this queue (see `backgroundWindow`). One of a
   * queue before does not hold the slot: `leaveRequests` frees it, as its answer will be dropped.
   */
  private backgroundWindowRun: object | null = null;
  /**
   * What asks the server about the playing track while a load that started its track at once
   * waits for its answer, the queue's first window: asked once it came. Without a window an
   * answer cannot be placed, and a track the load named no item for has no id yet (a
   * placeholder id would be answered 404, and the player would drop the queue, §7.1).
   */
  private untilFirstWindow: (() => void)[] = [];
  /** That track's playbacks (it may be played again from its end), until the load's answer names it. */
  private readonly unnamedTracks = new Set<TrackPlayback>();
  /** A load started its track at once and its answer has not come (not just: no window, a skip's answer brings one). */
  private firstWindowPending = false;
  /**
   * Reports due meanwhile, as they were then, posted once the answer came with its window's
   * version (and the unnamed track's id): per playback one update at most (a later one says all
   * it did), none after its final.
   */
  private reportsUntilFirstWindow: { playback: TrackPlayback; prepared: PreparedReport }[] = [];
  /** A window request asked for while a background window was in flight (see `backgroundWindow`). */
  private windowAfterInFlight: { reason: Reason; purpose: WindowPurpose; epoch: number } | null = null;
  private loading: PendingLoad | null = null;
  private skipping: PendingSkip | null = null;
  /** Bumped whenever the queue is replaced or dropped: late answers for an older one are ignored. */
  private epoch = 0;
  /** Requests of this epoch still waiting for an answer (a restart asks them again). */
  private asking: SavedAsking = {};
  private lastPollAt = 0;
  private readonly timers = new Map<Timers, Timer>();
  private lastError: PlayerErrorRecord | null = null;
  /**
   * Tries that failed and wait for the next one (see waitToRetry), with what decides whether that
   * retry is still sent: the epoch they belong to (a load or a dropped queue moves it on) and the
   * caller's `wanted` (a user skip a suspension settled). Once either says no, the retry is never
   * sent, so the wait is not shown even while its timer still runs.
   */
  private readonly retries: RequestRetries;
  /** Ids of recently evicted sessions, so their commands get ERROR_SESSION_EVICTED. */
  private readonly evictedSessions: string[] = [];
  private volume = 30;
  private closed = false;

  constructor(private readonly deps: PlayerDeps) {
    this.id = deps.playerId;
    this.groupId = deps.groupId;
    this.retries = new RequestRetries({
      clock: deps.clock,
      label: this.id,
      closed: () => this.closed,
      epoch: () => this.epoch,
      onResult: (result) => this.noteViolations(result),
      onChange: () => this.changed(),
    });
  }

  // ---------------------------------------------------------------- what hosts read

  get machineState(): MachineState {
    return this.state;
  }

  get currentSession(): PlaybackSession | null {
    return this.session;
  }

  status() {
    const now = this.deps.clock.now();
    return {
      playbackState: playbackStateOf(this.state),
      suspended: this.state === 'SUSPENDED',
      itemId: this.knownItemId() ?? null,
      positionMillis: Math.round(this.track?.position(now) ?? 0),
      queueVersion: this.window?.queueVersion ?? null,
    };
  }

  snapshot() {
    return {
      ...this.status(),
      state: this.state,
      sessionId: this.session?.id ?? null,
      queueBaseUrl: this.queue?.target.queueBaseUrl ?? null,
      policies: this.queue ? this.policies : null,
      reports: this.queue?.reports ?? null,
      container: this.queue?.container ?? null,
      window: this.window
        ? {
            queueVersion: this.window.queueVersion,
            includesBeginningOfQueue: this.window.response.includesBeginningOfQueue,
            includesEndOfQueue: this.window.includesEndOfQueue,
            items: this.window.items.map((item) => ({ id: item.id, name: item.track.name ?? null, durationMillis: item.track.durationMillis ?? null })),
          }
        : null,
      track: this.track ? { ...this.track.item.track, id: this.knownItemId() ?? null } : null,
      draining: this.draining,
      atEnd: this.atEnd,
      atEdge: this.atEdge,
      volume: this.volume,
      lastError: this.lastError,
      retrying: this.retries.waiting(),
    };
  }

  metadata() {
    const item = this.track?.item;
    const next = item && this.window?.after(item.id);
    return {
      container: this.queue?.container ?? null,
      currentItem: item ? { ...(this.knownItemId() !== undefined ? { id: item.id } : {}), track: item.track } : null,
      nextItem: next ? { id: next.id, track: next.track } : null,
    };
  }

  getVolume(): number {
    return this.volume;
  }

  setVolume(volume: number): void {
    this.volume = volume;
    this.changed();
  }

  // ---------------------------------------------------------------- sessions

  createSession(appId: string, appContext: string, customData?: unknown): PlaybackSession {
    // With a queue, the row evicts the session (and reports the track it cut off); an idle one is evicted here.
    if (this.session && !this.dispatch({ type: 'sessionReplaced' })) this.evictSession();
    this.session = { id: `session-${randomUUID()}`, appId, appContext, customData, createdAt: this.deps.clock.now() };
    this.changed();
    return this.session;
  }

  joinOrCreateSession(appId: string, appContext: string, customData?: unknown): { session: PlaybackSession; created: boolean } {
    if (this.session && this.session.appId === appId && this.session.appContext === appContext) return { session: this.session, created: false };
    return { session: this.createSession(appId, appContext, customData), created: true };
  }

  // ---------------------------------------------------------------- commands and user actions

  load(params: LoadParams): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const superseded = this.loading;
      superseded?.reject(new PlaybackError('ERROR_CLOUD_QUEUE_SERVER', 'superseded by a newer loadCloudQueue'));
      this.loading = { params, previous: superseded?.previous ?? null, cutOffs: superseded ? [...superseded.cutOffs] : [], startedAtOnce: false, resolve, reject };
      this.dispatch({ type: 'load', params });
    });
  }

  skipToItem(params: SkipToItemParams): void {
    this.requireQueue();
    // Only an explicit resume wakes a suspended session (docs/contract/platform.md §3); the command would be lost.
    if (this.state === 'SUSPENDED') throw new PlaybackError('ERROR_PLAYBACK_NO_CONTENT', 'the session is suspended: resume it first');
    if (!this.policies.canSkipToItem) throw new PlaybackError('ERROR_DISALLOWED_BY_POLICY', 'the canSkipToItem policy forbids skipToItem');
    // To the playing item with a position, skipToItem is a seek.
    if (params.positionMillis !== undefined && params.itemId === this.track?.item.id && !this.policies.canSeek) {
      throw new PlaybackError('ERROR_DISALLOWED_BY_POLICY', 'the canSeek policy forbids moving the playhead of the playing item');
    }
    this.dispatch({ type: 'skipToItem', params });
  }

  refresh(): void {
    this.requireQueue();
    this.dispatch({ type: 'refresh' });
  }

  suspend(): void {
    this.requireQueue();
    this.dispatch({ type: 'suspend' });
  }

  /** A user action (docs/contract/console.md §7) or a control API playback command; skips may wait for the server. */
  act(action: UserAction, by: 'user' | 'command'): Promise<void> {
    if (this.state === 'IDLE') return Promise.reject(new PlaybackError('ERROR_PLAYBACK_NO_CONTENT', 'nothing is loaded: send loadCloudQueue first'));
    if (action === 'skipNext' || action === 'skipPrev') {
      const allowed = action === 'skipNext' ? this.policies.canSkip : this.policies.canSkipBack;
      if (!allowed) return Promise.reject(new PlaybackError('ERROR_DISALLOWED_BY_POLICY', `the ${action === 'skipNext' ? 'canSkip' : 'canSkipBack'} policy forbids this skip`));
      if (this.skipping) return Promise.reject(new PlaybackError('ERROR_INVALID_PARAMETER', 'a skip is already waiting for the server'));
      return new Promise<void>((resolve, reject) => {
        if (this.state === 'SUSPENDED') return reject(new PlaybackError('ERROR_PLAYBACK_NO_CONTENT', 'the session is suspended: resume it first'));
        this.skipping = { resolve, reject };
        const handled = this.dispatch({ type: action, by });
        if (!handled) {
          this.skipping = null;
          reject(new PlaybackError('ERROR_PLAYBACK_NO_CONTENT', action === 'skipNext' ? 'there is no next track' : 'there is no previous track'));
        } else if (this.skipping && handled.id !== 'skip-asks-server') {
          // Skipped locally, nothing to wait for.
          this.skipping = null;
          resolve();
        }
      });
    }
    this.dispatch({ type: action, by });
    return Promise.resolve();
  }

  // ---------------------------------------------------------------- across restarts

  /**
   * What a restart brings back (saved.ts). A load still waiting for its answer is left out: it
   * failed. One that had started its track at once is saved as its failure would leave the
   * player (restorePrevious): the queue before, with a pause or suspension made since, and the
   * reports its failure posts, owed.
   */
  save(): SavedPlayer {
    const now = this.deps.clock.now();
    const previous = this.loading?.previous;
    const settled = previous ?? this.takeSnapshot();
    const { queue, window, track } = settled;
    const state = previous ? this.stateBeforeLoad(this.state) : settled.state;
    // A pending load leaves a paused player paused, its pauseTtl timer armed; paused since the
    // load started its track, pauseTtlSec runs from now, as restorePrevious arms it.
    const pauseTtl = state === 'PAUSED' ? this.timers.get('pauseTtl') : undefined;
    const ttlSec = previous && state === 'PAUSED' && !pauseTtl ? policiesOf(previous).pauseTtlSec : undefined;
    const suspendAt = pauseTtl?.due ?? (ttlSec !== undefined ? now + ttlSec * 1_000 : null);
    const owed = previous ? this.heldReportsToPost() : null;
    const playback: SavedPlayback | null =
      state !== 'IDLE' && queue && window && track
        ? {
            state,
            queue,
            window: window.response,
            track: track.save(now),
            atEnd: settled.atEnd,
            atEdge: settled.atEdge,
            draining: this.draining,
            fetched: [...this.fetched],
            queueCompletedAsked: this.queueCompletedAsked,
            lastPollAt: this.lastPollAt,
            suspendAt,
            // With a track started at once: what the queue before was asking when the load began.
            asking: settled.asking,
          }
        : null;
    return {
      version: SAVED_PLAYER_VERSION,
      session: this.session,
      volume: this.volume,
      evictedSessions: [...this.evictedSessions],
      lastError: this.lastError,
      playback,
      ...(owed ? { reportsOwed: [...owed.held, ...(owed.final ? [owed.final] : [])] } : {}),
    };
  }

  /**
   * Takes up what `save` kept, on a fresh player: the same session and queue, the playhead where
   * it was, and the timers of that state armed again (a playing track ends and reports on time,
   * the version poll keeps its rhythm, a paused session is still suspended at its pauseTtlSec).
   * Requests it was waiting on are asked again. No transition is recorded: the player is where it
   * was, it did not move.
   */
  restore(saved: SavedPlayer): void {
    this.session = saved.session;
    this.volume = saved.volume;
    this.evictedSessions.push(...saved.evictedSessions);
    this.lastError = saved.lastError;
    // Its failure would have posted them (a load pending at the save counts as failed).
    for (const owed of saved.reportsOwed ?? []) this.postReport(owed, { ofQueueBefore: true });
    const playback = saved.playback;
    if (playback) {
      const now = this.deps.clock.now();
      this.queue = { ...playback.queue };
      this.window = new QueueWindow(playback.window);
      this.track = TrackPlayback.restore(playback.track);
      this.atEnd = playback.atEnd;
      // Records written before the edge wait existed have none.
      this.atEdge = playback.atEdge ?? false;
      this.draining = playback.draining;
      for (const id of playback.fetched) this.fetched.add(id);
      this.queueCompletedAsked = playback.queueCompletedAsked;
      this.lastPollAt = playback.lastPollAt;
      this.state = playback.state;
      // Asked before the state's own timers: a background window asked again goes first.
      this.askAgain(playback.asking);
      if (this.state === 'PLAYING') {
        this.track.play(now);
        this.startTrackTimers();
        this.askForNextWindowIfNear();
      } else if (this.state === 'BUFFERING') {
        this.bufferAgain();
      } else if (this.state === 'PAUSED' && playback.suspendAt !== null) {
        this.setTimer('pauseTtl', Math.max(0, playback.suspendAt - now), () => this.dispatch({ type: 'pauseTtlExpired' }));
      }
      this.rescheduleVersionPoll();
    }
    this.changed();
  }

  close(): void {
    this.closed = true;
    // Whatever answers now belongs to no queue: a version poll's answer asks for nothing, and a
    // window queued behind one in flight is not asked for (a successor asks again, saved.ts).
    this.epoch++;
    this.windowAfterInFlight = null;
    for (const timer of this.timers.values()) this.deps.clock.clearTimeout(timer);
    this.timers.clear();
    this.settleLoad(new PlaybackError('ERROR_CLOUD_QUEUE_SERVER', 'the player closed'));
    this.settleSkip(new PlaybackError('ERROR_CLOUD_QUEUE_SERVER', 'the player closed'));
  }

  // ---------------------------------------------------------------- the machine

  /** Runs the first matching row of the table; returns it, or undefined when the event is ignored. */
  private dispatch(event: PlayerEvent, meta: { requestId?: string; detail?: string } = {}): Transition | undefined {
    if (this.closed) return undefined;
    const row = findTransition(this.state, event, this.guardContext(event));
    if (!row) return undefined;
    const from = this.state;
    const to = row.to === 'same' ? from : row.to === 'previous' ? this.stateBeforeLoad(from) : row.to;
    this.state = to;
    for (const effect of row.effects) this.effects[effect](event as never);
    this.rescheduleVersionPoll();
    this.deps.onTransition?.({
      playerId: this.id,
      groupId: this.groupId,
      at: this.deps.clock.now(),
      from,
      to,
      event: event.type,
      cause: causeOf(event),
      transition: row.id,
      requestId: meta.requestId,
      detail: meta.detail ?? detailOf(event),
    });
    this.changed();
    return row;
  }

  private guardContext(event: PlayerEvent): GuardContext {
    const current = this.track?.item.id;
    let windowFullyFetched = false;
    if (event.type === 'downloadComplete' && this.window && current) windowFullyFetched = fetchedToEnd(this.window, current);
    let answerFullyFetched = false;
    let answerHasNext = false;
    let answerFallsShort = false;
    const pending = this.loading;
    // The track a pending load started at once, or one a skipToItem started in its queue since: no
    // window has come for either, so the load's answer is the next window.
    const beforeFirstWindow = !!pending?.startedAtOnce && this.firstWindowPending && !this.window;
    const startedTrackAtEdge = event.type === 'loadAnswered' && beforeFirstWindow && this.atEdge;
    let answerEndsQueue = false;
    if (event.type === 'loadAnswered' && startedTrackAtEdge) {
      const answer = new QueueWindow(event.window);
      // The load's own track is the item it named, or the answer's first.
      const ended = this.track === pending!.startedTrack ? (pending!.params.itemId ?? event.window.items[0]!.id) : current!;
      answerHasNext = answer.after(ended) !== undefined;
      // An answer without the ended track (one a skipToItem started) says nothing of what follows it.
      answerEndsQueue = !answerHasNext && answer.has(ended) && answer.includesEndOfQueue;
    }
    if ((event.type === 'windowAnswered' || event.type === 'resumeAnswered') && current) {
      const answer = new QueueWindow(event.window);
      answerHasNext = answer.after(current) !== undefined;
      if (event.type === 'windowAnswered') {
        answerFallsShort = answer.has(current) && !answerHasNext && !answer.includesEndOfQueue && event.askedFor !== current;
        // Not from a queueCompleted answer: that was the check for more, and a server that grows the
        // queue (or moves its version) on every one would be asked again without end.
        if (event.purpose !== 'queueCompleted' && this.fetched.has(current)) answerFullyFetched = fetchedToEnd(answer, current);
      }
    }
    const answerInBackground = event.type === 'windowAnswered' && !FOREGROUND_PURPOSES.includes(event.purpose);
    const queued = this.windowAfterInFlight;
    const windowQueued = queued !== null && queued.epoch === this.epoch && QUEUED_PURPOSES.includes(queued.purpose);
    // Before a started-at-once load's first window, the load's answer is the next one.
    const queueGoesOn =
      event.type === 'trackEnded' && ((!!current && !!this.window && !this.window.after(current) && !this.window.includesEndOfQueue && !this.draining) || beforeFirstWindow);
    let skipPlays = false;
    if (event.type === 'skipToItem') skipPlays = event.params.playOnCompletion ?? this.isMoving();
    if (event.type === 'skipAnswered') skipPlays = event.plays;
    return {
      policies: this.policies,
      playOnCompletion: this.loading?.params.playOnCompletion ?? false,
      startedAtOnce: this.loading?.startedAtOnce ?? false,
      startedTrackAtEdge,
      answerEndsQueue,
      atEnd: this.atEnd,
      atEdge: this.atEdge,
      hasNext: !!(current && this.window?.after(current)),
      hasPrevious: !!(current && this.window?.before(current)),
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

  /** The queue's policies, with the playing item's own over them (docs/contract/console.md §4 `items[].policies`). */
  private get policies(): PlaybackPolicies {
    return policiesOf({ queue: this.queue, window: this.window, track: this.track });
  }

  /** The effects the table names. Each receives the event that fired the row. */
  private readonly effects: Record<EffectName, (event: PlayerEvent) => void> = {
    beginLoad: () => void this.runLoad(),
    startMetadataTrack: (event) => {
      const { track } = event as EventOf<'loadStartedAtOnce'>;
      const pending = this.loading!;
      const params = pending.params;
      pending.startedAtOnce = true;
      if (pending.previous && this.track !== pending.previous.track) {
        // It supersedes a load that started its track at once: that load's queue is left for good
        // (a failure puts back what came before it), so what was heard of it is reported now.
        this.reportWhatWasHeard();
      } else {
        const cutOff = this.prepareCutOff();
        if (cutOff) pending.cutOffs.push(cutOff);
      }
      // The playback is replaced: what the queue before was asking is not for this one.
      this.leaveRequests('a new loadCloudQueue replaced the queue');
      // Not heard while the new track plays: should the load fail, it goes on from here.
      this.track?.pause(this.deps.clock.now());
      this.stopTrackTimers();
      this.queue = pending.queue!;
      this.window = null;
      this.track = new TrackPlayback({ id: params.itemId ?? 'pending', track }, params.positionMillis ?? 0);
      pending.startedTrack = this.track;
      this.unnamedTracks.clear();
      if (params.itemId === undefined) this.unnamedTracks.add(this.track);
      this.firstWindowPending = true;
      this.atEnd = false;
      this.atEdge = false;
      this.armAudioReady(true);
    },
    adoptLoad: (event) => {
      const { window } = event as EventOf<'loadAnswered'>;
      const pending = this.loading!;
      // The track the load replaces: the one playing now (after what was held for the first window
      // of a started-at-once load this one superseded), or the one a start at once replaced.
      const cutOffs = pending.startedAtOnce ? pending.cutOffs : [...pending.cutOffs, this.settleHeldReports()];
      for (const cutOff of cutOffs) if (cutOff) this.postReport(cutOff, { cutOff: true, ofQueueBefore: true });
      // Answers to what the queue before asked are for a queue that is gone (a track started at
      // once moved the epoch on already: what was asked since is this queue's).
      if (!pending.startedAtOnce) this.leaveRequests('a new loadCloudQueue replaced the queue');
      this.queue = pending.queue!;
      this.window = new QueueWindow(window);
      // A new queue starts clean: an error left from the one before is not this queue's.
      this.lastError = null;
      this.draining = false;
      this.atEnd = false;
      // Unless the track playing waits at its end for this answer (see `startedTrackAtEdge`).
      this.atEdge = pending.startedAtOnce && this.atEdge;
      this.queueCompletedAsked = null;
      const id = pending.params.itemId ?? window.items[0]!.id;
      const item = this.window.item(id)!;
      if (!pending.startedAtOnce || !this.track) {
        this.stopTrackTimers();
        this.track = new TrackPlayback(item, pending.params.positionMillis ?? 0);
      } else if (this.track === pending.startedTrack) {
        this.track.identify(item);
      }
      // Otherwise a command moved on from the track the load started (a skipToItem): that one
      // plays on, in the window the load brought.
      this.lastPollAt = this.deps.clock.now();
      this.firstWindowPending = false;
      // Reports due before this first window: the unnamed track's under its id now (also if a
      // skipToItem moved on from it), each with this window's version.
      for (const { playback, prepared } of this.reportsUntilFirstWindow) {
        const id = this.unnamedTracks.has(playback) ? item.id : prepared.report.id;
        this.postReport({ target: prepared.target, report: { ...prepared.report, id, queueVersion: prepared.report.queueVersion || this.window.queueVersion } });
      }
      this.unnamedTracks.clear();
      this.reportsUntilFirstWindow = [];
      const waiting = this.untilFirstWindow;
      this.untilFirstWindow = [];
      for (const ask of waiting) ask();
    },
    answerLoad: () => {
      this.loading?.resolve();
      this.loading = null;
    },
    restorePrevious: () => {
      const previous = this.loading!.previous;
      if (!previous) return;
      this.reportWhatWasHeard();
      // What was asked of the queue that failed to load is not for the one put back.
      this.leaveRequests('the loadCloudQueue it was asked during failed');
      this.stopTrackTimers();
      this.queue = previous.queue;
      this.window = previous.window;
      this.track = previous.track;
      this.atEnd = previous.atEnd;
      this.atEdge = previous.atEdge;
      if (this.state === 'PAUSED' || this.state === 'SUSPENDED') this.track?.pause(this.deps.clock.now());
      // Paused again (it played the load's track meanwhile): pauseTtlSec runs from here, as after any pause.
      if (this.state === 'PAUSED' && !this.timers.has('pauseTtl')) this.armPauseTtl();
      // The track started at once stopped the timers and moved the epoch on: the state put back
      // asks again what it was asking then, and gets its timers again.
      this.askAgain(previous.asking);
      if (this.state === 'PLAYING') {
        this.track?.play(this.deps.clock.now());
        this.startTrackTimers();
        this.askForNextWindowIfNear();
      } else if (this.state === 'BUFFERING') this.bufferAgain();
    },
    failLoad: (event) => {
      const { failure } = event as EventOf<'loadFailed'>;
      this.loading?.reject(cloudQueueError(failure, this.loading.params.itemId));
      this.loading = null;
    },
    bufferCurrent: () => this.armAudioReady(this.track ? this.fetched.has(this.track.item.id) : false),
    playSegment: () => {
      if (!this.track) return;
      // A track paused at the window's edge plays on from its end: its end is seen again.
      this.atEdge = false;
      this.track.play(this.deps.clock.now());
      this.startTrackTimers();
      this.askForNextWindowIfNear();
      if (this.queue?.reports.sendPlaybackActions && this.track.durationPlayed(this.deps.clock.now()) > 0) this.sendReport('update');
    },
    pauseSegment: () => {
      this.clearTimer('audioReady');
      if (!this.track?.playing) return;
      this.track.pause(this.deps.clock.now());
      this.stopTrackTimers();
      if (this.queue?.reports.sendPlaybackActions) this.sendReport('update');
    },
    notifyPause: () => void this.notifyIntent('pause'),
    notifyPlay: () => void this.notifyIntent('play'),
    armPauseTtl: () => this.armPauseTtl(),
    disarmPauseTtl: () => this.clearTimer('pauseTtl'),
    restartCurrent: () => {
      if (!this.track) return;
      const unnamed = this.unnamedTracks.has(this.track);
      this.track = new TrackPlayback(this.track.item, 0);
      // Played again, it still has no item id (a load superseding the one that started it waits).
      if (unnamed) this.unnamedTracks.add(this.track);
      this.atEnd = false;
      this.atEdge = false;
      this.armAudioReady(true);
    },
    suspendSession: () => {
      this.clearTimer('versionPoll');
      // Only a resume wakes the session (docs/contract/platform.md §3): a skip waiting for the server is not made.
      this.settleSkip(new PlaybackError('ERROR_PLAYBACK_NO_CONTENT', 'the session was suspended while the skip waited for the server'));
    },
    requestResume: () => void this.runResume(),
    adoptWindow: (event) => {
      const { window } = event as EventOf<'resumeAnswered' | 'skipAnswered'>;
      this.window = new QueueWindow(window);
      this.draining = false;
      this.queueCompletedAsked = null;
    },
    finalReport: () => this.sendReport('final'),
    finalReportSkip: () => {
      // A track that ended at the end of the queue had its final report; one that ended at the
      // window's edge gets it now, but it ended by itself, not by the skip.
      if (this.track?.hasStarted && !this.atEnd) this.sendReport('final', this.atEdge ? undefined : `skip-${randomUUID()}`);
    },
    finalReportAtEdge: () => {
      // Played to its end at the window's edge: its final report is owed whatever drops the queue.
      if (this.atEdge) this.reportCutOff();
    },
    playNextTrack: () => {
      const next = this.window!.after(this.track!.item.id)!;
      this.stopTrackTimers();
      this.track = new TrackPlayback(next);
      this.track.play(this.deps.clock.now());
      this.startTrackTimers();
      this.askForNextWindowIfNear();
    },
    stopAtEnd: () => {
      // The playhead stays at the end: nothing more is played (or reported) of this track.
      this.track?.pause(this.deps.clock.now());
      this.stopTrackTimers();
      this.atEnd = true;
      this.atEdge = false;
    },
    stallAtEdge: () => {
      this.track?.pause(this.deps.clock.now());
      this.stopTrackTimers();
      this.atEdge = true;
      this.awaitNextWindow();
    },
    askAgainAtEdge: () => {
      // Asked for the track that ended, after the request answering now (its slot is still taken).
      if (this.backgroundWindowRun) this.windowAfterInFlight ??= { reason: 'refresh', purpose: 'refresh', epoch: this.epoch };
      else void this.backgroundWindow('refresh', 'refresh');
    },
    recordDownload: () => {
      if (!this.window || !this.track) return;
      for (const id of fetchedThrough(this.window, this.track.item.id)) this.fetched.add(id);
    },
    requestQueueCompleted: () => void this.backgroundWindow('queueCompleted', 'queueCompleted'),
    requestUserSkip: (event) => void this.runUserSkip(event.type as 'skipNext' | 'skipPrev'),
    startNext: () => this.startTrack(this.window!.after(this.track!.item.id)!, true),
    cueNext: () => this.startTrack(this.window!.after(this.track!.item.id)!, false),
    startPrevious: () => this.startTrack(this.window!.before(this.track!.item.id)!, true),
    cuePrevious: () => this.startTrack(this.window!.before(this.track!.item.id)!, false),
    startSkipTarget: (event) => this.startTrack((event as EventOf<'skipAnswered'>).target, true, (event as EventOf<'skipAnswered'>).positionMillis),
    cueSkipTarget: (event) => this.startTrack((event as EventOf<'skipAnswered'>).target, false, (event as EventOf<'skipAnswered'>).positionMillis),
    answerSkip: () => this.settleSkip(),
    refuseSkip: (event) => {
      const { failure } = event as EventOf<'skipRefused'>;
      this.noteError(failure);
      this.settleSkip(
        failure.rejectedReason
          ? new PlaybackError('ERROR_SKIP_LIMIT_REACHED', `the server refused the skip: ${failure.rejectedReason}`, { httpStatus: failure.status })
          : cloudQueueError(failure),
      );
    },
    requestSkipToItem: (event) => void this.runSkipToItem((event as EventOf<'skipToItem'>).params),
    seek: (event) => this.seek((event as EventOf<'skipToItem'>).params.positionMillis),
    seekSkipTarget: (event) => this.seek((event as EventOf<'skipAnswered'>).positionMillis),
    startCommandItem: (event) => this.startCommandItem((event as EventOf<'skipToItem'>).params, true),
    cueCommandItem: (event) => this.startCommandItem((event as EventOf<'skipToItem'>).params, false),
    requestRefreshLater: () => void this.backgroundWindow('refresh', 'skipToItem'),
    requestCommandRefresh: () => void this.backgroundWindow('refresh', 'refreshCommand'),
    adoptBackgroundWindow: (event) => {
      const { window } = event as EventOf<'windowAnswered'>;
      const current = this.track?.item.id;
      // A window that no longer holds the playing track cannot be played from; keep the old one.
      if (current && !window.items.some((item) => item.id === current)) return;
      this.window = new QueueWindow(window);
      this.draining = false;
      if (current && this.fetched.has(current)) for (const id of fetchedThrough(this.window, current)) this.fetched.add(id);
    },
    clearQueue: () => this.dropQueue(),
    finalReportCutOff: () => this.reportCutOff(),
    evictSession: () => this.evictSession(),
    drainWindow: () => {
      // docs/contract/platform.md §7.4.3: what is left of the window still plays; nothing more is asked for.
      this.draining = true;
    },
    stopPlayback: () => this.dropQueue(),
    reportError: (event) => {
      const failure = (event as { failure?: Failure }).failure;
      if (failure) this.noteError(failure);
    },
  };

  // ---------------------------------------------------------------- request flows

  private async runLoad(): Promise<void> {
    const pending = this.loading!;
    const { params } = pending;
    // The queue playing now goes on (its requests and their answers too) until the load replaces
    // it: adoptLoad, or a track started at once, moves the epoch on. A load that fails drops nothing.
    let epoch = this.epoch;
    const target: CloudQueueTarget = { queueBaseUrl: params.queueBaseUrl, httpAuthorization: params.httpAuthorization };
    // §7.3: the player does not retry before answering loadCloudQueue.
    const context = await this.deps.client.context(target);
    if (!this.sameLoad(epoch, pending)) return;
    this.noteViolations(context);
    if (!context.ok) return void this.dispatch({ type: 'loadFailed', failure: context.failure }, { requestId: context.exchange.requestId });
    const policies = { ...DEFAULT_POLICIES, ...context.value.playbackPolicies };
    const metadata = params.trackMetadata;
    pending.queue = {
      target,
      policies,
      reports: context.value.reports ?? {},
      contextVersion: context.value.contextVersion,
      container: context.value.container,
    };
    const playsAtOnce = params.playOnCompletion === true && startsAtOnce(policies, metadata !== undefined);
    if (playsAtOnce) {
      pending.previous ??= this.takeSnapshot();
      this.dispatch({ type: 'loadStartedAtOnce', track: metadata! }, { requestId: context.exchange.requestId });
      epoch = this.epoch;
    }
    const reason = firstWindowReason(policies, metadata !== undefined, metadata !== undefined && fetchedAtOnce(metadata));
    // A new queue: the version the command named (if any), never the one of the queue it replaces.
    const window = await this.deps.client.itemWindow(target, { ...this.windowQuery(reason, params.itemId), queueVersion: params.queueVersion });
    if (!this.sameLoad(epoch, pending)) return;
    this.noteViolations(window);
    // (A window without the item asked for is malformed: the client fails it, see contract-check.ts.)
    if (!window.ok || window.value.items.length === 0) {
      const failure: Failure = window.ok ? { kind: 'other', status: 200, message: 'the queue is empty: nothing to play' } : window.failure;
      return void this.dispatch({ type: 'loadFailed', failure }, { requestId: window.exchange.requestId });
    }
    this.fetched.clear();
    if (metadata && fetchedAtOnce(metadata) && params.itemId) this.fetched.add(params.itemId);
    this.dispatch({ type: 'loadAnswered', window: window.value }, { requestId: window.exchange.requestId });
  }

  /**
   * Where a failed load leaves the player: where it is, unless the load started its track at once,
   * which is put back with the state before it; a pause or suspension since still holds (the
   * user's, for the session, whichever track it plays), unless nothing was loaded before: then
   * there is no track left to hold it, and the player is idle again.
   */
  private stateBeforeLoad(now: MachineState): MachineState {
    const previous = this.loading?.previous;
    if (!previous || ((now === 'PAUSED' || now === 'SUSPENDED') && previous.state !== 'IDLE')) return now;
    return previous.state;
  }

  /**
   * The load still stands: not superseded by a newer one, nor the player closed. Until a track
   * starts at once, the queue playing is the one before, and its dropping (a 404, a failure) says
   * nothing of the queue being loaded; after, the epoch moving on means this load's queue went.
   */
  private sameLoad(epoch: number, pending: PendingLoad): boolean {
    return this.loading === pending && !this.closed && (!pending.startedAtOnce || this.epoch === epoch);
  }

  private async runResume(): Promise<void> {
    if (this.waitsForFirstWindow(() => void this.runResume())) return;
    const epoch = this.epoch;
    const result = await this.waitingFor('resume', true, () =>
      this.retries.send('resume', (retry) => this.deps.client.itemWindow(this.queue!.target, this.windowQuery('resume', this.track?.item.id), retry)),
    );
    if (epoch !== this.epoch || this.state !== 'SUSPENDED') return;
    if (result.ok) this.dispatch({ type: 'resumeAnswered', window: result.value }, { requestId: result.exchange.requestId });
    else this.dispatchFailure('resume', result.failure, result.exchange.requestId);
  }

  /** `skip`: the skip this request is for; once it is settled otherwise (a suspension), no retry goes and the answer is not used. */
  private async runUserSkip(direction: 'skipNext' | 'skipPrev', skip = this.skipping): Promise<void> {
    if (this.waitsForFirstWindow(() => void this.runUserSkip(direction, skip))) return;
    const wanted = () => skip !== null && this.skipping === skip;
    if (!wanted()) return;
    const epoch = this.epoch;
    const plays = this.isMoving();
    const from = this.track!.item.id;
    const result = await this.retries.send('skip', (retry) => this.deps.client.itemWindow(this.queue!.target, this.windowQuery(direction, from), retry), wanted);
    if (epoch !== this.epoch || !wanted()) return;
    if (!result.ok) {
      // A refused skip settles itself (skipRefused); any other failure fails the skip first.
      if (meaningOf('skip', result.failure) !== 'skipRefused') this.settleSkip(cloudQueueError(result.failure, from));
      return this.dispatchFailure('skip', result.failure, result.exchange.requestId);
    }
    const window = new QueueWindow(result.value);
    const target = direction === 'skipNext' ? window.after(from) : window.before(from);
    if (!target) {
      this.settleSkip(new PlaybackError('ERROR_PLAYBACK_NO_CONTENT', direction === 'skipNext' ? 'the server has no next track' : 'the server has no previous track'));
      return void this.dispatch({ type: 'windowAnswered', window: result.value, purpose: direction, askedFor: from }, { requestId: result.exchange.requestId });
    }
    if (this.track?.item.id === target.id && target.id !== from) {
      // The track the skip left ended while it waited, and the player moved on to the target by
      // itself: the skip is done. Starting the target again would report it as skipped.
      this.settleSkip();
      return void this.dispatch({ type: 'windowAnswered', window: result.value, purpose: direction, askedFor: from }, { requestId: result.exchange.requestId });
    }
    this.dispatch({ type: 'skipAnswered', window: result.value, target, skipped: direction, plays }, { requestId: result.exchange.requestId });
  }

  private async runSkipToItem(params: SkipToItemParams): Promise<void> {
    const epoch = this.epoch;
    const plays = params.playOnCompletion ?? this.isMoving();
    // §7.3: skipToItem has answered already; the request is retried in the background.
    const result = await this.waitingFor('skipToItem', params, () =>
      this.retries.send('skipToItem', (retry) => this.deps.client.itemWindow(this.queue!.target, this.windowQuery('skipToItem', params.itemId, params.queueVersion), retry)),
    );
    if (epoch !== this.epoch || !this.queue) return;
    if (!result.ok) return this.dispatchFailure('skipToItem', result.failure, result.exchange.requestId);
    const target = new QueueWindow(result.value).item(params.itemId)!;
    this.dispatch(
      { type: 'skipAnswered', window: result.value, target, skipped: 'skipToItem', plays, positionMillis: params.positionMillis },
      { requestId: result.exchange.requestId },
    );
  }

  private async notifyIntent(reason: 'pause' | 'play'): Promise<void> {
    // About the track it was asked for: not sent for one a skipToItem replaced meanwhile.
    const asked = this.track;
    if (this.waitsForFirstWindow(() => void (this.track === asked && this.notifyIntent(reason)))) return;
    const epoch = this.epoch;
    const itemId = this.track?.item.id;
    const result = await this.retries.send('intent', (retry) => this.deps.client.itemWindow(this.queue!.target, this.windowQuery(reason, itemId), retry));
    if (epoch !== this.epoch) return;
    if (result.ok) return void this.dispatch({ type: 'windowAnswered', window: result.value, purpose: reason, askedFor: itemId }, { requestId: result.exchange.requestId });
    this.dispatchFailure('intent', result.failure, result.exchange.requestId);
  }

  /**
   * A background window request (§7.4): one at a time; retried, and drained when exhausted. One of
   * QUEUED_PURPOSES asked for while another is in flight goes out once that one ends.
   */
  private async backgroundWindow(reason: Reason, purpose: WindowPurpose): Promise<void> {
    if (!this.queue) return;
    if (this.waitsForFirstWindow(() => void this.backgroundWindow(reason, purpose))) return;
    if (purpose === 'queueCompleted' && !this.mayAskQueueCompleted()) return;
    if (this.backgroundWindowRun) {
      if (QUEUED_PURPOSES.includes(purpose)) this.windowAfterInFlight = { reason, purpose, epoch: this.epoch };
      // One of the others waiting takes precedence: its answer asks again if the window is all
      // fetched (the window is counted as asked only once the request goes out).
      else if (purpose === 'queueCompleted') this.windowAfterInFlight ??= { reason, purpose, epoch: this.epoch };
      return;
    }
    if (purpose === 'queueCompleted') this.queueCompletedAsked = windowKey(this.window!);
    const run = {};
    this.backgroundWindowRun = run;
    const epoch = this.epoch;
    try {
      const itemId = this.track?.item.id;
      // Every try goes where the first went, even if a load replaces the queue meanwhile.
      const target = this.queue.target;
      const result = await this.waitingFor('window', { reason, purpose }, () =>
        this.retries.send(backgroundWindowKind(purpose), (retry) => this.deps.client.itemWindow(target, this.windowQuery(reason, itemId), retry)),
      );
      if (epoch !== this.epoch || !this.queue) return;
      if (result.ok) this.dispatch({ type: 'windowAnswered', window: result.value, purpose, askedFor: itemId }, { requestId: result.exchange.requestId });
      else this.dispatchFailure(backgroundWindowKind(purpose), result.failure, result.exchange.requestId, purpose);
    } finally {
      // Unless a load or a dropped queue freed the slot meanwhile: what waits now is the new queue's.
      if (this.backgroundWindowRun === run) {
        this.backgroundWindowRun = null;
        const next = this.windowAfterInFlight;
        this.windowAfterInFlight = null;
        if (next && next.epoch === this.epoch) void this.backgroundWindow(next.reason, next.purpose);
      }
    }
  }

  /**
   * queueCompleted goes out once per window (its version and last item), and never from a
   * draining player (docs/contract/platform.md §7.4.3: it asks for nothing more) or a suspended one (only a resume
   * wakes it, docs/contract/platform.md §3).
   */
  private mayAskQueueCompleted(): boolean {
    if (this.draining || this.state === 'SUSPENDED' || !this.window) return false;
    return this.queueCompletedAsked !== windowKey(this.window);
  }

  private async pollVersion(): Promise<void> {
    if (!this.queue) return;
    const epoch = this.epoch;
    this.lastPollAt = this.deps.clock.now();
    const result = await this.waitingFor('versionPoll', true, () => this.retries.send('versionPoll', (retry) => this.deps.client.version(this.queue!.target, retry)));
    if (epoch !== this.epoch || !this.queue) return;
    if (!result.ok) return this.dispatchFailure('versionPoll', result.failure, result.exchange.requestId);
    if (result.value.contextVersion !== undefined && this.queue.contextVersion !== undefined && result.value.contextVersion !== this.queue.contextVersion) {
      void this.refetchContext();
    }
    // docs/contract/platform.md §4.3: "If the version changed, the player follows with GET /itemWindow."
    if (this.window && result.value.queueVersion !== this.window.queueVersion) void this.backgroundWindow('refresh', 'versionChanged');
  }

  private async refetchContext(): Promise<void> {
    const epoch = this.epoch;
    const result = await this.waitingFor('context', true, () => this.retries.send('contextRefetch', (retry) => this.deps.client.context(this.queue!.target, retry)));
    if (epoch !== this.epoch || !this.queue) return;
    if (!result.ok) return this.dispatchFailure('contextRefetch', result.failure, result.exchange.requestId);
    this.queue.policies = { ...DEFAULT_POLICIES, ...result.value.playbackPolicies };
    this.queue.reports = result.value.reports ?? {};
    this.queue.contextVersion = result.value.contextVersion;
    this.queue.container = result.value.container;
    this.changed();
  }

  /**
   * The `final` report of a track that stops because something replaces its queue (a new load, a
   * new session): "posted once after each track finishes playing" (§2.3). One that ended at the end
   * of the queue has had its report. A queue dropped because its server failed or answered 404
   * gets none: the server just said it cannot take one.
   */
  private reportCutOff(): void {
    // A load waiting with its track started at once is cut off too: the track it cut off, and
    // what was held for its first window, are reported with the track playing.
    for (const cutOff of this.loading?.cutOffs ?? []) this.postReport(cutOff, { cutOff: true, ofQueueBefore: true });
    const prepared = this.settleHeldReports();
    if (prepared) this.postReport(prepared, { cutOff: true });
  }

  /** Not for a track without an item id: the load that would name it was left (see `untilFirstWindow`). */
  private prepareCutOff(): PreparedReport | null {
    return this.atEnd || this.isUnnamed(this.track) ? null : this.prepareReport('final');
  }

  private prepareReport(type: PlaybackReport['type'], skipReportId?: string): PreparedReport | null {
    if (!this.track || !this.queue || !this.track.hasStarted) return null;
    return { target: this.queue.target, report: this.track.report(type, this.deps.clock.now(), this.window?.queueVersion ?? '', skipReportId) };
  }

  private sendReport(type: PlaybackReport['type'], skipReportId?: string): void {
    const prepared = this.prepareReport(type, skipReportId);
    if (!prepared) return;
    if (!this.awaitsFirstWindow()) return this.postReport(prepared);
    const playback = this.track!;
    const held = this.reportsUntilFirstWindow.filter((r) => r.playback === playback);
    if (type === 'update') {
      if (held.some((r) => r.prepared.report.type === 'final')) return;
      this.reportsUntilFirstWindow = this.reportsUntilFirstWindow.filter((r) => r.playback !== playback || r.prepared.report.type !== 'update');
    }
    this.reportsUntilFirstWindow.push({ playback, prepared });
  }

  /** `cutOff`: the report of a queue being replaced, whose 404 must not evict the new session. */
  /**
   * Sends a timePlayed report. `ofQueueBefore`: the cut-off report of the queue a load replaced;
   * its failure is that queue's (in the traffic log), not an error of the queue now playing.
   */
  private postReport({ target, report }: PreparedReport, { cutOff = false, ofQueueBefore = false } = {}): void {
    const epoch = this.epoch;
    const kind = cutOff ? 'cutOffReport' : 'report';
    void this.retries.send(kind, (retry) => this.deps.client.timePlayed(target, [report], retry)).then((result) => {
      if (result.ok || epoch !== this.epoch || ofQueueBefore) return;
      // A report that fails never stops playback; a 404 still evicts the session (§7.1).
      this.dispatchFailure(kind, result.failure, result.exchange.requestId);
    });
  }

  /**
   * Sends again what a queue put back was asking (after a restart, or a failed load that had
   * started its track at once): its requests of then were cut off when the epoch moved on.
   */
  private askAgain(asked: SavedAsking): void {
    // A suspended session asks for nothing until it is resumed (docs/contract/platform.md §3).
    if (this.state === 'SUSPENDED') {
      if (asked.resume) void this.runResume();
      return;
    }
    if (asked.context) void this.refetchContext();
    if (asked.versionPoll) void this.pollVersion();
    if (asked.window) {
      // Asked again from the start: a queueCompleted still counts as not yet asked.
      if (asked.window.purpose === 'queueCompleted') this.queueCompletedAsked = null;
      void this.backgroundWindow(asked.window.reason, asked.window.purpose);
    }
    // Waits again behind the one just asked (or goes now, if none was).
    if (asked.windowAfter) void this.backgroundWindow(asked.windowAfter.reason, asked.windowAfter.purpose);
    if (asked.skipToItem) void this.runSkipToItem(asked.skipToItem);
  }

  private isUnnamed(playback: TrackPlayback | null): boolean {
    return playback !== null && this.unnamedTracks.has(playback);
  }

  /** The playing item's id; undefined while it has none yet (see `untilFirstWindow`), or with no track. */
  private knownItemId(): string | undefined {
    return this.isUnnamed(this.track) ? undefined : this.track?.item.id;
  }

  /**
   * A started-at-once load's queue is left for good (the load failed, or one that superseded it
   * started its own track): the tracks of that queue that were heard and have an item id get their
   * held reports and, the one playing, its final (no window came: no version to give).
   */
  private reportWhatWasHeard(): void {
    const final = this.settleHeldReports();
    if (final) this.postReport(final, { ofQueueBefore: true });
  }

  /**
   * Posts the reports held for a first window that will not come (a load that started its track
   * at once failed, or was superseded or cut off), those with an item id; returns the final the
   * playing track is still owed (see `prepareCutOff`), none when its final was among them.
   */
  private settleHeldReports(): PreparedReport | null {
    const { held, final } = this.heldReportsToPost();
    for (const prepared of held) this.postReport(prepared, { ofQueueBefore: true });
    this.reportsUntilFirstWindow = [];
    return final;
  }

  /** What `settleHeldReports` would post and return, left as it is (a save counts it owed). */
  private heldReportsToPost(): { held: PreparedReport[]; final: PreparedReport | null } {
    const held: PreparedReport[] = [];
    let finalHeld = false;
    for (const { playback, prepared } of this.reportsUntilFirstWindow) {
      if (this.unnamedTracks.has(playback)) continue;
      held.push(prepared);
      finalHeld ||= playback === this.track && prepared.report.type === 'final';
    }
    return { held, final: finalHeld ? null : this.prepareCutOff() };
  }

  /** A load that started its track at once waits for its answer, the queue's first window, or its track has no item id yet (see `untilFirstWindow`). */
  private awaitsFirstWindow(): boolean {
    return this.track !== null && (this.isUnnamed(this.track) || this.firstWindowPending);
  }

  /** True, with `ask` kept for the load's answer, while the queue has no first window yet. */
  private waitsForFirstWindow(ask: () => void): boolean {
    if (!this.awaitsFirstWindow()) return false;
    this.untilFirstWindow.push(ask);
    return true;
  }

  /** What the queue is asking for, with the window request that waits for the one in flight. */
  private savedAsking(): SavedAsking {
    const after = this.windowAfterInFlight;
    if (!after || after.epoch !== this.epoch) return { ...this.asking };
    return { ...this.asking, windowAfter: { reason: after.reason, purpose: after.purpose } };
  }

  /** Runs a request flow, noted in `asking` until it ends (answered, or out of retries). */
  private async waitingFor<K extends keyof SavedAsking, T>(kind: K, what: NonNullable<SavedAsking[K]>, flow: () => Promise<T>): Promise<T> {
    const asking = this.asking;
    asking[kind] = what;
    try {
      return await flow();
    } finally {
      if (asking[kind] === what) delete asking[kind];
    }
  }

  /**
   * Dispatches what the failure of a request of `kind` means (request-policies.ts); nothing for
   * one that is only noted (a report), which becomes the player's last error.
   */
  private dispatchFailure(kind: RequestKind, failure: Failure, requestId: string, purpose?: WindowPurpose): void {
    const event = failureEvent(meaningOf(kind, failure), failure, purpose);
    if (event) this.dispatch(event, { requestId });
    else this.noteError(failure);
  }

  // ---------------------------------------------------------------- playback mechanics

  /** `queueVersion`: the version the player holds (its window's) unless said otherwise. */
  private windowQuery(reason: Reason, itemId: string | undefined, queueVersion: string | undefined = this.window?.queueVersion) {
    return { reason, itemId, previousWindowSize: PREVIOUS_WINDOW_SIZE, upcomingWindowSize: UPCOMING_WINDOW_SIZE, queueVersion };
  }

  /** Moves to `item`; when `play`, through BUFFERING (the table set the state already). */
  private startTrack(item: QueueItem, play: boolean, positionMillis?: number): void {
    this.stopTrackTimers();
    this.clearTimer('pauseTtl');
    this.track = new TrackPlayback(item, positionMillis ?? 0);
    this.atEnd = false;
    this.atEdge = false;
    if (play) this.armAudioReady(this.fetched.has(item.id));
  }

  /** Moves the playhead within the current playback: durationPlayedMillis goes on (§2.3). */
  private seek(positionMillis: number | undefined): void {
    if (positionMillis === undefined || !this.track) return;
    this.track.seek(positionMillis, this.deps.clock.now());
    if (this.track.playing) this.startTrackTimers();
  }

  private startCommandItem(params: SkipToItemParams, play: boolean): void {
    const fromWindow = this.window?.item(params.itemId);
    const item: QueueItem = fromWindow ?? { id: params.itemId, track: params.trackMetadata! };
    if (params.trackMetadata && fetchedAtOnce(params.trackMetadata)) this.fetched.add(params.itemId);
    this.startTrack(item, play, params.positionMillis);
  }

  private armAudioReady(alreadyFetched: boolean): void {
    this.setTimer('audioReady', alreadyFetched ? 0 : BUFFERING_MS, () => this.dispatch({ type: 'audioReady' }));
  }

  /** Timers that follow the playhead: end of track, end of its audio download, update reports. */
  private startTrackTimers(): void {
    const track = this.track;
    if (!track?.playing) return;
    const now = this.deps.clock.now();
    this.setTimer('trackEnd', track.untilPosition(track.durationMillis, now), () => this.dispatch({ type: 'trackEnded' }));
    if (!this.fetched.has(track.item.id)) {
      this.setTimer('download', track.untilPosition(fetchCompletesAt(track.item.track), now), () => this.dispatch({ type: 'downloadComplete' }));
    }
    this.armUpdateReport();
  }

  private armPauseTtl(): void {
    const ttl = this.policies.pauseTtlSec;
    if (ttl !== undefined) this.setTimer('pauseTtl', ttl * 1_000, () => this.dispatch({ type: 'pauseTtlExpired' }));
  }

  private stopTrackTimers(): void {
    for (const name of ['audioReady', 'trackEnd', 'download', 'reportUpdate'] as const) this.clearTimer(name);
  }

  /** `update` reports after sendUpdateAfterMillis of play, then every periodicIntervalMillis. */
  private armUpdateReport(): void {
    const track = this.track;
    const settings = this.queue?.reports;
    if (!track?.playing || !settings) return;
    const first = settings.sendUpdateAfterMillis;
    const every = settings.periodicIntervalMillis;
    const played = track.durationPlayed(this.deps.clock.now());
    let next: number | undefined;
    if (first !== undefined && played < first) next = first;
    else if (every !== undefined && every > 0) next = (first ?? 0) + Math.ceil((played - (first ?? 0) + 1) / every) * every;
    if (next === undefined) return;
    this.setTimer('reportUpdate', next - played, () => {
      this.sendReport('update');
      this.armUpdateReport();
    });
  }

  /**
   * At the window's edge: a window request of this queue in flight is waited for (its answer
   * mostly reaches past the edge; `next-window-asks-again` covers one that does not); with none,
   * one is asked.
   */
  private awaitNextWindow(): void {
    // A track a pending load started at once waits for that load's answer, its first window.
    if (this.firstWindowPending) return;
    if (!this.backgroundWindowRun) void this.backgroundWindow('refresh', 'refresh');
  }

  /** BUFFERING taken up again (a restart, a failed load): the edge waits for a window, a track for its audio. */
  private bufferAgain(): void {
    if (this.atEdge) this.awaitNextWindow();
    else if (this.track) this.armAudioReady(this.fetched.has(this.track.item.id));
  }

  private askForNextWindowIfNear(): void {
    const current = this.track?.item.id;
    if (current && !this.draining && this.window?.needsNextWindow(current)) void this.backgroundWindow('refresh', 'refresh');
  }

  /** Polls /version every 600 s while playing, 300 s while paused; not when idle or suspended. */
  private rescheduleVersionPoll(): void {
    const interval = this.state === 'PLAYING' || this.state === 'BUFFERING' ? VERSION_POLL_PLAYING_MS : this.state === 'PAUSED' ? VERSION_POLL_PAUSED_MS : null;
    if (interval === null || !this.queue || !this.window) return this.clearTimer('versionPoll');
    const existing = this.timers.get('versionPoll');
    const due = Math.max(this.deps.clock.now(), this.lastPollAt + interval);
    if (existing && existing.due === due) return;
    this.setTimer('versionPoll', due - this.deps.clock.now(), () => {
      void this.pollVersion();
      this.rescheduleVersionPoll();
    });
  }

  private dropQueue(): void {
    this.leaveRequests('the queue was dropped');
    for (const name of [...this.timers.keys()]) this.clearTimer(name);
    this.queue = null;
    this.window = null;
    this.track = null;
    this.atEnd = false;
    this.atEdge = false;
    this.draining = false;
    this.fetched.clear();
    // A load whose track started at once is what was playing: it went with the queue. One that
    // would have put back a queue from before (taken from a load it superseded) now has none.
    if (this.loading?.startedAtOnce) this.settleLoad(new PlaybackError('ERROR_CLOUD_QUEUE_SERVER', 'the queue being loaded was dropped'));
    else if (this.loading) this.loading.previous = null;
  }

  /** Ends the skip waiting for the server: done (no error), or refused with `error`. */
  private settleSkip(error?: PlaybackError): void {
    if (error) this.skipping?.reject(error);
    else this.skipping?.resolve();
    this.skipping = null;
  }

  /**
   * The player leaves the queue it played, or the requests it made of it: their answers, and
   * their retries, no longer count (the epoch moves on), and a skip waiting for one is refused.
   */
  private leaveRequests(why: string): void {
    this.epoch++;
    this.asking = {};
    // A window request of the queue left may still be in flight or waiting to retry: the next go now.
    this.backgroundWindowRun = null;
    this.windowAfterInFlight = null;
    // (The track without an item id stays marked: a cut-off report must not name it.)
    this.untilFirstWindow = [];
    this.reportsUntilFirstWindow = [];
    this.firstWindowPending = false;
    this.settleSkip(new PlaybackError('ERROR_CLOUD_QUEUE_SERVER', why));
  }

  private settleLoad(error: PlaybackError): void {
    this.loading?.reject(error);
    this.loading = null;
  }

  wasEvicted(sessionId: string): boolean {
    return this.evictedSessions.includes(sessionId);
  }

  /** Drops the queue and forgets the session; a load it asked for, with a queue or still without one, is not the next session's. */
  private evictSession(): void {
    // Before the queue goes: a load whose track started at once would fail as the queue dropped.
    this.settleLoad(new PlaybackError('ERROR_SESSION_EVICTED', 'the session was evicted'));
    this.dropQueue();
    this.forgetSession();
  }

  private forgetSession(): void {
    if (!this.session) return;
    this.evictedSessions.push(this.session.id);
    if (this.evictedSessions.length > 50) this.evictedSessions.shift();
    this.session = null;
  }

  private requireQueue(): void {
    if (!this.session) throw new PlaybackError('ERROR_SESSION_EVICTED', 'the session is gone');
    if (!this.queue || this.state === 'IDLE') throw new PlaybackError('ERROR_PLAYBACK_NO_CONTENT', 'no cloud queue is loaded');
  }

  private isMoving(): boolean {
    return this.state === 'PLAYING' || this.state === 'BUFFERING';
  }

  private takeSnapshot(): Snapshot {
    return { state: this.state, queue: this.queue, window: this.window, track: this.track, atEnd: this.atEnd, atEdge: this.atEdge, asking: this.savedAsking() };
  }

  private setTimer(name: Timers, delayMs: number, callback: () => void): void {
    this.clearTimer(name);
    this.timers.set(
      name,
      this.deps.clock.setTimeout(() => {
        this.timers.delete(name);
        callback();
      }, delayMs, `${this.id} ${name}`),
    );
  }

  private clearTimer(name: Timers): void {
    const timer = this.timers.get(name);
    if (timer) this.deps.clock.clearTimeout(timer);
    this.timers.delete(name);
  }

  private noteViolations(result: ClientResult<unknown>): void {
    if (result.exchange.violations.length > 0) this.deps.onViolations?.(result.exchange.violations, result.exchange.requestId);
  }

  private noteError(failure: Failure): void {
    this.lastError = { at: this.deps.clock.now(), message: failure.message, status: failure.status };
    this.changed();
  }

  private changed(): void {
    this.deps.onChange?.();
  }
}

function cloudQueueError(failure: Failure, itemId?: string): PlaybackError {
  return new PlaybackError('ERROR_CLOUD_QUEUE_SERVER', `the cloud queue server failed: ${failure.message}`, { httpStatus: failure.status, itemId });
}

function detailOf(event: PlayerEvent): string | undefined {
  if ('failure' in event) return event.failure.message;
  if (event.type === 'windowAnswered') return event.purpose;
  if (event.type === 'skipAnswered') return `${event.skipped} → ${event.target.id}`;
  return undefined;
}

/** Exposed for tests that need a window response's shape. */
export type { ItemWindowResponse };
