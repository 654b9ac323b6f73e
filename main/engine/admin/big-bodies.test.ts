/**
 * Large admin bodies are read two at a time, all routes together (docs/contract/console.md §9): a
 * third is answered 503 with Retry-After before a byte of it is read, while small calls go on; a
 * slot comes back when a large call's connection ends. Six valid 100 MB queue creates at once took
 * the console past 2 GB without it.
 */
import { request as httpRequest, type ClientRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';
import { BIG_BODIES_AT_ONCE, BIG_BODY_BYTES, BIG_BODY_RETRY_AFTER_S } from './big-bodies.js';

let engine: Engine;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
});
afterAll(() => engine.close());

/** A POST /queues announcing 20 MB and sending its first 64 KiB: held open, reading, until `abort`. */
function bigUpload(): { request: ClientRequest; answer: Promise<{ status: number; retryAfter?: string }> } {
  const url = new URL(`${engine.urls.console}/admin/api/queues`);
  let request!: ClientRequest;
  const answer = new Promise<{ status: number; retryAfter?: string }>((resolve) => {
    request = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${engine.adminToken}`,
          'content-type': 'application/json',
          'content-length': String(20 * BIG_BODY_BYTES),
        },
      },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'] });
      },
    );
    request.on('error', () => resolve({ status: 0 }));
    request.write(Buffer.alloc(64 * 1024, 0x20));
  });
  return { request, answer };
}

describe('large admin bodies', () => {
  it(`are read ${BIG_BODIES_AT_ONCE} at a time: another waits its turn with a 503, small calls go on`, async () => {
    const held = Array.from({ length: BIG_BODIES_AT_ONCE }, bigUpload);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refused = bigUpload();
    expect(await refused.answer).toEqual({ status: 503, retryAfter: String(BIG_BODY_RETRY_AFTER_S) });
    expect((await admin(engine, 'GET', '/state')).status).toBe(200);
    expect((await admin(engine, 'POST', '/queues', { name: 'small' })).status).toBe(200);
    // A held upload gone: its slot comes back.
    held[0]!.request.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const next = bigUpload();
    const early = await Promise.race([
      next.answer,
      new Promise((resolve) => setTimeout(() => resolve('reading'), 300)),
    ]);
    expect(early).toBe('reading');
    for (const upload of [...held, next, refused]) upload.request.destroy();
  });
});
