/**
 * What hosts see of the simulated players (docs/contract/console.md §5, §7). Pure types, shared with the renderer.
 */
import type { TriggerRequest } from './fault-types.js';
import type { CloudQueueEndpoint, PlaybackState, PlayerFailing } from './types.js';

export type PlayerMachineState = 'IDLE' | 'BUFFERING' | 'PLAYING' | 'PAUSED' | 'SUSPENDED';
export type TransitionCause = 'command' | 'user' | 'response' | 'timer' | 'request';
export type PlayerAction = 'play' | 'pause' | 'skipNext' | 'skipPrev' | 'resume';

export interface PlayerTransition {
  seq: number;
  playerId: string;
  groupId: string;
  /** Engine time. */
  at: number;
  from: PlayerMachineState;
  to: PlayerMachineState;
  event: string;
  cause: TransitionCause;
  /** The id of the row of the transition table that fired. */
  transition: string;
  requestId: string | null;
  detail: string | null;
}

/**
 * A cloud queue response that broke the contract, as stored (docs/contract/console.md §5): kept
 * across restarts, the newest PLAYER_VIOLATIONS_KEPT of each player.
 */
export interface PlayerViolation {
  /** Ascending in the order they were found; never given twice. */
  id: number;
  /** Engine time the response came. */
  at: number;
  playerId: string;
  /** `error`: the response could not be used (the request failed); `warning`: the player went on. */
  level: 'error' | 'warning';
  /** `<endpoint>.<what>` (docs/player.md lists them), e.g. `itemWindow.requested-item`. */
  rule: string;
  message: string;
  /** The traffic entry of the exchange (`GET /traffic/{id}`); null when capture was off. */
  trafficId: number | null;
}

/** Violations kept per player, the newest (docs/contract/console.md §5). */
export const PLAYER_VIOLATIONS_KEPT = 1_000;
/** The newest violations a player detail carries. */
export const DETAIL_VIOLATIONS = 20;

export interface TrackView {
  /** Null while a loadCloudQueue that started its track at once without an itemId waits for its answer. */
  id: string | null;
  name?: string;
  mediaUrl: string;
  durationMillis?: number;
  imageUrl?: string;
  artist?: { name?: string };
  album?: { name?: string };
}

/** Everything the player panel shows of one player (the group's player). */
export interface PlayerDetail {
  id: string;
  groupId: string;
  playbackState: PlaybackState;
  state: PlayerMachineState;
  suspended: boolean;
  itemId: string | null;
  positionMillis: number;
  queueVersion: string | null;
  /** Engine time this detail was taken at, so a panel can move the playhead between pushes. */
  at: number;
  sessionId: string | null;
  queueBaseUrl: string | null;
  policies: Record<string, unknown> | null;
  reports: Record<string, unknown> | null;
  container: Record<string, unknown> | null;
  window: {
    queueVersion: string;
    includesBeginningOfQueue: boolean;
    includesEndOfQueue: boolean;
    items: { id: string; name: string | null; durationMillis: number | null }[];
  } | null;
  track: TrackView | null;
  draining: boolean;
  /** Paused or ready after the last track of the queue (its final report posted). */
  atEnd: boolean;
  /** The track reached its end at the window's edge and waits for the next window (docs/contract/platform.md §4.3 Next Window). */
  atEdge: boolean;
  volume: number;
  lastError: { at: number; message: string; status?: number } | null;
  /** Its newest finished request failed, and how many in a row (null once one succeeds). */
  failing: PlayerFailing | null;
  /**
   * Requests that failed and wait for their next try (docs/contract/platform.md §7.2, §7.4), so a storm shows while it
   * runs, not only once the tries are used up: which request, the retry to come (1-based) of how
   * many, the engine time it goes out, and why the last try failed.
   */
  retrying: RetryWait[];
  /** The newest DETAIL_VIOLATIONS violations its server's responses made, oldest first (`GET /players/{id}/violations` has more). */
  violations: PlayerViolation[];
  /**
   * What each command would be refused with now, by the player's one precondition table (state ×
   * session × policy → error): the row, its errorCode and reason. A command absent here may go.
   * The command bar and the workbench turn a button off with this reason.
   */
  refusals: Partial<Record<PlayerCommandName, PlayerRefusal>>;
}

/** A command the precondition table covers: the player's own, or a "Trigger now" of one request. */
export type PlayerCommandName =
  'skipToItem' | 'seek' | 'refresh' | 'suspend' | PlayerAction | `trigger:${TriggerRequest}`;

export interface PlayerRefusal {
  row: string;
  errorCode: string;
  reason: string;
}

export type { CloudQueueEndpoint, PlayerFailing } from './types.js';

export interface RetryWait {
  /** Unique within the player's run. */
  id: number;
  endpoint: CloudQueueEndpoint;
  reason?: string;
  /** Background (§7.4: the player plays on) or foreground (§7.2: it waits for the answer). */
  background: boolean;
  retry: number;
  of: number;
  at: number;
  failure: { message: string; status?: number };
}

/** One row of the transition table, for the state diagram. */
export interface TransitionRow {
  id: string;
  from: PlayerMachineState[];
  on: string[];
  guard: string | null;
  to: PlayerMachineState | 'same' | 'previous';
  effects: string[];
  note: string;
}

/** The most characters a player's name takes (the form says so by its field's own limit). */
export const PLAYER_NAME_MAX_CHARS = 100;
