/**
 * Servers wrong in one way each: the fleet must fail the run (exit 1) and name the rule broken
 * (docs/player.md, "Contract violations"), on stdout and in the JSON report.
 */
import { afterAll, describe, expect, test, vi } from 'vitest';
import { startQueueServer, type Defect, type RunningServer } from './queue-server';
import { describeRun, runFleet } from './run-fleet';

// Each case spawns the built CLI and plays a fleet for seconds of wall time.
vi.setConfig({ testTimeout: 90_000 });

const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function fleetAgainst(defect: Defect, timing: readonly string[]) {
  const server = await startQueueServer({ defect });
  servers.push(server);
  return runFleet(
    [`${server.url}/queues/fleet-{player}/v2.3/`, '--players', '10', ...timing, '--threshold', 'violations==0'],
    45_000,
  );
}

/** Defects every first window shows: 30 s of listening at speed 10. */
const FIRST_WINDOW = ['--duration', '30s', '--speed', '10'];

const CASES: { defect: Defect; rule: string; timing: readonly string[] }[] = [
  { defect: 'window-one-too-long', rule: 'itemWindow.window-size', timing: FIRST_WINDOW },
  { defect: 'wrong-item-ids', rule: 'itemWindow.requested-item', timing: FIRST_WINDOW },
  { defect: 'duplicate-item-ids', rule: 'itemWindow.unique-ids', timing: FIRST_WINDOW },
  { defect: 'version-not-a-string', rule: 'itemWindow.queueVersion', timing: FIRST_WINDOW },
  { defect: 'missing-media-url', rule: 'itemWindow.media-url', timing: FIRST_WINDOW },
  { defect: 'missing-includes-end', rule: 'itemWindow.includesEndOfQueue', timing: FIRST_WINDOW },
  // A playing player polls /version every 600 s (docs/contract/console.md §5); at 620 s none had come yet.
  { defect: 'version-missing', rule: 'version.body', timing: ['--duration', '700s', '--speed', '70'] },
];

describe('fleet against a server wrong in one way', () => {
  test.concurrent.each(CASES)('$defect: exit 1, $rule named', async ({ defect, rule, timing }) => {
    const run = await fleetAgainst(defect, timing);
    expect(run.code, describeRun(run)).toBe(1);
    expect(run.stdout).toMatch(/FAIL\s+violations==0/);
    expect(run.stdout).toContain(`violation ${rule} `);
    const named = run.report!.violations.find((violation) => violation.rule === rule);
    expect(named, describeRun(run)).toBeDefined();
    expect(named!.count).toBeGreaterThan(0);
  });

  test('404 for an item the queue holds: exit 1, the 404s counted as errors on /itemWindow', async () => {
    const server = await startQueueServer({ defect: 'not-found-for-known-item' });
    servers.push(server);
    const run = await runFleet(
      [`${server.url}/queues/fleet-{player}/v2.3/`, '--players', '10', ...FIRST_WINDOW, '--threshold', 'errors<1%'],
      45_000,
    );
    expect(run.code, describeRun(run)).toBe(1);
    expect(run.stdout).toMatch(/FAIL\s+errors<1%/);
    const notFound = run
      .report!.endpoints.filter((row) => row.endpoint === 'itemWindow')
      .reduce((sum, row) => sum + (row.statuses['404'] ?? 0), 0);
    expect(notFound).toBeGreaterThan(0);
  });
});
