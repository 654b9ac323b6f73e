/**
 * The shapes of the reference cloud queue server as hosts see them (admin API, IPC, renderer).
 * Pure types: both the Node side and the web side compile this file. Wire names follow the seed
 * and docs/contract/console.md §4 (`queueVersion`, `contextVersion`, `itemWindow`, `reason`, …).
 */

/** A track as the itemWindow response carries it (docs/contract/console.md §4); unknown fields pass through. */
export interface Track {
  name?: string;
  mediaUrl?: string;
  contentType?: string;
  durationMillis?: number;
  imageUrl?: string;
  artist?: { name?: string };
  album?: { name?: string };
  [field: string]: unknown;
}

export type PolicyValue = boolean | number | string;

export interface QueueItem {
  id: string;
  track: Track;
  /** Item-level playback policies, overriding the context's for this item. */
  policies?: Record<string, PolicyValue>;
}

export interface PlaybackPolicies {
  canSkip: boolean;
  limitedSkips: boolean;
  canSkipBack: boolean;
  canSeek: boolean;
  canSkipToItem: boolean;
  canRepeat: boolean;
  canRepeatOne: boolean;
  canCrossfade: boolean;
  canShuffle: boolean;
  canResume: boolean;
  notifyUserIntent: boolean;
  /** Seconds a paused session waits before the player suspends it (docs/contract/platform.md §3). */
  pauseTtlSec: number;
  [policy: string]: PolicyValue;
}

/** When players post `update` reports (docs/contract/platform.md §2.3 rule 1). */
export interface ReportSettings {
  sendUpdateAfterMillis: number;
  periodicIntervalMillis: number;
  sendPlaybackActions: boolean;
}

export interface QueueContainer {
  name: string;
  type: string;
  id: { serviceId: string; objectId: string; accountId: string };
  imageUrl: string;
}

/** A queue without its items, and how a player reaches it. */
export interface QueueSummary {
  id: string;
  name: string;
  queueVersion: string;
  contextVersion: string;
  itemCount: number;
  createdAt: number;
  /** `{cloudQueue}/queues/{id}/v2.3/`: what `loadCloudQueue` takes as `queueBaseUrl`. */
  queueBaseUrl: string;
  accessToken: string;
  accessTokenExpiresAt: number;
  /** `Bearer <accessToken>`: what `loadCloudQueue` takes as `httpAuthorization`. */
  httpAuthorization: string;
}

export interface QueueView extends QueueSummary {
  container: QueueContainer;
  playbackPolicies: PlaybackPolicies;
  reports: ReportSettings;
  items: QueueItem[];
}

/** The context of a queue as GET /context answers it. */
export interface QueueContext {
  contextVersion: string;
  queueVersion: string;
  container: QueueContainer;
  reports: ReportSettings;
  playbackPolicies: PlaybackPolicies;
}

export interface ItemReportCounts {
  count: number;
  finals: number;
  lastReceivedAt: number;
}

export interface QueueListItem extends QueueItem {
  /** 0-based place in the queue. */
  index: number;
  reports?: ItemReportCounts;
}

/** A stretch of a queue by ordinal, for the editor's list. */
export interface QueueItemsPage {
  queueId: string;
  queueVersion: string;
  total: number;
  offset: number;
  items: QueueListItem[];
}

export interface QueueEditResult {
  queueVersion: string;
  itemCount: number;
  /** Ids of the items the edit created (add, generate). */
  itemIds?: string[];
}

/** A generation of sample tracks in progress or just ended (made in edits of a few thousand). */
export interface QueueGeneration {
  queueId: string;
  state: 'running' | 'finished' | 'stopped' | 'failed';
  /** Items made so far, of `total`. */
  done: number;
  total: number;
  message?: string;
}

export type CloudQueueRequestKind = 'context' | 'itemWindow' | 'version' | 'timePlayed';

/** What a player last asked of GET /itemWindow and what it got. */
export interface ItemWindowRecord {
  at: number;
  requestId: string | null;
  reason: string | null;
  itemId: string | null;
  previousWindowSize: number | null;
  upcomingWindowSize: number | null;
  /** The queueVersion the player sent, if any. */
  queueVersion: string | null;
  status: number;
  error?: string;
  window?: {
    queueVersion: string;
    /** The item the window is centred on: the one asked for, or the queue's first. */
    anchorItemId: string | null;
    itemIds: string[];
    includesBeginningOfQueue: boolean;
    includesEndOfQueue: boolean;
  };
}

/** One item of `POST /timePlayed` (docs/contract/platform.md §2.3), as a player sends it. */
export interface PlaybackReport {
  id: string;
  mediaUrl: string;
  queueVersion: string;
  durationPlayedMillis: number;
  timeSincePlaybackMillis: number;
  positionMillis: number;
  positionMillisAtSegmentStart: number;
  type: 'final' | 'update';
  skip?: { reportId: string };
}

/** A report as the server stored it: the fields it checked, and whatever else the player sent. */
export interface TimePlayedReport extends Omit<PlaybackReport, 'skip'> {
  skip?: { reportId?: string };
  [field: string]: unknown;
}

export interface TimePlayedRecordView {
  seq: number;
  itemId: string;
  playerId: string | null;
  receivedAt: number;
  type: string;
  report: TimePlayedReport;
}

/** One client of a queue, keyed by the X-Player-Id it sends (null: it sent none). */
export interface PlayerQueueActivity {
  playerId: string | null;
  /** The household player's name when the id is one of ours. */
  playerName: string | null;
  lastRequest: { kind: CloudQueueRequestKind; at: number; status: number };
  itemWindow: ItemWindowRecord | null;
  lastReport: TimePlayedRecordView | null;
  /** Best guess of the item the player is on: its latest report's item or window anchor. */
  currentItemId: string | null;
}

export interface QueueActivityView {
  queueId: string;
  players: PlayerQueueActivity[];
}

/** The most characters a queue's name takes (the form says so by its field's own limit). */
export const QUEUE_NAME_MAX_CHARS = 200;
