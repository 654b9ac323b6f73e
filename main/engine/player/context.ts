/**
 * The player's state as one typed record, in parts, each written by one module only: the session
 * and its queue (session-state.ts), the window (window-state.ts), the track (track-state.ts), the
 * reports held for a first window (reports.ts), the requests in flight (requests-state.ts), the
 * pending load and skip (load-state.ts), and the machine's own row (player.ts). Everyone else
 * reads `PlayerContext`, a read-only view; owners.test.ts fails on a write from anywhere else.
 * The small reads here are what several modules ask of it.
 */
import type { Timer } from '../clock/clock.js';
import type { CloudQueueTarget } from './client.js';
import type { PlaybackError } from './errors.js';
import type { LoadParams, SkipToItemParams, WindowPurpose } from './events.js';
import type { MachineState } from './states.js';
import type { TrackPlayback } from './track-playback.js';
import type { QueueWindow } from './windows.js';
import {
  DEFAULT_POLICIES,
  type ContextResponse,
  type PlaybackPolicies,
  type PlaybackReport,
  type Reason,
  type ReportSettings,
} from './wire.js';

/**
 * Requests of the loaded queue that had not answered (nor run out of retries): held in the
 * requests part, and what a saved player writes down (saved.ts) to ask again after a restart.
 */
export interface SavedAsking {
  /** A background itemWindow: the next window, queueCompleted, a refresh. */
  window?: { reason: Reason; purpose: WindowPurpose };
  /** A background itemWindow waiting for the one in flight (a refresh command, queueCompleted…). */
  windowAfter?: { reason: Reason; purpose: WindowPurpose };
  /** A skipToItem the control API already answered. */
  skipToItem?: SkipToItemParams;
  versionPoll?: true;
  context?: true;
  /** An explicit resume of a suspended session. */
  resume?: true;
}

export interface PlaybackSession {
  id: string;
  appId: string;
  appContext: string;
  customData?: unknown;
  createdAt: number;
}

export interface PlayerErrorRecord {
  at: number;
  message: string;
  status?: number;
}

/** A loaded queue: replaced whole when its context changes, never edited in place. */
export interface LoadedQueue {
  readonly target: CloudQueueTarget;
  readonly policies: PlaybackPolicies;
  readonly reports: ReportSettings;
  readonly contextVersion?: string;
  readonly container?: ContextResponse['container'];
}

export interface PreparedReport {
  target: CloudQueueTarget;
  report: PlaybackReport;
}

