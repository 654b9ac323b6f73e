import { request as httpRequest, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../index.js';
import { rawRequest, startTestEngine } from '../testing/http.js';
import { createServiceApp } from './service-app.js';

let engine: Engine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.close());

type Listener = 'console' | 'login' | 'control' | 'cloudQueue';

/** Answers of every kind on every listener: pages, JSON, refusals, 404s, a URL fastify refuses itself. */
const ANSWERS: [Listener, string, string, number, Record<string, string>?][] = [
  ['console', 'GET', '/', 503], // no renderer build in tests: the "not built" page
  ['console', 'GET', '/no/such/page', 404],
  ['console', 'GET', '/admin/api/status', 401],
  ['console', 'GET', '/', 403, { host: 'evil.example' }],
  ['console', 'GET', '/%zz', 400],
  ['login', 'GET', '/', 200],
  ['login', 'GET', '/no/such/page', 404],
  ['login', 'GET', '/login/v3/oauth?client_id=nobody', 400],
  ['login', 'POST', '/login/v3/oauth/access', 400],
  ['login', 'GET', '/%zz', 400],
  ['control', 'GET', '/api/v1/households', 401],
  ['control', 'GET', '/no/such/page', 401],
  ['control', 'GET', '/%zz', 400],
  ['cloudQueue', 'GET', '/no/such/page', 404],
  ['cloudQueue', 'GET', '/queues/nope/v2.3/version', 404],
  ['cloudQueue', 'GET', '/%zz', 400],
];

describe('security headers on every answer of every listener (docs/contract/console.md §2, §9)', () => {
  it.each(ANSWERS)('%s %s %s (%i): nosniff, no referrer', async (listener, method, path, status, headers) => {
    const answer = await rawRequest(`${engine.urls[listener]}${path}`, { method, ...(headers ? { headers } : {}) });
    expect(answer.status).toBe(status);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
  });

  it("the login service's / sends the headers of its pages: no framing, no caching, no referrer", async () => {
    const [root, page] = await Promise.all([
      rawRequest(`${engine.urls.login}/`),
      rawRequest(`${engine.urls.login}/login/v3/oauth?client_id=nobody`),
    ]);
    expect(root.status).toBe(200);
    for (const name of [
      'content-security-policy',
      'x-frame-options',
      'cache-control',
      'referrer-policy',
      'x-content-type-options',
    ]) {
      expect(root.headers[name], name).toBe(page.headers[name]);
    }
    expect(root.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(root.headers['x-frame-options']).toBe('DENY');
  });

  it('the event stream, written around fastify, carries them too', async () => {
    const headers = await new Promise<IncomingHttpHeaders>((resolve, reject) => {
      const req = httpRequest(
        `${engine.urls.console}/admin/api/events`,
        { headers: { authorization: `Bearer ${engine.adminToken}` } },
        (res) => {
          resolve(res.headers);
          res.destroy();
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(headers['content-type']).toMatch(/^text\/event-stream/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('no-referrer');
  });
});

describe('the heads a service app writes', () => {
  const app = createServiceApp();
  /** A headers object a route shares between answers, and one it froze (copied, not changed). */
  const shared = { 'content-type': 'text/plain' };
  const frozen = Object.freeze({ 'content-type': 'text/plain' });
  const raw = (path: string, write: (response: ServerResponse) => void) =>
    app.get(path, (_request, reply) => {
      reply.hijack();
      write(reply.raw);
    });
  app.get('/own', (_request, reply) => {
    reply.header('referrer-policy', 'same-origin').send('own');
  });
  raw('/raw-end', (response) => response.end('raw'));
  raw('/raw-array', (response) => response.writeHead(200, ['content-type', 'text/plain']).end('array'));
  raw('/raw-reason', (response) => response.writeHead(200, 'Fine', { 'content-type': 'text/plain' }).end('reason'));
  // As node takes them too: no reason and the headers third, or none at all.
  raw('/raw-undefined-reason', (response) =>
    response.writeHead(200, undefined, { 'content-type': 'text/plain', 'x-mine': '1' }).end('third'),
  );
  raw('/raw-null', (response) => response.writeHead(200, null as unknown as undefined).end('null'));
  raw('/raw-shared', (response) => response.writeHead(200, shared).end('shared'));
  raw('/raw-frozen', (response) => response.writeHead(200, frozen).end('frozen'));
  raw('/raw-write-header', (response) =>
    (response as unknown as { writeHeader: ServerResponse['writeHead'] })
      .writeHeader(200, { 'content-type': 'text/plain' })
      .end('alias'),
  );
  // A route's own value, set with setHeader or given in its own case: kept, and sent once.
  raw('/own-set', (response) => {
    response.setHeader('referrer-policy', 'same-origin');
    response.writeHead(200, { 'content-type': 'text/plain' }).end('set');
  });
  raw('/own-case', (response) => response.writeHead(200, { 'Referrer-Policy': 'same-origin' }).end('case'));
  raw('/own-case-set', (response) => {
    response.setHeader('x-other', '1');
    response.writeHead(200, { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'same-origin' }).end('both');
  });
  let base: string;
  beforeAll(async () => {
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  });
  afterAll(() => app.close());

  it('keep a header the route set itself, and add the other', async () => {
    const answer = await rawRequest(`${base}/own`);
    expect(answer.headers['referrer-policy']).toBe('same-origin');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each([
    '/raw-end',
    '/raw-array',
    '/raw-reason',
    '/raw-undefined-reason',
    '/raw-null',
    '/raw-shared',
    '/raw-frozen',
    '/raw-write-header',
  ])('carry both when written around fastify (%s), once each', async (path) => {
    const answer = await rawRequest(`${base}${path}`);
    expect(answer.status).toBe(200);
    // Exactly these values: a header sent twice would read "nosniff, nosniff" (node joins them).
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
  });

  it("keep the route's headers, a shared object's answers alike, a frozen object as it was", async () => {
    const third = await rawRequest(`${base}/raw-undefined-reason`);
    expect([third.headers['content-type'], third.headers['x-mine']]).toEqual(['text/plain', '1']);
    expect((await rawRequest(`${base}/raw-reason`)).headers['content-type']).toBe('text/plain');
    const [first, again] = [await rawRequest(`${base}/raw-shared`), await rawRequest(`${base}/raw-shared`)];
    for (const answer of [first, again])
      expect([answer.headers['content-type'], answer.headers['referrer-policy']]).toEqual([
        'text/plain',
        'no-referrer',
      ]);
    expect(Object.keys(frozen)).toEqual(['content-type']);
  });

  it.each(['/own-set', '/own-case', '/own-case-set'])(
    "keep the route's own value, whatever its case or how it was set, and send it once (%s)",
    async (path) => {
      const answer = await rawRequest(`${base}${path}`);
      expect(answer.status).toBe(200);
      expect(answer.headers['referrer-policy']).toBe('same-origin');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    },
  );
});
