/**
 * A share of a fleet's players: the players whose numbers it was given, each the console's own
 * player core with its listener, on one engine clock, joining at their place in the ramp. A
 * fleet plays one share in its own thread, or one per worker thread; either way the share
 * counts what its players' exchanges did (metrics.ts), offers the traffic log its sample, and
 * answers a snapshot that the fleet merges with the other shares' (merge.ts).
 */
import { performance } from 'node:perf_hooks';
import type { FleetFault, FleetPlayerState, FleetStartInput, FleetEndpointStats } from '../api/fleet-types.js';
import type { FleetViolationStats } from '../api/fleet-types.js';
import { FLEET_PLAYER_STATES } from '../api/fleet-types.js';
import type { EngineClock, Timer } from '../clock/clock.js';
import type { FaultRegistry } from '../faults/registry.js';
import { BODY_ALLOWANCE_BYTES, BodyBudget } from '../http/body-budget.js';
import { SeededRandom } from '../faults/random.js';
import { CloudQueueClient, type HttpTransport, type PlayerExchange, type RequestTimeouts } from '../player/client.js';
import type { LoadParams } from '../player/events.js';
import { Player } from '../player/player.js';
import { Listener, listenerRandom } from './listener.js';
import { isError } from './is-error.js';
import { RequestsOut } from './requests-out.js';
import { FleetMetrics, newSketch, type TickCounts } from './metrics.js';
import { sketchData, type SketchData } from './sketch-wire.js';
import { DEFAULT_TRAFFIC_SAMPLE_RATE } from './traffic-sample.js';

/** How often the lateness probe fires, in wall ms: ten looks a second cost nothing. */
export const PROBE_EVERY_MS = 100;

/** What a share has done so far: cumulative, but `delta`, which is since the last snapshot. */
export interface ShareSnapshot {
  joined: number;
  byState: Record<FleetPlayerState, number>;
  delta: TickCounts;
  totals: TickCounts & { transportErrors: number };
  endpoints: FleetEndpointStats[];
  sketches: Record<string, SketchData>;
  rules: FleetViolationStats[];
  /** Wall ms by which the share's engine-clock timers fired late. */
  lateness: SketchData;
  /** Clean exchanges left out of the traffic log by the sample draw. */
  skipped: number;
  /** A worker's hits so far on each console rule mirrored to it (the console counts them too). */
  ruleHits?: Record<string, number>;
}

export interface PlayerShareOptions {
  fleetId: string;
  input: FleetStartInput;
  /** The players' numbers (1-based) this share plays. */
  numbers: readonly number[];
  queueOf: (n: number) => LoadParams;
  clock: EngineClock;
  /** Engine time the fleet started at: a player joins at its place in the ramp after it. */
  startAt: number;
  /** Where a request's 10 s are timed: real time, whatever the clock's speed. */
  timeouts: RequestTimeouts;
  transport: HttpTransport;
  /** Where the fleet's own timed rules go on (the console's registry, or the worker's own). */
  faults: Pick<FaultRegistry, 'add' | 'remove'>;
  /** The fleet's timed rule `index` went on as `ruleId` (a worker binds its shared times to it). */
  onFaultOn?: (index: number, ruleId: string) => void;
  /** An exchange picked for the traffic log: every failure and violation, the rest at the rate. */
  post: (exchange: PlayerExchange) => void;
  /** Seeds the sample draw: each share draws from its own sequence. */
  drawSeed: number;
  /** This share's part of the fleet's slots for answers past the allowance (body-budget.ts). */
  bodySlots: number;
}

interface Member {
  player: Player;
  listener: Listener;
}

export class PlayerShare {
  readonly metrics = new FleetMetrics();
  private readonly members: Member[] = [];
  private readonly timers = new Set<Timer>();
  /** The players not joined yet, by number, with the engine time after the start each joins at. */
  private readonly joinsDue = new Map<number, number>();
  private readonly ruleIds = new Set<string>();
  private readonly lateness = newSketch();
  /** Bounds what the share's players hold of answers read at once, whatever the server sends. */
  private readonly bodies: BodyBudget;
  private readonly draw: SeededRandom;
  private readonly rate: number;
  private skipped = 0;
  private closed = false;
  /** Wall time (Date.now) the fleet ended at: requests started later are not counted. */
  private endedAt: number | null = null;
  /** The players' requests out, so the end knows which to wait for. */
  private readonly out: RequestsOut;

  constructor(private readonly options: PlayerShareOptions) {
    this.draw = new SeededRandom(options.drawSeed >>> 0);
    this.rate = options.input.trafficSampleRate ?? DEFAULT_TRAFFIC_SAMPLE_RATE;
    this.bodies = new BodyBudget({ allowanceBytes: BODY_ALLOWANCE_BYTES, slots: options.bodySlots });
    this.out = new RequestsOut(options.timeouts);
  }

  /** Schedules its players' joins and the fleet's timed rules, from the fleet's start. */
  start(): void {
    const { input, clock, startAt } = this.options;
    const since = clock.now() - startAt;
    (input.faults ?? []).forEach((fault, index) => this.scheduleFault(fault, index, since));
    const ramp = input.rampMs ?? 0;
    for (const n of this.options.numbers) {
      const at = input.players === 1 ? 0 : (ramp * (n - 1)) / (input.players - 1);
      this.joinsDue.set(n, at);
      this.after(at - since, () => this.join(n));
    }
    this.probe();
  }

