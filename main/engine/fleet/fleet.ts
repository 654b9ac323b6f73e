/**
 * One fleet: N players, each the console's own player (player/player.ts, the same table, request
 * policies, retries and reports), each with its own session and its own queue, joining evenly
 * over the ramp, on an engine clock of the fleet's own at its speed. The players are split over
 * worker threads (default one per core), each playing its share (share.ts) on a clock started
 * where this one did; one worker plays in this thread. Their requests leave through the fault
 * rules (target `player`), so a rule fails fleet traffic whatever server it plays; the fleet's
 * timed rules go on and off at their engine times in every share. A request is given up after
 * 10 s of real time, whatever the speed: the server answers in real time. This thread keeps the
 * report and the traffic log: once a wall second it asks every share for its figures, merges
 * them (merge.ts) and ticks: players by state, requests, retries, errors and violations of that
 * second.
 */
import { availableParallelism } from 'node:os';
import type { FaultRule } from '../api/fault-types.js';
import type { FleetReport, FleetStartInput, FleetTick } from '../api/fleet-types.js';
import { messageOf } from '../api/errors.js';
import { EngineClock, type Timer } from '../clock/clock.js';
import type { WallClock } from '../clock/wall.js';
import { faultingTransport } from '../faults/player-transport.js';
import type { FaultRegistry } from '../faults/registry.js';
import { FLEET_BODY_SLOTS } from '../http/body-budget.js';
import type { HttpTransport, PlayerExchange } from '../player/client.js';
import { keepAliveTransport, type KeepAliveTransport } from '../player/http-transport.js';
import type { LoadParams } from '../player/events.js';
import { emptySnapshot, mergeShares, sumDeltas, type MergedShares } from './merge.js';
import { FleetMetrics, latencyByEndpoint, newSketch, statsKey, summarize } from './metrics.js';
import { latencyFigures } from './percentile.js';
import { burstNote, busyNote, ownLimitNote, ownLimitsWhy, timeNote } from './run-notes.js';
import { ServerRuleHits } from './server-rules.js';
import { PlayerShare, type ShareSnapshot } from './share.js';
import type { Threshold, ThresholdFigures } from '../api/thresholds.js';
import { judge } from './judge.js';
import { TrafficSampler } from './traffic-sample.js';
import { fleetVerdict, notJudgedWhy } from './verdict.js';
import { timesLeft, type TimesLeft } from './shared-times.js';
import type { MirroredRules } from './worker-protocol.js';
import { LocalShare, WorkerShare, workerScript, type Share } from './workers.js';

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
  /** The console's rules; `list` lets live `player` rules reach worker threads. */
  faults: Pick<FaultRegistry, 'add' | 'remove' | 'decide'> & Partial<Pick<FaultRegistry, 'list' | 'countHits'>>;
  /** How requests leave before the fault rules (tests); default fetch. A function stays in this thread. */
  transport?: HttpTransport;
  queues: QueueSource;
  /** Puts an exchange in the traffic log; answers its id. */
  log: (exchange: PlayerExchange) => number | null | void;
  onTick: (tick: FleetTick, ended: boolean) => void;
  /** When BASE_URL is given: answers an error message when it cannot be reached at all. */
  probe?: () => Promise<string | null>;
  /** The fleet plays the console's own cloud queue server, where the Faults area's rules answer too. */
  ownServer?: boolean;
}

/** Threads a fleet plays on when not told: one per core. */
export function defaultWorkers(): number {
  return availableParallelism();
}

