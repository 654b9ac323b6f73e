/**
 * Hostile servers: each run must end on time (its duration in wall time, plus a margin), in
 * bounded memory, and fail (`errors<1%` cannot pass when every request failed).
 */
import { afterAll, describe, expect, test, vi } from 'vitest';
import { startHostileServer, type HostileServer, type Hostility } from './hostile-server';
import { describeRun, runFleet } from './run-fleet';

// Each case spawns the built CLI and plays a fleet for seconds of wall time.
vi.setConfig({ testTimeout: 90_000 });

const servers: HostileServer[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/**
 * Over the run's own wall time, from its first line to its exit: a loaded 2-core machine. Node's
 * start-up is not counted (seconds at a load average of 15).
 */
const MARGIN_MS = 6_000;
/**
 * A run's end waits for the requests in flight, up to their 10 s of real time (docs/fleet.md,
 * "The end of a run"), so a run against a server that never answers ends up to 10 s late.
 */
const DRAIN_MS = 10_000;
/** Kills a run that hangs; a run that needs it has failed its bound long before. */
const DEADLINE_MS = 60_000;
/** About 150 MB is the CLI at rest; a huge answer is read up to the fleet's cap, never to its end. */
const RSS_LIMIT_MB = 400;

const MODES: Hostility[] = [
  'silent',
  'slow',
  'trickle',
  'huge',
  'deep',
  'reset',
  'redirect-loop',
  'close-mid-body',
  'malformed',
  'html',
];

/**
 * Modes that never answer in time. A request is given up after 10 s of wall time whatever the
 * speed (docs/fleet.md, `--speed`); the end of a run waits for it.
 */
const NEVER_IN_TIME = new Set<Hostility>(['silent', 'slow', 'trickle']);

describe('fleet against a hostile server', () => {
  test.concurrent.each(MODES)('%s: ends on time, in bounded memory, and fails', async (mode) => {
    const server = await startHostileServer(mode);
    servers.push(server);
    const speed = 5;
    const wallMs = 30_000 / speed + (NEVER_IN_TIME.has(mode) ? DRAIN_MS : 0);
    const run = await runFleet(
      [
        `${server.url}/queues/fleet-{player}/v2.3/`,
        ...['--players', '5', '--duration', '30s', '--speed', String(speed)],
        ...['--threshold', 'errors<1%'],
      ],
      DEADLINE_MS,
    );
    const account = describeRun(run);
    expect(run.code, account).toBe(1);
    expect(run.playedMs, account).toBeLessThan(wallMs + MARGIN_MS);
    if (run.peakRssMb !== null) expect(run.peakRssMb, account).toBeLessThan(RSS_LIMIT_MB);
    expect(run.stdout, account).toMatch(/FAIL\s+errors<1%/);
    const report = run.report!;
    expect(report.totals.requests).toBeGreaterThan(0);
    // No request got a usable answer (platform.md §7.2: "a success code with a malformed message"
    // is a server error), so every one of them is an error.
    expect(report.totals.errors, account).toBe(report.totals.requests);
    expect(report.players.byState.PLAYING ?? 0).toBe(0);
    // The fleet stopped reading a 2 GB answer early: the server could not push much of it.
    if (mode === 'huge') expect(server.bytesWritten()).toBeLessThan(512 * 1024 ** 2);
  });

  test('slow at real speed: requests given up after 10 s, the run ends on time', async () => {
    const server = await startHostileServer('slow');
    servers.push(server);
    const run = await runFleet(
      [`${server.url}/q/`, '--players', '3', '--duration', '15s', '--speed', '1', '--threshold', 'errors<1%'],
      DEADLINE_MS,
    );
    const account = describeRun(run);
    expect(run.code, account).toBe(1);
    expect(run.playedMs, account).toBeLessThan(15_000 + DRAIN_MS + MARGIN_MS);
    expect(run.report!.totals.transportErrors, account).toBeGreaterThan(0);
    expect(run.report!.totals.errors).toBe(run.report!.totals.requests);
  });

  test('silent, run shorter than the request timeout: the unanswered requests fail it', async () => {
    const server = await startHostileServer('silent');
    servers.push(server);
    const run = await runFleet(
      [`${server.url}/q/`, '--players', '5', '--duration', '10s', '--speed', '5', '--threshold', 'errors<1%'],
      DEADLINE_MS,
    );
    const account = describeRun(run);
    expect(run.code, account).toBe(1);
    expect(run.stdout).toMatch(/FAIL\s+errors<1%/);
    expect(run.report!.totals.transportErrors, account).toBeGreaterThan(0);
    expect(run.playedMs, account).toBeLessThan(2_000 + DRAIN_MS + MARGIN_MS);
  });

  test('silent everywhere, /version included: "cannot be reached", exit 2, in bounded time', async () => {
    const server = await startHostileServer('silent', { everywhere: true });
    servers.push(server);
    const run = await runFleet(
      [`${server.url}/q/`, '--players', '3', '--duration', '30s', '--speed', '5'],
      DEADLINE_MS,
    );
    const account = describeRun(run);
    expect(run.code, account).toBe(2);
    expect(run.stderr).toMatch(/cannot be reached/);
    // player 1's /version is given up after 10 s, then the run ends.
    expect(run.playedMs, account).toBeLessThan(10_000 + MARGIN_MS);
  });
});
