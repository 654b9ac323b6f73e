/**
 * What a connection may hold of a listener before it has earned anything (connection-guard.ts):
 * its headers within a deadline, a cap on connections, `100 Continue` only for a body that will be
 * read. Shown on createServiceApp apps, the engine's only `Fastify(…)`, with short deadlines.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  HEADERS_ARRIVAL_TIMEOUT_MS,
  KEEP_ALIVE_IDLE_MS,
  MAX_CONNECTIONS,
  PENDING_BUDGET_BYTES,
  SEND_STALL_MS,
} from './connection-guard.js';
import { connectionCapOf } from './connection-cap.js';
import { MAX_PIPELINED } from './unread-answers.js';
import { createServiceApp, type ServiceAppOptions } from './service-app.js';

const apps: FastifyInstance[] = [];
/** The answers of `GET /held` waiting, each sent when called. */
const held: (() => void)[] = [];
/** An answer larger than loopback's socket buffers take: most of it waits in the process until read. */
const BIG = 16 * 1024 * 1024;
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function listening(options: ServiceAppOptions = {}): Promise<number> {
  const app = createServiceApp(options);
  app.addHook('onRequest', (request, reply, done) => {
    if (request.url.startsWith('/private') && request.headers.authorization !== 'Bearer ok')
      return void reply.code(401).send({ error: 'no token' });
    done();
  });
  app.post('/private/echo', { bodyLimit: 1_000 }, async (request) => ({ got: request.body }));
  app.get('/', async () => ({ ok: true }));
  app.get('/held', () => new Promise((resolve) => held.push(() => resolve({ held: true }))));
  app.get('/big', async (_request, reply) => reply.type('text/plain').send('x'.repeat(BIG)));
  apps.push(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as { port: number }).port;
}

interface Heard {
  text: string;
  closedAfterMs: number;
}

/** Opens a connection, lets `write` talk on it, and resolves with all it heard once closed. */
function converse(
  port: number,
  write: (socket: Socket, heard: () => string) => void,
  giveUpMs = 8_000,
): Promise<Heard> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('connect', () => write(socket, () => text));
    socket.on('error', () => undefined);
    const giveUp = setTimeout(() => socket.destroy(), giveUpMs);
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve({ text, closedAfterMs: performance.now() - started });
    });
  });
}

const statusLines = (text: string) => text.split('\r\n').filter((line) => line.startsWith('HTTP/1.1 '));

describe('headers must arrive in time', () => {
  it('closes a connection that sends nothing with a 408 at the deadline', async () => {
    const port = await listening({ headersTimeoutMs: 500 });
    const { text, closedAfterMs } = await converse(port, () => undefined);
    expect(statusLines(text)).toEqual(['HTTP/1.1 408 Request Timeout']);
    expect(closedAfterMs).toBeGreaterThan(400);
    // The deadline, and at most one look for late connections after it.
    expect(closedAfterMs).toBeLessThan(2_500);
  });

  it('closes a connection that drips a header line every 100 ms', async () => {
    const port = await listening({ headersTimeoutMs: 500 });
    let drip: NodeJS.Timeout | undefined;
    const { text, closedAfterMs } = await converse(port, (socket) => {
      socket.write('GET / HTTP/1.1\r\nhost: 127.0.0.1\r\n');
      drip = setInterval(() => socket.writable && socket.write('x-more: yes\r\n'), 100);
    });
    clearInterval(drip);
    expect(statusLines(text)).toEqual(['HTTP/1.1 408 Request Timeout']);
    expect(closedAfterMs).toBeLessThan(2_500);
  });

  it('serves a request whose headers came in time, and is 15 s on every listener', async () => {
    const port = await listening({ headersTimeoutMs: 500 });
    const { text } = await converse(port, (socket) =>
      socket.write('GET / HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n'),
    );
    expect(statusLines(text)).toEqual(['HTTP/1.1 200 OK']);
    expect(HEADERS_ARRIVAL_TIMEOUT_MS).toBe(15_000);
    expect(createServiceApp().server.headersTimeout).toBe(HEADERS_ARRIVAL_TIMEOUT_MS);
  });
});

