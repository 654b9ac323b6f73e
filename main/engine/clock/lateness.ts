/**
 * How far behind the engine's timeline may have fallen while the clock ran: the engine time that
 * passed while the process was at work, plus what timers fired late. A bundle's replay runs with
 * the clock stopped, where all that work takes no engine time at all, so a player's timers fall
 * due there earlier than they did in the source by at most this much (with the engine time its
 * own requests took, which requests-in-flight.ts counts): a load answered 40 ms of wall time
 * after it was sent, at speed 20, starts playing 0.8 s later, and every report after it is that
 * much later too (docs/scenarios-and-bundles.md, "A running clock's drift").
 *
 * An upper bound, on purpose: the whole process's work counts, whichever player it was for.
 */
import { performance } from 'node:perf_hooks';
import type { EngineClock } from './clock.js';

/** Milliseconds the event loop has spent at work since the process began. */
export type BusyMeter = () => number;

const processBusy: BusyMeter = () => performance.eventLoopUtilization().active;

export class ClockLateness {
  /** Engine ms counted up to the last sample (at `busyAt` of busy wall time, at `speed`). */
  private counted = 0;
  private busyAt: number;
  private speed: number;
  private readonly stopListening: () => void;

  constructor(
    private readonly clock: Pick<EngineClock, 'speed' | 'firedLateMs' | 'onChange'>,
    private readonly busy: BusyMeter = processBusy,
  ) {
    this.busyAt = busy();
    this.speed = clock.speed;
    // Busy wall time turns into engine time at the speed it passed at: sampled as the speed changes.
    this.stopListening = clock.onChange((state) => {
      this.sample();
      this.speed = state.speed;
    });
  }

  /** Engine ms the timeline may have fallen behind since the engine began (never decreasing). */
  total(): number {
    this.sample();
    return this.counted + this.clock.firedLateMs;
  }

  close(): void {
    this.stopListening();
  }

  private sample(): void {
    const busy = this.busy();
    this.counted += Math.max(0, busy - this.busyAt) * this.speed;
    this.busyAt = busy;
  }
}
