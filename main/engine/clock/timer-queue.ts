/**
 * Engine timers ordered by due time; timers due at the same instant keep the order they were set
 * in, so a jump of the clock runs them exactly as real time would.
 */
export interface Timer {
  readonly due: number;
  readonly seq: number;
  readonly label: string;
  readonly callback: () => void;
}

export class TimerQueue {
  /** Sorted by (due, seq). Engine timer counts are small (a few per player), so an array wins. */
  private readonly items: Timer[] = [];
  private nextSeq = 0;

  get size(): number {
    return this.items.length;
  }

  add(due: number, callback: () => void, label: string): Timer {
    const timer: Timer = { due, seq: this.nextSeq++, label, callback };
    this.items.splice(this.indexAfter(timer), 0, timer);
    return timer;
  }

  peek(): Timer | undefined {
    return this.items[0];
  }

  remove(timer: Timer): boolean {
    const index = this.indexAfter(timer) - 1;
    if (index >= 0 && this.items[index] === timer) {
      this.items.splice(index, 1);
      return true;
    }
    return false;
  }

  clear(): void {
    this.items.length = 0;
  }

  /** Index of the first timer that sorts after `timer`. */
  private indexAfter(timer: Timer): number {
    let low = 0;
    let high = this.items.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const item = this.items[mid]!;
      if (item.due < timer.due || (item.due === timer.due && item.seq <= timer.seq)) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
