/**
 * GET /itemWindow of the reference cloud queue server, measured against baselines in the same
 * run:
 *   (a) throughput on a 100,000-item queue vs a bare fastify route answering a constant JSON
 *       object of the same size: one cached window (target: at least 1.3×) and 10,000 windows
 *       read from the store (target: at least 0.9×), each beside its floor, the least any server
 *       does for it (a bare route sending the window's bytes; a bare route reading the console's
 *       table, item-window-floor.ts);
 *   (b) latency on a 1,000,000-item queue (edited in the middle) vs a 100-item queue
 *       (target: within 1.2×);
 *   (c) time to create a 100,000-item queue through the admin API (target: under 2 s).
 * The servers run in this process; autocannon runs as its own process so that it does not take
 * the servers' event loop (on Linux, the servers pinned to the first core and the client to the
 * last). (a) prints the server's CPU time a response beside each rate.
 * Loopback only, bounded durations. Prints numbers, never fails on them.
 * Traffic capture is off unless `--capture` (its cost is traffic-capture.bench.ts's measure).
 */
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import type { QueueSummary } from '../main/engine/api/queue-types.js';
import { itemJson } from '../main/engine/cloud-queue/item-rows.js';
import { sampleTracks } from '../main/engine/cloud-queue/samples.js';
import { itemIdOf } from '../main/engine/store/repositories/queue-items.js';
import { createEngine } from '../main/engine/index.js';
import { startWindowFloor } from './item-window-floor.js';
import { COLD_QUEUE_ITEMS, coldWindowQueries, windowQuery } from './item-window-load.js';
import { pinServers, startLoad } from './load-client.js';
import { printAim } from './aims.js';
import { fmt, median } from './stats.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const clientCore = pinServers();
const CAPTURE = parseArgs({ options: { capture: { type: 'boolean', default: false } } }).values.capture;

interface Load {
  rps: number;
  /** The server's CPU time a response, µs. */
  cpuPerRequest: number;
  latencyMean: number;
  latencyP50: number;
  latencyP99: number;
  non2xx: number;
}

/**
 * One load of SECONDS after the client's warm-up, and this process's CPU time per response over
 * the measured part: the servers all live here and only the one under load is busy, so it is that
 * server's cost a request, whichever side (server or one-process client) set the rate.
 */
async function load(
  url: string,
  headers: Record<string, string>,
  connections: number,
  paths?: string[],
): Promise<Load> {
  const client = startLoad({ url, headers, connections, seconds: SECONDS, paths, announce: true }, clientCore);
  const lines = createInterface({ input: client.stdout })[Symbol.asyncIterator]();
  await lines.next(); // {"measuring": …}: the warm-up is over
  const before = process.cpuUsage();
  const result = JSON.parse((await lines.next()).value as string) as {
    requests: { average: number; total: number };
    latency: { average: number; p50: number; p99: number };
    non2xx: number;
  };
  const cpu = process.cpuUsage(before);
  return {
    rps: result.requests.average,
    cpuPerRequest: (cpu.user + cpu.system) / result.requests.total,
    latencyMean: result.latency.average,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    non2xx: result.non2xx,
  };
}

const engine = await createEngine({ dataDir: null, port: 0, clockSpeed: 0 });
const adminPost = async (path: string, body: string) => {
  const response = await fetch(`${engine.urls.console}/admin/api${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${engine.adminToken}`, 'content-type': 'application/json' },
    body,
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as QueueSummary;
};

