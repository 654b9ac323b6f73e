/**
 * One fleet: N players, each the console's own player (player/player.ts, the same table, request
 * policies, retries and reports), each with its own session and its own queue, joining evenly
 * over the ramp, on an engine clock of the fleet's own at its speed. Its requests leave through
 * the fault rules (target `player`), so a rule fails fleet traffic whatever server it plays; the
 * fleet's own timed rules go on and off at their engine times. It ticks once a wall second:
 * players by state, requests, retries, errors and violations of that second.
 */
import type { FaultRuleInput } from '../api/fault-types.js';
import type { FleetPlayerState, FleetReport, FleetStartInput, FleetTick } from '../api/fleet-types.js';
import { FLEET_PLAYER_STATES } from '../api/fleet-types.js';
import { messageOf } from '../api/errors.js';
import { EngineClock, type Timer } from '../clock/clock.js';
import type { WallClock } from '../clock/wall.js';
import { faultingTransport } from '../faults/player-transport.js';
import type { FaultRegistry } from '../faults/registry.js';
import { CloudQueueClient, fetchTransport, type HttpTransport, type PlayerExchange } from '../player/client.js';
import type { LoadParams } from '../player/events.js';
import { Player } from '../player/player.js';
import { Listener, listenerRandom } from './listener.js';
import { FleetMetrics, summarize } from './metrics.js';
import { judge, type Threshold, type ThresholdFigures } from './thresholds.js';
import { DEFAULT_TRAFFIC_SAMPLE_RATE, TrafficSampler } from './traffic-sample.js';

/** Where a player's queue is: made on the reference server, or BASE_URL with its number. */
export interface QueueSource {
  /** Makes the queues of players 1…count before the fleet's clock starts; stops early once `stillWanted` is false. */
  prepare?(count: number, stillWanted: () => boolean): Promise<void>;
  /** The queue of player `n` (1-based). */
  queueOf(n: number): LoadParams;
  /** Called once the fleet ended: the reference server drops the queues it made. */
  release?(): void | Promise<void>;
}

export interface FleetDeps {
  id: string;
  input: FleetStartInput;
  thresholds: Threshold[];
  wall: WallClock;
  /** Engine time the fleet's clock starts at (the console's now). */
  startAt: number;
  faults: Pick<FaultRegistry, 'add' | 'remove' | 'decide'>;
  /** How requests leave before the fault rules (tests); default fetch. */
  transport?: HttpTransport;
  queues: QueueSource;
  /** Puts an exchange in the traffic log; answers its id. */
  log: (exchange: PlayerExchange) => number | null | void;
  onTick: (tick: FleetTick, ended: boolean) => void;
  /** When BASE_URL is given: answers an error message when it cannot be reached at all. */
  probe?: () => Promise<string | null>;
}

interface Member {
  player: Player;
  listener: Listener;
}

export class Fleet {
  readonly clock: EngineClock;
  private readonly metrics = new FleetMetrics();
  private readonly sampler: TrafficSampler;
  private readonly members: Member[] = [];
  private readonly timers = new Set<Timer>();
  private readonly ruleIds = new Set<string>();
  private readonly transport: HttpTransport;
  private startedWall: number;
  private status: FleetReport['status'] = 'running';
  private finishedAt: number | null = null;
  private error: FleetReport['error'] = null;
  private thresholdResults: FleetReport['thresholds'] = [];
  private endedAtMs: number | null = null;
  private ending: Promise<void> | null = null;
  private resolveDone!: () => void;
  readonly done = new Promise<void>((resolve) => (this.resolveDone = resolve));

  constructor(private readonly deps: FleetDeps) {
    // Stopped until the fleet is ready to play (its queues made, its server reached).
    this.clock = new EngineClock({ wall: deps.wall, startAt: deps.startAt, speed: 0 });
    this.startedWall = deps.wall.now();
    this.sampler = new TrafficSampler({
      add: deps.log,
      rate: deps.input.trafficSampleRate ?? DEFAULT_TRAFFIC_SAMPLE_RATE,
      seed: deps.input.seed ?? 1,
    });
    this.transport = faultingTransport(deps.transport ?? fetchTransport, deps.faults as FaultRegistry, this.clock);
  }

