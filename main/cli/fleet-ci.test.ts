/**
 * THE ISSUE'S CI RUN (about 35 s): 1,000 players against the console's reference cloud queue
 * server for 30 s of real time at speed 10 (5 minutes of listening), all joining at once, from the
 * command line's own path (`fleet --players 1000 …`, main/cli/fleet.ts) on the default worker
 * threads. Every threshold is reported and holds: no violation, under 1% errors, and a p99 under
 * the platform's own request timeout (10 s: a player gives a request up then). The join burst
 * (2,000 requests in the first seconds) is what the p99 measures; on this 2-core machine, loaded,
 * it was 7–9 s, with no request given up (docs/fleet.md). Run it on its own
 * (`npx vitest run main/cli/fleet-ci.test.ts`): beside other fleet tests on two cores the burst
 * waited past 10 s for 6–16% of its requests.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FleetReport } from '../engine/api/fleet-types.js';
import { main } from './index.js';

describe("the issue's CI run", () => {
  it('plays 1,000 players for 30 s at speed 10 with no violation and every threshold holding', async () => {
    const json = join(mkdtempSync(join(tmpdir(), 'cqc-fleet-ci-')), 'fleet.json');
    let stdout = '';
    const code = await main(
      [
        'fleet',
        '--players',
        '1000',
        '--duration',
        '300s',
        '--speed',
        '10',
        '--threshold',
        'violations==0',
        '--threshold',
        'errors<1%',
        '--threshold',
        'p99<10s',
        '--json',
        json,
      ],
      { stdout: (text) => void (stdout += text), stderr: () => undefined },
    );
    const report = JSON.parse(readFileSync(json, 'utf8')) as FleetReport;
    expect(report.thresholds.map((t) => [t.expression, t.ok])).toEqual([
      ['violations==0', true],
      ['errors<1%', true],
      ['p99<10s', true],
    ]);
    expect(stdout).toMatch(/pass {2}violations==0 {2}\(measured 0\)/);
    expect(stdout).toMatch(/pass {2}errors<1%/);
    expect(stdout).toMatch(/pass {2}p99<10s/);
    expect(code).toBe(0);
    expect(report.players.joined).toBe(1000);
    expect(report.totals.violations).toBe(0);
    expect(report.workers).toBeGreaterThan(1);
    // Every player loaded its queue and reported what it played.
    expect(
      report.endpoints.find((s) => s.endpoint === 'itemWindow' && s.reason === 'load')?.requests,
    ).toBeGreaterThanOrEqual(1000);
    expect(report.endpoints.find((s) => s.endpoint === 'timePlayed')?.requests).toBeGreaterThan(1000);
  }, 120_000);
});
