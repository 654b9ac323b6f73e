/**
 * An answer that goes out before the request's body was read closes the connection behind it
 * (docs/contract/console.md §9): a GET that takes no body, a request refused 401 or 400 before
 * its body was looked at. Kept alive, the server read and discarded whatever was declared (300 MB
 * on a GET, or sent without a token to a route that takes 128 MB from a signed-in client).
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueSummary } from '../api/queue-types.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';

const DECLARED = 300 * 1024 * 1024;

let engine: Engine;
let queue: QueueSummary;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
  queue = (await admin(engine, 'POST', '/queues', {})).body as QueueSummary;
});
afterAll(() => engine.close());

interface Ended {
  head: string;
  /** Whether the server closed the connection while the client still owed it most of the body. */
  closed: boolean;
}

/**
 * Declares DECLARED bytes, sends the first 64 KiB, and waits: a server that means to read the rest
 * keeps the connection open for it (and, were the client to send on, would read all 300 MB).
 */
function declareHuge(url: string, method: string, headers: Record<string, string> = {}): Promise<Ended> {
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let head = '';
    const lines = Object.entries({ host: `${hostname}:${port}`, ...headers, 'content-length': String(DECLARED) })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    const waited = setTimeout(() => {
      socket.destroy();
      resolve({ head, closed: false });
    }, 2_000);
    socket.on('data', (chunk) => (head += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(waited);
      resolve({ head, closed: true });
    });
    socket.write(`${method} ${pathname}${search} HTTP/1.1\r\n${lines}\r\n`);
    socket.write(Buffer.alloc(64 * 1024, 0x20));
  });
}

describe('a body no route reads, behind an answer that went out first', () => {
  it.each([
    [
      'a GET of the admin API',
      () => [`${engine.urls.console}/admin/api/state`, 'GET', { authorization: `Bearer ${engine.adminToken}` }],
    ],
    [
      'a POST to the admin API without a token (401)',
      () => [`${engine.urls.console}/admin/api/queues`, 'POST', { 'content-type': 'application/json' }],
    ],
    [
      'a GET of the control API',
      () => [`${engine.urls.control}/api/v1/households`, 'GET', { authorization: 'Bearer nope' }],
    ],
    [
      'a GET of a window',
      () => [`${queue.queueBaseUrl}itemWindow?reason=load`, 'GET', { authorization: queue.httpAuthorization }],
    ],
    [
      'a report without a token (401)',
      () => [`${queue.queueBaseUrl}timePlayed`, 'POST', { 'content-type': 'application/json' }],
    ],
    ['a GET of the login service refused 400', () => [`${engine.urls.login}/login/v3/oauth?client_id=x`, 'GET', {}]],
  ] as [string, () => [string, string, Record<string, string>]][])(
    '%s: answered, and the connection closed unread',
    async (_what, target) => {
      const [url, method, headers] = target();
      const ended = await declareHuge(url, method, headers);
      expect(ended.head).toMatch(/^HTTP\/1\.1 \d{3} /);
      expect(ended.head.toLowerCase()).toContain('connection: close');
      expect(ended.closed).toBe(true);
    },
  );
});