export class Fleet {
  readonly clock: EngineClock;
  /** The ticks (the shares' counts, merged each wall second). */
  private readonly series = new FleetMetrics();
  private readonly sampler: TrafficSampler;
  private readonly timers = new Set<Timer>();
  private shares: Share[] = [];
  private snapshots: ShareSnapshot[] = [];
  private merged: MergedShares | null = null;
  private mirroredRules = '';
  /** The count of hits left every thread shares, per console `times` rule mirrored to them. */
  private readonly ruleTimes = new Map<string, TimesLeft>();
  /** Each share's hits on the console's rules, as its last snapshot said. */
  private readonly ruleHitsSeen: Record<string, number>[] = [];
  private collecting: Promise<void> = Promise.resolve();
  private inFlight = false;
  private readonly notes: string[] = [];
  /** Against the console's own server: its fault rules' hits since the start (server-rules.ts). */
  private serverRules: ServerRuleHits | null = null;
  private endedRuleNote: string | null = null;
  private startedWall: number;
  private status: FleetReport['status'] = 'running';
  private http: KeepAliveTransport | null = null;
  private finishedAt: number | null = null;
  private error: FleetReport['error'] = null;
  private thresholdResults: FleetReport['thresholds'] = [];
  private endedAtMs: number | null = null;
  private ending: Promise<void> | null = null;
  /**
   * Set the moment the end begins (a stop, the duration up, a failure), while `running` still
   * holds until the last figures are in: what the start still had to do is then left undone,
   * and a thread that ends because of the stop is no failure to start.
   */
  private stopping = false;
  private resolveDone!: () => void;
  readonly done = new Promise<void>((resolve) => (this.resolveDone = resolve));

  constructor(private readonly deps: FleetDeps) {
    // Stopped until the fleet is ready to play (its queues made, its server reached, its threads up).
    this.clock = new EngineClock({ wall: deps.wall, startAt: deps.startAt, speed: 0 });
    this.startedWall = deps.wall.now();
    this.sampler = new TrafficSampler({ add: deps.log });
  }

  get id(): string {
    return this.deps.id;
  }

  get running(): boolean {
    return this.status === 'running';
  }

  /** Worker threads still running (none once it ended). */
  get liveThreads(): number {
    return this.shares.filter((share) => share instanceof WorkerShare && share.alive).length;
  }

  /** Engine ms since the fleet started. */
  get elapsedMs(): number {
    return this.endedAtMs ?? this.clock.now() - this.deps.startAt;
  }

  async start(): Promise<void> {
    const problem = await this.deps.probe?.();
    if (this.stopping) return;
    if (problem) {
      this.error = { kind: 'unreachable', message: problem };
      await this.finish('finished');
      return;
    }
    const { input } = this.deps;
    try {
      await this.deps.queues.prepare?.(input.players, () => !this.stopping);
    } catch (error) {
      if (this.stopping) return;
      this.error = { kind: 'setup', message: `the players' queues could not be made: ${messageOf(error)}` };
      await this.finish('finished');
      return;
    }
    if (this.stopping) return;
    const workers = this.spawnWorkers();
    // Known at once: a stop while they load ends them.
    this.shares = workers;
    try {
      await Promise.all(workers.map((w) => w.ready));
    } catch (error) {
      // Stopped while they loaded: the stop ended them (audit V6 read that as a setup failure).
      if (this.stopping) return;
      this.error = { kind: 'setup', message: `the fleet's worker threads could not start: ${messageOf(error)}` };
      await this.finish('finished');
      return;
    }
    if (this.stopping) return;
    this.startedWall = this.deps.wall.now();
    const { list } = this.deps.faults;
    if (this.deps.ownServer && list) this.serverRules = new ServerRuleHits(() => list.call(this.deps.faults));
    const speed = input.speed ?? 1;
    this.clock.setSpeed(speed);
    if (workers.length > 0) {
      const rules = this.liveRules();
      this.mirroredRules = ruleKey(rules);
      const mirrored = this.mirrorOf(rules);
      workers.forEach((w) =>
        w.start({
          type: 'start',
          startWall: this.startedWall,
          startAt: this.deps.startAt,
          speed,
          ...mirrored,
        }),
      );
    } else this.shares = [new LocalShare(this.localShare())];
    this.scheduleTick();
    this.after(input.durationMs, () => void this.finish('finished'));
  }