try {
  // The server's own cost: what the traffic log adds to each request is traffic-capture.bench.ts's
  // measure, taken side by side there. `--capture` measures with the log on, as shipped.
  await engine.commands.run('traffic.configure', { capture: CAPTURE });
  console.log(`traffic capture ${CAPTURE ? 'on' : 'off'}`);
  // (c) first: it also builds the queue that (a) measures.
  console.log('(c) creating a 100,000-item queue through POST /admin/api/queues');
  let items: { track: object }[] | null = sampleTracks(1, COLD_QUEUE_ITEMS).map((track) => ({ track }));
  const createTimes: number[] = [];
  let big: QueueSummary | undefined;
  let bodyBytes = 0;
  for (let i = 0; i < 3; i++) {
    // The request body is ready before the clock starts, as a client holding its queue has it.
    const body = JSON.stringify({ name: `Big ${i + 1}`, items });
    bodyBytes = Buffer.byteLength(body);
    const started = performance.now();
    big = await adminPost('/queues', body);
    createTimes.push(performance.now() - started);
  }
  // The servers share this process: a large garbage-collected heap would slow them all.
  items = null;
  console.log(
    `    body ${fmt(bodyBytes / 1e6, 1)} MB; runs ${createTimes.map((t) => `${fmt(t)} ms`).join(', ')}; median ${fmt(median(createTimes))} ms (target < 2000 ms)`,
  );
  printAim('create a 100,000-item queue', median(createTimes), 'ms', { atMost: 2_000 });

  // (a) throughput: the same window, served by the console and by a bare route.
  const auth = { authorization: `Bearer ${big!.accessToken}`, 'x-player-id': 'bench' };
  const basePath = new URL(big!.queueBaseUrl).pathname;
  const windowPath = (itemId: string) => `${basePath}itemWindow${windowQuery(itemId)}`;
  const origin = new URL(big!.queueBaseUrl).origin;
  const sampleText = await (await fetch(origin + windowPath('item-50000'), { headers: auth })).text();
  const sample = JSON.parse(sampleText) as { items: unknown[]; contextVersion: string; queueVersion: string };
  const bare = Fastify({ logger: false });
  bare.get('/itemWindow', async () => sample);
  // The floor of a cached window: the same route sending the window's bytes, made once, as the
  // console's window cache sends them; nothing else.
  const sampleBytes = Buffer.from(sampleText);
  bare.get('/itemWindowBytes', (_request, reply) => {
    reply.type('application/json; charset=utf-8').send(sampleBytes);
  });
  await bare.listen({ host: '127.0.0.1', port: 0 });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/itemWindow`;
  // 10,000 different windows, more than the window cache holds: every request reads the store.
  const coldQueries = coldWindowQueries();
  const rotating = coldQueries.map((query) => `${basePath}itemWindow${query}`);
  console.log(
    `(a) throughput, 10 connections, ${SECONDS} s per run, ${clientCore ? `servers pinned to core 0, client to core ${clientCore}` : 'not pinned'}, window of ${sample.items.length} items (${fmt(JSON.stringify(sample).length)} bytes)`,
  );
  // The same 10,000 query strings against the bare route: the client does the same work for both.
  const bareRotating = coldQueries.map((query) => `/itemWindow${query}`);
  // The same windows from the floor's copy of the queue (item-window-floor.ts): the same tracks,
  // stored as the console stores them, so that it answers the same bytes.
  const floor = await startWindowFloor(
    sampleTracks(1, COLD_QUEUE_ITEMS).map((track, i) => itemJson(itemIdOf(i + 1), track, undefined)),
    sample,
  );
  const floorOrigin = new URL(floor.url).origin;
  const floorText = await (
    await fetch(floorOrigin + bareRotating[0]!.replace(/itemId=[^&]*/, 'itemId=item-50000'))
  ).text();
  if (floorText !== sampleText) throw new Error("the floor does not answer the console's window byte for byte");
  const runs = {
    bare: [] as Load[],
    bareBytes: [] as Load[],
    same: [] as Load[],
    bareRotating: [] as Load[],
    floorRotating: [] as Load[],
    rotating: [] as Load[],
  };
  // Interleaved rounds, so that a neighbour's load on the machine hits every variant alike.
  for (let round = 0; round < ROUNDS; round++) {
    runs.bare.push(await load(bareUrl, {}, 10));
    runs.bareBytes.push(await load(`${bareUrl}Bytes`, {}, 10));
    runs.same.push(await load(origin + windowPath('item-50000'), auth, 10));
    runs.bareRotating.push(await load(bareUrl, {}, 10, bareRotating));
    runs.floorRotating.push(await load(floorOrigin, {}, 10, bareRotating));
    runs.rotating.push(await load(origin, auth, 10, rotating));
  }
  const mean = (xs: Load[], pick: (l: Load) => number) => xs.reduce((sum, l) => sum + pick(l), 0) / xs.length;
  // The median round: one disturbed round does not move it.
  const rps = (xs: Load[]) => median(xs.map((l) => l.rps));
  const cpu = (xs: Load[]) => median(xs.map((l) => l.cpuPerRequest));
  const non2xx = (xs: Load[]) => xs.reduce((n, l) => n + l.non2xx, 0);
  const row = (label: string, xs: Load[]) =>
    console.log(
      `    ${label.padEnd(44)} ${fmt(rps(xs)).padStart(7)} req/s (runs ${xs.map((l) => fmt(l.rps)).join(', ')}; non-2xx ${non2xx(xs)}); ${fmt(cpu(xs), 1)} µs server CPU a response (runs ${xs.map((l) => fmt(l.cpuPerRequest, 1)).join(', ')})`,
    );
  // Beside each rate ratio, the same ratio of the server's CPU a response. Neither is clean here:
  // the one-process client tops out near the cheaper routes' rate (13,000-20,000 a second), and a
  // server's CPU a response grows as its rate falls (fewer requests share each turn's writes).
  const ratios = (label: string, bare: Load[], console: Load[], aim: number, note?: string) => {
    printAim(label, rps(console) / rps(bare), '×', { atLeast: aim }, note);
    process.stdout.write(`    by server CPU a response: ${fmt(cpu(bare) / cpu(console), 2)}×\n`);
  };
  row('one URL: bare fastify route, constant object', runs.bare);
  row('one URL: floor, bare route sending bytes', runs.bareBytes);
  row('one URL: GET /itemWindow (window cache)', runs.same);
  ratios(
    'itemWindow, one cached window vs bare fastify',
    runs.bare,
    runs.same,
    1.3,
    `the floor (a bare route sending the bytes) ${fmt(rps(runs.bareBytes) / rps(runs.bare), 2)}×`,
  );
  row('10,000 URLs: bare route, constant object', runs.bareRotating);
  row('10,000 URLs: floor, a bare route on the store', runs.floorRotating);
  row('10,000 URLs: GET /itemWindow (from the store)', runs.rotating);
  // The floor's ratio is the most a server that reads its windows from SQLite reaches here.
  ratios(
    'itemWindow, 10,000 windows from the store vs bare fastify',
    runs.bareRotating,
    runs.rotating,
    0.9,
    `the floor (a bare route on the store) ${fmt(rps(runs.floorRotating) / rps(runs.bareRotating), 2)}×`,
  );
  await bare.close();
  await floor.close();

  // (b) latency: a million items, edited in the middle, against a hundred; windows from the store.
  console.log('(b) latency, 1 connection, 1,000,000-item queue (edited in the middle) vs 100-item queue');
  const started = performance.now();
  const million = (await engine.commands.run('queues.create', { name: 'Million' })) as QueueSummary;
  for (let i = 0; i < 10; i++) await engine.commands.run('queues.items.generate', { id: million.id, count: 100_000 });
  await engine.commands.run('queues.items.generate', { id: million.id, count: 50, afterItemId: 'item-500000' });
  await engine.commands.run('queues.items.move', {
    id: million.id,
    itemIds: ['item-10', 'item-999999'],
    afterItemId: 'item-500001',
  });
  await engine.commands.run('queues.items.remove', { id: million.id, itemIds: ['item-500002'] });
  console.log(`    built in ${fmt((performance.now() - started) / 1000, 1)} s`);
  const small = (await engine.commands.run('queues.create', {
    name: 'Hundred',
    items: sampleTracks(1, 100).map((track) => ({ track })),
  })) as QueueSummary;
  // 100 anchors spread evenly over each queue (as 100 players would be) × 100 window sizes:
  // 10,000 combinations per queue, more than the window cache holds, so the store answers all.
  const spread = (q: QueueSummary, anchors: (i: number) => string) =>
    Array.from({ length: 10_000 }, (_, i) => {
      const path = new URL(q.queueBaseUrl).pathname;
      return `${path}itemWindow?reason=refresh&itemId=${anchors(i)}&previousWindowSize=${i % 10}&upcomingWindowSize=${5 + (Math.floor(i / 10) % 10)}`;
    });
  const smallPaths = spread(small, (i) => `item-${1 + Math.floor(i / 100)}`);
  const bigPaths = spread(million, (i) => `item-${1 + Math.floor(i / 100) * 10_000}`);
  const latency = { small: [] as Load[], big: [] as Load[] };
  for (let round = 0; round < ROUNDS; round++) {
    latency.small.push(await load(origin, { authorization: `Bearer ${small.accessToken}` }, 1, smallPaths));
    latency.big.push(await load(origin, { authorization: `Bearer ${million.accessToken}` }, 1, bigPaths));
  }
  const line = (label: string, runs: Load[]) =>
    `    ${label} ${fmt(1e6 / rps(runs)).padStart(4)} µs per request (1 / throughput), p50 ${fmt(
      mean(runs, (l) => l.latencyP50),
      1,
    )} ms, p99 ${fmt(
      mean(runs, (l) => l.latencyP99),
      1,
    )} ms, non-2xx ${non2xx(runs)}`;
  console.log(line('100 items      ', latency.small));
  console.log(line('1,000,000 items', latency.big));
  printAim('itemWindow latency, 1,000,000 items vs 100', rps(latency.small) / rps(latency.big), '×', { atMost: 1.2 });
} finally {
  await engine.close();
}
