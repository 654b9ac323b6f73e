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
import type { ItemWindow, ItemWindowQuery } from './item-window.js';

/** A kept window, and whether it was served since the eviction hand last passed it. */
interface Kept {
  window: ItemWindow;
  used: boolean;
}

export class WindowCache {
  /** Oldest first; the eviction hand starts at the front. */
  private readonly entries = new Map<string, Kept>();
  /** Keys asked for once, most recent last. */
  private readonly seen = new Map<string, true>();

  constructor(private readonly capacity = 512) {}

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

  /** Offers a window just read from the store; it is kept if its key was seen recently. */
  offer(key: string, window: ItemWindow): void {
    if (!this.seen.delete(key)) {
      this.seen.set(key, true);
      if (this.seen.size > this.capacity * 4) this.seen.delete(this.seen.keys().next().value!);
      return;
    }
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