  stop(): Promise<void> {
    return this.finish('stopped');
  }

  report(): FleetReport {
    const { input } = this.deps;
    const merged = this.merged ?? mergeShares([], this.sampler.samples);
    const { authorization, ...options } = input;
    const wallMs = (this.finishedAt ?? this.deps.wall.now()) - this.startedWall;
    const totals = merged.totals;
    const timerLateness = summarize(merged.lateness);
    const workers = Math.max(1, this.shares.length);
    const busy = busyNote(timerLateness, merged.joined, workers);
    return {
      id: this.deps.id,
      status: this.status,
      startedAt: this.startedWall,
      finishedAt: this.finishedAt,
      options: { ...options, authorization: authorization ? 'given' : null },
      timeNote: timeNote(input.speed ?? 1, input.durationMs),
      notes: [
        ...this.notes,
        ...[
          busy,
          burstNote(input.players, input.rampMs ?? 0, input.speed ?? 1, input.durationMs),
          ownLimitNote(merged.endpoints),
          this.serverRuleNote(),
        ].filter((note): note is string => note !== null),
      ],
      workers,
      elapsed: { engineMs: Math.round(this.elapsedMs), wallMs },
      players: { joined: merged.joined, byState: merged.byState },
      totals: {
        ...totals,
        errorRate: totals.requests === 0 ? 0 : totals.errors / totals.requests,
        requestsPerSecond: wallMs > 0 ? Math.round((totals.requests / wallMs) * 10_000) / 10 : 0,
      },
      latency: summarize(merged.all),
      latencyByEndpoint: latencyByEndpoint(merged.sketches),
      timerLateness,
      endpoints: merged.endpoints.map((stats) => ({
        ...stats,
        latency: summarize(merged.sketches.get(statsKey(stats.endpoint, stats.reason)) ?? newSketch()),
      })),
      series: [...this.series.series],
      violations: merged.violations,
      thresholds: this.thresholdResults,
      traffic: { logged: this.sampler.logged, skipped: this.sampler.skipped + merged.skipped },
      error: this.error,
      verdict: fleetVerdict({ status: this.status, thresholds: this.thresholdResults, error: this.error }),
    };
  }

  /** What the thresholds read, now. */
  figures(): ThresholdFigures {
    const report = this.report();
    const all = (this.merged ?? mergeShares([], this.sampler.samples)).all;
    return {
      ...latencyFigures(all),
      errorRate: report.totals.errorRate,
      counts: report.totals,
      // Exact, not the report's tenth: 5.0895/s passed rps>=5.1 and failed rps<5.1 (audit).
      requestsPerSecond: report.elapsed.wallMs > 0 ? (report.totals.requests / report.elapsed.wallMs) * 1000 : 0,
    };
  }

  /** How many threads play: the players split evenly, player n in thread (n - 1) mod W. */
  private spawnWorkers(): WorkerShare[] {
    const { input } = this.deps;
    const asked = input.workers ?? defaultWorkers();
    const threads = Math.min(asked, input.players);
    // A thread plays one player at least (audit z1-8: 64 asked for 5 players, 5 used, no word).
    if (input.workers !== undefined && threads < asked)
      this.notes.push(
        `--workers ${asked}: ${threads} thread${threads === 1 ? '' : 's'} played, one for each of the ${input.players} player${input.players === 1 ? '' : 's'} at most`,
      );
    if (threads <= 1) return [];
    if (this.deps.transport) {
      this.notes.push(
        `--workers ${asked}: a transport given in-process cannot cross to a worker thread; 1 thread played`,
      );
      return [];
    }
    const script = workerScript();
    if (!script) {
      this.notes.push(`--workers ${asked}: this build has no fleet worker script; 1 thread played`);
      return [];
    }
    const { authorization: _authorization, ...options } = input;
    // One count per `times` rule for every thread (shared-times.ts).
    const faultTimes = (options.faults ?? []).map(({ rule }) =>
      rule.times === undefined ? null : timesLeft(rule.times),
    );
    return Array.from({ length: threads }, (_, i) => {
      const numbers: number[] = [];
      for (let n = i + 1; n <= input.players; n += threads) numbers.push(n);
      return new WorkerShare(
        script,
        {
          type: 'init',
          fleetId: this.deps.id,
          input: options,
          numbers,
          loads: numbers.map((n) => this.deps.queues.queueOf(n)),
          drawSeed: drawSeed(input.seed ?? 1, i),
          bodySlots: bodySlotsOf(threads),
          faultTimes,
        },
        (exchange) => this.admit(exchange),
        (message) => this.notes.length < 20 && this.notes.push(message),
      );
    });
  }

