/**
 * The JavaScript work of one request through each layer the console's `GET /itemWindow` adds, no
 * kernel and no load client (a tool, not one of `npm run bench`'s benches):
 * `npx tsx bench/request-work.ts`.
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
 * Prints each layer's µs a request: the lowest, the lower quartile and the median of ROUNDS
 * interleaved rounds of REQUESTS requests.
 */
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { createServiceApp } from '../main/engine/http/service-app.js';
import { createEngine, type Engine } from '../main/engine/index.js';
import { cachedWindow } from './item-window-load.js';
import { fmt } from './stats.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 5_000);

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

/** One GET of `path` through the server's `request` listeners; resolves with the status once written. */
function requester(server: Server, path: string, headers: Record<string, string>): () => Promise<number> {
  const socket = new NullSocket() as unknown as Socket;
  const Response = responseClassOf(server);
  const all: Record<string, string> = { host: '127.0.0.1', ...headers };
  const rawHeaders = Object.entries(all).flat();
  return () => {
    const request = new IncomingMessage(socket);
    request.method = 'GET';
    request.url = path;
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

async function engineWith(
  capture: boolean,
): Promise<{ engine: Engine; server: Server; path: string; headers: Record<string, string>; bytes: Buffer }> {
  const engine = await createEngine({ dataDir: null, port: 0, clockSpeed: 0 });
  await engine.commands.run('traffic.configure', { capture });
  const { origin, path, headers, text } = await cachedWindow(engine, 'Request work');
  return { engine, server: serverOn(Number(new URL(origin).port)), path, headers, bytes: Buffer.from(text) };
}

const off = await engineWith(false);
const on = await engineWith(true);
const apps: FastifyInstance[] = [];
try {
  const sendBytes = (app: FastifyInstance) => {
    app.get('/queues/:queueId/:version/itemWindow', (_request, reply) => {
      reply.type('application/json; charset=utf-8').send(off.bytes);
    });
    apps.push(app);
    return app;
  };
  const fastify = sendBytes(Fastify({ logger: false }));
  const service = sendBytes(createServiceApp({ ignoreDuplicateSlashes: true }));
  await Promise.all(apps.map((app) => app.ready()));
  const layers: Record<string, () => Promise<number>> = {
    fastify: requester(fastify.server, off.path, off.headers),
    service: requester(service.server, off.path, off.headers),
    console: requester(off.server, off.path, off.headers),
    capture: requester(on.server, on.path, on.headers),
  };
  for (const [name, send] of Object.entries(layers)) {
    const status = await send();
    if (status !== 200) throw new Error(`${name} answered ${status}`);
  }
  console.log(
    `the JS work of one cached window (${fmt(off.bytes.length)} bytes): ${ROUNDS} rounds of ${fmt(REQUESTS)} requests`,
  );
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
  await off.engine.close();
  await on.engine.close();
}
