/**
 * GET /itemWindow (docs/contract/platform.md §4.3, docs/contract/console.md §4): the query checked field by field, and the window read
 * around its anchor, the item asked for or, without `itemId`, the queue's first. A window holds at
 * most `previousWindowSize` items before the anchor and `upcomingWindowSize` after it; one extra
 * row probed on each side says whether the window reaches the queue's beginning and end. One
 * indexed range read, O(window + log n), and the body is assembled from the items' stored JSON.
 */
import { itemIdOf, type ItemTuple, type QueueItemRepository } from '../store/repositories/queue-items.js';
import type { QueueHead } from '../store/repositories/queues.js';
import { DEFAULT_PREVIOUS_WINDOW_SIZE, DEFAULT_UPCOMING_WINDOW_SIZE, MAX_WINDOW_SIDE } from './defaults.js';
import { parseReason, type ItemWindowReason } from './reasons.js';

export interface ItemWindowQuery {
  reason: ItemWindowReason;
  itemId: string | null;
  previousWindowSize: number;
  upcomingWindowSize: number;
  /** The version the player holds, when it sent one. */
  queueVersion: string | null;
  /** What was asked, before defaults and caps (for the editor's record). */
  asked: { previousWindowSize: number | null; upcomingWindowSize: number | null };
}

export type ParsedQuery<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

const INTEGER = /^\d+$/;

/**
 * A query parameter given once (its value), not at all (undefined) or repeated (null: an array).
 * A function of the module, not a closure per request: this runs on every GET /itemWindow.
 */
function single(query: Record<string, unknown>, name: string): string | undefined | null {
  const value = query[name];
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : null;
}

export function parseItemWindowQuery(query: Record<string, unknown>): ParsedQuery<ItemWindowQuery> {
  const rawReason = single(query, 'reason');
  if (rawReason === undefined) return bad('reason', 'reason is required');
  const reason = rawReason === null ? null : parseReason(rawReason);
  if (reason === null)
    return bad('reason', `reason must be one of the itemWindow reasons, got ${JSON.stringify(query.reason)}`);

  const sizes: Record<'previousWindowSize' | 'upcomingWindowSize', number | null> = {
    previousWindowSize: null,
    upcomingWindowSize: null,
  };
  for (const name of ['previousWindowSize', 'upcomingWindowSize'] as const) {
    const raw = single(query, name);
    if (raw === undefined) continue;
    if (raw === null || !INTEGER.test(raw.trim()))
      return bad(name, `${name} must be an integer, zero or greater, got ${JSON.stringify(query[name])}`);
    sizes[name] = Number(raw.trim());
  }
  const itemId = single(query, 'itemId');
  if (itemId === null) return bad('itemId', 'itemId must be given once');
  const queueVersion = single(query, 'queueVersion');
  if (queueVersion === null) return bad('queueVersion', 'queueVersion must be given once');
  return {
    ok: true,
    value: {
      reason,
      // An empty itemId means the first item, like a missing one.
      itemId: itemId ? itemId : null,
      previousWindowSize: Math.min(MAX_WINDOW_SIDE, sizes.previousWindowSize ?? DEFAULT_PREVIOUS_WINDOW_SIZE),
      upcomingWindowSize: Math.min(MAX_WINDOW_SIDE, sizes.upcomingWindowSize ?? DEFAULT_UPCOMING_WINDOW_SIZE),
      queueVersion: queueVersion ?? null,
      asked: sizes,
    },
  };
}

function bad<T>(field: string, message: string): ParsedQuery<T> {
  return { ok: false, field, message };
}

export interface ItemWindow {
  /** The response body, ready to send. */
  body: string;
  anchorItemId: string | null;
  itemIds: string[];
  includesBeginningOfQueue: boolean;
  includesEndOfQueue: boolean;
}

/** The window, or null when `itemId` is not in the queue (the player then goes idle: 404). */
export function readItemWindow(
  items: Pick<QueueItemRepository, 'fromItem' | 'around'>,
  head: QueueHead,
  {
    itemId,
    previousWindowSize,
    upcomingWindowSize,
  }: Pick<ItemWindowQuery, 'itemId' | 'previousWindowSize' | 'upcomingWindowSize'>,
): ItemWindow | null {
  if (itemId !== null) {
    // One range read around the anchor, one row past each side to see whether that end is in.
    const found = items.around(head.key, itemId, previousWindowSize, upcomingWindowSize);
    if (!found) return null;
    const { rows, anchor } = found;
    const includesBeginningOfQueue = anchor <= previousWindowSize;
    const includesEndOfQueue = rows.length - anchor - 1 <= upcomingWindowSize;
    const first = includesBeginningOfQueue ? 0 : anchor - previousWindowSize;
    const end = includesEndOfQueue ? rows.length : anchor + upcomingWindowSize + 1;
    return windowOf(head, rows, first, end, itemIdOf(rows[anchor]![1]), includesBeginningOfQueue, includesEndOfQueue);
  }
  // Without itemId the anchor is the queue's first item: nothing comes before it.
  const from = items.fromItem(head.key, itemId, upcomingWindowSize + 2);
  const anchor = from[0];
  if (!anchor) return windowOf(head, [], 0, 0, null, true, true);
  const includesEndOfQueue = from.length <= upcomingWindowSize + 1;
  const end = includesEndOfQueue ? from.length : upcomingWindowSize + 1;
  return windowOf(head, from, 0, end, itemIdOf(anchor[1]), true, includesEndOfQueue);
}

/** The window of `rows[first, end)`: its body written from the items' stored JSON, no object between. */
function windowOf(
  head: QueueHead,
  rows: readonly ItemTuple[],
  first: number,
  end: number,
  anchorItemId: string | null,
  includesBeginningOfQueue: boolean,
  includesEndOfQueue: boolean,
): ItemWindow {
  let items = '';
  const itemIds: string[] = [];
  for (let k = first; k < end; k++) {
    const row = rows[k]!;
    items += k === first ? row[2] : `,${row[2]}`;
    itemIds.push(itemIdOf(row[1]));
  }
  // Versions are decimal strings, items are stored JSON: nothing here needs escaping.
  const body =
    `{"includesBeginningOfQueue":${includesBeginningOfQueue},"includesEndOfQueue":${includesEndOfQueue},` +
    `"contextVersion":"${head.contextVersion}","queueVersion":"${head.queueVersion}","items":[${items}]}`;
  return { body, anchorItemId, itemIds, includesBeginningOfQueue, includesEndOfQueue };
}
