/**
 * The JavaScript work of one request through each layer the console's `GET /itemWindow` adds, no
 * kernel and no load client (a tool, not one of `npm run bench`'s benches):
 * `npx tsx bench/request-work.ts [--cold]`.
 *
 * Each request is a real IncomingMessage and ServerResponse on a socket that takes what it is
 * written and sends nothing, handed to the server's own `request` listeners (as node's parser
 * hands it), awaited to its `finish`, one after another. Over loopback under load a layer's cost
 * moves by ±6 µs from round to round (perf-cold-windows.md); here by 1–2 µs, so a change of a µs
 * or two can be read, in a minute. Under load each layer costs about twice what it costs here
 * (the kernel's work between two requests leaves less of the code and data in the CPU's caches).
 *
 *   fastify   a bare fastify route on the console's path, sending the window's bytes
 *   service   the same route in the console's service app (its hooks and headers, no instrument)
 *   console   the console's cloud queue server, capture off, one cached window
 *   capture   the same with capture on
 *
 * With `--cold`, the cold window instead: 10,000 windows of a 100,000-item queue in turn, more
 * than the window cache keeps, each read from the store (item-window.bench.ts's load):
 *
 *   floor     a bare fastify route on the console's table (item-window-floor.ts)
 *   console   the console's cloud queue server, capture off
 *   capture   the same with capture on
 *
 * Prints each layer's µs a request: the lowest, the lower quartile and the median of ROUNDS
 * interleaved rounds of REQUESTS requests.
 */
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { createServiceApp } from '../main/engine/http/service-app.js';
import type { QueueSummary } from '../main/engine/api/queue-types.js';
import { itemJson } from '../main/engine/cloud-queue/item-rows.js';
import { sampleTracks } from '../main/engine/cloud-queue/samples.js';
import { createEngine, type Engine } from '../main/engine/index.js';
import { itemIdOf } from '../main/engine/store/repositories/queue-items.js';
import { startWindowFloor } from './item-window-floor.js';
import { cachedWindow, COLD_QUEUE_ITEMS, coldWindowQueries } from './item-window-load.js';
import { fmt } from './stats.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 5_000);
const COLD = process.argv.includes('--cold');

/** Takes whatever a response writes; the server never learns there is no peer. */
class NullSocket extends Writable {
  override _write(_chunk: unknown, _encoding: BufferEncoding, done: () => void): void {
    done();
  }
  override _writev(_chunks: unknown[], done: () => void): void {
    done();
  }
}

/** The response class the server was made with (the service app's adds security headers). */
function responseClassOf(server: Server): typeof ServerResponse {
  const key = Object.getOwnPropertySymbols(server).find((symbol) => symbol.description === 'ServerResponse');
  return (key && (server as unknown as Record<symbol, typeof ServerResponse>)[key]) || ServerResponse;
}

/** One GET through the server's `request` listeners, of each of `paths` in turn; resolves with the status once written. */
function requester(server: Server, paths: readonly string[], headers: Record<string, string>): () => Promise<number> {
  const socket = new NullSocket() as unknown as Socket;
  const Response = responseClassOf(server);
  const all: Record<string, string> = { host: '127.0.0.1', ...headers };
  const rawHeaders = Object.entries(all).flat();
  let next = 0;
  return () => {
    const request = new IncomingMessage(socket);
    request.method = 'GET';
    request.url = paths[next++ % paths.length]!;
    request.httpVersionMajor = request.httpVersionMinor = 1;
    request.httpVersion = '1.1';
    request.rawHeaders = rawHeaders.slice();
    request.headers = { ...all };
    request.complete = true;
    request.push(null);
    const response = new Response(request);
    response.shouldKeepAlive = true;
    response.assignSocket(socket);
    return new Promise((resolve) => {
      response.on('finish', () => {
        response.detachSocket(socket);
        resolve(response.statusCode);
      });
      server.emit('request', request, response);
    });
  };
}

async function microsEach(send: () => Promise<number>): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < REQUESTS; i++) await send();
  return Number(process.hrtime.bigint() - started) / REQUESTS / 1_000;
}

/** The listening server of the engine's cloud queue (the engine does not hand its apps out). */
function serverOn(port: number): Server {
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  const found = handles.find(
    (handle): handle is Server => handle instanceof Server && (handle.address() as AddressInfo | null)?.port === port,
  );
  if (!found) throw new Error(`no server listening on ${port}`);
  return found;
}

