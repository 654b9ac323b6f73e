/**
 * The one engine clock (docs/contract/console.md §6). Every timer and lifetime in the engine reads it: speed 1 is
 * real time, 0 stops it, any positive speed runs it faster, and `advance` moves it forward at once,
 * running every due timer in due order with `now()` equal to that timer's due time.
 *
 * Work that a timer starts asynchronously (an HTTP request of the player, say) can be handed to
 * `track`: `advance` waits for tracked work to settle before it picks the next timer, so a jump of
 * 24 hours plays out exactly as 24 real hours would, only faster.
 */
import type { ClockState } from '../api/types.js';
import { TimerQueue, type Timer } from './timer-queue.js';
import { systemWall, type WallClock, type WallTimer } from './wall.js';

export type { Timer } from './timer-queue.js';

export interface EngineClockOptions {
  /** Engine time to start at (epoch ms). Default: wall time. */
  startAt?: number;
  /** Initial speed. Default 1. */
  speed?: number;
  /** The real clock; tests inject a manual one. */
  wall?: WallClock;
  /** Longest wall time `advance` waits for one piece of tracked work before moving on. */
  settleTimeoutMs?: number;
  /** Where exceptions thrown by timer callbacks go (a timer must never break the clock). */
  onTimerError?: (error: unknown, label: string) => void;
}

export type ClockListener = (state: ClockState) => void;

/** Node's own setTimeout caps delays at 2^31-1 ms; longer waits are re-armed when they elapse. */
const MAX_WALL_DELAY = 2_147_483_647;

export class EngineClock {
  private readonly wall: WallClock;
  private readonly timers = new TimerQueue();
  private readonly listeners = new Set<ClockListener>();
  private readonly tracked = new Map<Promise<unknown>, string | undefined>();
  /** Keys released before their work was tracked (see `release`). */
  private readonly released = new Set<string>();
  private readonly settleTimeoutMs: number;
  private readonly onTimerError: (error: unknown, label: string) => void;
  /** Engine time = anchorEngine + (wall.now() - anchorWall) × speed, unless frozen by `advance`. */
  private anchorEngine: number;
  private anchorWall: number;
  private currentSpeed: number;
  /** While `advance` runs, time stands at exactly this value. */
  private frozenAt: number | null = null;
  private advancing: Promise<void> = Promise.resolve();
  private wallTimer: WallTimer | null = null;
  private closed = false;

  constructor(options: EngineClockOptions = {}) {
    this.wall = options.wall ?? systemWall;
    this.anchorWall = this.wall.now();
    this.anchorEngine = options.startAt ?? this.anchorWall;
    this.currentSpeed = checkSpeed(options.speed ?? 1);
    this.settleTimeoutMs = options.settleTimeoutMs ?? 2_000;
    this.onTimerError = options.onTimerError ?? ((error, label) => console.error(`timer ${label} failed`, error));
  }

  now(): number {
    if (this.frozenAt !== null) return this.frozenAt;
    return this.anchorEngine + (this.wall.now() - this.anchorWall) * this.currentSpeed;
  }

  get speed(): number {
    return this.currentSpeed;
  }

  state(): ClockState {
    return { now: Math.floor(this.now()), speed: this.currentSpeed };
  }

  setSpeed(speed: number): void {
    checkSpeed(speed);
    this.reanchor(this.now());
    this.currentSpeed = speed;
    this.arm();
    this.notify();
  }

