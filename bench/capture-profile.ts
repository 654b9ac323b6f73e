/**
 * Capture under load, for a CPU profile or an A/B of two trees (not a bench:
 * `node --cpu-prof --import tsx bench/capture-profile.ts [--off]`): GET /itemWindow for
 * BENCH_SECONDS with capture on (off with `--off`), and the engine's CPU per request over the
 * measured part of the load (after the client's warm-up).
 */
import { createInterface } from 'node:readline';
import { itemWindowBench } from './item-window-load.js';
import { startLoad } from './load-client.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const { engine, origin, headers, paths, dispose } = await itemWindowBench(false);
await engine.commands.run('traffic.configure', { capture: !process.argv.includes('--off') });
const client = startLoad({ url: origin, headers, connections: 10, seconds: SECONDS, paths, announce: true });
const lines = createInterface({ input: client.stdout })[Symbol.asyncIterator]();
await lines.next(); // {"measuring": ...}: the warm-up is over
const before = process.cpuUsage();
const result = JSON.parse((await lines.next()).value as string) as { requests: { average: number; total: number } };
const cpu = process.cpuUsage(before);
console.log(
  `${Math.round(result.requests.average)} req/s; engine CPU ${((cpu.user + cpu.system) / result.requests.total).toFixed(1)} µs per request`,
);
await dispose();
