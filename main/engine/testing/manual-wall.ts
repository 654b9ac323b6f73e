/** A wall clock that only moves when a test says so, for testing clock speeds without sleeping. */
import type { WallClock } from '../clock/wall.js';

export class ManualWall implements WallClock {
  private time: number;
  private timers: { at: number; callback: () => void; id: number }[] = [];
  private nextId = 0;

  constructor(start = 1_800_000_000_000) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, delayMs: number): number {
    const id = this.nextId++;
    this.timers.push({ at: this.time + delayMs, callback, id });
    return id;
  }

  clearTimeout(timer: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== timer);
  }

  /** Moves real time forward, firing due wall timers in order. */
  tick(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = Math.max(this.time, due.at);
      due.callback();
    }
    this.time = target;
  }
}