  /**
   * Moves engine time forward by `ms`, running every timer that falls due on the way, in order.
   * Concurrent calls queue behind each other so two jumps never interleave.
   */
  advance(ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance takes a non-negative duration, got ${ms}`);
    const run = this.advancing.then(() => this.runAdvance(ms));
    this.advancing = run.catch(() => undefined);
    return run;
  }

  /**
   * Runs `callback` once engine time has moved `delayMs` forward. A delay that is not a number
   * never falls due: a NaN due time would sort first and never run, holding every timer behind it
   * and turning the next `advance` into NaN engine time.
   */
  setTimeout(callback: () => void, delayMs: number, label = 'timer'): Timer {
    const timer = this.timers.add(
      this.now() + (Number.isNaN(delayMs) ? Infinity : Math.max(0, delayMs)),
      callback,
      label,
    );
    this.arm();
    return timer;
  }

  clearTimeout(timer: Timer | null | undefined): void {
    if (!timer) return;
    this.timers.remove(timer);
    this.arm();
  }

  /** How long until `timer` falls due, in engine ms (0 when due or gone). */
  remaining(timer: Timer): number {
    return Math.max(0, timer.due - this.now());
  }

  /**
   * Lets `advance` wait for asynchronous work that a timer (or a command) started. A `key` (a
   * request id) lets whoever holds the other end `release` it.
   */
  track<T>(work: Promise<T>, key?: string): Promise<T> {
    if (key !== undefined && this.released.delete(key)) return work;
    this.tracked.set(work, key);
    const forget = (): void => {
      this.tracked.delete(work);
    };
    work.then(forget, forget);
    return work;
  }

  /**
   * Stops `advance` from waiting for the work tracked under `key`, now or when it is tracked: an
   * injected timeout never answers, an injected latency waits on this very clock. Waiting for
   * either would hold time still.
   */
  release(key: string): void {
    let found = false;
    for (const [work, workKey] of this.tracked) {
      if (workKey === key) {
        this.tracked.delete(work);
        found = true;
      }
    }
    if (!found) {
      this.released.add(key);
      if (this.released.size > 1_000) this.released.delete(this.released.values().next().value!);
    }
  }

  onChange(listener: ClockListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Number of timers waiting; for diagnostics and tests. */
  get pendingTimers(): number {
    return this.timers.size;
  }

  close(): void {
    this.closed = true;
    this.disarm();
    this.timers.clear();
    this.listeners.clear();
  }

  private async runAdvance(ms: number): Promise<void> {
    const target = this.now() + ms;
    this.frozenAt = this.now();
    this.disarm();
    try {
      for (;;) {
        await this.settle();
        const next = this.timers.peek();
        if (!next || next.due > target || this.closed) break;
        this.timers.remove(next);
        this.frozenAt = Math.max(this.frozenAt, next.due);
        this.fire(next);
      }
      this.frozenAt = target;
      await this.settle();
    } finally {
      this.reanchor(Math.max(this.frozenAt ?? target, target));
      this.frozenAt = null;
      if (!this.closed) {
        this.arm();
        this.notify();
      }
    }
  }

  /** Waits until no tracked work is pending (each piece bounded by settleTimeoutMs of wall time). */
  private async settle(): Promise<void> {
    await yieldToEventLoop();
    while (this.tracked.size > 0 && !this.closed) {
      const pending = [...this.tracked.keys()];
      // The bound is real time on purpose: it guards the process, not the simulation.
      const bound = new Promise<'timeout'>((resolve) => {
        const t = setTimeout(() => resolve('timeout'), this.settleTimeoutMs);
        void Promise.allSettled(pending).then(() => clearTimeout(t));
      });
      const outcome = await Promise.race([Promise.allSettled(pending), bound]);
      if (outcome === 'timeout') {
        // Work that never finishes (a request to a server that does not answer) must not stall
        // the clock forever: stop waiting for it, its own engine-clock timeout will end it.
        for (const work of pending) this.tracked.delete(work);
      }
      await yieldToEventLoop();
    }
  }

  private fire(timer: Timer): void {
    try {
      timer.callback();
    } catch (error) {
      this.onTimerError(error, timer.label);
    }
  }

  private reanchor(engineNow: number): void {
    this.anchorEngine = engineNow;
    this.anchorWall = this.wall.now();
  }

  /** Keeps one real timer armed for the earliest engine timer, when the clock is running. */
  private arm(): void {
    this.disarm();
    if (this.closed || this.frozenAt !== null) return;
    const next = this.timers.peek();
    if (!next) return;
    if (this.currentSpeed === 0) {
      // Stopped, time does not move, but what is due at this very instant happens (a seek to a
      // track's end ends it), as a scenario's replay, which settles each step with advance(0),
      // has it: a bundle of a session on a stopped clock replays what happened.
      if (next.due <= this.now())
        this.wallTimer = this.wall.setTimeout(() => ((this.wallTimer = null), this.runDue()), 0);
      return;
    }
    const wallDelay = Math.min(MAX_WALL_DELAY, Math.max(0, (next.due - this.now()) / this.currentSpeed));
    this.wallTimer = this.wall.setTimeout(() => {
      this.wallTimer = null;
      this.runDue();
    }, wallDelay);
  }

  private disarm(): void {
    if (this.wallTimer) this.wall.clearTimeout(this.wallTimer);
    this.wallTimer = null;
  }

  private runDue(): void {
    const now = this.now();
    for (let next = this.timers.peek(); next && next.due <= now && !this.closed; next = this.timers.peek()) {
      this.timers.remove(next);
      this.fire(next);
    }
    this.arm();
  }

  private notify(): void {
    const state = this.state();
    for (const listener of this.listeners) listener(state);
  }
}

function checkSpeed(speed: number): number {
  if (!Number.isFinite(speed) || speed < 0) throw new RangeError(`clock speed must be 0 or more, got ${speed}`);
  return speed;
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
