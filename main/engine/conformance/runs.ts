/**
 * Conformance runs (docs/contract/console.md §7, §8): each starts in the background, settles its
 * cases one by one (a `conformance.progress` event each, and one at the end), and is kept with the
 * server it checked across restarts, the newest MAX_CONFORMANCE_RUNS. The Authorization a run
 * sent is held in memory only, for reruns; on disk it is masked (docs/contract/console.md §9), so
 * after a restart a rerun asks for it again.
 *
 * A run's requests time out after 10 s of real time whatever the engine clock's speed: each run
 * has a clock of its own at speed 1, started at engine time, so that a console paused (speed 0) or
 * racing (speed 60) still checks a real server in real time, and the traffic log still shows the
 * run's entries at about the engine time they happened.
 *
 * A run is bounded whatever the server does (docs/contract/console.md §8): a whole-run deadline of
 * real time (`timeoutMs`, default 120 s) aborts every request in flight and ends the run, and no
 * answer is read past `maxBytes` (default 1 MB).
 */
import { baseUrlQueryProblem } from '../api/base-url.js';
import { randomBytes } from 'node:crypto';
import {
  CHECK_PLAYER_ID,
  DEFAULT_CONFORMANCE_MAX_BYTES,
  DEFAULT_CONFORMANCE_TIMEOUT_MS,
  MAX_CONFORMANCE_RUNS,
  type ConformanceCaseInfo,
  type ConformanceCaseResult,
  type ConformanceReportFile,
  type ConformanceReportFormat,
  type ConformanceRun,
  type ConformanceRunError,
  type ConformanceRunSummary,
  type ConformanceSummary,
} from '../api/conformance-types.js';
import { EngineError } from '../api/errors.js';
import { EngineClock } from '../clock/clock.js';
import type { WallClock } from '../clock/wall.js';
import type { EventBus } from '../events/bus.js';
import { faultingTransport } from '../faults/player-transport.js';
import type { FaultRegistry } from '../faults/registry.js';
import { CloudQueueClient, type HttpTransport, type PlayerExchange } from '../player/client.js';
import { keepAliveTransport } from '../player/http-transport.js';
import type { ConformanceRunRepository } from '../store/repositories/conformance-runs.js';
import { maskUrl } from '../traffic/capture-secrets.js';
import { entryOfExchange } from '../traffic/player-exchange.js';
import type { TrafficRecorder } from '../traffic/recorder.js';
import { maskCredential } from '../api/redact.js';
import type { ConformanceCase } from './case.js';
import { caseEvidence, TrafficEvidence } from './evidence.js';
import { exportRun } from './reports/export.js';
import { runSuite, type SettledCase } from './runner.js';
import { selectCases } from './selection.js';
import { CheckedServer, type PlayerHost } from './server.js';
import { caseInfos, SUITE } from './suite.js';

/** Runs at once: each holds a connection or two to a server; more would only queue behind them. */
export const MAX_RUNNING = 4;

export interface ConformanceDeps {
  repo: ConformanceRunRepository;
  faults: FaultRegistry;
  recorder: Pick<TrafficRecorder, 'add' | 'flush'>;
  bus: Pick<EventBus, 'emit' | 'on'>;
  /** The engine clock: a run's own clock starts at its time. */
  engineClock: Pick<EngineClock, 'now'>;
  wall: WallClock;
  /** How requests leave (tests); default fetch. Fault rules wrap it either way. */
  transport?: HttpTransport;
  cases?: readonly ConformanceCase[];
}

export interface StartInput {
  baseUrl: string;
  authorization?: string;
  /** Only these cases, and those they build on (a replay of a report's failures); default all. */
  cases?: readonly string[];
  /** The whole run's deadline, wall ms; default DEFAULT_CONFORMANCE_TIMEOUT_MS. */
  timeoutMs?: number;
  /** The most bytes read of one answer; default DEFAULT_CONFORMANCE_MAX_BYTES. */
  maxBytes?: number;
  /** Values a run made up (`made-up.ts`), for this one to send again: a replay of its requests. */
  madeUp?: readonly string[];
}

