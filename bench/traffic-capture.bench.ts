/**
 * What the traffic log costs: GET /itemWindow throughput of the console's
 * own cloud queue server with capture on and with capture off, side by side in one run. Target:
 * capture costs at most 10%.
 *
 * One load runs without a break while the engine switches capture off and on every slice (2 s,
 * after 0.5 s to settle), in pairs whose order alternates (off-on, on-off, ...). Neighbours on a
 * shared machine come and go over seconds, so adjacent slices see the same machine; runs of
 * several seconds each, one after the other, did not (a round's own baseline swung ±20%). The
 * client counts responses per 50 ms of wall time (bench/autocannon-client.mjs, its own process,
 * 127.0.0.1 only); the engine's CPU time per response is printed beside it, with the client's
 * share of its core, and the cost worked out from the engine's CPU too: when the engine serves
 * faster than one core of client can ask, the capture-off slices measure the client.
 *
 * On Linux with `taskset`, the engine (this process, all its threads) runs on the first core and
 * the client on the last, so that the client never competes with the engine's collector threads
 * and what is measured is the engine's own cost; elsewhere both run where the OS puts them.
 *
 * The log is first filled to its retention cap, so every new entry also drops the oldest. The
 * engine runs in this process (`--disk`: in a data dir, as the desktop app does; default in
 * memory). `--listening` subscribes to the engine's events as the console's UI does (it omits
 * `traffic.captured` and takes `traffic.appended`); `--streaming` takes every event, as a script
 * reading `GET /admin/api/events` does, so every batch's summaries are decoded for it (nobody
 * listening: none are). Prints numbers; never fails on them. The cost comes with a bootstrap interval over the
 * pairs: on a shared machine one run's number can land a few points either side of the target, and
 * the interval says how far.
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { text } from 'node:stream/consumers';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { UI_OMITTED_EVENTS } from '../main/engine/api/events.js';
import { itemWindowBench } from './item-window-load.js';
import { pinServers, startLoad } from './load-client.js';
import { printAim } from './aims.js';
import { bootstrapInterval, fmt, median } from './stats.js';

const { values } = parseArgs({
  options: {
    disk: { type: 'boolean', default: false },
    listening: { type: 'boolean', default: false },
    streaming: { type: 'boolean', default: false },
  },
});
const PAIRS = Number(process.env.BENCH_PAIRS ?? 20);
const SLICE_MS = 2_000;
const SETTLE_MS = 500;
const CONNECTIONS = 10;

interface Slice {
  capture: boolean;
  from: number;
  to: number;
  cpuUs: number;
  /** The load client's CPU over the slice, as a share of one core (null where /proc is not there). */
  clientShare: number | null;
}

/**
 * A process's CPU time in ms from /proc (Linux; null elsewhere). The client's share of its core
 * says whether it, not the engine, set the pace: near 100%, the capture-off slices measure the
 * client and understate what capture costs the engine, and the cost by engine CPU is the one to read.
 */
