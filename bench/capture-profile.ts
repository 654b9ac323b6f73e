/**
 * A CPU profile of capture under load (not a bench: `node --cpu-prof --import tsx bench/capture-profile.ts`):
 * GET /itemWindow with capture on (or off with `--off`) for BENCH_SECONDS, the log filled first.
 */
import { text } from 'node:stream/consumers';
import { itemWindowBench } from './item-window-load.js';
import { startLoad } from './load-client.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const { engine, origin, headers, paths, dispose } = await itemWindowBench(false);
await engine.commands.run('traffic.configure', { capture: !process.argv.includes('--off') });
const result = JSON.parse(
  await text(startLoad({ url: origin, headers, connections: 10, seconds: SECONDS, paths }).stdout),
) as { requests: { average: number } };
const cpu = process.cpuUsage();
console.log(
  `${Math.round(result.requests.average)} req/s; process CPU ${Math.round((cpu.user + cpu.system) / 1000)} ms`,
);
await dispose();