describe('an idle kept-alive connection', () => {
  it('is let go at the keep-alive deadline, its request refused or not, and is 5 s on every listener', async () => {
    const port = await listening({ keepAliveIdleMs: 300 });
    for (const request of ['GET / HTTP/1.1', 'POST /private/echo HTTP/1.1\r\ncontent-length: 0']) {
      const { text, closedAfterMs } = await converse(port, (socket) =>
        socket.write(`${request}\r\nhost: 127.0.0.1\r\n\r\n`),
      );
      expect(statusLines(text)).toHaveLength(1);
      // Told to its client, as Node tells it.
      expect(text).toMatch(/keep-alive: timeout=\d+/i);
      // Well before the 8 s the conversation waits (fastify's own: 72 s).
      expect(closedAfterMs).toBeLessThan(4_000);
    }
    expect(createServiceApp().server.keepAliveTimeout).toBe(KEEP_ALIVE_IDLE_MS);
    expect(KEEP_ALIVE_IDLE_MS).toBe(5_000);
  });
});

describe('a listener holds at most its cap of connections', () => {
  /** A connection that has sent part of a request head and goes no further (a drip's first bytes). */
  const dripping = (port: number) =>
    new Promise<Socket>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write('GET / HTTP/1.1\r\nx-drip: ');
        setTimeout(() => resolve(socket), 20);
      });
      socket.on('error', () => undefined);
    });
  const closed = (socket: Socket) => new Promise((resolve) => socket.once('close', resolve));
  const get = (port: number, path = '/') =>
    converse(port, (socket) => socket.write(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n`));

  it('lets a client in past a flood of connections that send no whole request, closing the oldest', async () => {
    const port = await listening({ maxConnections: 3 });
    const flood: Socket[] = [];
    for (let i = 0; i < 3; i++) flood.push(await dripping(port));
    const oldestClosed = closed(flood[0]!);
    const served = await get(port);
    expect(statusLines(served.text)).toEqual(['HTTP/1.1 200 OK']);
    expect(served.closedAfterMs).toBeLessThan(1_000);
    await oldestClosed;
    expect(flood.map((socket) => socket.destroyed)).toEqual([true, false, false]);
    // A flood that reconnects as fast as it is closed still leaves the client its turn.
    for (let round = 0; round < 5; round++) {
      flood.push(await dripping(port));
      expect(statusLines((await get(port)).text)).toEqual(['HTTP/1.1 200 OK']);
    }
    for (const socket of flood) socket.destroy();
  });

  it('closes a new connection at once when every one is being answered, and takes one when one is done', async () => {
    const port = await listening({ maxConnections: 3 });
    const answering = [0, 1, 2].map(() => get(port, '/held'));
    while (held.length < 3) await new Promise((resolve) => setTimeout(resolve, 10));
    // Past the cap, with no connection to give way: closed without a word, well before any deadline.
    const refused = await get(port);
    expect(refused.text).toBe('');
    expect(refused.closedAfterMs).toBeLessThan(1_000);
    for (const answer of held.splice(0)) answer();
    const answered = await Promise.all(answering);
    expect(answered.map((heard) => statusLines(heard.text))).toEqual([
      ['HTTP/1.1 200 OK'],
      ['HTTP/1.1 200 OK'],
      ['HTTP/1.1 200 OK'],
    ]);
    expect(statusLines((await get(port)).text)).toEqual(['HTTP/1.1 200 OK']);
  });

  it('is 1,024 on every listener but the cloud queue one', () => {
    expect(connectionCapOf(createServiceApp().server)).toBe(MAX_CONNECTIONS);
  });
});

describe('Expect: 100-continue', () => {
  /** Sends a POST's headers with `Expect: 100-continue`, and its body only once told to go on. */
  const expecting = (port: number, path: string, headers: string, body: string) =>
    converse(port, (socket, heard) => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nexpect: 100-continue\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n${headers}\r\n`,
      );
      const waiting = setInterval(() => {
        if (!heard().startsWith('HTTP/1.1 100 Continue')) return;
        clearInterval(waiting);
        socket.write(body);
      }, 10);
      socket.on('close', () => clearInterval(waiting));
    });

  it('answers a request refused before its body is read without a 100 first', async () => {
    const port = await listening();
    const unauthorised = await expecting(port, '/private/echo', '', '{"a":1}');
    expect(statusLines(unauthorised.text)).toEqual(['HTTP/1.1 401 Unauthorized']);
    const missing = await expecting(port, '/nowhere', 'authorization: Bearer ok\r\n', '{"a":1}');
    expect(statusLines(missing.text)).toEqual(['HTTP/1.1 404 Not Found']);
    const tooLarge = await expecting(port, '/private/echo', 'authorization: Bearer ok\r\n', `"${'x'.repeat(2_000)}"`);
    expect(statusLines(tooLarge.text)).toEqual(['HTTP/1.1 413 Payload Too Large']);
  });

  it('tells a request whose body will be read to go on, and reads it', async () => {
    const port = await listening();
    const { text } = await expecting(port, '/private/echo', 'authorization: Bearer ok\r\n', '{"a":1}');
    expect(statusLines(text)).toEqual(['HTTP/1.1 100 Continue', 'HTTP/1.1 200 OK']);
    expect(text).toContain('{"got":{"a":1}}');
  });
});