  /**
   * The players' kept-alive connections (node:http: fetch refuses the ports browsers block, and
   * costs several times more per request), opened on first use and closed at the end.
   */
  private connections(): KeepAliveTransport {
    return (this.http ??= keepAliveTransport());
  }

  private localShare(): PlayerShare {
    const share = new PlayerShare({
      fleetId: this.deps.id,
      input: this.deps.input,
      numbers: Array.from({ length: this.deps.input.players }, (_, i) => i + 1),
      queueOf: (n) => this.deps.queues.queueOf(n),
      clock: this.clock,
      startAt: this.deps.startAt,
      // A request has 10 s of real time: the server answers in real time, whatever the speed.
      timeouts: this.deps.wall,
      transport: faultingTransport(
        this.deps.transport ?? this.connections().transport,
        this.deps.faults as FaultRegistry,
        this.clock,
        this.deps.wall,
      ),
      faults: this.deps.faults,
      post: (exchange) => this.admit(exchange),
      drawSeed: drawSeed(this.deps.input.seed ?? 1, 0),
      bodySlots: bodySlotsOf(1),
    });
    share.start();
    return share;
  }

  private admit(exchange: PlayerExchange): void {
    if (this.running) this.sampler.admit(exchange);
  }

  /** What the workers' copies of the console's rules hit since the last snapshot, counted there. */
  private countRuleHits(snapshots: readonly ShareSnapshot[]): void {
    snapshots.forEach((snapshot, i) => {
      const seen = (this.ruleHitsSeen[i] ??= {});
      for (const [id, hits] of Object.entries(snapshot.ruleHits ?? {})) {
        const fresh = hits - (seen[id] ?? 0);
        // Hits of a rule the console does not have now wait for it: one put back under its id counts them.
        if (fresh > 0 && this.deps.faults.countHits?.(id, fresh) === false) continue;
        seen[id] = Math.max(hits, seen[id] ?? 0);
      }
    });
  }

  /**
   * The console's live rules as the workers copy them: a `times` rule with the hits it has left,
   * and one count of them every thread takes its hits from, made the first time it is mirrored
   * (the console adds the workers' hits to its rule as they are counted).
   */
  private mirrorOf(rules: readonly FaultRule[]): MirroredRules {
    const left: Record<string, TimesLeft> = {};
    const copies = rules.map((rule) => {
      if (rule.times === undefined) return rule;
      const remaining = Math.max(0, rule.times - rule.hits);
      let count = this.ruleTimes.get(rule.id);
      if (!count) this.ruleTimes.set(rule.id, (count = timesLeft(remaining)));
      left[rule.id] = count;
      return { ...rule, times: remaining };
    });
    return { rules: copies, timesLeft: left };
  }

  /** The console's live rules for the players, but those a local share would read itself. */
  private liveRules(): FaultRule[] {
    return (this.deps.faults.list?.() ?? []).filter((rule) => rule.target === 'player' && !rule.spent);
  }

