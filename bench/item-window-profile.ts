/**
 * The cold-window load of item-window.bench.ts on its own, for a CPU profile or an A/B of two
 * trees (not a bench: `node --cpu-prof --import tsx bench/item-window-profile.ts [--bare] [--one]`):
 * the bench's 10,000 rotating windows of a 100,000-item queue for BENCH_SECONDS, against the
 * console (or, with `--bare`, a bare fastify route answering the same window), and the process's
 * CPU per response over the measured part of the load. `--one`: one URL, the cached window.
 * CPU per response is steadier than a rate on a machine shared with other work.
 */
import { createInterface } from 'node:readline';
import Fastify from 'fastify';
import type { QueueSummary } from '../main/engine/api/queue-types.js';
import { sampleTracks } from '../main/engine/cloud-queue/samples.js';
import { createEngine } from '../main/engine/index.js';
import { COLD_QUEUE_ITEMS, coldWindowQueries, windowQuery } from './item-window-load.js';
import { startLoad } from './load-client.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const BARE = process.argv.includes('--bare');
const ONE = process.argv.includes('--one');

const engine = await createEngine({ dataDir: null, port: 0, clockSpeed: 0 });
try {
  await engine.commands.run('traffic.configure', { capture: false });
  const response = await fetch(`${engine.urls.console}/admin/api/queues`, {
    method: 'POST',
    headers: { authorization: `Bearer ${engine.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Big', items: sampleTracks(1, COLD_QUEUE_ITEMS).map((track) => ({ track })) }),
  });
  const big = (await response.json()) as QueueSummary;
  const auth = { authorization: `Bearer ${big.accessToken}`, 'x-player-id': 'bench' };
  const basePath = new URL(big.queueBaseUrl).pathname;
  const origin = new URL(big.queueBaseUrl).origin;
  const queries = ONE ? [windowQuery('item-50000')] : coldWindowQueries();
  const consolePath = (query: string) => `${basePath}itemWindow${query}`;
  const rotating = queries.map(consolePath);
  let url = origin;
  let headers: Record<string, string> = auth;
  let paths = rotating;
  const bare = Fastify({ logger: false });
  if (BARE) {
    const sample = (await (
      await fetch(origin + consolePath(windowQuery('item-50000')), { headers: auth })
    ).json()) as object;
    bare.get('/itemWindow', async () => sample);
    await bare.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;
    headers = {};
    paths = queries.map((query) => `/itemWindow${query}`);
  }
  const client = startLoad({ url, headers, connections: 10, seconds: SECONDS, paths, timeline: true });
  const lines = createInterface({ input: client.stdout })[Symbol.asyncIterator]();
  await lines.next(); // {"measuring": ...}: the warm-up is over
  const before = process.cpuUsage();
  const result = JSON.parse((await lines.next()).value as string) as {
    requests: { average: number; total: number };
    non2xx: number;
  };
  const cpu = process.cpuUsage(before);
  console.log(
    `${BARE ? 'bare' : 'console'} ${ONE ? 'one URL' : '10,000 URLs'}: ${Math.round(result.requests.average)} req/s; ` +
      `CPU ${((cpu.user + cpu.system) / result.requests.total).toFixed(1)} µs per response ` +
      `(user ${(cpu.user / result.requests.total).toFixed(1)}); non-2xx ${result.non2xx}`,
  );
  await bare.close();
} finally {
  await engine.close();
}