describe('an answer must be read', () => {
  /** Asks for the big answer, reads nothing for `pauseMs`, then reads all there is: the body's bytes received. */
  async function readAfter(port: number, pauseMs: number, times = 1): Promise<number> {
    const ask = 'GET /big HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n';
    const { text } = await converse(
      port,
      (socket) => {
        socket.pause();
        socket.write(ask.repeat(times - 1) + ask.replace('\r\n\r\n', '\r\nconnection: close\r\n\r\n'));
        setTimeout(() => socket.resume(), pauseMs);
      },
      8_000,
    );
    const body = text.indexOf('\r\n\r\n');
    return body === -1 ? 0 : text.length - body - 4;
  }

  it('cuts a connection that reads nothing of its answer once it has stood still for the deadline', async () => {
    const port = await listening({ sendStallMs: 600 });
    // The deadline, and at most one look after it (every 600 ms here).
    expect(await readAfter(port, 2_000)).toBeLessThan(BIG);
  });

  it('keeps a connection whose client starts reading within the deadline, to the last byte', async () => {
    const port = await listening({ sendStallMs: 600 });
    expect(await readAfter(port, 300)).toBe(BIG);
  });

  it('cuts the connections standing still longest at once while unread answers hold more than the budget', async () => {
    // Two answers fit the budget, a third does not: the first connection, standing still longest, goes.
    const port = await listening({ sendStallMs: 60_000, pendingBudgetBytes: 2.5 * BIG });
    const first = readAfter(port, 3_000);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const later = [readAfter(port, 3_000), readAfter(port, 3_000)];
    expect(await first).toBeLessThan(BIG);
    expect(await Promise.all(later)).toEqual([BIG, BIG]);
  });

  it('counts answers waiting behind the one on the wire, and cuts a connection that pipelines too many', async () => {
    const port = await listening({ sendStallMs: 60_000, pendingBudgetBytes: 2.5 * BIG });
    // Three answers on one connection, read by nobody: over the budget once the first waits whole.
    expect(await readAfter(port, 3_000, 3)).toBeLessThan(BIG);
    const many = 'GET / HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n'.repeat(MAX_PIPELINED + 2);
    const { closedAfterMs } = await converse(port, (socket) => socket.write(many));
    expect(closedAfterMs).toBeLessThan(2_000);
  });

  it('keeps a client that reads one large answer slowly, moving within every look', async () => {
    // A look every 250 ms against a 1.2 s deadline: a look late by most of a second on a loaded
    // runner is still within it (600 ms dropped the client in a CI run with five workers).
    const port = await listening({ sendStallMs: 1_200 });
    let received = 0;
    const started = performance.now();
    await converse(
      port,
      (socket) => {
        socket.on('data', (chunk: Buffer) => (received += chunk.length));
        socket.pause();
        socket.write('GET /big HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n');
        // A moment's reading every 250 ms: the whole answer takes seconds, past the 1.2 s deadline.
        const reading = setInterval(() => {
          socket.resume();
          setTimeout(() => socket.pause(), 1);
        }, 250);
        socket.on('close', () => clearInterval(reading));
      },
      15_000,
    );
    expect(performance.now() - started).toBeGreaterThan(1_500);
    expect(received).toBeGreaterThan(BIG);
  }, 20_000);

  it('is 30 s and 256 MiB on every listener', () => {
    expect(SEND_STALL_MS).toBe(30_000);
    expect(PENDING_BUDGET_BYTES).toBe(256 * 1024 * 1024);
  });
});