  private scheduleTick(): void {
    // Once a wall second: speed × 1,000 engine ms.
    const every = 1_000 * this.clock.speed;
    this.after(every, () => {
      if (!this.running) return;
      this.serverRules?.observe();
      // A thread still answering the last tick is behind: this tick's counts go to the next.
      // Queueing every tick instead would pile them up behind a slow thread.
      if (!this.inFlight) {
        this.inFlight = true;
        this.collecting = this.collect()
          .catch(() => undefined)
          .finally(() => (this.inFlight = false));
      }
      this.scheduleTick();
    });
  }

  private async collect(): Promise<void> {
    const rules = this.liveRules();
    if (ruleKey(rules) !== this.mirroredRules) {
      this.mirroredRules = ruleKey(rules);
      const mirrored = this.mirrorOf(rules);
      for (const share of this.shares) share.mirror(mirrored);
    }
    const snapshots = await Promise.all(this.shares.map((s) => s.snapshot()));
    if (!this.running) return;
    this.deps.onTick(this.absorb(snapshots), false);
  }

  private absorb(snapshots: ShareSnapshot[]): FleetTick {
    this.countRuleHits(snapshots);
    this.snapshots = snapshots;
    this.merged = mergeShares(snapshots, this.sampler.samples);
    return this.series.tick(
      this.elapsedMs,
      this.deps.wall.now() - this.startedWall,
      this.merged.byState,
      sumDeltas(snapshots),
    );
  }

  /** What the console's server rules answered: live while the fleet plays, kept as it was at its end. */
  private serverRuleNote(): string | null {
    if (this.finishedAt === null) return this.serverRules?.note() ?? null;
    return this.endedRuleNote;
  }

  private finish(status: 'finished' | 'stopped'): Promise<void> {
    this.ending ??= (async () => {
      this.stopping = true;
      this.endedAtMs = Math.min(this.clock.now() - this.deps.startAt, this.deps.input.durationMs);
      for (const timer of this.timers) this.clock.clearTimeout(timer);
      this.timers.clear();
      await this.collecting;
      // The shares' last figures, judged before their players close: closing is not what was measured.
      const ranItsCourse = status === 'finished' && this.error === null;
      const finals = await Promise.all(this.shares.map((s) => s.finish(ranItsCourse).catch(() => null)));
      const last = this.absorb(finals.map((f, i) => f ?? this.snapshots[i] ?? emptySnapshot()));
      // A fleet that never played measured nothing: its thresholds are not judged (zero errors of
      // zero requests would otherwise read as a gate held), and it says why (verdict.ts).
      // Requests that failed on this machine: the server did not get the load asked for, and an
      // errors threshold they failed would blame it (outsider: EMFILE at 20,000 players).
      const why =
        notJudgedWhy({ status, error: this.error, requests: this.merged?.totals.requests ?? 0 }) ??
        ownLimitsWhy(this.merged?.endpoints ?? []);
      // The wall time the thresholds read is the report's: rps judged on one, shown on another, differed.
      this.endedRuleNote = this.serverRules?.note() ?? null;
      this.finishedAt = this.deps.wall.now();
      this.thresholdResults = why
        ? this.deps.thresholds.map((t) => ({
            expression: t.expression,
            ok: false,
            actual: NaN,
            unit: t.unit,
            notJudged: `not judged: ${why}`,
          }))
        : judge(this.deps.thresholds, this.figures());
      this.status = status;
      this.clock.close();
      this.http?.close();
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

/** Each of `shares` threads' part of the fleet's slots for big answers: the fleet holds as many in all. */
function bodySlotsOf(shares: number): number {
  return Math.max(1, Math.floor(FLEET_BODY_SLOTS / shares));
}

/** Each share's own sample draw, from the fleet's seed: a run logs the same exchanges again. */
function drawSeed(seed: number, share: number): number {
  return ((seed ^ 0x5a5a5a5a) + Math.imul(share, 0x9e3779b1)) >>> 0;
}

function ruleKey(rules: readonly FaultRule[]): string {
  return rules.map((r) => r.id).join(' ');
}
