/**
 * The item window a player holds (docs/contract/console.md §5): the items around the playing one, as the server
 * last sent them, and when to ask for the next one (docs/contract/platform.md §4.3 "Next Window": "typically 2-3
 * tracks before the window edge").
 */
import type { ItemWindowResponse, QueueItem } from './wire.js';

export const PREVIOUS_WINDOW_SIZE = 5;
export const UPCOMING_WINDOW_SIZE = 10;
/** Ask for the next window once at most this many tracks follow the playing one. */
export const NEXT_WINDOW_THRESHOLD = 2;

export class QueueWindow {
  private readonly index = new Map<string, number>();

  constructor(readonly response: ItemWindowResponse) {
    response.items.forEach((item, i) => this.index.set(item.id, i));
  }

  get items(): readonly QueueItem[] {
    return this.response.items;
  }

  get queueVersion(): string {
    return this.response.queueVersion;
  }

  get includesEndOfQueue(): boolean {
    return this.response.includesEndOfQueue;
  }

  get includesBeginningOfQueue(): boolean {
    return this.response.includesBeginningOfQueue;
  }

  has(id: string): boolean {
    return this.index.has(id);
  }

  item(id: string): QueueItem | undefined {
    const i = this.index.get(id);
    return i === undefined ? undefined : this.response.items[i];
  }

  after(id: string): QueueItem | undefined {
    const i = this.index.get(id);
    return i === undefined ? undefined : this.response.items[i + 1];
  }

  before(id: string): QueueItem | undefined {
    const i = this.index.get(id);
    return i === undefined ? undefined : this.response.items[i - 1];
  }

  /** Tracks that follow `id` in this window. */
  upcomingCount(id: string): number {
    const i = this.index.get(id);
    return i === undefined ? 0 : this.response.items.length - 1 - i;
  }

  isLast(id: string): boolean {
    return this.index.get(id) === this.response.items.length - 1;
  }

  /** Time to ask for more: the playing track is near the edge and the queue goes on. */
  needsNextWindow(currentId: string): boolean {
    return !this.response.includesEndOfQueue && this.upcomingCount(currentId) <= NEXT_WINDOW_THRESHOLD;
  }
}
