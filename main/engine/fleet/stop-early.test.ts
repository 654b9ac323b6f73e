/**
 * A fleet stopped before it played (docs/fleet.md): at each stage of its start (its server's
 * probe, its queues being made, its worker threads loading, its clock started but no player yet
 * joined) it says "stopped before it played", judges no threshold, has no verdict and reports no
 * setup failure (audit V6: a Stop while the threads loaded read as "the fleet's worker threads
 * could not start", a JUnit case "the server can be reached" failed, the list said "fail"; and a
 * Stop before the first request passed `errors<1%` over 0 requests). Each stop is put at its
 * stage by the test, not by a delay.
 */
import { describe, expect, it } from 'vitest';
import type { FleetListItem, FleetReport, FleetReportFile } from '../api/fleet-types.js';
import { systemWall } from '../clock/wall.js';
import { admin, startTestEngine } from '../testing/http.js';
import { Fleet, type FleetDeps, type QueueSource } from './fleet.js';
import { baseUrlQueues } from './queues.js';
import { fleetJUnit } from './reports/junit.js';
import { parseThresholds } from '../api/thresholds.js';
import { fleetVerdict } from './verdict.js';

const THRESHOLDS = ['errors<1%', 'p99<500ms', 'violations==0'];
/** Never asked: every stop here comes before a player's first request. */
const NOWHERE = 'http://127.0.0.1:9/queues/fleet-{player}/v2.3/';

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function fleetOf(change: Partial<FleetDeps> & { workers?: number }): Fleet {
  const parsed = parseThresholds(THRESHOLDS);
  if (!parsed.ok) throw new Error(parsed.message);
  const { workers = 1, ...deps } = change;
  return new Fleet({
    id: 'fleet-early',
    input: { players: 3, durationMs: 60_000, workers, thresholds: THRESHOLDS },
    thresholds: parsed.thresholds,
    wall: systemWall,
    startAt: Date.now(),
    faults: { add: () => ({}) as never, remove: () => true, decide: () => null },
    queues: baseUrlQueues(NOWHERE, undefined),
    log: () => null,
    onTick: () => undefined,
    ...deps,
  });
}

function expectStoppedBeforeItPlayed(report: FleetReport): void {
  expect(report.status).toBe('stopped');
  expect(report.error).toBeNull();
  expect(report.totals.requests).toBe(0);
  expect(report.thresholds).toEqual(
    THRESHOLDS.map((expression) =>
      expect.objectContaining({ expression, ok: false, notJudged: 'not judged: stopped before it played' }),
    ),
  );
  expect(fleetVerdict(report)).toBeNull();
  const junit = fleetJUnit(report);
  expect(junit).not.toMatch(/<failure/);
  expect(junit).not.toMatch(/the server can be reached/);
  expect(junit.match(/<skipped\/>/g)).toHaveLength(THRESHOLDS.length);
}

describe('a fleet stopped before it played', () => {
  it('while its server is probed: not judged, even when the probe then says it cannot be reached', async () => {
    for (const answer of [null, 'the server at http://127.0.0.1:9 cannot be reached: ECONNREFUSED']) {
      const probe = deferred<string | null>();
      const fleet = fleetOf({ probe: () => probe.promise });
      const starting = fleet.start();
      await fleet.stop();
      probe.resolve(answer);
      await starting;
      expectStoppedBeforeItPlayed(fleet.report());
      expect(fleet.liveThreads).toBe(0);
    }
  });

  it("while its players' queues are made: not judged, and no thread starts after the stop", async () => {
    const made = deferred<void>();
    let asked = 0;
    const queues: QueueSource = {
      prepare: () => made.promise,
      queueOf: (n) => (asked++, baseUrlQueues(NOWHERE, undefined).queueOf(n)),
    };
    const fleet = fleetOf({ queues, workers: 2 });
    const starting = fleet.start();
    await fleet.stop();
    made.resolve();
    await starting;
    expectStoppedBeforeItPlayed(fleet.report());
    expect(asked).toBe(0);
    expect(fleet.liveThreads).toBe(0);
  });

  it('while its worker threads load: not "could not start", and the threads end', async () => {
    let stopped: Promise<void> | null = null;
    const fleet: Fleet = fleetOf({
      workers: 2,
      queues: {
        // The threads are made with their players' queues: stopped once the last is asked for,
        // before any thread could have said it is ready (its message needs a turn of the loop).
        queueOf: (n) => {
          if (n === 3) queueMicrotask(() => (stopped = fleet.stop()));
          return baseUrlQueues(NOWHERE, undefined).queueOf(n);
        },
      },
    });
    await fleet.start();
    expect(stopped).not.toBeNull();
    await stopped;
    expectStoppedBeforeItPlayed(fleet.report());
    expect(fleet.report().notes).toEqual([]);
    expect(fleet.liveThreads).toBe(0);
  }, 30_000);

  it('once its clock started, before a player joined: zero requests pass no threshold', async () => {
    const fleet = fleetOf({ workers: 1 });
    await fleet.start();
    // Player 1 joins on the fleet's clock at 0 ms: a timer, which this stop comes before.
    await fleet.stop();
    expect(fleet.report().players.joined).toBe(0);
    expectStoppedBeforeItPlayed(fleet.report());
  });

  it('is told from one that ran its course without a request: that one failed, in the list and in JUnit (review)', async () => {
    const fleet = fleetOf({ workers: 1 });
    await fleet.start();
    await fleet.stop();
    const stopped = fleet.report();
    const unplayed: FleetReport = {
      ...stopped,
      status: 'finished',
      thresholds: stopped.thresholds.map((t) => ({ ...t, notJudged: 'not judged: the fleet made no request' })),
    };
    expect(fleetVerdict(unplayed)).toBe('fail');
    expect(fleetJUnit(unplayed).match(/<failure/g)).toHaveLength(THRESHOLDS.length);
    expect(fleetJUnit(unplayed)).not.toMatch(/<skipped/);
  });

  it('over the admin API: POST then DELETE at once answers it, lists it with no verdict, exports no failure', async () => {
    const engine = await startTestEngine();
    try {
      const started = await admin(engine, 'POST', '/fleets', {
        players: 3,
        durationMs: 60_000,
        thresholds: THRESHOLDS,
      });
      const { id } = started.body as { id: string };
      const stopped = await admin(engine, 'DELETE', `/fleets/${id}`);
      expectStoppedBeforeItPlayed(stopped.body as FleetReport);
      const listed = (await admin(engine, 'GET', '/fleets')).body as FleetListItem[];
      expect(listed.find((f) => f.id === id)).toMatchObject({ status: 'stopped', verdict: null });
      const junit = (await admin(engine, 'GET', `/fleets/${id}/export?format=junit`)).body as FleetReportFile;
      expect(junit.content).not.toMatch(/<failure|the server can be reached/);
    } finally {
      await engine.close();
    }
  }, 30_000);
});
