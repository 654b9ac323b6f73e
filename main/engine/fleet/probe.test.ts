import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { probeServer } from './queues.js';

/** Ports fetch refuses without connecting (the WHATWG "bad ports"); a server may still listen there. */
const BAD_PORTS = [10080, 6000, 6665, 6666, 6667, 6668, 6669, 6697, 5060, 5061, 4045];

let server: Server | null = null;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** Listens on the first bad port free on this machine. */
async function listenOnABadPort(): Promise<number> {
  for (const port of BAD_PORTS) {
    const candidate = createServer((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    const ok = await new Promise<boolean>((resolve) => {
      candidate.once('error', () => resolve(false));
      candidate.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (ok) {
      server = candidate;
      return port;
    }
  }
  throw new Error(`every one of ${BAD_PORTS.join(', ')} is taken on this machine`);
}

describe("the fleet's reachability probe", () => {
  it('reaches a server on a port fetch refuses', async () => {
    const port = await listenOnABadPort();
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
    expect(await probeServer(`http://127.0.0.1:${port}/q/`, undefined)).toBeNull();
  });

  it('names why a server cannot be reached', async () => {
    const closed = createServer();
    const port = await new Promise<number>((resolve) =>
      closed.listen(0, '127.0.0.1', () => resolve((closed.address() as { port: number }).port)),
    );
    await new Promise((resolve) => closed.close(resolve));
    expect(await probeServer(`http://127.0.0.1:${port}/q/`, undefined)).toBe(
      `the server at http://127.0.0.1:${port} cannot be reached: ECONNREFUSED on GET /q/version (asked of player 1's server before any player starts)`,
    );
  });

  it('names the request a server left unanswered: its other endpoints may well answer (audit)', async () => {
    server = createServer((req, res) => {
      if (!req.url?.endsWith('/version')) res.end('{}');
    });
    const port = await new Promise<number>((resolve) =>
      server!.listen(0, '127.0.0.1', () => resolve((server!.address() as { port: number }).port)),
    );
    expect(await probeServer(`http://127.0.0.1:${port}/q/`, undefined, 300)).toBe(
      `the server at http://127.0.0.1:${port} cannot be reached: no answer to GET /q/version within 0.3 s (asked of player 1's server before any player starts)`,
    );
    server.closeAllConnections();
  });

  it('takes an answer that began as an answer, and ends its wait at the deadline whatever trickles in (audit)', async () => {
    const trickles: NodeJS.Timeout[] = [];
    const answers: Record<string, (socket: Socket) => void> = {
      // A status line, then a header line every 50 ms, forever: an idle timeout never fires.
      trickle: (socket) => {
        socket.write('HTTP/1.1 200 OK\r\n');
        trickles.push(setInterval(() => socket.write('x-more: 1\r\n'), 50));
      },
      broken: (socket) => socket.end('HTTP/1.1 abc\r\n\r\n'),
      switched: (socket) =>
        socket.write('HTTP/1.1 101 Switching Protocols\r\nupgrade: h2c\r\nconnection: upgrade\r\n\r\nxx'),
      'not HTTP': (socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n'),
    };
    const raw = createNetServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', () => answers[mode]!(socket));
    });
    let mode = 'trickle';
    const port = await new Promise<number>((resolve) =>
      raw.listen(0, '127.0.0.1', () => resolve((raw.address() as { port: number }).port)),
    );
    try {
      const started = performance.now();
      expect(await probeServer(`http://127.0.0.1:${port}/q/`, undefined, 500)).toBeNull();
      expect(performance.now() - started).toBeLessThan(2_000);
      mode = 'broken';
      expect(await probeServer(`http://127.0.0.1:${port}/q/`, undefined, 500)).toBeNull();
      // A 101 is an answer, as for check (audit z1-6): the fleet starts, its players fail on it.
      mode = 'switched';
      expect(await probeServer(`http://127.0.0.1:${port}/q/`, undefined, 500)).toBeNull();
      mode = 'not HTTP';
      expect(await probeServer(`http://127.0.0.1:${port}/q/`, undefined, 500)).toMatch(
        /cannot be reached: HPE_INVALID_CONSTANT on GET \/q\/version/,
      );
    } finally {
      trickles.forEach(clearInterval);
      await new Promise((resolve) => raw.close(resolve));
    }
  });
});
