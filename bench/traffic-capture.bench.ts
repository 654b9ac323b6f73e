/**
 * What the traffic log costs (issue 6, "Performance"): GET /itemWindow throughput of the console's
 * own cloud queue server with capture on and with capture off, measured side by side in one run
 * (interleaved rounds, so a neighbour's load hits both alike). Target: capture costs at most 15%.
 * The log is first filled to its retention cap, so every new entry also drops the oldest. The engine
 * runs in this process (`--disk`: with a data dir, as the desktop app does; default in memory);
 * autocannon runs as its own process (bench/autocannon-client.mjs) against 127.0.0.1 for bounded
 * durations. Prints throughput and the engine's CPU time per request; never fails on them.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { parseArgs } from 'node:util';
import { itemWindowBench } from './item-window-load.js';
import { fmt, median } from './stats.js';

const { values } = parseArgs({ options: { disk: { type: 'boolean', default: false } } });
const CLIENT = join(import.meta.dirname, 'autocannon-client.mjs');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 10;

interface Load {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** CPU time this process (the engine) spent per request: steadier than throughput on a busy machine. */
  cpuUs: number;
}

async function load(url: string, headers: Record<string, string>, paths: string[]): Promise<Load> {
  const client = spawn(process.execPath, [CLIENT], { stdio: ['pipe', 'pipe', 'inherit'] });
  client.stdin.end(JSON.stringify({ url, headers, connections: CONNECTIONS, seconds: SECONDS, paths }));
  // The client warms up for 1 s before it measures: count CPU over the measured part only.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const cpu = process.cpuUsage();
  const output = text(client.stdout);
  const result = JSON.parse(await output) as { requests: { average: number; total: number }; latency: { p50: number; p99: number }; non2xx: number };
  const used = process.cpuUsage(cpu);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, cpuUs: (used.user + used.system) / result.requests.total };
}


// In memory (`--ephemeral`, as CI runs it) by default; `--disk`: in a data dir, as the desktop app runs.
const { engine, dataDir, origin, headers, paths, dispose } = await itemWindowBench(values.disk);
try {
  const settings = await engine.commands.run('traffic.settings', {});
  console.log(`GET /itemWindow, ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} rounds; retention ${fmt(settings.retention)} entries, log ${dataDir ? 'on disk' : 'in memory'}`);
  // The steady state: a full log, where every new entry also drops the oldest.
  const filled = performance.now();
  while ((await engine.commands.run('traffic.page', { offset: 0, limit: 1 })).total < settings.retention && performance.now() - filled < 120_000) {
    await load(origin, headers, paths);
  }
  console.log(`    log filled to ${fmt((await engine.commands.run('traffic.page', { offset: 0, limit: 1 })).total)} entries in ${fmt((performance.now() - filled) / 1000, 1)} s`);

  const runs = { off: [] as Load[], on: [] as Load[] };
  for (let round = 0; round < ROUNDS; round++) {
    await engine.commands.run('traffic.configure', { capture: false });
    runs.off.push(await load(origin, headers, paths));
    await engine.commands.run('traffic.configure', { capture: true });
    runs.on.push(await load(origin, headers, paths));
  }
  const stored = (await engine.commands.run('traffic.page', { offset: 0, limit: 1 })).total;
  const row = (label: string, xs: Load[]) =>
    console.log(
      `    ${label.padEnd(12)} ${fmt(median(xs.map((l) => l.rps))).padStart(7)} req/s  (runs ${xs.map((l) => fmt(l.rps)).join(', ')}; p50 ${fmt(median(xs.map((l) => l.p50)), 1)} ms, p99 ${fmt(median(xs.map((l) => l.p99)), 1)} ms; non-2xx ${xs.reduce((n, l) => n + l.non2xx, 0)})`,
    );
  row('capture off', runs.off);
  row('capture on', runs.on);
  const cost = 1 - median(runs.on.map((l) => l.rps)) / median(runs.off.map((l) => l.rps));
  console.log(`    capture costs ${fmt(cost * 100, 1)}% of throughput (target ≤ 15%); ${fmt(stored)} entries in the log after the run`);
  const cpuOff = median(runs.off.map((l) => l.cpuUs));
  const cpuOn = median(runs.on.map((l) => l.cpuUs));
  console.log(`    engine CPU per request: ${fmt(cpuOff)} µs off, ${fmt(cpuOn)} µs on (+${fmt((cpuOn / cpuOff - 1) * 100, 1)}%)`);
} finally {
  await dispose();
}