export interface PendingLoad {
  params: LoadParams;
  /** The queue being loaded, once its context answered; it replaces the current one on success. */
  queue?: LoadedQueue;
  /**
   * What a failed load puts back (docs/contract/platform.md §3: "Unchanged (previous state)"),
   * taken when the load started its track at once, the one thing that replaces the playback before
   * the server answered. Null until then: the player goes on with its queue meanwhile, and a
   * failure leaves it as it is. A load that supersedes another takes that one's (set if it started
   * a track at once, or took one in turn): the queue started was never confirmed, so what it
   * replaced is still the state to go back to.
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

export interface PendingSkip {
  resolve: () => void;
  reject: (error: PlaybackError) => void;
}

/** What a failed load puts back (taken by load-state.ts, put back by pending-load.ts). */
export interface Snapshot {
  state: MachineState;
  queue: LoadedQueue | null;
  window: QueueWindow | null;
  track: TrackPlayback | null;
  atEnd: boolean;
  atEdge: boolean;
  /** What the queue was asking its server: asked again when the snapshot is put back. */
  asking: SavedAsking;
}

export type TimerName = 'audioReady' | 'trackEnd' | 'download' | 'reportUpdate' | 'pauseTtl' | 'versionPoll';
export type Timers = Map<TimerName, Timer>;

/** The session and the queue it loaded (session-state.ts). */
export interface SessionPart {
  session: PlaybackSession | null;
  queue: LoadedQueue | null;
  /** Ids of recently evicted sessions, so their commands get ERROR_SESSION_EVICTED. */
  readonly evictedSessions: string[];
}

/** The queue's window and what the player knows of it (window-state.ts). */
export interface WindowPart {
  window: QueueWindow | null;
  /** Background retries ran out: no more windows, pause at the window's end (§7.4.3). */
  draining: boolean;
  /** Items whose audio is fetched. */
  readonly fetched: Set<string>;
  /** The window a queueCompleted was asked for (see `windowKey`). */
  queueCompletedAsked: string | null;
  lastPollAt: number;
}

/** The playing track and where it stands (track-state.ts); its TrackPlayback is moved only there too. */
export interface TrackPart {
  track: TrackPlayback | null;
  atEnd: boolean;
  /** The track reached its end at the window's edge and waits for the next window (its final report with it). */
  atEdge: boolean;
  /** That track's playbacks (it may be played again from its end), until the load's answer names it. */
  readonly unnamedTracks: Set<TrackPlayback>;
  /** A load started its track at once and its answer has not come (not just: no window, a skip's answer brings one). */
  firstWindowPending: boolean;
}

/** A report due before a first window, kept for it. */
export interface HeldReport {
  playback: TrackPlayback;
  prepared: PreparedReport;
}

/** The report ledger's own state (reports.ts). */
export interface ReportsPart {
  /**
   * Reports due meanwhile, as they were then, posted once the answer came with its window's
   * version (and the unnamed track's id): per playback one update at most (a later one says all
   * it did), none after its final.
   */
  reportsUntilFirstWindow: HeldReport[];
}

/** The requests the player has out for its queue (requests-state.ts). */
export interface RequestsPart {
  /** Bumped whenever the queue is replaced or dropped: late answers for an older one are ignored. */
  epoch: number;
  /** Requests of this epoch still waiting for an answer (a restart asks them again). */
  asking: SavedAsking;
  /**
   * The background window request in flight for this queue (see `backgroundWindow`). One of a
   * queue before does not hold the slot: leaving the requests frees it, as its answer will be dropped.
   */
  backgroundWindowRun: object | null;
  /** A window request asked for while a background window was in flight (see `backgroundWindow`). */
  windowAfterInFlight: { reason: Reason; purpose: WindowPurpose; epoch: number } | null;
  /**
   * What asks the server about the playing track while a load that started its track at once
   * waits for its answer, the queue's first window: asked once it came. Without a window an
   * answer cannot be placed, and a track the load named no item for has no id yet (a
   * placeholder id would be answered 404, and the player would drop the queue, §7.1).
   */
  untilFirstWindow: (() => void)[];
}

/** The load and the skip waiting for the server (load-state.ts). */
export interface LoadPart {
  loading: PendingLoad | null;
  skipping: PendingSkip | null;
}

/** The machine's own: its row, its last error, its volume, whether it closed (player.ts). */
export interface MachinePart {
  state: MachineState;
  lastError: PlayerErrorRecord | null;
  volume: number;
  closed: boolean;
}

/** Every part as its owner writes it. */
export type PlayerState = SessionPart & WindowPart & TrackPart & ReportsPart & RequestsPart & LoadPart & MachinePart;

/** What every module reads: the parts, read-only (owners write through their own modules). */
export type PlayerContext = {
  readonly [K in keyof PlayerState]: PlayerState[K] extends Set<infer T>
    ? ReadonlySet<T>
    : PlayerState[K] extends (infer T)[]
      ? readonly T[]
      : PlayerState[K];
};

export function newPlayerContext(): PlayerState {
  return {
    state: 'IDLE',
    session: null,
    queue: null,
    window: null,
    track: null,
    atEnd: false,
    atEdge: false,
    draining: false,
    fetched: new Set(),
    queueCompletedAsked: null,
    backgroundWindowRun: null,
    untilFirstWindow: [],
    unnamedTracks: new Set(),
    firstWindowPending: false,
    reportsUntilFirstWindow: [],
    windowAfterInFlight: null,
    loading: null,
    skipping: null,
    epoch: 0,
    asking: {},
    lastPollAt: 0,
    lastError: null,
    evictedSessions: [],
    volume: 30,
    closed: false,
  };
}

/**
 * Window requests that wait for one in flight rather than being dropped: their answer is about a
 * change made after it was sent (a command, a new version, a skipToItem's item). The next-window
 * check needs no second try: the playhead asks again when the next track starts. A queueCompleted
 * check waits as well (see backgroundWindow), as nothing would ask it again.
 */
export const QUEUED_PURPOSES: readonly WindowPurpose[] = ['refreshCommand', 'versionChanged', 'skipToItem'];
/** Windows asked for a user's skip or intent, not by the player's own background work. */
export const FOREGROUND_PURPOSES: readonly WindowPurpose[] = ['skipNext', 'skipPrev', 'pause', 'play'];

/** Which window a queueCompleted was asked for: its version and its last item. */
export const windowKey = (window: QueueWindow): string => `${window.queueVersion}:${window.items.at(-1)?.id ?? ''}`;

/**
 * The policies in force: the queue's, with the playing item's own over them as the newest window
 * that holds it gives them (an edit can change them, and moves the version the player follows),
 * else as they were when it started (docs/contract/console.md §4 `items[].policies`).
 */
export function policiesOf({
  queue,
  window,
  track,
}: {
  queue: LoadedQueue | null;
  window: QueueWindow | null;
  track: TrackPlayback | null;
}): PlaybackPolicies {
  const base = queue?.policies ?? DEFAULT_POLICIES;
  const newest = track ? (window?.item(track.item.id) ?? track.item) : undefined;
  return newest?.policies ? { ...base, ...newest.policies } : base;
}

export function isUnnamed(ctx: PlayerContext, playback: TrackPlayback | null): boolean {
  return playback !== null && ctx.unnamedTracks.has(playback);
}

/** The playing item's id; undefined while it has none yet (see `untilFirstWindow`), or with no track. */
export function knownItemId(ctx: PlayerContext): string | undefined {
  return isUnnamed(ctx, ctx.track) ? undefined : ctx.track?.item.id;
}

/** A load that started its track at once waits for its answer, the queue's first window, or its track has no item id yet (see `untilFirstWindow`). */
export function awaitsFirstWindow(ctx: PlayerContext): boolean {
  return ctx.track !== null && (isUnnamed(ctx, ctx.track) || ctx.firstWindowPending);
}

export function isMoving(ctx: PlayerContext): boolean {
  return ctx.state === 'PLAYING' || ctx.state === 'BUFFERING';
}

/** What the queue is asking for, with the window request that waits for the one in flight. */
export function savedAsking(ctx: PlayerContext): SavedAsking {
  const after = ctx.windowAfterInFlight;
  if (!after || after.epoch !== ctx.epoch) return { ...ctx.asking };
  return { ...ctx.asking, windowAfter: { reason: after.reason, purpose: after.purpose } };
}
