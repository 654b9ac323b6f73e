/**
 * A fleet's network is not compressed: at any speed a player gives a request up after 10 s of
 * real time, as a real player would, because the server answers in real time. At speed 10 a
 * server that takes 1.5 s is slow, not gone (an engine-time timeout would give up after 1 real
 * second and report timeouts no player would see); at speed 1, 12 s of silence is a timeout. An
 * injected latency is the network's too: a rule "2 s late" passed `p99<1s` at speed 10 (audit AC-1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FleetReport } from '../api/fleet-types.js';
import { startDefectiveServer, type DefectiveServer } from '../conformance/testing/defective-server.js';
import type { Engine } from '../index.js';
import { startTestEngine } from '../testing/http.js';
import { startSlowProxy, type SlowProxy } from '../testing/slow-proxy.js';

let engine: Engine;
let server: DefectiveServer;
const proxies: SlowProxy[] = [];
beforeAll(async () => {
  engine = await startTestEngine();
  server = await startDefectiveServer();
});
afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await server.close();
  await engine.close();
});

/** The right server behind a proxy that holds every player's request `delayMs` of real time first. */
async function slowServer(delayMs: number): Promise<string> {
  const proxy = await startSlowProxy(server.baseUrl, delayMs);
  proxies.push(proxy);
  return proxy.baseUrl;
}

async function finished(id: string): Promise<FleetReport> {
  for (;;) {
    const report = await engine.commands.run('fleets.get', { id });
    if (report.status !== 'running') return report;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("a fleet's request timeout", () => {
  it.each([1, 2])(
    'at speed 10 waits out a server that answers in 1.5 s of real time (%i thread(s))',
    async (workers) => {
      const { id } = await engine.commands.run('fleets.start', {
        players: 3,
        baseUrl: await slowServer(1_500),
        authorization: server.authorization,
        durationMs: 60_000,
        speed: 10,
        workers,
      });
      const report = await finished(id);
      expect(report.error).toBeNull();
      expect(report.workers).toBe(workers);
      // Every answer took 1.5 s of real time (15 s of engine time), and none was given up.
      expect(report.latency.p50).toBeGreaterThanOrEqual(1_400);
      expect(report.totals.requests).toBeGreaterThanOrEqual(6);
      expect(report.totals.transportErrors).toBe(0);
      expect(report.totals.errors).toBe(0);
      expect(report.players.byState.PLAYING).toBe(3);
    },
    30_000,
  );

  it('at speed 1 gives up on a server silent for 12 s after 10 s', async () => {
    const { id } = await engine.commands.run('fleets.start', {
      players: 1,
      baseUrl: await slowServer(12_000),
      authorization: server.authorization,
      durationMs: 13_000,
      speed: 1,
      workers: 1,
    });
    const report = await finished(id);
    expect(report.error).toBeNull();
    expect(report.totals.transportErrors).toBe(1);
    expect(report.latency.max).toBeGreaterThanOrEqual(9_900);
    expect(report.latency.max).toBeLessThan(12_000);
    expect(report.players.byState.IDLE).toBe(1);
  }, 30_000);
});

describe("a fleet's injected latency", () => {
  it.each([1, 2])(
    'at speed 10 is waited out in real time (%i thread(s))',
    async (workers) => {
      const { id } = await engine.commands.run('fleets.start', {
        players: 2,
        durationMs: 10_000,
        speed: 10,
        workers,
        faults: [{ rule: { target: 'player', match: {}, action: { type: 'latency', ms: 600 } } }],
      });
      const report = await finished(id);
      expect(report.error).toBeNull();
      expect(report.totals.requests).toBeGreaterThanOrEqual(2);
      // 600 ms of real time (6 s of engine time), not 60 ms.
      expect(report.latency.p50).toBeGreaterThanOrEqual(590);
      const faulted = report.endpoints.reduce((sum, endpoint) => sum + endpoint.faulted, 0);
      expect(faulted).toBe(report.totals.requests);
    },
    30_000,
  );
});
