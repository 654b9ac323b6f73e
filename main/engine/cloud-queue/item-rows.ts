/**
 * An item as the queue_items table stores it: its wire JSON with `id` first and a playable track,
 * the same text for an edit made at once as for one staged in steps.
 */
import type { QueueItem, Track } from '../api/queue-types.js';
import { itemIdOf } from '../store/repositories/queue-items.js';
import type { QueueRecord } from '../store/repositories/queues.js';
import type { NewRow } from './ordering.js';
import { playableTrack } from './track-defaults.js';

export interface ItemInput {
  id?: string;
  track: Track;
  policies?: QueueItem['policies'];
}

/** A new item of `record`: the next id of its sequence (which this advances). */
export function newRow(record: Pick<QueueRecord, 'nextItemSeq'>, item: ItemInput): NewRow {
  const itemId = itemIdOf(record.nextItemSeq++);
  return { itemId, item: itemJson(itemId, item.track, item.policies) };
}

/** An item in its wire shape, with `id` first, a playable track, and `policies` only when it has some. */
export function itemOf(id: string, track: Track, policies: QueueItem['policies']): QueueItem {
  const playable = playableTrack(track, id);
  return policies === undefined ? { id, track: playable } : { id, track: playable, policies };
}

/** The stored JSON of an item, the same text as JSON.stringify(itemOf(…)) and cheaper for big batches. */
export function itemJson(id: string, track: Track, policies: QueueItem['policies']): string {
  const head = `{"id":${JSON.stringify(id)},"track":${JSON.stringify(playableTrack(track, id))}`;
  return policies === undefined ? `${head}}` : `${head},"policies":${JSON.stringify(policies)}}`;
}
