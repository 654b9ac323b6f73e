/**
 * Request bodies read for the log beside the route's own reader (body-tap.ts): every chunk to
 * both, however the body comes (at once, chunked with pauses, through a route's own stream), and
 * a body the route never reads leaves its connection fit for the next request.
 */
import { Agent } from 'node:http';
import { PassThrough, Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TrafficEntry } from '../api/traffic-types.js';
import type { Engine } from '../index.js';
import { admin, rawRequest, startTestEngine } from '../testing/http.js';
import { tapBody } from './body-tap.js';
import { MAX_BODY_BYTES } from './cut.js';

describe('tapping a body stream', () => {
  const tapped = (payload: Readable) => {
    let seen: { text: string; size: number } | null = null;
    const stream = tapBody(payload, (kept, size) => (seen = { text: kept.toString('utf8'), size }));
    return { stream, seen: () => seen };
  };

  it('reads a stream nobody reads yet beside its reader, without a stream of its own', async () => {
    const payload = new PassThrough();
    const { stream, seen } = tapped(payload);
    expect(stream).toBe(payload);
    // Paused: what arrives before the reader starts waits for it, and reaches both.
    payload.write('{"a":');
    await sleep(5);
    expect(seen()).toBeNull();
    const read: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => read.push(chunk));
    stream.resume();
    payload.end('1}');
    await new Promise((done) => stream.once('end', done));
    expect(Buffer.concat(read).toString()).toBe('{"a":1}');
    expect(seen()).toEqual({ text: '{"a":1}', size: 7 });
  });

  it('taps a stream someone already reads through a stream of its own', async () => {
    const payload = new PassThrough();
    const early: Buffer[] = [];
    payload.on('data', (chunk: Buffer) => early.push(chunk));
    const { stream, seen } = tapped(payload);
    expect(stream).not.toBe(payload);
    const read: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => read.push(chunk));
    payload.end('body');
    await new Promise((done) => stream.once('end', done));
    expect([Buffer.concat(early).toString(), Buffer.concat(read).toString(), seen()]).toEqual([
      'body',
      'body',
      { text: 'body', size: 4 },
    ]);
  });

  it('keeps the first bytes of a large body and its whole size', async () => {
    const { stream, seen } = tapped(Readable.from([Buffer.alloc(MAX_BODY_BYTES, 'a'), Buffer.alloc(1_000, 'b')]));
    stream.resume();
    await new Promise((done) => stream.once('end', done));
    expect(seen()!.size).toBe(MAX_BODY_BYTES + 1_000);
    expect(seen()!.text.startsWith('a'.repeat(MAX_BODY_BYTES))).toBe(true);
  });
});

describe('bodies at the listeners', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());
  beforeEach(async () => {
    await admin(engine, 'DELETE', '/traffic');
  });

  /** A POST whose body is written in `parts`, a pause between each: the route reads it as it comes. */
  const post = (url: string, headers: Record<string, string>, parts: string[], agent?: Agent) =>
    rawRequest(url, { method: 'POST', headers, body: parts, between: () => sleep(20), ...(agent ? { agent } : {}) });
  const logged = async (requestId: string) =>
    ((await admin(engine, 'GET', `/traffic?requestId=${requestId}`)).body as TrafficEntry[])[0]!;

  it('logs a chunked body a route reads through its own stream (an admin command), and the route gets it whole', async () => {
    const headers = {
      authorization: `Bearer ${engine.adminToken}`,
      'content-type': 'application/json',
      'x-request-id': 'chunked-admin',
    };
    const answer = await post(`${engine.urls.console}/admin/api/commands/clock.set`, headers, [
      '{"spe',
      'ed": 2',
      '.5}',
    ]);
    expect(answer.status).toBe(200);
    expect((await admin(engine, 'GET', '/clock')).body).toMatchObject({ speed: 2.5 });
    // (Reads show a JSON body compact: redaction on read parses it.)
    expect(JSON.parse((await logged('chunked-admin')).requestBody!)).toEqual({ speed: 2.5 });
  });

  it('logs a form body the login service parses, sent in parts', async () => {
    const answer = await post(
      `${engine.urls.login}/login/v3/oauth/access`,
      { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'form-parts' },
      ['grant_type=authori', 'zation_code&code=nope'],
    );
    expect(answer.status).toBe(401);
    // As it came: not the parsed form written as JSON.
    expect((await logged('form-parts')).requestBody).toBe('grant_type=authorization_code&code=nope');
  });

  it('leaves a kept-alive connection fit for the next request after a body its route refused unread', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const headers = { authorization: `Bearer ${engine.adminToken}`, 'content-type': 'application/x-unknown' };
      const refused = await post(
        `${engine.urls.console}/admin/api/commands/clock.get`,
        headers,
        ['not ', 'read'],
        agent,
      );
      expect(refused.status).toBe(415);
      const next = await post(
        `${engine.urls.console}/admin/api/commands/clock.get`,
        { ...headers, 'content-type': 'application/json', 'x-request-id': 'after-unread' },
        ['{}'],
        agent,
      );
      expect(next.status).toBe(200);
      expect((await logged('after-unread')).requestBody).toBe('{}');
    } finally {
      agent.destroy();
    }
  });
});
