/**
 * The shapes the engine shows to its hosts (admin API, IPC bridge, renderer). Pure types: both the
 * Node side and the web side compile this file.
 */

/** Engine time in epoch milliseconds and the speed it runs at (CONTRACT §6). */
export interface ClockState {
  now: number;
  speed: number;
}

/** The four listeners of CONTRACT §1. */
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
}

export interface EngineStateView {
  clock: ClockState;
  urls: ServiceUrls;
  /** Where the data lives; null when the engine runs `--ephemeral`. */
  dataDir: string | null;
  households: HouseholdView[];
  groups: GroupView[];
  players: PlayerView[];
}
