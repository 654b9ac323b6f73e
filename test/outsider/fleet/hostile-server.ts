/**
 * Cloud queue servers that misbehave at the transport level, the way a broken deployment, a proxy
 * or an attacker might: the fleet must count them as failed requests and still end on time, in
 * bounded memory. `/version` answers well unless `everywhere` is set, so the fleet's first request
 * (docs/fleet.md: player 1's `GET {BASE_URL}version` decides whether the server can be reached)
 * succeeds and the players really meet the hostile answers.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Hostility =
  /** Accepts the connection and the request, never answers. */
  | 'silent'
  /** Answers correctly, 15 s (wall) late. */
  | 'slow'
  /** Sends headers, then a correct body one byte a second. */
  | 'trickle'
  /** A 200 whose JSON body is streamed for 2 GB. */
  | 'huge'
  /** A 200 whose body is not JSON. */
  | 'malformed'
  /** A 200 whose body is JSON nested 100,000 arrays deep. */
  | 'deep'
  /** A 200 with an HTML page, `text/html`. */
  | 'html'
  /** Resets the connection as soon as the request arrives. */
  | 'reset'
  /** A 302 to itself, forever. */
  | 'redirect-loop'
  /** Promises 4,000 bytes and closes after 100. */
  | 'close-mid-body';

export interface HostileServer {
  readonly url: string;
  /** Requests that reached the server, by endpoint. */
  readonly seen: Record<string, number>;
  /** Bytes the server managed to write for `huge` (what the client read, give or take buffers). */
  readonly bytesWritten: () => number;
  close(): Promise<void>;
}

const TWO_GB = 2 * 1024 ** 3;
const CHUNK = Buffer.alloc(64 * 1024, 'a');

const GOOD: Record<string, unknown> = {
  version: { queueVersion: '1', contextVersion: '1' },
  context: {
    contextVersion: '1',
    queueVersion: '1',
    container: {
      name: 'Hostile',
      type: 'playlist',
      id: { objectId: 'hostile' },
      imageUrl: 'https://media.example.com/h.jpg',
    },
    reports: { sendUpdateAfterMillis: 10_000, periodicIntervalMillis: 10_000, sendPlaybackActions: true },
    playbackPolicies: { canSkip: true, limitedSkips: false, canSeek: true, notifyUserIntent: false, pauseTtlSec: 3600 },
  },
  itemWindow: {
    includesBeginningOfQueue: true,
    includesEndOfQueue: true,
    contextVersion: '1',
    queueVersion: '1',
    items: [
      {
        id: 'item-1',
        track: {
          name: 'Hostile 1',
          mediaUrl: 'https://media.example.com/h/1.mp3',
          contentType: 'audio/mpeg',
          durationMillis: 30_000,
        },
      },
    ],
  },
};

export interface HostileOptions {
  /** /version misbehaves too, so the fleet's first request fails. */
  readonly everywhere?: boolean;
  /** Only these endpoints misbehave (say `['itemWindow']`); the others answer well. */
  readonly only?: readonly string[];
}

export async function startHostileServer(mode: Hostility, options: HostileOptions = {}): Promise<HostileServer> {
  const seen: Record<string, number> = {};
  const timers = new Set<NodeJS.Timeout>();
  let written = 0;
  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
    return timer;
  };

  const good = (endpoint: string, res: ServerResponse) => {
    if (endpoint === 'timePlayed') {
      res.writeHead(204).end();
      return;
    }
    const text = JSON.stringify(GOOD[endpoint] ?? {});
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
  };

  const hostile = (endpoint: string, req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify(GOOD[endpoint] ?? {});
    switch (mode) {
      case 'silent':
        return; // the socket stays open until the client gives up or the server closes
      case 'slow':
        later(15_000, () => good(endpoint, res));
        return;
      case 'trickle': {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        let at = 0;
        const drip = () => {
          if (res.destroyed || at >= body.length) return void res.end();
          res.write(body[at]);
          at += 1;
          later(1000, drip);
        };
        drip();
        return;
      }
      case 'huge': {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"items":[],"padding":"');
        const pump = () => {
          while (written < TWO_GB && !res.destroyed) {
            written += CHUNK.length;
            if (!res.write(CHUNK)) return void res.once('drain', pump);
          }
          if (!res.destroyed) res.end('"}');
        };
        res.on('close', () => res.removeAllListeners('drain'));
        pump();
        return;
      }
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"items": [ {"id": "item-1", ');
        return;
      case 'deep': {
        const depth = 100_000;
        res.writeHead(200, { 'content-type': 'application/json' }).end('['.repeat(depth) + ']'.repeat(depth));
        return;
      }
      case 'html':
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<!doctype html><html><body><h1>Welcome to nginx!</h1></body></html>');
        return;
      case 'reset':
        req.socket.resetAndDestroy();
        return;
      case 'redirect-loop':
        res.writeHead(302, { location: req.url ?? '/' }).end();
        return;
      case 'close-mid-body':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 4000 });
        res.write(body.padEnd(100, ' ').slice(0, 100));
        later(50, () => req.socket.destroy());
        return;
    }
  };

  const server = createServer((req, res) => {
    const endpoint = new URL(req.url ?? '/', 'http://127.0.0.1').pathname.split('/').filter(Boolean).at(-1) ?? '';
    seen[endpoint] = (seen[endpoint] ?? 0) + 1;
    req.resume(); // drain report bodies; a hostile server does not care what it was sent
    const spared = options.only ? !options.only.includes(endpoint) : endpoint === 'version' && !options.everywhere;
    if (spared) good(endpoint, res);
    else hostile(endpoint, req, res);
  });
  // Sockets a silent server holds must not keep the server open past the test.
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    bytesWritten: () => written,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
