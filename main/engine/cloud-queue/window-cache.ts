/**
 * Recently served item windows, keyed by queue, queueVersion, anchor and sizes. Every edit of a
 * queue moves its queueVersion (and queue keys are never reused), so an entry can never be stale:
 * it just stops being asked for and ages out. Players of one queue ask for the same windows
 * (refreshes, polls, several players): those answers skip the store.
 *
 * A window is kept only when its key was asked for shortly before: one-off windows (a crowd of
 * players spread over a long queue) would otherwise churn the cache and the garbage collector.
 */
import type { QueueHead } from '../store/repositories/queues.js';
import { keepText } from '../http/sent-text.js';
import type { ItemWindow, ItemWindowQuery } from './item-window.js';

/** A kept window, and whether it was served since the eviction hand last passed it. */
interface Kept {
  window: ItemWindow;
  used: boolean;
}

export class WindowCache {
  /** Oldest first; the eviction hand starts at the front. */
  private readonly entries = new Map<string, Kept>();
  /**
   * Keys asked for once, each in the slot its hash picks (a newer key in that slot drops it). A
   * Map here, most recent last, grew and shrank on every cold window: a rehash every few hundred
   * and 1.2% of a cold window's CPU (issue 42's profile, docs/decisions/perf-cold-windows.md).
   */
  private readonly seen: (string | undefined)[];

  constructor(private readonly capacity = 512) {
    // A power of two, at least four slots a kept window.
    this.seen = new Array<string | undefined>(2 ** Math.ceil(Math.log2(Math.max(4, capacity * 4)))).fill(undefined);
  }

  key(head: QueueHead, query: Pick<ItemWindowQuery, 'itemId' | 'previousWindowSize' | 'upcomingWindowSize'>): string {
    return `${head.key}:${head.queueVersion}:${query.previousWindowSize}:${query.upcomingWindowSize}:${query.itemId ?? ''}`;
  }

  /**
   * A hit only marks the window used (a second chance at eviction: the clock approximation of
   * least recently used). Moving it to the back instead (delete, then set) made the map rehash
   * every few hundred hits under load, and each new table was promoted to the old generation.
   */
  get(key: string): ItemWindow | undefined {
    const kept = this.entries.get(key);
    if (kept === undefined) return undefined;
    kept.used = true;
    return kept.window;
  }

  /**
   * Offers a window just read from the store; it is kept if its key was seen recently, with its
   * text remembered beside its bytes for capture (decoded once, not on every send to come; a
   * one-off window is decoded only if capture asks).
   */
  offer(key: string, window: ItemWindow): void {
    const slot = slotOf(key, this.seen.length - 1);
    if (this.seen[slot] !== key) {
      this.seen[slot] = key;
      return;
    }
    this.seen[slot] = undefined;
    keepText(window.bytes);
    this.entries.set(key, { window, used: false });
    if (this.entries.size > this.capacity) this.evictOne();
  }

  get size(): number {
    return this.entries.size;
  }

  /** Drops the oldest window not served since the hand last passed it; a served one goes to the back. */
  private evictOne(): void {
    for (const [key, kept] of this.entries) {
      this.entries.delete(key);
      if (!kept.used) return;
      kept.used = false;
      this.entries.set(key, kept);
    }
  }
}

/** FNV-1a of the key's UTF-16 code units, masked to a slot. */
function slotOf(key: string, mask: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) & mask;
}
