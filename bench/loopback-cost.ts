/**
 * What a microsecond of a server's own work costs a response over loopback on this machine (not a
 * bench of `npm run bench`: a tool for reading the HTTP benches' ratios, perf-cold-windows.md's
 * ninth round): `npx tsx bench/loopback-cost.ts`.
 *
 * A bare fastify route sends the same 1.8 kB of JSON bytes (a window of 16 items) to 10
 * connections, after a busy wait of 0, 10, 20, 30 and 40 µs on each request. Each prints its
 * rate, the server's CPU a response, and what that CPU grew by beyond the wait itself. On a
 * machine where a slower server leaves its client idle between answers, each answer costs the
 * kernel more (waking the client), so a µs saved in JavaScript saves more than a µs of the
 * server's CPU over HTTP: the excess says how much more.
 *
 * Server pinned to the first core, load (bench/autocannon-client.mjs) to the last, rounds
 * interleaved. Loopback only, bounded.
 */
import { createInterface } from 'node:readline';
import Fastify from 'fastify';
import { pinServers, startLoad } from './load-client.js';
import { fmt, median } from './stats.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WAITS_US = [0, 10, 20, 30, 40];
const clientCore = pinServers();

/** A window's worth of JSON: 16 items of about 110 bytes. */
const body = Buffer.from(
  JSON.stringify({
    includesBeginningOfQueue: false,
    includesEndOfQueue: false,
    items: Array.from({ length: 16 }, (_, i) => ({
      id: `item-${i}`,
      track: { name: `Track ${i}`, mediaUrl: `https://media.example/${i}.mp3`, durationMillis: 216_000 },
    })),
  }),
);

/** Busy for `micros` of wall time (the server is alone on its core, so CPU time too). */
function busy(micros: number): void {
  const until = performance.now() + micros / 1000;
  while (performance.now() < until);
}

let waitUs = 0;
const app = Fastify({ logger: false });
app.get('/itemWindow', (_request, reply) => {
  if (waitUs > 0) busy(waitUs);
  reply.type('application/json; charset=utf-8').send(body);
});
await app.listen({ host: '127.0.0.1', port: 0 });
const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/itemWindow`;

async function load(): Promise<{ cpu: number; rps: number }> {
  const client = startLoad({ url, connections: 10, seconds: SECONDS, announce: true }, clientCore);
  const lines = createInterface({ input: client.stdout })[Symbol.asyncIterator]();
  await lines.next(); // the warm-up is over
  const before = process.cpuUsage();
  const result = JSON.parse((await lines.next()).value as string) as { requests: { average: number; total: number } };
  const cpu = process.cpuUsage(before);
  return { cpu: (cpu.user + cpu.system) / result.requests.total, rps: result.requests.average };
}

try {
  console.log(
    `a bare route sending ${fmt(body.length)} bytes after a busy wait, ${ROUNDS} rounds of ${SECONDS} s, ` +
      `server on core 0, client on core ${clientCore ?? '(any)'}`,
  );
  const runs = new Map<number, { cpu: number; rps: number }[]>(WAITS_US.map((wait) => [wait, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const wait of WAITS_US) {
      waitUs = wait;
      runs.get(wait)!.push(await load());
    }
  const cpuAt = (wait: number) => median(runs.get(wait)!.map((run) => run.cpu));
  const base = cpuAt(0);
  for (const wait of WAITS_US) {
    const cpu = cpuAt(wait);
    const rps = median(runs.get(wait)!.map((run) => run.rps));
    const excess =
      wait === 0 ? '' : `; beyond the wait ${fmt(cpu - base - wait, 1)} µs (${fmt((cpu - base) / wait, 2)}× the wait)`;
    console.log(
      `  wait ${String(wait).padStart(2)} µs: ${fmt(Math.round(rps))} req/s, ${fmt(cpu, 1)} µs server CPU a response${excess}`,
    );
  }
} finally {
  await app.close();
}