interface LiveRun {
  run: ConformanceRun;
  done: Promise<ConformanceRun>;
  /** Fires when the run is stopped from outside (`stop`): it ends as the console closing ends it. */
  stopper: AbortController;
}

export class ConformanceRuns {
  private readonly live = new Map<string, LiveRun>();
  /** What a rerun needs in clear, by run id: memory only. */
  private readonly targets = new Map<string, StartInput>();
  private readonly closing = new AbortController();
  private readonly cases: readonly ConformanceCase[];

  constructor(private readonly deps: ConformanceDeps) {
    this.cases = deps.cases ?? SUITE;
    // Runs the console stopped in the middle of (a crash, a kill) are over.
    for (const run of deps.repo.running()) deps.repo.save(interrupted(run));
  }

  caseList(): ConformanceCaseInfo[] {
    return caseInfos(this.cases);
  }

  start(input: StartInput, rerunOf: string | null = null): { id: string } {
    if (this.closing.signal.aborted) throw new EngineError('unavailable', 'the console is closing');
    if (!URL.canParse(input.baseUrl))
      throw new EngineError(
        'invalid_input',
        `baseUrl must be an absolute http(s) URL, got ${JSON.stringify(input.baseUrl)}`,
      );
    const url = new URL(input.baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new EngineError('invalid_input', `baseUrl must be http or https, got ${url.protocol}`);
    if (url.username || url.password)
      throw new EngineError(
        'invalid_input',
        'baseUrl must not carry a user name or password: give credentials as "authorization"',
      );
    const queryProblem = baseUrlQueryProblem(url, 'baseUrl');
    if (queryProblem) throw new EngineError('invalid_input', queryProblem, { field: 'baseUrl' });
    if (this.live.size >= MAX_RUNNING)
      throw new EngineError('conflict', `${this.live.size} runs are going on, the most at once; wait for one to end`);

    const id = `run-${randomBytes(5).toString('hex')}`;
    const run: ConformanceRun = {
      id,
      baseUrl: maskUrl(input.baseUrl)?.text ?? input.baseUrl,
      authorization: input.authorization ? maskCredential(input.authorization) : null,
      rerunNeedsAuthorization: false,
      status: 'running',
      startedAt: this.deps.wall.now(),
      finishedAt: null,
      summary: tally([], selectCases(this.cases, input.cases).length),
      error: null,
      rerunOf,
      cases: [],
    };
    this.targets.set(id, { ...input });
    this.deps.repo.save(run);
    this.prune();
    const stopper = new AbortController();
    const done = this.execute(run, input, stopper.signal).finally(() => this.live.delete(id));
    this.live.set(id, { run, done, stopper });
    return { id };
  }

  rerun(id: string, authorization?: string): { id: string } {
    const run = this.find(id);
    const held = this.targets.get(id);
    const given = authorization ?? held?.authorization;
    if (run.authorization !== null && given === undefined) {
      throw new EngineError(
        'invalid_input',
        `run ${id} sent an Authorization (${run.authorization}) that this console no longer holds (it restarted since): give it again as "authorization"`,
      );
    }
    const { authorization: _held, ...bounds } = held ?? { baseUrl: run.baseUrl };
    return this.start({ ...bounds, ...(given === undefined ? {} : { authorization: given }) }, id);
  }

  get(id: string): ConformanceRun {
    return this.find(id);
  }

  list(): ConformanceRunSummary[] {
    return this.deps.repo.list().map((stored) => {
      const live = this.live.get(stored.id)?.run;
      const { cases: _cases, ...summary } = live ?? { ...stored, cases: [] };
      return this.withHeld(summary);
    });
  }

  delete(id: string): { removed: true } {
    if (this.live.has(id))
      throw new EngineError('conflict', `run ${id} is still going on; delete it once it has ended`);
    if (!this.deps.repo.remove(id)) throw new EngineError('not_found', `no conformance run ${id}`);
    this.targets.delete(id);
    return { removed: true };
  }

  export(id: string, format: ConformanceReportFormat): ConformanceReportFile {
    const run = this.find(id);
    if (run.status === 'running')
      throw new EngineError('conflict', `run ${id} is still going on; export it once it has ended`);
    return exportRun(run, format);
  }

  /**
   * Stops a run going on (its requests in flight aborted, its remaining cases not run) and answers
   * it once it has ended and been saved; a run that has ended is answered as it is. A user who gave
   * a wrong URL or token, or a server that answers in 3 s, waited out the whole deadline (ui-x3 U6).
   */
  async stop(id: string): Promise<ConformanceRun> {
    const live = this.live.get(id);
    if (live) {
      live.stopper.abort();
      await live.done;
    }
    return this.find(id);
  }

  /** The run once it has ended (at once if it has). */
  async finished(id: string): Promise<ConformanceRun> {
    const live = this.live.get(id);
    if (live) await live.done;
    return this.find(id);
  }

  /** Stops every run between requests (in-flight ones are aborted) and waits for them to be saved. */
  async close(): Promise<void> {
    this.closing.abort();
    await Promise.all([...this.live.values()].map((live) => live.done.catch(() => undefined)));
  }

  private find(id: string): ConformanceRun {
    const run = this.live.get(id)?.run ?? this.deps.repo.get(id);
    if (!run) throw new EngineError('not_found', `no conformance run ${id}`);
    return this.withHeld(run);
  }

  private withHeld<T extends ConformanceRunSummary>(run: T): T {
    const needs = run.authorization !== null && this.targets.get(run.id)?.authorization === undefined;
    return needs === run.rerunNeedsAuthorization ? run : { ...run, rerunNeedsAuthorization: needs };
  }

  private prune(): void {
    if (this.deps.repo.keepNewest(MAX_CONFORMANCE_RUNS) === 0) return;
    const kept = new Set(this.deps.repo.list().map((run) => run.id));
    for (const id of this.targets.keys()) if (!kept.has(id)) this.targets.delete(id);
  }

  private async execute(run: ConformanceRun, input: StartInput, stop: AbortSignal): Promise<ConformanceRun> {
    const { deps } = this;
    // What ends the run before its end: the console closing, or `stop`.
    const ending = AbortSignal.any([this.closing.signal, stop]);
    const cases = selectCases(this.cases, input.cases);
    const clock = new EngineClock({ wall: deps.wall, startAt: deps.engineClock.now() });
    const evidence = new TrafficEvidence(deps.bus, () => deps.recorder.flush());
    // Connections of the run's own, closed with it: a server that holds them open keeps nothing after.
    // A report probe the server's close of a kept connection met is sent again on a new one, as a
    // GET is: a player's retry gets past it (§7.2), and the case has only its one try.
    const http = keepAliveTransport(undefined, undefined, 'any');
    const deadline = new AbortController();
    // Fired as the run ends: a request a case gave up waiting for (withinTime) is not sent again
    // once the run's connections are closed under it (review).
    const finished = new AbortController();
    const over = AbortSignal.any([ending, deadline.signal, finished.signal]);
    const timeoutMs = input.timeoutMs ?? DEFAULT_CONFORMANCE_TIMEOUT_MS;
    const deadlineAt = deps.wall.now() + timeoutMs;
    const deadlineTimer = deps.wall.setTimeout(
      () => deadline.abort(new Error(`the run's deadline of ${seconds(timeoutMs)} passed`)),
      timeoutMs,
    );
    // The run's client, and those of a case's own player (play-through) on its own clock: the same way out.
    const clientOn = (
      on: EngineClock,
      more: { headers?: Record<string, string>; onExchange?: (exchange: PlayerExchange) => void } = {},
    ) =>
      new CloudQueueClient({
        playerId: CHECK_PLAYER_ID,
        clock: on,
        maxBodyBytes: input.maxBytes ?? DEFAULT_CONFORMANCE_MAX_BYTES,
        // The evidence shows the answer's headers as they came, not only those the player reads.
        allResponseHeaders: true,
        transport: abortable(faultingTransport(deps.transport ?? http.transport, deps.faults, on), over),
        ...(more.headers ? { headers: more.headers } : {}),
        onExchange: (exchange) => {
          evidence.expect(exchange.requestId);
          deps.recorder.add(entryOfExchange(exchange));
          more.onExchange?.(exchange);
        },
      });
    const client = clientOn(clock);
    const host: PlayerHost = {
      now: () => clock.now(),
      client: ({ clock: on, headers, onExchange }) => clientOn(on, { headers, onExchange }),
      signal: over,
    };
    const settle = (settled: SettledCase) => {
      const result: ConformanceCaseResult = {
        id: settled.id,
        rule: settled.rule,
        title: settled.title,
        outcome: settled.outcome,
        message: settled.message,
        trafficIds: evidence.idsOf(settled.evidence),
        durationMs: settled.durationMs,
        ...caseEvidence(settled.outcome, settled.message, settled.evidence),
      };
      run.cases.push(result);
      run.summary = tally(run.cases, cases.length);
      deps.bus.emit('conformance.progress', {
        runId: run.id,
        status: 'running',
        settled: result,
        summary: run.summary,
        error: null,
      });
    };
    let error: ConformanceRunError | null = null;
    try {
      const outcome = await runSuite({
        server: (onAnswer) => new CheckedServer(client, input.baseUrl, input.authorization, onAnswer, host),
        now: () => deps.wall.now(),
        onSettled: settle,
        signal: ending,
        deadline: deadline.signal,
        deadlineAt,
        cases,
        ...(input.madeUp ? { madeUp: input.madeUp } : {}),
      });
      if ('unreachable' in outcome) error = { kind: 'unreachable', message: outcome.unreachable };
      else if ('stopped' in outcome && !this.closing.signal.aborted) error = stoppedAfter(run.summary);
      else if ('stopped' in outcome || this.closing.signal.aborted) error = INTERRUPTED;
    } catch (failure) {
      error = { kind: 'interrupted', message: `the run stopped: ${(failure as Error).message}` };
    } finally {
      finished.abort(new Error('the run ended'));
      deps.wall.clearTimeout(deadlineTimer);
      evidence.close();
      clock.close();
      http.close();
    }
    run.error = error;
    run.status = error || run.summary.fail > 0 ? 'failed' : 'passed';
    run.finishedAt = deps.wall.now();
    deps.repo.save(run);
    deps.bus.emit('conformance.progress', {
      runId: run.id,
      status: run.status,
      settled: null,
      summary: run.summary,
      error,
    });
    return run;
  }
}

const INTERRUPTED: ConformanceRunError = {
  kind: 'interrupted',
  message: 'the console stopped while the run was going on; its remaining cases did not run',
};

/** A run stopped from outside: what it settled stands, and it did not pass. */
function stoppedAfter(summary: ConformanceSummary): ConformanceRunError {
  const settled = summary.pass + summary.fail + summary.warn + summary.skip;
  return {
    kind: 'stopped',
    message: `the run was stopped after ${settled} of ${summary.total} cases; the rest did not run`,
  };
}

function interrupted(run: ConformanceRun): ConformanceRun {
  return { ...run, status: 'failed', error: INTERRUPTED };
}

export function tally(cases: readonly ConformanceCaseResult[], total: number): ConformanceSummary {
  const summary: ConformanceSummary = { total, pass: 0, fail: 0, warn: 0, skip: 0 };
  for (const { outcome } of cases) summary[outcome]++;
  return summary;
}

/** `120 s`, `1.5 s`. */
function seconds(ms: number): string {
  return `${(ms / 1_000).toLocaleString('en-US')} s`;
}

/** Aborts a request in flight, or refuses a new one, once `signal` fires (the console closing, the run's deadline). */
function abortable(inner: HttpTransport, signal: AbortSignal): HttpTransport {
  return (request) => inner({ ...request, signal: AbortSignal.any([request.signal, signal]) });
}
