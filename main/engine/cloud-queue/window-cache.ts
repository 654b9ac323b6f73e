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

export class WindowCache {
  private readonly entries = new Map<string, ItemWindow>();
  /** Keys asked for once, most recent last. */
  private readonly seen = new Map<string, true>();

  constructor(private readonly capacity = 512) {}

  key(head: QueueHead, query: Pick<ItemWindowQuery, 'itemId' | 'previousWindowSize' | 'upcomingWindowSize'>): string {
    return `${head.key}:${head.queueVersion}:${query.previousWindowSize}:${query.upcomingWindowSize}:${query.itemId ?? ''}`;
  }

  get(key: string): ItemWindow | undefined {
    const window = this.entries.get(key);
    if (window) {
      // Least recently used goes first: a hit moves to the back.
      this.entries.delete(key);
      this.entries.set(key, window);
    }
    return window;
  }

  /** Offers a window just read from the store; it is kept if its key was seen recently. */
  offer(key: string, window: ItemWindow): void {
    if (!this.seen.delete(key)) {
      this.seen.set(key, true);
      if (this.seen.size > this.capacity * 4) this.seen.delete(this.seen.keys().next().value!);
      return;
    }
    this.entries.set(key, window);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}