  snapshot(): ShareSnapshot {
    const m = this.metrics;
    return {
      joined: this.members.length,
      byState: this.byState(),
      delta: m.takeDelta(),
      totals: { ...m.totals },
      endpoints: m.endpointStats(),
      sketches: Object.fromEntries([...m.sketchesByEndpoint()].map(([endpoint, s]) => [endpoint, sketchData(s)])),
      rules: m.violations(),
      lateness: sketchData(this.lateness),
      skipped: this.skipped,
    };
  }

  /**
   * The fleet's end: nothing new starts (the players' clock stops, the listeners and the joins
   * end), and the requests already in flight are waited for, up to their own 10 s, so that a
   * server that never answers is counted as such however short the run was. What a player
   * starts after the end (a load's second request) is neither counted nor waited for.
   */
  async drain(ranItsCourse = false): Promise<void> {
    if (this.endedAt !== null || this.closed) return;
    const { clock, startAt } = this.options;
    // A fleet that ran its course: joins due by now whose timers have not fired yet. A run of a
    // few ms of wall time (1 s at speed 1,000) ended before a thread's timers ran, and passed on
    // the players of the other thread alone, or failed with none (outside audit of 7 December
    // 2026). Each joins, and its first request is in flight at the end, as the ramp's last
    // player's is. A fleet stopped (Stop, Ctrl-C) starts nothing more.
    const since = clock.now() - startAt;
    if (ranItsCourse) for (const [n, at] of this.joinsDue) if (at <= since) this.join(n);
    this.endedAt = Date.now();
    clock.setSpeed(0);
    for (const timer of this.timers) clock.clearTimeout(timer);
    this.timers.clear();
    for (const { listener } of this.members) listener.close();
    await this.out.settled();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) this.options.clock.clearTimeout(timer);
    this.timers.clear();
    for (const id of this.ruleIds) this.options.faults.remove(id);
    this.ruleIds.clear();
    for (const { player, listener } of this.members) {
      listener.close();
      player.close();
    }
  }

  private join(n: number): void {
    if (this.closed || !this.joinsDue.delete(n)) return;
    const { clock, fleetId, input } = this.options;
    const load = this.options.queueOf(n);
    const playerId = `${fleetId}-${n}`;
    const client = new CloudQueueClient({
      playerId,
      clock,
      timeouts: this.out.timeouts,
      transport: this.options.transport,
      bodyBudget: this.bodies,
      onExchange: (exchange) => this.noteExchange(exchange),
    });
    const rates = { skipRate: input.skipRate ?? 0, pauseRate: input.pauseRate ?? 0, seekRate: input.seekRate ?? 0 };
    const member: { listener?: Listener } = {};
    const player = new Player({
      playerId,
      groupId: playerId,
      clock,
      client,
      onTransition: (record) => member.listener?.onTransition(record),
    });
    const listener = (member.listener = new Listener(player, clock, listenerRandom(input.seed ?? 1, n), rates, load));
    this.members.push({ player, listener });
    listener.start();
  }

  private noteExchange(exchange: PlayerExchange): void {
    // Started in the millisecond the fleet ended is in flight at its end (a player `drain` joined).
    if (this.closed || (this.endedAt !== null && exchange.wallAt > this.endedAt)) return;
    // Failures and violations always reach the log; the rest by a seeded draw.
    if (isError(exchange) || exchange.violations.length > 0 || this.draw.next() < this.rate)
      this.options.post(exchange);
    else {
      exchange.trafficId = null;
      this.skipped++;
    }
    this.metrics.record(exchange);
  }

  private scheduleFault({ rule, startMs = 0, durationMs }: FleetFault, index: number, since: number): void {
    // A fleet's rule fails fleet traffic in the players' client, whatever server they play.
    const own = { ...rule, target: 'player' as const, label: rule.label ?? 'fleet fault' };
    const endMs = durationMs === undefined ? Infinity : startMs + durationMs;
    if (endMs <= since) return;
    this.after(startMs - since, () => {
      const added = this.options.faults.add(own);
      this.ruleIds.add(added.id);
      this.options.onFaultOn?.(index, added.id);
      if (endMs !== Infinity)
        this.after(endMs - (this.options.clock.now() - this.options.startAt), () => {
          this.options.faults.remove(added.id);
          this.ruleIds.delete(added.id);
        });
    });
  }

  /** A timer every 100 wall ms on the players' clock: how late it fires is how late theirs do. */
  private probe(): void {
    const { clock } = this.options;
    const due = performance.now() + PROBE_EVERY_MS;
    this.after(PROBE_EVERY_MS * clock.speed, () => {
      this.lateness.accept(Math.max(0, performance.now() - due));
      this.probe();
    });
  }

  private byState(): Record<FleetPlayerState, number> {
    const counts = Object.fromEntries(FLEET_PLAYER_STATES.map((s) => [s, 0])) as Record<FleetPlayerState, number>;
    for (const { player } of this.members) counts[player.machineState]++;
    return counts;
  }

  private after(delayMs: number, callback: () => void): void {
    const timer = this.options.clock.setTimeout(
      () => {
        this.timers.delete(timer);
        if (!this.closed) callback();
      },
      Math.max(0, delayMs),
      'fleet',
    );
    this.timers.add(timer);
  }
}
