/**
 * A fleet against the console's reference server, end to end over loopback: 200 players for a
 * minute of engine time at speed 3 (a request's 10 s are 3.3 s of wall time: room for a busy machine) play with no violation, every one of them PLAYING at the end,
 * and the thresholds judged; the report is mergeable latency, requests by endpoint and reason,
 * and a traffic log that holds only a sample of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FleetReport } from '../api/fleet-types.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';

let engine: Engine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.close());

async function finished(id: string): Promise<FleetReport> {
  for (;;) {
    const report = await engine.commands.run('fleets.get', { id });
    if (report.status !== 'running') return report;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a fleet on the reference server', () => {
  it('plays 200 players with no violation, each on its own queue, and judges its thresholds', async () => {
    const queuesBefore = (await engine.commands.run('queues.list')).length;
    const { id } = await engine.commands.run('fleets.start', {
      players: 200,
      durationMs: 60_000,
      rampMs: 20_000,
      speed: 3,
      thresholds: ['p99<60s', 'errors<1%', 'violations==0', 'requests>100000', 'rps>1'],
    });
    const report = await finished(id);
    expect(report.error).toBeNull();
    expect(report.players.joined).toBe(200);
    expect(report.players.byState.PLAYING).toBe(200);
    expect(report.totals.violations).toBe(0);
    expect(report.violations).toEqual([]);
    // On a busy machine a few requests may outlast their 10 s of engine time: counted, never hidden.
    expect(report.totals.errors).toBe(report.totals.transportErrors);
    const endpoints = new Set(report.endpoints.map((s) => `${s.endpoint} ${s.reason ?? ''}`));
    expect(endpoints).toContain('context ');
    expect(endpoints).toContain('itemWindow load');
    expect(endpoints).toContain('timePlayed ');
    // Every request is in one endpoint's sketch, and the merged sketch holds them all.
    const counted = Object.values(report.latencyByEndpoint).reduce((n, l) => n + l.count, 0);
    expect(counted).toBe(report.totals.requests);
    expect(report.latency.count).toBe(report.totals.requests);
    expect(report.latency.p50).toBeLessThanOrEqual(report.latency.p99);
    // Per endpoint and reason too (audit D9): each row's own percentiles, its count its requests,
    // and an endpoint's figures its reasons' merged.
    for (const row of report.endpoints) {
      expect(row.latency.count, `${row.endpoint} ${row.reason ?? ''}`).toBe(row.requests);
      expect(row.latency.p50).toBeLessThanOrEqual(row.latency.p99);
    }
    const windowRows = report.endpoints.filter((row) => row.endpoint === 'itemWindow');
    expect(windowRows.reduce((n, row) => n + row.latency.count, 0)).toBe(report.latencyByEndpoint.itemWindow!.count);
    const errorsPercent = (report.totals.errors / report.totals.requests) * 100;
    expect(report.thresholds.map((t) => [t.expression, t.ok])).toEqual([
      ['p99<60s', true],
      ['errors<1%', errorsPercent < 1],
      ['violations==0', true],
      ['requests>100000', false],
      ['rps>1', true],
    ]);
    expect(report.thresholds[3]!.actual).toBe(report.totals.requests);
    // The rate judged is the exact one over the report's wall time, not its tenth (audit z1-1: 5.0895/s passed rps>=5.1).
    expect(report.thresholds[4]!.actual).toBeCloseTo((report.totals.requests / report.elapsed.wallMs) * 1000, 3);
    expect(report.timeNote).toMatch(/compressed/);
    expect(report.series.length).toBeGreaterThan(0);
    // Clean traffic is sampled (1% by default): far fewer entries than requests.
    expect(report.traffic.logged + report.traffic.skipped).toBe(report.totals.requests);
    expect(report.traffic.logged).toBeLessThan(report.totals.requests / 10);
    // The queues it made are gone with it.
    expect((await engine.commands.run('queues.list')).length).toBe(queuesBefore);
  }, 60_000);

  it("says what the Faults area's rules at the console's server answered while it played, not the server (ui-x3 U17)", async () => {
    // A rule of the Faults area, live before the fleet and left so: its 503s are not the server's.
    const rule = await engine.commands.run('faults.add', {
      target: 'cloudQueue',
      match: { path: '/context' },
      action: { type: 'status', status: 503, retryAfter: 2 },
      times: 5,
      label: '503 storm',
    });
    try {
      const { id } = await engine.commands.run('fleets.start', { players: 3, durationMs: 30_000, speed: 10 });
      const report = await finished(id);
      expect(report.notes).toContainEqual(
        "a fault rule of the Faults area at the console's cloud queue server acted on 5 requests while the fleet played (503 storm: answered 503 5), the fleet's and any other player's of the console: what they answered was the rules', not the server's, and the fleet's figures hold it as the server's",
      );
      // One removed while the fleet plays keeps what it did, once a tick has read it.
      const again = await engine.commands.run('faults.add', {
        target: 'cloudQueue',
        match: { path: '/context' },
        action: { type: 'latency', ms: 50 },
        times: 2,
        label: 'slow start',
      });
      const second = await engine.commands.run('fleets.start', { players: 3, durationMs: 60_000, speed: 10 });
      await expect
        .poll(async () => (await engine.commands.run('faults.list', {})).find((r) => r.id === again.id)?.hits, {
          timeout: 10_000,
        })
        .toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await engine.commands.run('faults.remove', { id: again.id });
      expect((await finished(second.id)).notes).toContainEqual(
        expect.stringContaining('acted on 2 requests while the fleet played (slow start: delayed 50 ms 2)'),
      );
      // A fleet with no such rule says nothing of them.
      const clean = await finished(
        (await engine.commands.run('fleets.start', { players: 2, durationMs: 5_000, speed: 10 })).id,
      );
      expect(clean.notes.filter((note) => note.includes('Faults area'))).toEqual([]);
    } finally {
      await engine.commands.run('faults.remove', { id: rule.id });
    }
  }, 60_000);

  it('is served at /admin/api/fleets: started with POST, read with GET, stopped with DELETE', async () => {
    const started = await admin(engine, 'POST', '/fleets', { players: 3, durationMs: 3_600_000, speed: 10 });
    expect(started.status).toBe(202);
    const { id } = started.body as { id: string };
    const read = await admin(engine, 'GET', `/fleets/${id}`);
    expect((read.body as FleetReport).status).toBe('running');
    const conflict = await admin(engine, 'POST', '/fleets', { players: 1, durationMs: 1_000 });
    expect(conflict.status).toBe(409);
    const stopped = await admin(engine, 'DELETE', `/fleets/${id}`);
    expect(stopped.status).toBe(200);
    expect((stopped.body as FleetReport).status).toBe('stopped');
    const bad = await admin(engine, 'POST', '/fleets', { players: 1, durationMs: 1_000, thresholds: ['p99<<3'] });
    expect(bad.status).toBe(400);
    // Players due after the end would never join.
    const ramp = await admin(engine, 'POST', '/fleets', { players: 2, durationMs: 1_000, rampMs: 2_000 });
    expect(ramp.status).toBe(400);
    expect(JSON.stringify(ramp.body)).toMatch(/rampMs must not be longer than durationMs/);
    // A fault due at the end or later would never act (audit).
    const late = await admin(engine, 'POST', '/fleets', {
      players: 1,
      durationMs: 5_000,
      faults: [{ rule: { target: 'player', action: { type: 'drop' } }, startMs: 5_000 }],
    });
    expect(late.status).toBe(400);
    expect(JSON.stringify(late.body)).toMatch(
      /faults\/0\/startMs \(5000\) is not before the fleet's end \(its durationMs, 5000\)/,
    );
    // A field it does not know is refused, not dropped: a misspelt `thresholds` gave a fleet judged
    // on nothing, and a schedule inside the rule a fault on from the start (audit AC-6, AC-3).
    const rule = (fields: Record<string, unknown>) => ({
      players: 1,
      durationMs: 5_000,
      faults: [{ rule: { target: 'player', action: { type: 'drop' }, ...fields } }],
    });
    const unknown = [
      { players: 1, durationMs: 5_000, threshold: ['errors<1%'] },
      rule({ startMs: 100 }),
      { players: 1, durationMs: 5_000, faults: [{ rule: { target: 'player', action: { type: 'drop' } }, bogus: 1 }] },
      // A misspelt match key left a rule that matched every request; a misspelt action field did nothing.
      rule({ match: { reasn: 'refresh' } }),
      rule({ action: { type: 'status', status: 503, retryAfterr: 3 } }),
      // A login rule failed the players' cloud queue requests as though it named them (AC-4).
      rule({ target: 'login' }),
    ];
    const refused = await Promise.all(unknown.map((body) => admin(engine, 'POST', '/fleets', body)));
    expect(refused.map((answer) => answer.status)).toEqual(unknown.map(() => 400));
    expect(refused.map((answer) => JSON.stringify(answer.body))).toEqual([
      expect.stringContaining('/threshold'),
      expect.stringContaining('/faults/0/rule/startMs'),
      expect.stringContaining('/faults/0/bogus'),
      expect.stringContaining('/faults/0/rule/match/reasn'),
      expect.stringContaining('retryAfterr'),
      expect.stringMatching(/faults\/0\/rule\/target \(login\) names traffic a fleet does not make/),
    ]);
    // A preset's target, `cloudQueue`, is the players' requests too.
    const preset = await admin(engine, 'POST', '/fleets', rule({ target: 'cloudQueue', match: { path: '/nowhere' } }));
    expect(preset.status).toBe(202);
    await admin(engine, 'DELETE', `/fleets/${(preset.body as { id: string }).id}`);
  });

  it("lists the fleets it keeps, newest first, with their thresholds' verdict", async () => {
    const run = async (thresholds: string[]) => {
      const { id } = await engine.commands.run('fleets.start', {
        players: 1,
        durationMs: 1_000,
        speed: 10,
        thresholds,
      });
      await finished(id);
      return id;
    };
    const held = await run(['violations==0']);
    const failed = await run(['requests>1000000']);
    const none = await run([]);
    const list = await engine.commands.run('fleets.list', {});
    expect(list.slice(0, 3)).toMatchObject([
      { id: none, status: 'finished', players: 1, verdict: null, thresholds: [] },
      { id: failed, status: 'finished', players: 1, verdict: 'fail' },
      { id: held, status: 'finished', players: 1, verdict: 'pass' },
    ]);
    expect(list[0]!.startedAt).toBeGreaterThanOrEqual(list[1]!.startedAt);
    expect(list[0]!.finishedAt).not.toBeNull();
    const served = await admin(engine, 'GET', '/fleets');
    expect(served.status).toBe(200);
    expect((served.body as { id: string }[]).map((f) => f.id).slice(0, 3)).toEqual([none, failed, held]);
  }, 30_000);
});