function cpuMsOf(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, in clock ticks (USER_HZ, 100 on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

interface Timeline {
  start: number;
  bucketMs: number;
  counts: number[];
}

const clientCore = pinServers();

// In memory (`--ephemeral`, as CI runs it) by default; `--disk`: in a data dir, as the desktop app runs.
const { engine, dataDir, origin, headers, paths, dispose } = await itemWindowBench(values.disk);
// `--listening`: as with the console's UI open; `--streaming`: a script that takes every event.
if (values.listening) engine.events.subscribe(() => undefined, UI_OMITTED_EVENTS);
if (values.streaming) engine.events.subscribe(() => undefined);
const listeners = [values.listening && 'events as the UI takes them', values.streaming && 'every event']
  .filter(Boolean)
  .join(' and ');
const logSize = async () => (await engine.commands.run('traffic.page', { offset: 0, limit: 1 })).total;
const setCapture = (capture: boolean) => engine.commands.run('traffic.configure', { capture });

const load = (seconds: number, timeline: boolean) =>
  startLoad({ url: origin, headers, connections: CONNECTIONS, seconds, paths, timeline }, clientCore);

/** Responses per second the client counted within a slice (whole buckets only). */
function rate({ start, bucketMs, counts }: Timeline, slice: Slice): number {
  const first = Math.ceil((slice.from - start) / bucketMs);
  const last = Math.floor((slice.to - start) / bucketMs);
  let n = 0;
  for (let i = first; i < last; i++) n += counts[i] ?? 0;
  return (n * 1000) / ((last - first) * bucketMs);
}

try {
  const { retention } = await engine.commands.run('traffic.settings', {});
  console.log(
    `GET /itemWindow, ${CONNECTIONS} connections; ${PAIRS} pairs of ${SLICE_MS / 1000} s slices, capture off and on; retention ${fmt(retention)} entries, log ${dataDir ? 'on disk' : 'in memory'}${listeners ? `, listened to: ${listeners}` : ''}`,
  );
  console.log(
    `    ${clientCore ? `engine pinned to core 0, client to core ${clientCore}` : 'engine and client not pinned'}`,
  );
  // The steady state: a full log, where every new entry also drops the oldest.
  const filling = performance.now();
  while ((await logSize()) < retention && performance.now() - filling < 120_000) await text(load(5, false).stdout);
  console.log(`    log filled to ${fmt(await logSize())} entries in ${fmt((performance.now() - filling) / 1000, 1)} s`);

  const client = load(Math.ceil((PAIRS * 2 * (SLICE_MS + SETTLE_MS)) / 1000) + 2, true);
  const lines = createInterface({ input: client.stdout })[Symbol.asyncIterator]();
  await lines.next(); // {"measuring": ...}
  const slices: Slice[] = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    for (const capture of pair % 2 === 0 ? [false, true] : [true, false]) {
      await setCapture(capture);
      await sleep(SETTLE_MS);
      const cpu = process.cpuUsage();
      const clientCpu = cpuMsOf(client.pid);
      const from = Date.now();
      await sleep(SLICE_MS);
      const used = process.cpuUsage(cpu);
      const to = Date.now();
      const clientUsed = cpuMsOf(client.pid);
      const clientShare = clientCpu === null || clientUsed === null ? null : (clientUsed - clientCpu) / (to - from);
      slices.push({ capture, from, to, cpuUs: used.user + used.system, clientShare });
    }
  }
  await setCapture(true);
  const result = JSON.parse((await lines.next()).value as string) as { non2xx: number; timeline: Timeline };

  const measured = slices.map((slice) => {
    const rps = rate(result.timeline, slice);
    return { ...slice, rps, cpuPerRequest: slice.cpuUs / ((rps * (slice.to - slice.from)) / 1000) };
  });
  const off = measured.filter((s) => !s.capture);
  const on = measured.filter((s) => s.capture);
  const clientOf = (xs: typeof measured) => {
    const shares = xs.flatMap((s) => (s.clientShare === null ? [] : [s.clientShare]));
    return shares.length ? `; client ${fmt(median(shares) * 100)}% of its core` : '';
  };
  const row = (label: string, xs: typeof measured) =>
    console.log(
      `    ${label.padEnd(12)} ${fmt(median(xs.map((s) => s.rps))).padStart(7)} req/s median  (slices ${fmt(Math.min(...xs.map((s) => s.rps)))}–${fmt(Math.max(...xs.map((s) => s.rps)))}); engine CPU ${fmt(median(xs.map((s) => s.cpuPerRequest)), 1)} µs per request${clientOf(xs)}`,
    );
  row('capture off', off);
  row('capture on', on);
  const pairs = off.map((slice, i) => ({ off: slice, on: on[i]! }));
  const costOf = (drawn: readonly (typeof pairs)[number][]) =>
    1 - median(drawn.map((p) => p.on.rps)) / median(drawn.map((p) => p.off.rps));
  const [low, high] = bootstrapInterval(pairs, costOf);
  const pairCosts = pairs.map((p) => 1 - p.on.rps / p.off.rps);
  const pct = (x: number) => fmt(x * 100, 1);
  console.log(
    `    capture costs ${pct(costOf(pairs))}% of throughput (target ≤ 10%), 90% bootstrap interval ${pct(low)}–${pct(high)}%`,
  );
  console.log(`    per pair: median ${pct(median(pairCosts))}%; ${pairCosts.map((c) => fmt(c * 100, 0)).join(' ')}`);
  // What capture adds to the engine's own work per request, whoever set the pace.
  const cpuCostOf = (drawn: readonly (typeof pairs)[number][]) =>
    1 - median(drawn.map((p) => p.off.cpuPerRequest)) / median(drawn.map((p) => p.on.cpuPerRequest));
  const [cpuLow, cpuHigh] = bootstrapInterval(pairs, cpuCostOf);
  console.log(
    `    by engine CPU per request: capture costs ${pct(cpuCostOf(pairs))}%, 90% bootstrap interval ${pct(cpuLow)}–${pct(cpuHigh)}%`,
  );
  console.log(`    non-2xx ${result.non2xx}; ${fmt(await logSize())} entries in the log after the run`);
  printAim(
    'traffic capture cost on GET /itemWindow (throughput)',
    costOf(pairs) * 100,
    '%',
    { atMost: 10 },
    `90% interval ${pct(low)}–${pct(high)}%`,
  );
  printAim(
    'traffic capture cost on GET /itemWindow (engine CPU)',
    cpuCostOf(pairs) * 100,
    '%',
    { atMost: 10 },
    `90% interval ${pct(cpuLow)}–${pct(cpuHigh)}%`,
  );
} finally {
  await dispose();
}
