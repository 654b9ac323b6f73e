/**
 * The shapes the engine shows to its hosts (admin API, IPC bridge, renderer). Pure types: both the
 * Node side and the web side compile this file.
 */

/** Engine time in epoch milliseconds and the speed it runs at (docs/contract/console.md §6). */
export interface ClockState {
  now: number;
  speed: number;
}

/** The four listeners of docs/contract/console.md §1. */
export interface ServiceUrls {
  console: string;
  login: string;
  control: string;
  cloudQueue: string;
}

export const PLAYBACK_STATES = [
  'PLAYBACK_STATE_IDLE',
  'PLAYBACK_STATE_BUFFERING',
  'PLAYBACK_STATE_PLAYING',
  'PLAYBACK_STATE_PAUSED',
] as const;
export type PlaybackState = (typeof PLAYBACK_STATES)[number];

export interface HouseholdView {
  id: string;
  name: string;
}

export interface GroupView {
  id: string;
  householdId: string;
  /** The coordinator's name, with "+ N" for the other members, as a group is shown to users. */
  name: string;
  coordinatorId: string;
  playerIds: string[];
}

export interface PlayerView {
  id: string;
  name: string;
  householdId: string;
  groupId: string;
  playbackState: PlaybackState;
  suspended: boolean;
  itemId: string | null;
  positionMillis: number;
  /** Its newest finished request failed (see PlayerFailing): a PLAYING player whose reports are refused shows it. */
  failing: PlayerFailing | null;
}

/** The four calls a player makes to a cloud queue server. */
export type CloudQueueEndpoint = 'context' | 'itemWindow' | 'version' | 'timePlayed';

/**
 * A player whose newest finished cloud queue request failed (`failing` in `GET /state`'s players
 * and in its detail): the failures in a row since `since`, and the last of them. Let go by the
 * next request that succeeds; not kept across a restart.
 */
export interface PlayerFailing {
  /** Engine time the first failure of the run was sent. */
  since: number;
  /** Failures in a row, retries included. */
  count: number;
  /** The last failure: its endpoint, its HTTP status (none: no complete answer), why, and when it ended (engine time). */
  endpoint: CloudQueueEndpoint;
  status?: number;
  message: string;
  at: number;
}

/** Where an engine warning comes from: the traffic log, a player's saved state (saving it, or taking it up after a restart). */
export type EngineWarningSource = 'traffic-log' | 'player-saved';

/**
 * Something the engine could not do as it should, while it went on (only the log had said so
 * before): kept for the run, so that the status bar shows it to whoever opens the console later.
 * The same warning again counts up rather than adding a row.
 */
export interface EngineWarning {
  source: EngineWarningSource;
  message: string;
  /** Wall time (epoch ms) it first and last happened. */
  firstAt: number;
  lastAt: number;
  count: number;
}

export interface EngineStateView {
  /**
   * This run of the engine, made afresh at every start (data dir or not). A page open across a
   * restart compares it with what it kept: the guided demo's ticks are the last run's, say.
   */
  startId: string;
  clock: ClockState;
  urls: ServiceUrls;
  /** Where the data lives; null when the engine runs `--ephemeral`. */
  dataDir: string | null;
  /** This run's warnings, oldest first (see EngineWarning). */
  warnings: EngineWarning[];
  households: HouseholdView[];
  groups: GroupView[];
  players: PlayerView[];
}

/**
 * What the console's UI remembers of its user, kept by the engine (in the data dir) rather than in
 * the browser: a browser keeps what a page stores under the page's origin, and `--port 0` gives
 * every start another origin, so a theme chosen and a demo closed were lost at each restart.
 */
export interface UiPreferences {
  /** The colour scheme chosen; absent: the system's. */
  theme?: 'system' | 'light' | 'dark';
  /** The guided demo was closed once: it no longer opens by itself. */
  demoDismissed?: boolean;
}