  get id(): string {
    return this.deps.id;
  }

  get running(): boolean {
    return this.status === 'running';
  }

  /** Engine ms since the fleet started. */
  get elapsedMs(): number {
    return this.endedAtMs ?? this.clock.now() - this.deps.startAt;
  }

  async start(): Promise<void> {
    const problem = await this.deps.probe?.();
    if (problem) {
      this.error = { kind: 'unreachable', message: problem };
      await this.finish('finished');
      return;
    }
    const { input } = this.deps;
    try {
      await this.deps.queues.prepare?.(input.players, () => this.running);
    } catch (error) {
      this.error = { kind: 'setup', message: `the players' queues could not be made: ${messageOf(error)}` };
      await this.finish('finished');
      return;
    }
    if (!this.running) return;
    this.startedWall = this.deps.wall.now();
    this.clock.setSpeed(input.speed ?? 1);
    for (const fault of input.faults ?? []) this.scheduleFault(fault.rule, fault.startMs ?? 0, fault.durationMs);
    const ramp = input.rampMs ?? 0;
    for (let n = 1; n <= input.players; n++) {
      const at = input.players === 1 ? 0 : (ramp * (n - 1)) / (input.players - 1);
      this.after(at, () => this.join(n));
    }
    this.scheduleTick();
    this.after(input.durationMs, () => void this.finish('finished'));
  }

  stop(): Promise<void> {
    return this.finish('stopped');
  }

  report(): FleetReport {
    const { input } = this.deps;
    const merged = this.metrics.merged();
    const { authorization, ...options } = input;
    const wallMs = (this.finishedAt ?? this.deps.wall.now()) - this.startedWall;
    const totals = this.metrics.totals;
    return {
      id: this.deps.id,
      status: this.status,
      startedAt: this.startedWall,
      finishedAt: this.finishedAt,
      options: { ...options, authorization: authorization ? 'given' : null },
      timeNote: timeNote(input.speed ?? 1, input.durationMs),
      notes:
        input.workers && input.workers > 1
          ? [`--workers ${input.workers}: this version plays the whole fleet in the engine's own thread (1 worker)`]
          : [],
      workers: 1,
      elapsed: { engineMs: Math.round(this.elapsedMs), wallMs },
      players: {
        joined: this.members.length,
        // Once ended, as they were at the end: closing is not what was measured.
        byState: this.running ? this.byState() : (this.metrics.series.at(-1)?.byState ?? this.byState()),
      },
      totals: {
        ...totals,
        errorRate: totals.requests === 0 ? 0 : totals.errors / totals.requests,
        requestsPerSecond: wallMs > 0 ? Math.round((totals.requests / wallMs) * 10_000) / 10 : 0,
      },
      latency: summarize(merged),
      latencyByEndpoint: this.metrics.latencyByEndpoint(),
      endpoints: this.metrics.endpointStats(),
      series: [...this.metrics.series],
      violations: this.metrics.violations(),
      thresholds: this.thresholdResults,
      traffic: { logged: this.sampler.logged, skipped: this.sampler.skipped },
      error: this.error,
    };
  }

  /** What the thresholds read, now. */
  figures(): ThresholdFigures {
    const report = this.report();
    const merged = this.metrics.merged();
    return {
      latencyAt: (q) => (merged.count === 0 ? NaN : merged.getValueAtQuantile(q)),
      maxLatency: merged.count === 0 ? NaN : merged.max,
      errorRate: report.totals.errorRate,
      counts: report.totals,
      requestsPerSecond: report.totals.requestsPerSecond,
    };
  }

