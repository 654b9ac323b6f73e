/**
 * What a new queue starts with, and the server's own limits. Policy defaults are the platform's
 * public ones (a policy left out means the player's default), except pauseTtlSec, which has none.
 */
import type { PlaybackPolicies, ReportSettings } from '../api/queue-types.js';

export const DEFAULT_PLAYBACK_POLICIES: PlaybackPolicies = {
  canSkip: true,
  limitedSkips: false,
  canSkipBack: true,
  canSeek: true,
  canSkipToItem: true,
  canRepeat: true,
  canRepeatOne: true,
  canCrossfade: true,
  canShuffle: true,
  canResume: false,
  notifyUserIntent: false,
  pauseTtlSec: 3_600,
};

export const DEFAULT_REPORTS: ReportSettings = {
  sendUpdateAfterMillis: 30_000,
  periodicIntervalMillis: 30_000,
  sendPlaybackActions: true,
};

export const DEFAULT_CONTAINER_TYPE = 'playlist';
export const CONTAINER_SERVICE_ID = 'cloud-queue-console';

/** Queue access tokens live a day (like the login service's), unless issued otherwise. */
export const DEFAULT_TOKEN_LIFETIME_SEC = 86_400;

/** The cloud queue versions served under each queue's base URL (docs/contract/console.md §4). */
export const CLOUD_QUEUE_VERSIONS = ['v2.0', 'v2.2', 'v2.3'] as const;
export const CURRENT_VERSION = 'v2.3';

/** Window sides when the player leaves a size out (the simulated player's own defaults). */
export const DEFAULT_PREVIOUS_WINDOW_SIZE = 5;
export const DEFAULT_UPCOMING_WINDOW_SIZE = 10;
/** A window never holds more than this on either side, whatever was asked (fewer is allowed). */
export const MAX_WINDOW_SIDE = 1_000;
