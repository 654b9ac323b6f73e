/**
 * The player's states. The first four are the playback states of docs/contract/console.md §5 (what the control
 * API and the admin API report); SUSPENDED is docs/contract/platform.md §3's "suspended session": a paused session the
 * player has suspended after pauseTtlSec, reported as PLAYBACK_STATE_PAUSED with `suspended`.
 */
import type { PlaybackState } from '../api/types.js';

export const STATES = {
  /** No active queue: nothing loaded, or the queue was cleared (404) or the session evicted. */
  IDLE: 'IDLE',
  /** A track is about to play: its audio is being fetched. */
  BUFFERING: 'BUFFERING',
  /** A track plays; its playhead moves with the engine clock. */
  PLAYING: 'PLAYING',
  /** Playback paused by the user, a command, or at the end of the queue. */
  PAUSED: 'PAUSED',
  /** A paused session suspended after pauseTtlSec; only an explicit resume brings it back. */
  SUSPENDED: 'SUSPENDED',
} as const;

export type MachineState = (typeof STATES)[keyof typeof STATES];

export const ALL_STATES: readonly MachineState[] = Object.values(STATES);

export function playbackStateOf(state: MachineState): PlaybackState {
  switch (state) {
    case 'IDLE':
      return 'PLAYBACK_STATE_IDLE';
    case 'BUFFERING':
      return 'PLAYBACK_STATE_BUFFERING';
    case 'PLAYING':
      return 'PLAYBACK_STATE_PLAYING';
    case 'PAUSED':
    case 'SUSPENDED':
      return 'PLAYBACK_STATE_PAUSED';
  }
}
