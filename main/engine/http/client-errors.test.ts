/**
 * What Node's parser refuses before routing is answered in each listener's own error shape
 * (outsider: fastify's `{"error":"Request Header Fields Too Large",…}` on all four), and the
 * connection closed.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../index.js';
import { startTestEngine } from '../testing/http.js';

let engine: Engine;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
});
afterAll(() => engine.close());

/** Bytes sent as they are; what came back until the server closed. */
function raw(base: string, text: string): Promise<{ status: number; type: string; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect(Number(port), hostname, () => socket.write(text));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
        type: /\r\ncontent-type: ([^\r]+)/i.exec(head)?.[1] ?? '',
        body,
      });
    });
  });
}

const hugeHeader = (host: string) => `GET / HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`;
const badLength = (host: string) => `POST / HTTP/1.1\r\nHost: ${host}\r\nContent-Length: -1\r\n\r\n`;

describe("the parser's refusals", () => {
  it.each([
    ['console', (body: string) => expect(JSON.parse(body)).toMatchObject({ error: { code: 'invalid_input' } })],
    ['control', (body: string) => expect(JSON.parse(body)).toMatchObject({ errorCode: 'ERROR_INVALID_PARAMETER' })],
    ['cloudQueue', (body: string) => expect(JSON.parse(body)).toHaveProperty('error.message')],
    ['login', (body: string) => expect(body).toMatch(/^<!doctype html>/i)],
  ] as const)('on the %s listener are in its own shape', async (listener, shaped) => {
    const base = engine.urls[listener];
    const host = new URL(base).host;
    const tooLarge = await raw(base, hugeHeader(host));
    expect(tooLarge.status).toBe(431);
    shaped(tooLarge.body);
    expect(tooLarge.body).toContain('the request headers are larger than this server takes');
    const malformed = await raw(base, badLength(host));
    expect(malformed.status).toBe(400);
    shaped(malformed.body);
    expect(malformed.body).toContain('the request is not well-formed HTTP/1.1');
  });
});
