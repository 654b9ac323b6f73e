/**
 * One endpoint hostile, the others well: the failures are counted on that endpoint, and what the
 * contract says the player does about them shows in the players' states.
 */
import { afterAll, describe, expect, test, vi } from 'vitest';
import { startHostileServer, type HostileServer } from './hostile-server';
import { describeRun, runFleet } from './run-fleet';

// Each case spawns the built CLI and plays a fleet for seconds of wall time.
vi.setConfig({ testTimeout: 90_000 });

const servers: HostileServer[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/**
 * 50 s of listening at speed 2.5: 20 s of wall time. The first report goes out 10 s of engine time
 * in (4 s of wall time) and is given up 10 s of wall time later, well inside the run (and a
 * request still in flight at the end is waited for, up to its 10 s).
 */
const TIMING = ['--players', '5', '--duration', '50s', '--speed', '2.5', '--threshold', 'errors<1%'];

describe('fleet against a server hostile on one endpoint', () => {
  test.concurrent('/itemWindow resets the connection: the loads fail there, no player plays', async () => {
    const server = await startHostileServer('reset', { only: ['itemWindow'] });
    servers.push(server);
    const run = await runFleet([`${server.url}/queues/fleet-{player}/v2.3/`, ...TIMING], 60_000);
    const account = describeRun(run);
    expect(run.code, account).toBe(1);
    const report = run.report!;
    const windows = report.endpoints.filter((row) => row.endpoint === 'itemWindow');
    const contexts = report.endpoints.filter((row) => row.endpoint === 'context');
    expect(windows.reduce((sum, row) => sum + row.transportErrors, 0)).toBeGreaterThan(0);
    expect(contexts.reduce((sum, row) => sum + (row.statuses['200'] ?? 0), 0)).toBeGreaterThan(0);
    expect(report.players.byState.PLAYING ?? 0).toBe(0);
  });

  test.concurrent('/timePlayed never answers: reports count as errors, the players play on', async () => {
    const server = await startHostileServer('silent', { only: ['timePlayed'] });
    servers.push(server);
    const run = await runFleet([`${server.url}/queues/fleet-{player}/v2.3/`, ...TIMING], 60_000);
    const account = describeRun(run);
    expect(run.code, account).toBe(1);
    const report = run.report!;
    const reports = report.endpoints.filter((row) => row.endpoint === 'timePlayed');
    expect(
      reports.reduce((sum, row) => sum + row.transportErrors, 0),
      account,
    ).toBeGreaterThan(0);
    // Reports are fire-and-forget for playback (platform.md §2.3.3): a server that swallows them
    // does not stop the music.
    expect(report.players.byState.PLAYING, account).toBe(5);
  });
});
