/**
 * A fleet against a server whose every answer never ends (about 15 s): what the built command
 * line holds is bounded by the fleet's slots for big answers (main/engine/http/body-budget.ts),
 * not by its players. Each player alone reads up to its 8 MB cap; before the budget, 1,000
 * players against answers of 2 GB peaked at 1.5 GB, and 300 players against endless ones would
 * hold 300 caps (2.4 GB). With it: 16 slots of 8 MB and 64 KB for every other player, plus the
 * command line itself and what the garbage collector has yet to take back (about 530 MB
 * measured for 1,000 players, 640 MB for 200).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { describeRun, runFleet } from '../../test/outsider/fleet/run-fleet.js';

const PLAYERS = 300;
/** Far under 300 caps (2.4 GB), with room for a loaded machine's slower collections. */
const RSS_LIMIT_MB = 1_000;

let server: Server | undefined;
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((done) => server?.close(done));
});

/** Answers every request with a 200 whose body goes on for as long as it is read. */
async function endlessServer(): Promise<string> {
  const chunk = Buffer.alloc(64 * 1_024, 'a');
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"items":[],"padding":"');
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    res.on('close', () => res.removeAllListeners('drain'));
    pump();
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/queues/q-{player}/`;
}

describe('a fleet against answers that never end', () => {
  it(`holds what ${PLAYERS} players read to the fleet's slots, and fails every request`, async () => {
    const url = await endlessServer();
    // The built CLI run as a user runs it, its peak RSS sampled from /proc (the outsider's runner).
    const run = await runFleet(
      [url, '--players', String(PLAYERS), '--duration', '30s', '--speed', '5', '--threshold', 'errors<1%'],
      80_000,
    );
    const account = describeRun(run);
    expect(run.code, account).toBe(1);
    expect(run.report!.totals.requests, account).toBeGreaterThanOrEqual(PLAYERS);
    // Every answer was cut at the cap: none was usable, so every request is an error.
    expect(run.report!.totals.errors, account).toBe(run.report!.totals.requests);
    expect(run.peakRssMb, account).toBeGreaterThan(0);
    expect(run.peakRssMb!, account).toBeLessThan(RSS_LIMIT_MB);
  }, 90_000);
});
