/** What a queue is made or changed from: the model takes it, and so do the staged writes that serve it. */
import type { PlaybackPolicies, ReportSettings } from '../api/queue-types.js';
import type { ItemInput } from './item-rows.js';

export interface QueueInput {
  name?: string;
  items?: ItemInput[];
  playbackPolicies?: Partial<PlaybackPolicies>;
  reports?: Partial<ReportSettings>;
  container?: { type?: string; imageUrl?: string };
  accessTokenLifetimeSec?: number;
}
