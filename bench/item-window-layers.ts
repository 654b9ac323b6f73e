/**
 * One cached window through each layer the console's `GET /itemWindow` adds, side by side in one
 * process (not a bench of `npm run bench`: a tool for perf-cold-windows.md's question of where a
 * cached window's cost is): `npx tsx bench/item-window-layers.ts`.
 *
 *   bare      a bare fastify route answering the window as an object (item-window.bench.ts's baseline)
 *   fastify   a bare fastify route on the console's path, sending the window's bytes
 *   service   the same route in the console's service app (its hooks, no instrument)
 *   console   the console's cloud queue server, capture off (as item-window.bench.ts measures it)
 *
 * Each prints its median rate and server CPU a response over BENCH_ROUNDS interleaved rounds of
 * BENCH_SECONDS, and its rate as a ratio of the bare route's. Servers pinned to the first core, the
 * load (bench/autocannon-client.mjs, 10 connections) to the last. Loopback only, bounded.
 */
import { createInterface } from 'node:readline';
import Fastify, { type FastifyInstance } from 'fastify';
import { createServiceApp } from '../main/engine/http/service-app.js';
import { createEngine } from '../main/engine/index.js';
import { cachedWindow } from './item-window-load.js';
import { pinServers, startLoad } from './load-client.js';
import { fmt, median } from './stats.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const clientCore = pinServers();

interface Target {
  url: string;
  headers: Record<string, string>;
}

async function listening(app: FastifyInstance, path: string, headers: Record<string, string>): Promise<Target> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}${path}`, headers };
}

/** Server CPU a response and the rate, over the measured part of one load. */
async function load(target: Target): Promise<{ cpu: number; rps: number }> {
  const client = startLoad({ ...target, connections: 10, seconds: SECONDS, announce: true }, clientCore);
  const lines = createInterface({ input: client.stdout })[Symbol.asyncIterator]();
  await lines.next(); // the warm-up is over
  const before = process.cpuUsage();
  const result = JSON.parse((await lines.next()).value as string) as {
    requests: { average: number; total: number };
    non2xx: number;
  };
  const cpu = process.cpuUsage(before);
  if (result.non2xx > 0) throw new Error(`${target.url} answered ${result.non2xx} non-2xx`);
  return { cpu: (cpu.user + cpu.system) / result.requests.total, rps: result.requests.average };
}

const engine = await createEngine({ dataDir: null, port: 0, clockSpeed: 0 });
const apps: FastifyInstance[] = [];
try {
  await engine.commands.run('traffic.configure', { capture: false });
  const { origin, path, headers, text } = await cachedWindow(engine, 'Layers');
  const window = JSON.parse(text) as object;
  const bytes = Buffer.from(text);

  const bare = Fastify({ logger: false });
  bare.get('/itemWindow', async () => window);
  const sendBytes = (app: FastifyInstance) => {
    app.get('/queues/:queueId/:version/itemWindow', (_request, reply) => {
      reply.type('application/json; charset=utf-8').send(bytes);
    });
    return app;
  };
  const fastify = sendBytes(Fastify({ logger: false }));
  const service = sendBytes(createServiceApp({ ignoreDuplicateSlashes: true }));
  apps.push(bare, fastify, service);
  const targets: Record<string, Target> = {
    bare: await listening(bare, path.slice(path.indexOf('/itemWindow')), {}),
    fastify: await listening(fastify, path, headers),
    service: await listening(service, path, headers),
    console: { url: origin + path, headers },
  };
  console.log(
    `one cached window (${fmt(bytes.length)} bytes), ${ROUNDS} rounds of ${SECONDS} s, ${clientCore ? `servers on core 0, client on core ${clientCore}` : 'not pinned'}`,
  );
  const runs: Record<string, { cpu: number; rps: number }[]> = {};
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, target] of Object.entries(targets)) (runs[name] ??= []).push(await load(target));
  const bareRate = median(runs.bare!.map((run) => run.rps));
  for (const [name, xs] of Object.entries(runs)) {
    const rps = median(xs.map((run) => run.rps));
    console.log(
      `  ${name.padEnd(8)} ${fmt(rps).padStart(7)} req/s (${fmt(rps / bareRate, 2)}× bare); ${fmt(median(xs.map((run) => run.cpu)), 1)} µs server CPU a response (rounds ${xs.map((run) => fmt(run.cpu, 1)).join(', ')})`,
    );
  }
} finally {
  await Promise.all(apps.map((app) => app.close()));
  await engine.close();
}