interface Served {
  engine: Engine;
  server: Server;
  paths: string[];
  headers: Record<string, string>;
  /** The answer to the first path, as sent. */
  text: string;
}

async function engineWith(capture: boolean): Promise<Served> {
  const engine = await createEngine({ dataDir: null, port: 0, clockSpeed: 0 });
  await engine.commands.run('traffic.configure', { capture });
  if (COLD) {
    const queue = (await engine.commands.run('queues.create', {
      name: 'Request work, cold',
      items: sampleTracks(1, COLD_QUEUE_ITEMS).map((track) => ({ track })),
    })) as QueueSummary;
    const base = new URL(queue.queueBaseUrl);
    const headers = { authorization: `Bearer ${queue.accessToken}`, 'x-player-id': 'bench' };
    const paths = coldWindowQueries().map((query) => `${base.pathname}itemWindow${query}`);
    const text = await (await fetch(base.origin + paths[0]!, { headers })).text();
    return { engine, server: serverOn(Number(base.port)), paths, headers, text };
  }
  const { origin, path, headers, text } = await cachedWindow(engine, 'Request work');
  return { engine, server: serverOn(Number(new URL(origin).port)), paths: [path], headers, text };
}

const off = await engineWith(false);
const on = await engineWith(true);
const apps: FastifyInstance[] = [];
const closers: (() => Promise<void>)[] = [];
try {
  const layers: Record<string, () => Promise<number>> = {};
  if (COLD) {
    const versions = JSON.parse(off.text) as { contextVersion: string; queueVersion: string };
    const floor = await startWindowFloor(
      sampleTracks(1, COLD_QUEUE_ITEMS).map((track, i) => itemJson(itemIdOf(i + 1), track, undefined)),
      versions,
    );
    closers.push(() => floor.close());
    const { pathname, port } = new URL(floor.url);
    const floorPaths = coldWindowQueries().map((query) => pathname + query);
    const floorText = await (await fetch(`http://127.0.0.1:${port}${floorPaths[0]}`)).text();
    if (floorText !== off.text) throw new Error("the floor does not answer the console's window byte for byte");
    layers.floor = requester(serverOn(Number(port)), floorPaths, {});
  } else {
    const bytes = Buffer.from(off.text);
    const sendBytes = (app: FastifyInstance) => {
      app.get('/queues/:queueId/:version/itemWindow', (_request, reply) => {
        reply.type('application/json; charset=utf-8').send(bytes);
      });
      apps.push(app);
      return app;
    };
    const fastify = sendBytes(Fastify({ logger: false }));
    const service = sendBytes(createServiceApp({ ignoreDuplicateSlashes: true }));
    await Promise.all(apps.map((app) => app.ready()));
    layers.fastify = requester(fastify.server, off.paths, off.headers);
    layers.service = requester(service.server, off.paths, off.headers);
  }
  layers.console = requester(off.server, off.paths, off.headers);
  layers.capture = requester(on.server, on.paths, on.headers);
  for (const [name, send] of Object.entries(layers)) {
    const status = await send();
    if (status !== 200) throw new Error(`${name} answered ${status}`);
  }
  const what = COLD
    ? `a cold window (10,000 windows of a ${fmt(COLD_QUEUE_ITEMS)}-item queue in turn, the first ${fmt(Buffer.byteLength(off.text))} bytes)`
    : `one cached window (${fmt(Buffer.byteLength(off.text))} bytes)`;
  console.log(`the JS work of ${what}: ${ROUNDS} rounds of ${fmt(REQUESTS)} requests`);
  const rounds: Record<string, number[]> = {};
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, send] of Object.entries(layers)) (rounds[name] ??= []).push(await microsEach(send));
  for (const [name, xs] of Object.entries(rounds)) {
    xs.sort((a, b) => a - b);
    const at = (q: number) => fmt(xs[Math.floor(q * (xs.length - 1))]!, 2);
    console.log(
      `  ${name.padEnd(8)} lowest ${at(0)} µs, lower quartile ${at(0.25)} µs, median ${at(0.5)} µs a request`,
    );
  }
} finally {
  await Promise.all(apps.map((app) => app.close()));
  await Promise.all(closers.map((close) => close()));
  await off.engine.close();
  await on.engine.close();
}
