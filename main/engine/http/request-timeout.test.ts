/**
 * A request must arrive whole within REQUEST_ARRIVAL_TIMEOUT_MS (docs/contract/console.md §9): a
 * client that announces a body and sends a byte a second, with no credentials (a token request
 * may carry its client's in the body, so the login service has to read it), is answered 408 and
 * its connection closed, instead of holding a file descriptor of the one process the four
 * listeners share for as long as it likes. Shown on an app with a one-second deadline: every
 * listener's app is made by createServiceApp, the engine's only `Fastify(…)`.
 */
import { connect } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { createServiceApp, REQUEST_ARRIVAL_TIMEOUT_MS } from './service-app.js';

/** Sends a POST's headers announcing 2,000 bytes, then one byte every 200 ms; resolves with what came back and when. */
function dripBody(port: number, path: string): Promise<{ head: string; afterMs: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    let head = '';
    let drip: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: 2000\r\n\r\n`,
      );
      drip = setInterval(() => socket.writable && socket.write(' '), 200);
    });
    socket.on('data', (chunk) => (head += chunk.toString('latin1')));
    const end = () => {
      clearInterval(drip);
      resolve({ head: head.split('\r\n')[0] ?? '', afterMs: performance.now() - started });
    };
    socket.on('close', end);
    socket.on('error', () => undefined);
  });
}

describe('a request that does not arrive in time', () => {
  it('is answered 408 and closed at the deadline, however slowly it drips', async () => {
    const app = createServiceApp({ requestTimeoutMs: 1_000 });
    app.post('/form', async () => ({ ok: true }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const { head, afterMs } = await dripBody((app.server.address() as { port: number }).port, '/form');
      expect(head).toBe('HTTP/1.1 408 Request Timeout');
      // The deadline, and at most one look for late requests after it (every half deadline).
      expect(afterMs).toBeGreaterThan(900);
      expect(afterMs).toBeLessThan(3_000);
    } finally {
      await app.close();
    }
  });

  it('lets go of its deadline once its connection closes, answered before its body came', async () => {
    // A deadline no other timer of the test has: the timers armed with it are the requests' own.
    const deadlineMs = 54_321;
    const armed = vi.spyOn(globalThis, 'setTimeout');
    const cleared = vi.spyOn(globalThis, 'clearTimeout');
    const app = createServiceApp({ requestTimeoutMs: deadlineMs });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      // A path that takes no body is answered 404 before it is read, and the connection closed
      // behind it: the request has no `end` or `close` of its own. Its timer held the socket, the
      // request and the answer for the whole deadline (outsider: 1 GB of them under a flood).
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => dripBody((app.server.address() as { port: number }).port, '/nowhere')),
      );
      expect(answers.map(({ head }) => head)).toEqual(Array(5).fill('HTTP/1.1 404 Not Found'));
      await new Promise((resolve) => setImmediate(resolve));
      const deadlines = armed.mock.calls.flatMap((call, k) =>
        call[1] === deadlineMs ? [armed.mock.results[k]!.value] : [],
      );
      expect(deadlines).toHaveLength(5);
      const gone = new Set(cleared.mock.calls.map(([timer]) => timer));
      expect(deadlines.filter((timer) => !gone.has(timer))).toEqual([]);
    } finally {
      armed.mockRestore();
      cleared.mockRestore();
      await app.close();
    }
  });

  it('is 30 s on every listener: all four are createServiceApp apps (the only Fastify instance)', () => {
    expect(REQUEST_ARRIVAL_TIMEOUT_MS).toBe(30_000);
  });
});
