/**
 * A fleet against servers of its own on loopback: one whose windows hold one item more than asked
 * (its violation counted by rule, one sample kept in the traffic log), and a right one behind a
 * one-minute 503 outage rule (the retries show in the seconds of the outage, players that joined
 * during it wait idle, and every player is PLAYING after it).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FleetReport } from '../api/fleet-types.js';
import { startDefectiveServer, type DefectiveServer } from '../conformance/testing/defective-server.js';
import type { Engine } from '../index.js';
import { startTestEngine } from '../testing/http.js';
import { endpointLine } from './reports/text.js';

let engine: Engine;
const servers: DefectiveServer[] = [];
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(async () => {
  await engine.close();
  await Promise.all(servers.map((s) => s.close()));
});

async function finished(id: string): Promise<FleetReport> {
  for (;;) {
    const report = await engine.commands.run('fleets.get', { id });
    if (report.status !== 'running') return report;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a fleet on a server of its own', () => {
  it('counts a server whose windows hold one item more than asked by rule, with a sample in the traffic log', async () => {
    const server = await startDefectiveServer({ defects: ['moreThanAsked'] });
    servers.push(server);
    const { id } = await engine.commands.run('fleets.start', {
      players: 20,
      baseUrl: server.baseUrl,
      authorization: server.authorization,
      durationMs: 20_000,
      rampMs: 5_000,
      speed: 4,
      thresholds: ['violations==0'],
    });
    const report = await finished(id);
    expect(report.error).toBeNull();
    const rule = report.violations.find((v) => v.rule === 'itemWindow.window-size');
    // Each player's load window broke it at least once.
    expect(rule?.count).toBeGreaterThanOrEqual(20);
    expect(report.violations.map((v) => v.rule)).toEqual(['itemWindow.window-size']);
    expect(report.totals.violations).toBe(rule!.count);
    expect(report.thresholds).toEqual([{ expression: 'violations==0', ok: false, actual: rule!.count, unit: '' }]);
    expect(rule!.sample.trafficId).not.toBeNull();
    const entry = await engine.commands.run('traffic.get', { id: rule!.sample.trafficId! });
    expect(entry.requestId ?? entry.url).toBeTruthy();
    expect(JSON.stringify(entry)).toContain('itemWindow');
  }, 60_000);

  it('fails violations==0 for a server whose ids name other tracks from window to window, as check does', async () => {
    // check fails this server on item-window.stable-identity; a fleet counted 0 violations (audit).
    const server = await startDefectiveServer({ defects: ['reusesIds'], trackMillis: 5_000 });
    servers.push(server);
    const { id } = await engine.commands.run('fleets.start', {
      players: 4,
      baseUrl: server.baseUrl,
      authorization: server.authorization,
      durationMs: 90_000,
      speed: 30,
      thresholds: ['violations==0'],
    });
    const report = await finished(id);
    expect(report.error).toBeNull();
    expect(report.violations.map((v) => [v.rule, v.severity])).toEqual([['itemWindow.stable-identity', 'warning']]);
    expect(report.thresholds[0]).toMatchObject({ expression: 'violations==0', ok: false });
  }, 60_000);

  it('shows a one-minute 503 outage as retries in its seconds, and every player PLAYING after it', async () => {
    const server = await startDefectiveServer();
    servers.push(server);
    const { id } = await engine.commands.run('fleets.start', {
      players: 50,
      baseUrl: server.baseUrl,
      authorization: server.authorization,
      durationMs: 140_000,
      rampMs: 40_000,
      speed: 6,
      faults: [
        {
          rule: { target: 'cloudQueue', action: { type: 'status', status: 503, retryAfter: 3 }, label: 'outage' },
          startMs: 20_000,
          durationMs: 60_000,
        },
      ],
    });
    const report = await finished(id);
    expect(report.error).toBeNull();
    const during = report.series.filter((t) => t.atMs > 21_000 && t.atMs <= 80_000);
    const before = report.series.filter((t) => t.atMs <= 19_000);
    const after = report.series.filter((t) => t.atMs > 95_000);
    expect(before.reduce((n, t) => n + t.retries, 0)).toBe(0);
    expect(during.reduce((n, t) => n + t.retries, 0)).toBeGreaterThan(0);
    expect(during.reduce((n, t) => n + t.errors, 0)).toBeGreaterThan(0);
    // Players that joined during the outage could not load: idle until it was over.
    expect(Math.max(...during.map((t) => t.byState.IDLE))).toBeGreaterThan(0);
    expect(after.reduce((n, t) => n + t.errors, 0)).toBe(0);
    expect(report.players.byState.PLAYING).toBe(50);
    const unavailable = report.endpoints.reduce((n, s) => n + (s.statuses['503'] ?? 0), 0);
    expect(unavailable).toBeGreaterThan(0);
    // Every 503 was the fleet's own rule's (the server answers none), and the report says so.
    expect(report.endpoints.reduce((n, s) => n + s.faulted, 0)).toBe(unavailable);
    expect(endpointLine(report.endpoints.find((s) => s.faulted > 0)!)).toMatch(
      /503 ×[\d,]+ · .* · [\d,]+ failed or delayed by fault rules · p50/,
    );
    expect(report.totals.retries).toBeGreaterThan(0);
    // The rule was the fleet's own: gone with its minute.
    expect((await engine.commands.run('faults.list')).filter((r) => r.label === 'outage')).toEqual([]);
  }, 90_000);

  it('sends each player to BASE_URL with {player} replaced by its number, with the Authorization given', async () => {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(`${request.url} ${request.headers.authorization} ${request.headers['x-player-id']}`);
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":404,"message":"no"}}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const { id } = await engine.commands.run('fleets.start', {
        players: 3,
        baseUrl: `http://127.0.0.1:${port}/queues/fleet-{player}/v2.3/`,
        authorization: 'Bearer fleet-token',
        durationMs: 2_000,
      });
      const report = await finished(id);
      const contexts = seen.filter((line) => line.includes('/context'));
      for (const n of [1, 2, 3])
        expect(contexts).toContainEqual(`/queues/fleet-${n}/v2.3/context Bearer fleet-token ${id}-${n}`);
      // A 404 on load is no violation: the player goes idle, and its listener loads again later.
      expect(report.totals.violations).toBe(0);
      expect(report.players.byState.IDLE).toBe(3);
      expect(report.endpoints.every((s) => s.faulted === 0)).toBe(true);
      expect(endpointLine(report.endpoints[0]!)).not.toContain('fault rules');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 30_000);
});
