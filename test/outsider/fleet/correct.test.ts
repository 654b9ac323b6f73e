/**
 * A server written from the docs alone, correct: `fleet` must pass it. A false FAIL here would send
 * an integrator hunting for a bug they do not have, the worst thing the fleet can do.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { startQueueServer, type RunningServer } from './queue-server';
import { describeRun, runFleet } from './run-fleet';

// Each case spawns the built CLI and plays a fleet for seconds of wall time.
vi.setConfig({ testTimeout: 90_000 });

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('fleet against a correct server', () => {
  test('a queue per player: 50 players, 0 violations, exit 0, every request authorized', async () => {
    const server = await startQueueServer({ authorization: 'Bearer outsider-token' });
    servers.push(server);
    const run = await runFleet(
      [
        `${server.url}/queues/fleet-{player}/v2.3/`,
        ...['--authorization', 'Bearer outsider-token'],
        ...['--players', '50', '--duration', '20s', '--speed', '10'],
        ...['--threshold', 'violations==0', '--threshold', 'errors<1%'],
      ],
      30_000,
    );
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout).toMatch(/pass\s+violations==0/);
    expect(run.stdout).toMatch(/pass\s+errors<1%/);
    const report = run.report!;
    expect(report.totals.violations).toBe(0);
    expect(report.players.joined).toBe(50);
    expect(report.players.byState.IDLE).toBe(0);
    // The fleet really played against this server, as 50 players, each with its own queue.
    expect(server.seen.players.size).toBe(50);
    expect(server.seen.unauthorized).toBe(0);
    expect(server.seen.byEndpoint.context).toBeGreaterThanOrEqual(50);
    expect(server.seen.reasons.load).toBeGreaterThanOrEqual(50);
    expect(server.seen.badReports).toEqual([]);
    // duration is engine time: 20 s at speed 10 is 2 s of wall time, plus start-up.
    expect(run.wallMs).toBeLessThan(15_000);
  });

  test('one shared queue, listeners that skip, pause and seek: 0 violations, every report well-formed', async () => {
    const server = await startQueueServer({ tracks: 12, trackMillis: 20_000 });
    servers.push(server);
    const run = await runFleet(
      [
        `${server.url}/shared/v2.3/`,
        ...['--players', '10', '--duration', '300s', '--ramp', '10s', '--speed', '20'],
        ...['--skip-rate', '0.3', '--pause-rate', '0.3', '--seek-rate', '0.3'],
        ...['--threshold', 'violations==0'],
      ],
      45_000,
    );
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.report!.totals.violations).toBe(0);
    // The queue (12 × 20 s) ends within the run: the players walked it, windows and reports.
    expect(server.seen.finalReports).toBeGreaterThanOrEqual(10);
    expect(server.seen.byEndpoint.itemWindow).toBeGreaterThan(10);
    expect(server.seen.badReports).toEqual([]);
  });
});
