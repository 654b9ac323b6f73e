/**
 * A fleet split over worker threads plays the same listeners as one thread does, and its report
 * is the merge of its threads': requests add up by endpoint, sketches merge (the fleet's p99 is
 * that of every request), a violation seen in a worker is counted once, with its sample in the
 * console's traffic log, a rule added live in the console reaches the workers, and Stop ends
 * every thread.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FleetReport } from '../api/fleet-types.js';
import { startDefectiveServer, type DefectiveServer } from '../conformance/testing/defective-server.js';
import { EngineClock } from '../clock/clock.js';
import { systemWall } from '../clock/wall.js';
import { FaultRegistry } from '../faults/registry.js';
import type { Engine } from '../index.js';
import { startTestEngine } from '../testing/http.js';
import { Fleet } from './fleet.js';
import { baseUrlQueues } from './queues.js';

let engine: Engine;
let right: DefectiveServer;
let defective: DefectiveServer;
beforeAll(async () => {
  engine = await startTestEngine();
  right = await startDefectiveServer({ trackMillis: 20_000 });
  defective = await startDefectiveServer({ defects: ['moreThanAsked'] });
});
afterAll(async () => {
  await Promise.all([right.close(), defective.close()]);
  await engine.close();
});

async function finished(id: string): Promise<FleetReport> {
  for (;;) {
    const report = await engine.commands.run('fleets.get', { id });
    if (report.status !== 'running') return report;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function byEndpoint(report: FleetReport): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of report.endpoints) counts[`${s.endpoint} ${s.reason ?? ''}`] = s.requests;
  return counts;
}

describe('a fleet on worker threads', () => {
  it('(outside audit) joins every player of a run a few ms of wall time long, on any number of threads', async () => {
    // 1 s at speed 1,000 is 1 ms of wall time: the fleet's end came before a thread's timers ran.
    const input = {
      players: 20,
      baseUrl: right.baseUrl,
      authorization: right.authorization,
      durationMs: 1_000,
      speed: 1_000,
    };
    for (const workers of [1, 2]) {
      const report = await finished((await engine.commands.run('fleets.start', { ...input, workers })).id);
      expect(report.players.joined, `${workers} thread(s)`).toBe(20);
      expect(byEndpoint(report)['context '], `${workers} thread(s)`).toBe(20);
    }
  });

  it('plays the same listeners with one thread and with two, its sketches merged', async () => {
    const input = {
      players: 40,
      baseUrl: right.baseUrl,
      authorization: right.authorization,
      durationMs: 60_000,
      rampMs: 10_000,
      speed: 4,
      skipRate: 0.3,
      pauseRate: 0.2,
      seed: 7,
    };
    const one = await finished((await engine.commands.run('fleets.start', { ...input, workers: 1 })).id);
    const two = await finished((await engine.commands.run('fleets.start', { ...input, workers: 2 })).id);
    expect([one.workers, two.workers]).toEqual([1, 2]);
    // Two threads played (no note that one did); a busy machine's lateness may be said, and is no fault here.
    expect(two.notes.filter((note) => !note.startsWith("the fleet's own threads were busy"))).toEqual([]);
    for (const report of [one, two]) {
      expect(report.error).toBeNull();
      expect(report.players.joined).toBe(40);
      expect(report.totals.violations).toBe(0);
      // Every request is in its endpoint's sketch, merged over the threads, and the fleet's p99 is there.
      expect(Object.values(report.latencyByEndpoint).reduce((n, l) => n + l.count, 0)).toBe(report.totals.requests);
      expect(report.latency.count).toBe(report.totals.requests);
      expect(report.latency.p99).toBeGreaterThan(0);
      expect(report.timerLateness.count).toBeGreaterThan(0);
      expect(report.series.reduce((n, t) => n + t.requests, 0)).toBe(report.totals.requests);
    }
    // The same listeners: each player's skips and pauses are drawn from its own seeded generator,
    // so both runs ask the same endpoints for the same reasons. Only timing differs (a thread
    // starts its players a few ms apart; a request near a track's end or the fleet's end may
    // fall on either side of it), so each count agrees within 10% and 3 requests.
    const [a, b] = [byEndpoint(one), byEndpoint(two)];
    expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
    for (const key of Object.keys(a)) expect(Math.abs(a[key]! - b[key]!)).toBeLessThanOrEqual(3 + a[key]! * 0.1);
  }, 120_000);

  it('counts a violation seen in a worker once, with its sample in the traffic log', async () => {
    const { id } = await engine.commands.run('fleets.start', {
      players: 6,
      baseUrl: defective.baseUrl,
      authorization: defective.authorization,
      durationMs: 20_000,
      speed: 4,
      workers: 2,
    });
    const report = await finished(id);
    expect(report.workers).toBe(2);
    const rule = report.violations.find((v) => v.rule === 'itemWindow.window-size')!;
    // Every window answered holds one item too many: one violation each, never counted twice.
    const windows = report.endpoints
      .filter((s) => s.endpoint === 'itemWindow')
      .reduce((n, s) => n + (s.statuses['200'] ?? 0), 0);
    expect(windows).toBeGreaterThanOrEqual(6);
    expect(rule.count).toBe(windows);
    expect(report.totals.violations).toBe(rule.count);
    expect(rule.sample.trafficId).not.toBeNull();
    const entry = await engine.commands.run('traffic.get', { id: rule.sample.trafficId! });
    expect(JSON.stringify(entry)).toContain(rule.sample.requestId);
  }, 60_000);

  it('fails no more requests with a `times` rule of its own on two threads than the rule says', async () => {
    const input = {
      players: 8,
      baseUrl: right.baseUrl,
      authorization: right.authorization,
      durationMs: 40_000,
      speed: 8,
      faults: [
        {
          rule: {
            target: 'player' as const,
            match: { path: '/timePlayed' },
            action: { type: 'status' as const, status: 500 },
            times: 5,
          },
        },
      ],
    };
    const one = await finished((await engine.commands.run('fleets.start', { ...input, workers: 1 })).id);
    const two = await finished((await engine.commands.run('fleets.start', { ...input, workers: 2 })).id);
    expect([one.workers, two.workers]).toEqual([1, 2]);
    const timePlayed = (report: FleetReport) => report.endpoints.filter((s) => s.endpoint === 'timePlayed');
    const refused = (report: FleetReport) => timePlayed(report).reduce((n, s) => n + (s.statuses['500'] ?? 0), 0);
    const faulted = (report: FleetReport) => timePlayed(report).reduce((n, s) => n + s.faulted, 0);
    // Each thread ran the whole rule: 10 failed on two threads (audit).
    expect([faulted(one), faulted(two)]).toEqual([5, 5]);
    expect([refused(one), refused(two)]).toEqual([5, 5]);
  }, 60_000);

  it('fails a `times` rule met by one thread only as many times as it says', async () => {
    // Player 1 plays in thread 1 of 2, the only one whose requests the rule matches. Split up
    // front, that thread had half the times and the fleet failed 2 of 4.
    const report = await finished(
      (
        await engine.commands.run('fleets.start', {
          players: 4,
          baseUrl: `${right.baseUrl}player-{player}/`,
          authorization: right.authorization,
          durationMs: 300_000,
          speed: 40,
          workers: 2,
          faults: [
            {
              rule: {
                target: 'player' as const,
                match: { path: '/q/player-1/timePlayed' },
                action: { type: 'status' as const, status: 500 },
                times: 4,
              },
            },
          ],
        })
      ).id,
    );
    expect(report.workers).toBe(2);
    const timePlayed = report.endpoints.filter((s) => s.endpoint === 'timePlayed');
    expect(timePlayed.reduce((n, s) => n + s.faulted, 0)).toBe(4);
    expect(timePlayed.reduce((n, s) => n + (s.statuses['500'] ?? 0), 0)).toBe(4);
  }, 60_000);

  it('mirrors a rule added live in the console to its workers, and its removal', async () => {
    const { id } = await engine.commands.run('fleets.start', {
      players: 4,
      baseUrl: right.baseUrl,
      authorization: right.authorization,
      durationMs: 3_600_000,
      speed: 20,
      workers: 2,
    });
    const timePlayed = (report: FleetReport, status: string): number =>
      report.endpoints.filter((s) => s.endpoint === 'timePlayed').reduce((n, s) => n + (s.statuses[status] ?? 0), 0);
    /** Reads the fleet until `ok` holds (a tick a wall second), for at most 30 s. */
    const until = async (ok: (report: FleetReport) => boolean): Promise<FleetReport> => {
      for (let i = 0; i < 300; i++) {
        const report = await engine.commands.run('fleets.get', { id });
        if (ok(report)) return report;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('the fleet never got there');
    };
    await until((r) => r.players.byState.PLAYING === 4);
    const rule = await engine.commands.run('faults.add', {
      target: 'player',
      match: { path: '/timePlayed' },
      action: { type: 'status', status: 500 },
    });
    await until((r) => timePlayed(r, '500') > 0);
    // The workers' hits are the console's rule's hits, as the Faults area shows them.
    const failed = timePlayed(await until((r) => timePlayed(r, '500') > 1), '500');
    await until(() => true);
    const counted = (await engine.commands.run('faults.list', {})).find((r) => r.id === rule.id)!.hits;
    expect(counted).toBeGreaterThanOrEqual(Math.min(failed, 2));
    await engine.commands.run('faults.remove', { id: rule.id });
    // A rule of 3 times fails 3 requests in the whole fleet, not 3 in each thread.
    const thrice = await engine.commands.run('faults.add', {
      target: 'player',
      match: { path: '/timePlayed' },
      action: { type: 'status', status: 503 },
      times: 3,
    });
    await until((r) => timePlayed(r, '503') >= 3);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(timePlayed(await until(() => true), '503')).toBe(3);
    expect((await engine.commands.run('faults.list', {})).find((r) => r.id === thrice.id)).toMatchObject({
      hits: 3,
      spent: true,
    });
    const removed = timePlayed(await until(() => true), '204');
    // Mirrored within a tick; reports then reach the server again.
    await until((r) => timePlayed(r, '204') > removed + 4);
    const report = await engine.commands.run('fleets.stop', { id });
    expect(report.workers).toBe(2);
    expect(timePlayed(report, '500')).toBeGreaterThan(0);
  }, 90_000);

  it('tells the console every hit of a rule taken away and put back under its id, and the rules’ new order', async () => {
    // A scenario's clearFaults takes the console's rules away and puts them back as they were (review).
    const registry = new FaultRegistry({
      repo: {
        list: () => [],
        add: () => undefined,
        save: () => undefined,
        reorder: () => undefined,
        remove: () => true,
      } as never,
      clock: new EngineClock({ startAt: Date.now(), speed: 0 }),
      bus: { emit: () => undefined },
    });
    const times = 24;
    const rule = registry.add({
      target: 'player',
      match: { path: '/timePlayed' },
      action: { type: 'status', status: 500 },
      times,
    });
    const fleet = new Fleet({
      id: 'fleet-put-back',
      input: { players: 4, durationMs: 3_600_000, workers: 2, speed: 40 },
      thresholds: [],
      wall: systemWall,
      startAt: Date.now(),
      faults: registry,
      queues: baseUrlQueues(right.baseUrl, right.authorization),
      log: () => null,
      onTick: () => undefined,
    });
    const answered = (status: string): number =>
      fleet
        .report()
        .endpoints.filter((s) => s.endpoint === 'timePlayed')
        .reduce((n, s) => n + (s.statuses[status] ?? 0), 0);
    const until = async (ok: () => boolean): Promise<void> => {
      for (let i = 0; i < 300 && !ok(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(ok()).toBe(true);
    };
    await fleet.start();
    try {
      await until(() => registry.get(rule.id)!.hits >= 3);
      const asListed = registry.get(rule.id)!;
      registry.remove(rule.id);
      // Two ticks: every thread lets its copy go (with hits the console was not yet told of).
      await new Promise((resolve) => setTimeout(resolve, 2_200));
      registry.putBack([asListed]);
      await until(() => answered('500') >= times);
      await until(() => registry.get(rule.id)!.spent);
      expect(answered('500')).toBe(times);
      expect(registry.get(rule.id)).toMatchObject({ hits: times, spent: true });

      // Two rules for the same requests: the first in the console's order fails them, in every thread.
      const first = registry.add({
        target: 'player',
        match: { path: '/timePlayed' },
        action: { type: 'status', status: 502 },
      });
      const second = registry.add({
        target: 'player',
        match: { path: '/timePlayed' },
        action: { type: 'status', status: 503 },
      });
      await until(() => answered('502') >= 4);
      registry.move(second.id, 0);
      // Within a tick or two, only the rule now first acts.
      await new Promise((resolve) => setTimeout(resolve, 2_200));
      const [was502, was503] = [answered('502'), answered('503')];
      await until(() => answered('503') >= was503 + 4);
      expect(answered('502')).toBe(was502);
      expect(registry.get(first.id)!.hits).toBe(was502);
    } finally {
      await fleet.stop();
    }
  }, 90_000);

  it('ends every worker thread when stopped', async () => {
    const fleet = new Fleet({
      id: 'fleet-threads',
      input: { players: 4, durationMs: 3_600_000, workers: 2, speed: 1 },
      thresholds: [],
      wall: systemWall,
      startAt: Date.now(),
      faults: { add: () => ({}) as never, remove: () => true, decide: () => null },
      queues: baseUrlQueues(right.baseUrl, right.authorization),
      log: () => null,
      onTick: () => undefined,
    });
    await fleet.start();
    expect(fleet.liveThreads).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await fleet.stop();
    expect(fleet.liveThreads).toBe(0);
    expect(fleet.report().status).toBe('stopped');
    expect(fleet.report().players.joined).toBe(4);

    // Stopped while its threads still load: they end too, and no player joined.
    const early = new Fleet({
      id: 'fleet-early',
      input: { players: 4, durationMs: 3_600_000, workers: 2, speed: 1 },
      thresholds: [],
      wall: systemWall,
      startAt: Date.now(),
      faults: { add: () => ({}) as never, remove: () => true, decide: () => null },
      queues: baseUrlQueues(right.baseUrl, right.authorization),
      log: () => null,
      onTick: () => undefined,
    });
    const starting = early.start();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(early.liveThreads).toBe(2);
    await early.stop();
    await starting;
    expect(early.liveThreads).toBe(0);
    expect(early.report().players.joined).toBe(0);
  }, 30_000);
});
