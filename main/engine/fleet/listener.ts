/**
 * A fleet player's listener: what a person in front of it does. Per track it starts (buffered, or
 * following one that ended on its own) it may skip, pause (and
 * play again a little later) or seek, each with its rate, at a point of the track drawn from the
 * player's own seeded generator, so the same seed gives the same listeners. A player left idle (its
 * load failed, its queue is gone) is loaded again after a while, and one paused that the listener
 * did not pause is played again: people press play when the music stops.
 */
import type { EngineClock, Timer } from '../clock/clock.js';
import { SeededRandom } from '../faults/random.js';
import type { LoadParams } from '../player/events.js';
import type { Player, TransitionRecord } from '../player/player.js';

export interface ListenerRates {
  skipRate: number;
  pauseRate: number;
  seekRate: number;
}

/** What the listener does to one track, drawn when it starts. */
export interface TrackPlan {
  action: 'none' | 'skip' | 'pause' | 'seek';
  /** Engine ms into the track. */
  atMs: number;
  /** Pause: how long until play; seek: where to (ms into the track). */
  valueMs: number;
}

/** After a failed load, the next one waits this long, doubled each time up to RELOAD_MAX_MS. */
export const RELOAD_FIRST_MS = 5_000;
export const RELOAD_MAX_MS = 60_000;
/** How long a listener takes to notice the music stopped and press play. */
export const NOTICE_MS = 10_000;

/** A generator of its own per player: seeded by the fleet's seed and the player's number. */
export function listenerRandom(seed: number, player: number): SeededRandom {
  return new SeededRandom((Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(player, 0x85ebca6b)) >>> 0);
}

/** One draw per track: skip, else pause, else seek, each by its rate. */
export function planTrack(random: SeededRandom, rates: ListenerRates, durationMs: number): TrackPlan {
  const [roll, at, value] = [random.next(), random.next(), random.next()];
  const atMs = Math.round(durationMs * (0.1 + 0.8 * at));
  if (roll < rates.skipRate) return { action: 'skip', atMs, valueMs: 0 };
  if (roll < rates.skipRate + rates.pauseRate)
    return { action: 'pause', atMs, valueMs: 5_000 + Math.round(55_000 * value) };
  if (roll < rates.skipRate + rates.pauseRate + rates.seekRate)
    return { action: 'seek', atMs, valueMs: Math.round(durationMs * 0.95 * value) };
  return { action: 'none', atMs, valueMs: 0 };
}

export class Listener {
  private readonly timers = new Set<Timer>();
  private pausedByMe = false;
  /**
   * The item of the last draw. A track that follows one that ended on its own starts without
   * buffering (its audio was downloaded ahead), as does the first played after a load that paused:
   * a new item playing is a track started too.
   */
  private drawnFor: string | null = null;
  private reloadDelay = RELOAD_FIRST_MS;
  private closed = false;

  constructor(
    private readonly player: Player,
    private readonly clock: EngineClock,
    private readonly random: SeededRandom,
    private readonly rates: ListenerRates,
    private readonly load: LoadParams,
  ) {}

  /** Joins: a session of its own, and its queue loaded to play. */
  start(): void {
    this.player.createSession('cloud-queue-console.fleet', 'fleet');
    this.loadQueue();
  }

  onTransition(record: TransitionRecord): void {
    if (this.closed) return;
    if (record.to === 'PLAYING' && record.from !== 'PLAYING') this.reloadDelay = RELOAD_FIRST_MS;
    if (record.to === 'PLAYING' && (record.from === 'BUFFERING' || this.player.status().itemId !== this.drawnFor))
      this.trackStarted();
    else if (record.to === 'PAUSED' && record.from !== 'PAUSED' && !this.pausedByMe)
      this.after(
        NOTICE_MS,
        () => this.player.machineState === 'PAUSED' && this.act(() => this.player.act('play', 'user')),
      );
    else if (record.to === 'IDLE' && record.from !== 'IDLE') this.reloadLater();
    if (record.to !== 'PAUSED') this.pausedByMe = false;
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) this.clock.clearTimeout(timer);
    this.timers.clear();
  }

  private loadQueue(): void {
    this.player.load(this.load).catch(() => {
      // The load failed: the player stays as it was (idle on a first load); try again later.
      if (this.player.machineState === 'IDLE') this.reloadLater();
    });
  }

  private reloadLater(): void {
    const delay = this.reloadDelay;
    this.reloadDelay = Math.min(this.reloadDelay * 2, RELOAD_MAX_MS);
    this.after(delay, () => {
      if (this.player.machineState === 'IDLE') this.loadQueue();
    });
  }

  private trackStarted(): void {
    const durationMs = this.player.snapshot().track?.durationMillis;
    if (!durationMs) return;
    const itemId = this.player.status().itemId;
    this.drawnFor = itemId;
    const plan = planTrack(this.random, this.rates, durationMs);
    if (plan.action === 'none') return;
    this.after(plan.atMs, () => {
      // Only on the track it was drawn for, still playing.
      if (this.player.machineState !== 'PLAYING' || this.player.status().itemId !== itemId) return;
      if (plan.action === 'skip') this.act(() => this.player.act('skipNext', 'user'));
      else if (plan.action === 'seek') this.act(() => this.player.seek({ positionMillis: plan.valueMs }, 'user'));
      else {
        this.pausedByMe = true;
        this.act(() => this.player.act('pause', 'user'));
        this.after(plan.valueMs, () => {
          if (this.player.machineState === 'PAUSED') this.act(() => this.player.act('play', 'user'));
        });
      }
    });
  }

  /** A refused action (a policy, a skip already waiting) is what a person would shrug at. */
  private act(action: () => Promise<void> | void): void {
    try {
      void Promise.resolve(action()).catch(() => undefined);
    } catch {
      // refused at once: nothing to do
    }
  }

  private after(delayMs: number, callback: () => void): void {
    const timer = this.clock.setTimeout(
      () => {
        this.timers.delete(timer);
        if (!this.closed) callback();
      },
      delayMs,
      'fleet listener',
    );
    this.timers.add(timer);
  }
}
