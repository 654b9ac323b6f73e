import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../index.js';
import { admin, rawRequest, startTestEngine } from '../testing/http.js';

let engine: Engine;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
});
afterAll(() => engine.close());

describe('admin API (docs/contract/console.md §7)', () => {
  it('answers 401 without the admin token', async () => {
    const response = await fetch(`${engine.urls.console}/admin/api/state`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('answers 403 to a foreign Host header, with or without the token', async () => {
    const url = `${engine.urls.console}/admin/api/state`;
    const headers = { host: 'evil.example', authorization: `Bearer ${engine.adminToken}` };
    expect((await rawRequest(url, { headers })).status).toBe(403);
    expect((await rawRequest(url, { headers: { host: 'evil.example' } })).status).toBe(403);
    // The console page itself is guarded the same way: it carries the token.
    expect((await rawRequest(`${engine.urls.console}/`, { headers: { host: 'evil.example' } })).status).toBe(403);
  });

  it('answers 403 to a cross-site Origin', async () => {
    const response = await fetch(`${engine.urls.console}/admin/api/state`, {
      headers: { authorization: `Bearer ${engine.adminToken}`, origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: { code: 'forbidden', message: expect.any(String) } });
  });

  it('GET /state shows clock, the four URLs and the seeded household', async () => {
    const { status, body } = await admin(engine, 'GET', '/state');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      urls: engine.urls,
      dataDir: null,
      households: [{ name: 'Demo Household' }],
      clock: { speed: 0 },
    });
    expect((body as { players: unknown[] }).players).toHaveLength(3);
  });

  it('GET/POST /clock reads, stops and advances engine time by exactly the amount', async () => {
    const before = (await admin(engine, 'GET', '/clock')).body as { now: number; speed: number };
    expect(before.speed).toBe(0);
    const after = await admin(engine, 'POST', '/clock', { advanceMs: 3_600_000 });
    expect(after).toEqual({ status: 200, body: { now: before.now + 3_600_000, speed: 0 } });
    expect((await admin(engine, 'POST', '/clock', { speed: 60 })).body).toMatchObject({ speed: 60 });
    expect((await admin(engine, 'POST', '/clock', { speed: 0 })).body).toMatchObject({ speed: 0 });
  });

  it('rejects bad clock input with 400 and changes nothing', async () => {
    const before = (await admin(engine, 'GET', '/clock')).body;
    const { status, body } = await admin(engine, 'POST', '/clock', { speed: -1 });
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: { code: 'invalid_input', message: expect.stringContaining('/speed') } });
    expect((await admin(engine, 'GET', '/clock')).body).toEqual(before);
  });

  it('says a query field given twice is given twice, where the call takes one (outsider: "must be integer")', async () => {
    const { status, body } = await admin(engine, 'GET', '/traffic?limit=1&limit=2');
    expect(status).toBe(400);
    expect(body).toEqual({
      error: { code: 'invalid_input', message: 'limit is given 2 times in the query ("1", "2"): give it once' },
    });
    expect((await admin(engine, 'GET', '/traffic?limit=1')).status).toBe(200);
  });

  it('refuses a JSON body that is not UTF-8, and makes nothing of it (outsider: stored with U+FFFD)', async () => {
    const before = ((await admin(engine, 'GET', '/queues')).body as unknown[]).length;
    const answer = await fetch(`${engine.urls.console}/admin/api/queues`, {
      method: 'POST',
      headers: { authorization: `Bearer ${engine.adminToken}`, 'content-type': 'application/json' },
      body: Buffer.concat([Buffer.from('{"name":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('b"}')]),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      error: {
        code: 'invalid_input',
        message: 'the JSON body is not UTF-8 text (RFC 8259 §8.1): save or send it as UTF-8',
      },
    });
    expect(((await admin(engine, 'GET', '/queues')).body as unknown[]).length).toBe(before);
    // Whatever UTF-8 holds is taken, a lone surrogate's escape and a NUL among it.
    expect((await admin(engine, 'POST', '/queues', { name: 'é \ud800 \u0000 😀' })).status).toBe(200);
  });

  it('takes a number in the query or the path only as written in decimals (verification: 0x10 read as 16, 1.5 as 1)', async () => {
    for (const [path, field, given] of [
      ['/traffic?limit=0x10', 'limit', '0x10'],
      ['/traffic?limit=1e1', 'limit', '1e1'],
      ['/traffic?limit=1.5', 'limit', '1.5'],
      ['/traffic?limit=%201', 'limit', ' 1'],
      ['/traffic/0x1', 'id', '0x1'],
    ] as const) {
      const { status, body } = await admin(engine, 'GET', path);
      expect([status, body], path).toEqual([
        400,
        {
          error: {
            code: 'invalid_input',
            message: `${field} must be a whole number written in decimals, got ${JSON.stringify(given)}`,
          },
        },
      ]);
    }
  });

  it('takes a JSON content type with no body, and answers bad bodies and unknown calls in its own error shape', async () => {
    const send = (method: string, path: string, body?: string, token = engine.adminToken) =>
      fetch(`${engine.urls.console}/admin/api${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as unknown }));
    expect(await send('POST', '/clock')).toEqual({ status: 200, body: (await admin(engine, 'GET', '/clock')).body });
    expect(await send('POST', '/clock', '{"speed":')).toEqual({
      status: 400,
      body: { error: { code: 'invalid_input', message: expect.any(String) as unknown } },
    });
    expect(await send('GET', '/nope')).toEqual({
      status: 404,
      body: { error: { code: 'not_found', message: 'the admin API has no GET /admin/api/nope' } },
    });
    expect((await send('GET', '/nope', undefined, 'wrong')).status).toBe(401);
    // What fastify refuses before routing (a bad percent-escape, an id too long to route) too.
    expect(await send('GET', '/queues/q%ZZ')).toEqual({
      status: 400,
      body: { error: { code: 'invalid_input', message: expect.stringContaining('%ZZ') as unknown } },
    });
    expect(await send('GET', `/queues/${'q'.repeat(150)}`)).toEqual({
      status: 414,
      body: { error: { code: 'invalid_input', message: expect.stringContaining('max param length') as unknown } },
    });
    // A body nested past what anything reads is refused before it is parsed, and nothing is added.
    const deepBody = `{"target":"cloudQueue","action":{"type":"status","status":503,"body":${'['.repeat(6_000)}${']'.repeat(6_000)}}}`;
    expect(await send('POST', '/faults', deepBody)).toEqual({
      status: 400,
      body: { error: { code: 'invalid_input', message: expect.stringContaining('more than 100 deep') as unknown } },
    });
    expect(await send('GET', '/faults')).toEqual({ status: 200, body: [] });
  });

  it('refuses values an answer, a header or SQLite could not carry, naming the field', async () => {
    const refused = async (method: string, path: string, body?: unknown) => {
      const { status, body: answer } = await admin(engine, method, path, body);
      expect(status).toBe(400);
      return (answer as { error: { code: string; message: string } }).error;
    };
    const rule = (action: object) => ({
      target: 'cloudQueue',
      match: { path: '/zz' },
      action: { type: 'status', ...action },
    });
    expect(await refused('POST', '/faults', rule({ status: 100 }))).toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('/action/status'),
    });
    expect(await refused('POST', '/faults', rule({ status: 503, rejectedReason: 'a\r\nb' }))).toMatchObject({
      message: expect.stringContaining('/action/rejectedReason'),
    });
    expect(await refused('POST', '/faults', rule({ status: 403, rejectedReason: 'STREAM 😀' }))).toMatchObject({
      message: expect.stringContaining('/action/rejectedReason'),
    });
    expect((await admin(engine, 'GET', '/faults')).body).toEqual([]);
    expect(await refused('GET', '/traffic?text=%00')).toMatchObject({ message: expect.stringContaining('/text') });
    expect(await refused('POST', '/commands/traffic.page', { offset: 1e20, limit: 10 })).toMatchObject({
      message: expect.stringContaining('/offset'),
    });
    const queue = (await admin(engine, 'POST', '/queues', {})).body as { id: string };
    expect(await refused('GET', `/queues/${queue.id}/items?offset=100000000000000000000`)).toMatchObject({
      message: expect.stringContaining('/offset'),
    });
    // A list where an object goes: refused, not taken as {} (which made a queue and answered 200).
    const queues = ((await admin(engine, 'GET', '/queues')).body as unknown[]).length;
    expect(await refused('POST', '/queues', [{ name: 'ignored' }])).toMatchObject({
      message: 'queues.create: the body must be a JSON object',
    });
    expect(await refused('PATCH', '/settings', [{ autoApprove: false }])).toMatchObject({ code: 'invalid_input' });
    expect(((await admin(engine, 'GET', '/queues')).body as unknown[]).length).toBe(queues);
    // No body is still no body: empty text (what fetch sends for body: '') or JSON null.
    const bare = (body: string, type?: string) =>
      fetch(`${engine.urls.console}/admin/api/clock`, {
        method: 'POST',
        headers: { authorization: `Bearer ${engine.adminToken}`, ...(type ? { 'content-type': type } : {}) },
        body,
      });
    expect((await bare('')).status).toBe(200);
    expect((await bare('null', 'application/json')).status).toBe(200);
    expect((await bare('"x"', 'application/json')).status).toBe(400);
  });

  it('GET /players lists the players and GET /players/{id} shows one; unknown ids are 404', async () => {
    const list = (await admin(engine, 'GET', '/players')).body as { id: string }[];
    expect(list.map((p) => p.id)).toEqual(['player-living-room', 'player-kitchen', 'player-office']);
    const one = await admin(engine, 'GET', '/players/player-kitchen');
    expect(one.body).toMatchObject({
      id: 'player-kitchen',
      groupId: 'group-kitchen',
      playbackState: 'PLAYBACK_STATE_IDLE',
      suspended: false,
      itemId: null,
      positionMillis: 0,
    });
    expect((await admin(engine, 'GET', '/players/nope')).status).toBe(404);
  });

  it('serves every command at POST /commands/{name}, the twin of the IPC bridge', async () => {
    expect((await admin(engine, 'POST', '/commands/clock.get', {})).body).toMatchObject({ speed: 0 });
    expect((await admin(engine, 'POST', '/commands/no.such', {})).body).toMatchObject({
      error: { code: 'unknown_command' },
    });
  });

  /** An open `GET /admin/api/events` stream, read until its text matches; a stream that ends first fails the test. */
  async function eventStream(query: string, signal: AbortSignal) {
    const response = await fetch(`${engine.urls.console}/admin/api/events${query}`, {
      headers: { authorization: `Bearer ${engine.adminToken}` },
      signal,
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    return async (pattern: RegExp): Promise<string> => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the event stream ended before ${pattern}`);
        text += value;
      }
      return text;
    };
  }

  it('streams engine events as server-sent events', async () => {
    const abort = new AbortController();
    try {
      const readUntil = await eventStream('', abort.signal);
      await admin(engine, 'POST', '/clock', { advanceMs: 60_000 });
      const text = await readUntil(/event: clock\.changed\ndata: .*\n\n/);
      const data = /event: clock\.changed\ndata: (.*)\n/.exec(text)?.[1];
      expect(JSON.parse(data!)).toEqual((await admin(engine, 'GET', '/clock')).body);
    } finally {
      abort.abort();
    }
  });

  it('leaves the events named in ?omit= out of a stream (the UI omits traffic.captured and reads traffic.appended)', async () => {
    const abort = new AbortController();
    try {
      const full = await eventStream('', abort.signal);
      const lean = await eventStream('?omit=traffic.captured,no.such.event', abort.signal);
      // A scripted admin call is captured (see worthCapturing).
      await admin(engine, 'GET', '/clock');
      const appended = /event: traffic\.appended\ndata: .*\n\n/;
      const [fullText, leanText] = await Promise.all([full(appended), lean(appended)]);
      expect(fullText).toMatch(/event: traffic\.captured\ndata: \[\{.*"path":"\/admin\/api\/clock"/);
      expect(leanText).not.toContain('event: traffic.captured');
      const counts = JSON.parse(/event: traffic\.appended\ndata: (.*)\n/.exec(leanText)![1]!) as {
        count: number;
        lastId: number;
        dropped: number;
      };
      expect(counts).toMatchObject({ count: expect.any(Number), lastId: expect.any(Number), dropped: 0 });
      expect(counts.count).toBeGreaterThan(0);
    } finally {
      abort.abort();
    }
  });
});

describe('console page', () => {
  it('says plainly when the renderer is not built', async () => {
    const response = await fetch(engine.urls.console);
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('not built');
  });
});

describe('control API bearer check (docs/contract/platform.md §5)', () => {
  it('answers 401 Incorrect token without a live access token', async () => {
    for (const authorization of [undefined, 'Bearer made-up']) {
      const response = await fetch(`${engine.urls.control}/api/v1/households`, {
        headers: authorization ? { authorization } : {},
      });
      expect(response.status).toBe(401);
      expect(await response.text()).toBe('Incorrect token');
      expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    }
  });
});

/** One request with the admin token, `target` written in the request line as given. */
function asWritten(
  method: string,
  target: string,
  body?: string,
): Promise<{ status: number; body: string; connection: string | undefined }> {
  const { hostname, port } = new URL(engine.urls.console);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: hostname,
        port,
        method,
        path: target,
        headers: {
          authorization: `Bearer ${engine.adminToken}`,
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, connection: res.headers.connection }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('the admin API’s REST routes, found on the first call', () => {
  it('take the request line as fastify routes it: HEAD, an absolute URL, an escaped prefix', async () => {
    const clock = await asWritten('GET', '/admin/api/clock');
    expect(clock.status).toBe(200);
    expect(await asWritten('HEAD', '/admin/api/clock')).toMatchObject({ status: 200, body: '' });
    expect(await asWritten('GET', `${engine.urls.console}/admin/api/clock`)).toMatchObject({ status: 200 });
    expect(await asWritten('GET', '/admin/%61pi/clock?x=1')).toMatchObject({ status: 200 });
    expect(await asWritten('GET', '/admin/api/clock/')).toMatchObject({ status: 404 });
  });

  it('read no body of a GET, and limit the body of the others by their command', async () => {
    // fastify reads no body of a GET: one over the command's limit changes nothing.
    expect(await asWritten('GET', '/admin/api/clock', JSON.stringify({ pad: 'x'.repeat(4_096) }))).toMatchObject({
      status: 200,
    });
    const refused = await asWritten('POST', '/admin/api/clock', JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }));
    expect(refused).toMatchObject({ status: 413, connection: 'close' });
    expect(JSON.parse(refused.body)).toMatchObject({
      error: { message: expect.stringMatching(/larger than this call/) },
    });
  });

  it('answer a command name too long at POST /commands/<name> 414, as fastify did', async () => {
    const answer = await asWritten('POST', `/admin/api/commands/${'c'.repeat(101)}`, '{}');
    expect(answer.status).toBe(414);
    expect(JSON.parse(answer.body)).toMatchObject({
      error: { code: 'invalid_input', message: expect.stringContaining('max param length') },
    });
  });
});
