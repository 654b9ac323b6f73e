/**
 * A fleet against a server whose every answer never ends (about 15 s): what the built command
 * line holds is bounded by the fleet's slots for big answers (main/engine/http/body-budget.ts),
 * not by its players. Each player alone reads up to its 8 MB cap; before the budget, 1,000
 * players against answers of 2 GB peaked at 1.5 GB, and 300 players against endless ones would
 * hold 300 caps (2.4 GB). With it: 16 slots of 8 MB and 64 KB for every other player, plus the
 * command line itself and what the garbage collector has yet to take back (about 530 MB
 * measured for 1,000 players, 640 MB for 200).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FleetReport } from '../engine/api/fleet-types.js';

const BIN = resolve(import.meta.dirname, '../../out/cli/bin.js');
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

/** Peak RSS (VmHWM) of a process, in MB, or null once it is gone. */
function peakRssMb(pid: number): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1_024 : null;
  } catch {
    return null;
  }
}

describe('a fleet against answers that never end', () => {
  it(`holds what ${PLAYERS} players read to the fleet's slots, and fails every request`, async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` first`);
    const url = await endlessServer();
    const json = join(mkdtempSync(join(tmpdir(), 'cqc-fleet-bodies-')), 'fleet.json');
    const args = ['fleet', url, '--players', String(PLAYERS), '--duration', '30s', '--speed', '5'];
    const child = spawn(process.execPath, [BIN, ...args, '--threshold', 'errors<1%', '--json', json], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, peakRssMb(child.pid!) ?? 0)), 50);
    const code = await new Promise<number | null>((done) => child.on('close', done));
    clearInterval(sampler);
    const report = JSON.parse(readFileSync(json, 'utf8')) as FleetReport;
    const account = `exit ${code}, peak RSS ${peak.toFixed(0)} MB\n${stderr.slice(-1_000)}`;
    expect(code, account).toBe(1);
    expect(report.totals.requests, account).toBeGreaterThanOrEqual(PLAYERS);
    // Every answer was cut at the cap: none was usable, so every request is an error.
    expect(report.totals.errors, account).toBe(report.totals.requests);
    expect(peak, account).toBeGreaterThan(0);
    expect(peak, account).toBeLessThan(RSS_LIMIT_MB);
  }, 90_000);
});
