/**
 * GET /itemWindow (docs/contract/platform.md §4.3, docs/contract/console.md §4): the query checked field by field, and the window read
 * around its anchor, the item asked for or, without `itemId`, the queue's first. A window holds at
 * most `previousWindowSize` items before the anchor and `upcomingWindowSize` after it; one extra
 * row probed on each side says whether the window reaches the queue's beginning and end. One
 * statement of indexed range reads, O(window + log n), answers the whole body as bytes: the
 * items' stored JSON joined, with the window's fields around it.
 */
import { bytesToSend } from '../http/sent-text.js';
import type { QueueItemRepository } from '../store/repositories/queue-items.js';
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
    if (raw === null || !INTEGER.test(raw))
      return bad(name, `${name} must be an integer, zero or greater, got ${JSON.stringify(query[name])}`);
    sizes[name] = Number(raw);
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
  /** The response body in UTF-8, ready to send (its text: `textSent`). */
  bytes: Buffer;
  anchorItemId: string | null;
  itemIds: string[];
  includesBeginningOfQueue: boolean;
  includesEndOfQueue: boolean;
}

/** The window, or null when `itemId` is not in the queue (the player then goes idle: 404). */
export function readItemWindow(
  items: Pick<QueueItemRepository, 'window'>,
  head: QueueHead,
  {
    itemId,
    previousWindowSize,
    upcomingWindowSize,
  }: Pick<ItemWindowQuery, 'itemId' | 'previousWindowSize' | 'upcomingWindowSize'>,
): ItemWindow | null {
  const found = items.window(head.key, itemId, previousWindowSize, upcomingWindowSize, head);
  // Without itemId the anchor is the queue's first item; an empty queue has an empty window.
  if (!found) return itemId === null ? emptyWindow(head) : null;
  const [atBeginning, atEnd, ids, bytes] = found;
  const itemIds = ids.split(',');
  return {
    bytes,
    anchorItemId: itemId ?? itemIds[0]!,
    itemIds,
    includesBeginningOfQueue: atBeginning === 1,
    includesEndOfQueue: atEnd === 1,
  };
}

/** An empty queue's window (rare: written here, not read). Versions are decimal strings: nothing to escape. */
function emptyWindow(head: QueueHead): ItemWindow {
  const body =
    `{"includesBeginningOfQueue":true,"includesEndOfQueue":true,` +
    `"contextVersion":"${head.contextVersion}","queueVersion":"${head.queueVersion}","items":[]}`;
  return {
    bytes: bytesToSend(body),
    anchorItemId: null,
    itemIds: [],
    includesBeginningOfQueue: true,
    includesEndOfQueue: true,
  };
}
