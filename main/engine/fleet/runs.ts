/**
 * The console's fleets (docs/fleet.md): one plays at a time (it takes the machine), the newest
 * MAX_KEPT_FLEETS ended ones are kept in memory to read and export. A start is checked whole
 * before anything runs: its thresholds parse, its BASE_URL is a URL for every player.
 */
import { baseUrlQueryProblem } from '../api/base-url.js';
import { randomBytes } from 'node:crypto';
import { EngineError } from '../api/errors.js';
import type {
  FleetListItem,
  FleetReport,
  FleetReportFile,
  FleetReportFormat,
  FleetStartInput,
  FleetTick,
} from '../api/fleet-types.js';
import type { WallClock } from '../clock/wall.js';
import type { FaultRegistry } from '../faults/registry.js';
import type { HttpTransport, PlayerExchange } from '../player/client.js';
import { Fleet } from './fleet.js';
import { baseUrlQueues, playerBaseUrl, probeServer, referenceQueues, type ReferenceQueues } from './queues.js';
import { exportFleet } from './reports/export.js';
import { parseThresholds } from '../api/thresholds.js';

export const MAX_KEPT_FLEETS = 10;

export interface FleetRunsDeps {
  wall: WallClock;
  /** The console's engine time: a fleet's clock starts there. */
  now: () => number;
  faults: Pick<FaultRegistry, 'add' | 'remove' | 'decide'> & Partial<Pick<FaultRegistry, 'list' | 'countHits'>>;
  reference: ReferenceQueues;
  log: (exchange: PlayerExchange) => number | null | void;
  emit: (data: { id: string; tick: FleetTick; ended: boolean }) => void;
  transport?: HttpTransport;
}

/** The targets a fleet's own rule may name: both mean its players' cloud queue requests (share.ts). */
const FLEET_TARGETS: ReadonlySet<string> = new Set(['player', 'cloudQueue']);

export class FleetRuns {
  private readonly fleets = new Map<string, Fleet>();

  constructor(private readonly deps: FleetRunsDeps) {}

  start(input: FleetStartInput): { id: string } {
    const parsed = parseThresholds(input.thresholds ?? []);
    if (!parsed.ok) throw new EngineError('invalid_input', parsed.message);
    if ((input.rampMs ?? 0) > input.durationMs)
      throw new EngineError('invalid_input', 'rampMs must not be longer than durationMs: players due later never join');
    // A fault due at or past the end never acts: a run that meant to test it would pass untested (audit).
    const late = (input.faults ?? []).findIndex((fault) => (fault.startMs ?? 0) >= input.durationMs);
    if (late !== -1)
      throw new EngineError(
        'invalid_input',
        `faults/${late}/startMs (${input.faults![late]!.startMs}) is not before the fleet's end (its durationMs, ${input.durationMs}): the rule would never act`,
      );
    // Its rules act on its players' cloud queue requests: a login or control rule would fail them
    // as though it named them, which no one writing it meant (audit AC-4).
    const elsewhere = (input.faults ?? []).findIndex((fault) => !FLEET_TARGETS.has(fault.rule.target));
    if (elsewhere !== -1)
      throw new EngineError(
        'invalid_input',
        `faults/${elsewhere}/rule/target (${input.faults![elsewhere]!.rule.target}) names traffic a fleet does not make: its rules act on the players' cloud queue requests, target player or cloudQueue`,
      );
    if (input.baseUrl !== undefined) {
      const url = URL.canParse(playerBaseUrl(input.baseUrl, 1)) ? new URL(playerBaseUrl(input.baseUrl, 1)) : null;
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
        throw new EngineError(
          'invalid_input',
          `baseUrl must be an absolute http(s) URL, got ${JSON.stringify(input.baseUrl)}`,
        );
      if (url.username || url.password)
        throw new EngineError(
          'invalid_input',
          'baseUrl must not carry a user name or password: give credentials as "authorization"',
        );
      const queryProblem = baseUrlQueryProblem(url, 'baseUrl');
      if (queryProblem) throw new EngineError('invalid_input', queryProblem, { field: 'baseUrl' });
    }
    const running = [...this.fleets.values()].find((f) => f.running);
    if (running) throw new EngineError('conflict', `fleet ${running.id} is playing; stop it or wait for its end`);
    const id = `fleet-${randomBytes(4).toString('hex')}`;
    const fleet = new Fleet({
      id,
      input,
      thresholds: parsed.thresholds,
      wall: this.deps.wall,
      startAt: this.deps.now(),
      faults: this.deps.faults,
      ...(this.deps.transport ? { transport: this.deps.transport } : {}),
      queues:
        input.baseUrl === undefined
          ? referenceQueues(id, this.deps.reference)
          : baseUrlQueues(input.baseUrl, input.authorization),
      log: this.deps.log,
      onTick: (tick, ended) => this.deps.emit({ id, tick, ended }),
      ...(input.baseUrl === undefined
        ? { ownServer: true }
        : { probe: () => probeServer(input.baseUrl!, input.authorization) }),
    });
    this.fleets.set(id, fleet);
    this.prune();
    void fleet.start();
    return { id };
  }

  /** Every kept fleet, newest first. */
  list(): FleetListItem[] {
    return [...this.fleets.values()].reverse().map((fleet) => {
      const report = fleet.report();
      const { id, status, startedAt, finishedAt, thresholds, options, verdict, error } = report;
      return {
        id,
        status,
        players: options.players,
        startedAt,
        finishedAt,
        verdict,
        errorKind: error?.kind ?? null,
        thresholds,
      };
    });
  }

  get(id: string): FleetReport {
    return this.find(id).report();
  }

  async stop(id: string): Promise<FleetReport> {
    const fleet = this.find(id);
    await fleet.stop();
    return fleet.report();
  }

  /** The fleet once it ended. */
  async finished(id: string): Promise<FleetReport> {
    const fleet = this.find(id);
    await fleet.done;
    return fleet.report();
  }

  export(id: string, format: FleetReportFormat): FleetReportFile {
    const report = this.get(id);
    if (report.status === 'running')
      throw new EngineError('conflict', `fleet ${id} is playing; export it once it ended`);
    return exportFleet(report, format);
  }

  async close(): Promise<void> {
    await Promise.all([...this.fleets.values()].filter((f) => f.running).map((f) => f.stop()));
  }

  private find(id: string): Fleet {
    const fleet = this.fleets.get(id);
    if (!fleet) throw new EngineError('not_found', `no fleet ${id}`);
    return fleet;
  }

  private prune(): void {
    const ended = [...this.fleets.values()].filter((f) => !f.running);
    for (const fleet of ended.slice(0, Math.max(0, this.fleets.size - MAX_KEPT_FLEETS))) this.fleets.delete(fleet.id);
  }
}
