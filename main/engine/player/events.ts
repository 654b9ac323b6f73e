/**
 * What a player reacts to. Every event has a cause (request, response, timer,
 * user, command) that the transition timeline shows beside each change.
 */
import type { Failure } from './retry.js';
import type { ItemWindowResponse, QueueItem, Track } from './wire.js';

export type TransitionCause = 'command' | 'user' | 'response' | 'timer' | 'request';

export interface LoadParams {
  queueBaseUrl: string;
  httpAuthorization?: string;
  itemId?: string;
  queueVersion?: string;
  positionMillis?: number;
  playOnCompletion?: boolean;
  trackMetadata?: Track;
}

export interface SkipToItemParams {
  itemId: string;
  queueVersion?: string;
  positionMillis?: number;
  playOnCompletion?: boolean;
  trackMetadata?: Track;
}

/**
 * seek / seekRelative (docs/contract/console.md §3): where the playhead goes, absolute or moved by
 * a delta; `itemId`, when sent, must be the playing item (a scrub that lands as the next track
 * starts must not jump back).
 */
export type SeekTarget = ({ positionMillis: number } | { deltaMillis: number }) & { itemId?: string };

export type UserAction = 'play' | 'pause' | 'skipNext' | 'skipPrev' | 'resume';

/** Background window requests and what they are for. */
export type WindowPurpose =
  | 'refresh'
  | 'queueCompleted'
  | 'versionChanged'
  | 'refreshCommand'
  | 'skipToItem'
  | 'pause'
  | 'play'
  | 'skipNext'
  | 'skipPrev';

export type PlayerEvent =
  // commands (control API)
  | { type: 'load'; params: LoadParams }
  | { type: 'skipToItem'; params: SkipToItemParams }
  | { type: 'refresh' }
  | { type: 'suspend' }
  | { type: 'sessionReplaced' }
  /** The playhead moves within the playing item; `positionMillis` already resolved and clamped. */
  | { type: 'seek'; positionMillis: number; by: 'user' | 'command' }
  // user actions, from the player's buttons or the control API's playback commands
  | { type: UserAction; by: 'user' | 'command' }
  // answers from the cloud queue server
  | { type: 'loadStartedAtOnce'; track: Track }
  | { type: 'loadAnswered'; window: ItemWindowResponse }
  | { type: 'loadFailed'; failure: Failure }
  | { type: 'resumeAnswered'; window: ItemWindowResponse }
  | {
      type: 'skipAnswered';
      window: ItemWindowResponse;
      target: QueueItem;
      skipped: 'skipNext' | 'skipPrev' | 'skipToItem';
      /** Whether the player plays the target or stays paused on it. */
      plays: boolean;
      positionMillis?: number;
    }
  | { type: 'skipRefused'; failure: Failure }
  /** `askedFor`: the item the request was anchored on (its itemId), when it named one. */
  | { type: 'windowAnswered'; window: ItemWindowResponse; purpose: WindowPurpose; askedFor: string | undefined }
  | { type: 'windowNotFound'; failure: Failure }
  | { type: 'sessionNotFound'; failure: Failure }
  /** `purpose`: set when the request whose retries ran out asked for a window. */
  | { type: 'backgroundExhausted'; failure: Failure; purpose?: WindowPurpose }
  | { type: 'foregroundFailed'; failure: Failure }
  // engine-clock timers
  | { type: 'audioReady' }
  | { type: 'trackEnded' }
  | { type: 'downloadComplete' }
  | { type: 'pauseTtlExpired' };

export type PlayerEventType = PlayerEvent['type'];
export type EventOf<T extends PlayerEventType> = Extract<PlayerEvent, { type: T }>;

const CAUSES: Record<PlayerEventType, TransitionCause | 'byField'> = {
  load: 'command',
  skipToItem: 'command',
  refresh: 'command',
  suspend: 'command',
  sessionReplaced: 'command',
  seek: 'byField',
  play: 'byField',
  pause: 'byField',
  skipNext: 'byField',
  skipPrev: 'byField',
  resume: 'byField',
  loadStartedAtOnce: 'response',
  loadAnswered: 'response',
  loadFailed: 'response',
  resumeAnswered: 'response',
  skipAnswered: 'response',
  skipRefused: 'response',
  windowAnswered: 'response',
  windowNotFound: 'response',
  sessionNotFound: 'response',
  backgroundExhausted: 'response',
  foregroundFailed: 'response',
  audioReady: 'timer',
  trackEnded: 'timer',
  downloadComplete: 'timer',
  pauseTtlExpired: 'timer',
};

export function causeOf(event: PlayerEvent): TransitionCause {
  const cause = CAUSES[event.type];
  return cause === 'byField' ? (event as { by: 'user' | 'command' }).by : cause;
}
