/**
 * The attack: one request announces a huge body and sends it slowly. Every listener must answer a
 * path that takes no body (or less of it) before that body arrives, so nothing is buffered or
 * parsed and no other request waits behind it.
 */
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';
import { BODILESS_LIMIT, COMMAND_BODY_LIMIT } from './body-limits.js';

const HUGE = 200 * 1024 * 1024;

/** Run by another Node process: POSTs argv[2] bytes of JSON to argv[1] at full speed, prints the status. */
const FLOOD = `
const [url, size] = process.argv.slice(1);
const body = Buffer.alloc(Number(size), 0x20);
body.write('{"a":"');
body.write('"}', body.length - 2);
const req = require('node:http').request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
  console.log(String(res.statusCode));
  res.resume();
  res.on('end', () => process.exit(0));
});
req.on('error', () => { console.log('closed'); process.exit(0); });
req.end(body);
`;

interface Sent {
  status: number;
  body: string;
  /** Bytes of the body written before the answer came. */
  sentBeforeAnswer: number;
}

/**
 * Sends headers announcing `declared` bytes (or chunked), then writes a 64 KiB chunk every few
 * milliseconds, at most `maxBytes` in all, and resolves with the answer as soon as it comes.
 */
function trickle(
  url: string,
  options: { method?: string; headers?: Record<string, string>; declared?: number; maxBytes: number },
): Promise<Sent> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const headers = {
      'content-type': 'application/json',
      ...options.headers,
      ...(options.declared ? { 'content-length': String(options.declared) } : {}),
    };
    const req = httpRequest(url, { method: options.method ?? 'POST', headers }, (res) => {
      answered = true;
      const sentBeforeAnswer = sent;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body, sentBeforeAnswer });
      });
    });
    req.on('error', (error) => (answered ? undefined : reject(error)));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const write = () => {
      if (answered || req.destroyed) return;
      if (sent >= options.maxBytes) {
        if (!options.declared) req.end();
        return;
      }
      sent += chunk.length;
      req.write(chunk, () => setTimeout(write, 2));
    };
    req.flushHeaders();
    write();
  });
}

describe('request bodies no route can use', () => {
  let engine: Engine;
  const auth = () => ({ authorization: `Bearer ${engine.adminToken}` });

  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(async () => {
    await engine.close();
  });

  it('a path that does not exist is refused before the body it announces arrives, on all four listeners', async () => {
    for (const base of [engine.urls.console, engine.urls.login, engine.urls.control, engine.urls.cloudQueue]) {
      const answer = await trickle(`${base}/no/such/path`, { declared: HUGE, maxBytes: 4 * 1024 * 1024 });
      // A listener's own check may answer first (the control API's token: 401); the others say the
      // path is not there (the login service said 400, and 404 to the same path's GET: outsider).
      // None waits for the body.
      expect(answer.status, `${base} ${answer.body.slice(0, 80)}`).toBe(base === engine.urls.control ? 401 : 404);
      expect(answer.sentBeforeAnswer, base).toBeLessThan(4 * 1024 * 1024);
    }
  });

  it('an unknown admin path answers before the body arrives: the token check first, then 404', async () => {
    const anonymous = await trickle(`${engine.urls.console}/admin/api/nothing-here`, {
      declared: HUGE,
      maxBytes: 4 * 1024 * 1024,
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.sentBeforeAnswer).toBeLessThan(4 * 1024 * 1024);
    const signed = await trickle(`${engine.urls.console}/admin/api/nothing-here`, {
      headers: auth(),
      declared: HUGE,
      maxBytes: 4 * 1024 * 1024,
    });
    expect(signed.status).toBe(404);
    expect(signed.sentBeforeAnswer).toBeLessThan(4 * 1024 * 1024);
  });

  it('a command whose input the path carries whole refuses a body over a few bytes by its declared length', async () => {
    const { body } = await admin(engine, 'POST', '/queues', {
      items: [{ track: { name: 'a', mediaUrl: 'https://example.test/a.mp3' } }],
    });
    const id = (body as { id: string }).id;
    const answer = await trickle(`${engine.urls.console}/admin/api/queues/${id}/token`, {
      headers: auth(),
      declared: HUGE,
      maxBytes: 4 * 1024 * 1024,
    });
    expect(answer.status).toBe(413);
    expect(answer.sentBeforeAnswer).toBeLessThan(4 * 1024 * 1024);
  });

  it("POST /commands/<name> applies that command's limit, declared or streamed", async () => {
    const declared = await trickle(`${engine.urls.console}/admin/api/commands/clock.get`, {
      headers: auth(),
      declared: HUGE,
      maxBytes: 4 * 1024 * 1024,
    });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toMatchObject({
      error: { message: expect.stringMatching(/larger than this call takes/) },
    });

    const chunked = await trickle(`${engine.urls.console}/admin/api/commands/clock.get`, {
      headers: auth(),
      maxBytes: COMMAND_BODY_LIMIT * 3,
    });
    expect(chunked.status).toBe(413);
    expect(chunked.sentBeforeAnswer).toBeLessThan(COMMAND_BODY_LIMIT * 3);

    const unknown = await trickle(`${engine.urls.console}/admin/api/commands/no.such.command`, {
      headers: auth(),
      declared: BODILESS_LIMIT * 100,
      maxBytes: BODILESS_LIMIT * 100,
    });
    expect(unknown.status).toBe(413);
  });

  it('a 100 MB body sent at full speed to an unknown path, from another process, holds no listener up', async () => {
    // The attacker is another local process: in this one, writing 100 MB would stall the pings too.
    const attacker = spawn(process.execPath, ['-e', FLOOD, `${engine.urls.console}/flood`, String(100 * 1024 * 1024)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const finished = new Promise<string>((resolve) => {
      let said = '';
      attacker.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()));
      attacker.on('exit', () => resolve(said.trim()));
    });
    const latencies: number[] = [];
    for (let ping = 0; ping < 25; ping++) {
      const started = performance.now();
      await fetch(`${engine.urls.control}/api/v1/households`);
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(Math.max(...latencies)).toBeLessThan(250);
    expect(['404', 'closed']).toContain(await finished);
  });

  it('commands that take whole queues still take big bodies, and small ones their usual input', async () => {
    const items = Array.from({ length: 20_000 }, (_, index) => ({
      track: { name: `Track ${index} ${'x'.repeat(80)}`, mediaUrl: `https://example.test/${index}.mp3` },
    }));
    expect(JSON.stringify({ items }).length).toBeGreaterThan(COMMAND_BODY_LIMIT);
    const created = await admin(engine, 'POST', '/queues', { items });
    expect(created.status).toBe(200);
    const faults = await admin(engine, 'POST', '/faults', {
      target: 'cloudQueue',
      match: { path: '/itemWindow' },
      action: { type: 'status', status: 503 },
      times: 1,
    });
    expect(faults.status).toBeLessThan(300);
    const cleared = await fetch(`${engine.urls.console}/admin/api/commands/clock.get`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(cleared.status).toBe(200);
  });
});
