/**
 * What the player reads from and sends to a cloud queue server (docs/contract/platform.md §2.3, §4.3; docs/contract/console.md §4).
 * Only the fields the player relies on are named; servers may send more.
 */
export interface Track {
  name?: string;
  mediaUrl: string;
  contentType?: string;
  /** Absent for streams; the player then assumes DEFAULT_TRACK_MILLIS. */
  durationMillis?: number;
  imageUrl?: string;
  artist?: { name?: string };
  album?: { name?: string };
}

export interface QueueItem {
  id: string;
  track: Track;
  policies?: Partial<PlaybackPolicies>;
}

export interface ItemWindowResponse {
  includesBeginningOfQueue: boolean;
  includesEndOfQueue: boolean;
  contextVersion?: string;
  queueVersion: string;
  items: QueueItem[];
}

export interface PlaybackPolicies {
  canSkip: boolean;
  limitedSkips: boolean;
  canSkipBack: boolean;
  canSeek: boolean;
  canSkipToItem: boolean;
  notifyUserIntent: boolean;
  /** Seconds a paused session stays before the player suspends it; absent: never. */
  pauseTtlSec?: number;
}

export interface ReportSettings {
  /** Played time of a track after which its first `update` report goes out. */
  sendUpdateAfterMillis?: number;
  /** Played time between further `update` reports. */
  periodicIntervalMillis?: number;
  /** Also send an `update` report on pause and resume. */
  sendPlaybackActions?: boolean;
}

export interface ContextResponse {
  contextVersion?: string;
  queueVersion?: string;
  container?: { name?: string; type?: string; id?: unknown; imageUrl?: string };
  reports?: ReportSettings;
  playbackPolicies?: Partial<PlaybackPolicies>;
}

export interface VersionResponse {
  queueVersion: string;
  contextVersion?: string;
}

export type { PlaybackReport } from '../api/queue-types.js';
export type { ItemWindowReason as Reason } from '../cloud-queue/reasons.js';

/** The policies a player assumes before (or without) a context: everything allowed, nothing asked. */
export const DEFAULT_POLICIES: PlaybackPolicies = {
  canSkip: true,
  limitedSkips: false,
  canSkipBack: true,
  canSeek: true,
  canSkipToItem: true,
  notifyUserIntent: false,
};

export const DEFAULT_TRACK_MILLIS = 180_000;