  private join(n: number): void {
    if (!this.running) return;
    const load = this.deps.queues.queueOf(n);
    const playerId = `${this.deps.id}-${n}`;
    const client = new CloudQueueClient({
      playerId,
      clock: this.clock,
      transport: this.transport,
      onExchange: (exchange) => this.noteExchange(exchange),
    });
    const { input } = this.deps;
    const rates = { skipRate: input.skipRate ?? 0, pauseRate: input.pauseRate ?? 0, seekRate: input.seekRate ?? 0 };
    const member: { listener?: Listener } = {};
    const player = new Player({
      playerId,
      groupId: playerId,
      clock: this.clock,
      client,
      onTransition: (record) => member.listener?.onTransition(record),
    });
    const listener = (member.listener = new Listener(
      player,
      this.clock,
      listenerRandom(input.seed ?? 1, n),
      rates,
      load,
    ));
    this.members.push({ player, listener });
    listener.start();
  }

  private noteExchange(exchange: PlayerExchange): void {
    if (!this.running) return;
    this.sampler.offer(exchange, this.metrics.breaksNewRule(exchange));
    this.metrics.record(exchange);
  }

  private scheduleFault(rule: FaultRuleInput, startMs: number, durationMs?: number): void {
    // A fleet's rule fails fleet traffic in the players' client, whatever server they play.
    const own = { ...rule, target: 'player' as const, label: rule.label ?? 'fleet fault' };
    this.after(startMs, () => {
      if (!this.running) return;
      const added = this.deps.faults.add(own);
      this.ruleIds.add(added.id);
      if (durationMs !== undefined)
        this.after(durationMs, () => {
          this.deps.faults.remove(added.id);
          this.ruleIds.delete(added.id);
        });
    });
  }

  private scheduleTick(): void {
    // Once a wall second: speed × 1,000 engine ms.
    const every = 1_000 * this.clock.speed;
    this.after(every, () => {
      if (!this.running) return;
      this.deps.onTick(this.tick(), false);
      this.scheduleTick();
    });
  }

  private tick(): FleetTick {
    return this.metrics.tick(this.elapsedMs, this.deps.wall.now() - this.startedWall, this.byState());
  }

  private byState(): Record<FleetPlayerState, number> {
    const counts = Object.fromEntries(FLEET_PLAYER_STATES.map((s) => [s, 0])) as Record<FleetPlayerState, number>;
    for (const { player } of this.members) counts[player.machineState]++;
    return counts;
  }

  private finish(status: 'finished' | 'stopped'): Promise<void> {
    this.ending ??= (async () => {
      this.endedAtMs = Math.min(this.clock.now() - this.deps.startAt, this.deps.input.durationMs);
      const last = this.tick();
      // Judged before the players close: their closing is not what was measured.
      this.thresholdResults = judge(this.deps.thresholds, this.figures());
      this.status = status;
      for (const timer of this.timers) this.clock.clearTimeout(timer);
      this.timers.clear();
      for (const id of this.ruleIds) this.deps.faults.remove(id);
      this.ruleIds.clear();
      for (const { player, listener } of this.members) {
        listener.close();
        player.close();
      }
      this.clock.close();
      this.finishedAt = this.deps.wall.now();
      this.deps.onTick(last, true);
      try {
        await this.deps.queues.release?.();
      } finally {
        this.resolveDone();
      }
    })();
    return this.ending;
  }

  private after(delayMs: number, callback: () => void): void {
    const timer = this.clock.setTimeout(
      () => {
        this.timers.delete(timer);
        callback();
      },
      delayMs,
      'fleet',
    );
    this.timers.add(timer);
  }
}

/** Said whenever the fleet's time is not real time. */
export function timeNote(speed: number, durationMs: number): string | null {
  if (speed === 1) return null;
  const listening = formatMs(durationMs);
  const real = formatMs(durationMs / speed);
  return speed > 1
    ? `speed ${speed}: time is compressed, each real second is ${speed} s of listening (${listening} of listening in ${real})`
    : `speed ${speed}: time is slowed, each real second is ${speed} s of listening (${listening} of listening in ${real})`;
}

export function formatMs(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 6_000) / 10} min`;
  return `${Math.round(ms / 360_000) / 10} h`;
}
