/**
 * The service app's own hooks run on every request of every listener: with nothing to wait for
 * (no instrument, or one that answers undefined) they hand the request on at once, without a
 * promise and a turn of the microtask queue each; an instrument that waits is still waited for.
 */
import { describe, expect, it } from 'vitest';
import { createServiceApp, type ServiceInstrument } from './service-app.js';

function appWith(instrument: Partial<ServiceInstrument> | null, order: string[]) {
  const app = createServiceApp();
  if (instrument)
    app.instrument.current = {
      onRequest: () => undefined,
      preParsing: (_request, payload) => payload,
      onSend: () => undefined,
      onResponse: () => undefined,
      ...instrument,
    };
  app.get('/here', async () => {
    order.push('handler');
    return { ok: true };
  });
  return app;
}

describe('the service app’s hooks', () => {
  it('reach the route in the turn the request came in when the instrument waits for nothing', async () => {
    const order: string[] = [];
    const app = appWith(
      {
        onRequest: () => {
          // Runs at the next turn of the microtask queue: after the handler, unless a hook awaited.
          queueMicrotask(() => order.push('microtask'));
          return undefined;
        },
      },
      order,
    );
    const response = await app.inject({ method: 'GET', url: '/here' });
    expect(response.statusCode).toBe(200);
    expect(order).toEqual(['handler', 'microtask']);
  });

  it('wait for an instrument that answers a promise, and see what it sent', async () => {
    const order: string[] = [];
    const app = appWith(
      {
        onRequest: async (_request, reply) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          order.push('waited');
          return reply.code(503).send({ fault: true });
        },
      },
      order,
    );
    const response = await app.inject({ method: 'GET', url: '/here' });
    expect(response.statusCode).toBe(503);
    expect(order).toEqual(['waited']);
  });

  it('refuse the body of a path that does not exist, and close the connection', async () => {
    const app = appWith(null, []);
    const response = await app.inject({ method: 'POST', url: '/nowhere', payload: 'x'.repeat(100) });
    expect(response.statusCode).toBe(404);
    expect(response.headers.connection).toBe('close');
  });
});

describe('the service app’s schema compilers (loaded on first use)', () => {
  it('still validate a route’s body and serialize its answer by schema', async () => {
    const app = createServiceApp();
    app.post(
      '/typed',
      {
        schema: {
          body: { type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 1 } } },
          response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } },
        },
      },
      // `extra` is not in the response schema: the serializer leaves it out.
      async (request) => ({ n: (request.body as { n: number }).n, extra: 'dropped' }),
    );
    const refused = await app.inject({ method: 'POST', url: '/typed', payload: { n: 0 } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/must be >= 1/);
    const answered = await app.inject({ method: 'POST', url: '/typed', payload: { n: 3 } });
    expect(answered.statusCode).toBe(200);
    expect(answered.json()).toEqual({ n: 3 });
  });

  it('take a headers schema’s names as written: lower case, as Node gives them (lazy-compilers.ts)', async () => {
    const app = createServiceApp();
    const route = (name: string) => ({
      schema: { headers: { type: 'object', required: [name], properties: { [name]: { type: 'string' } } } },
    });
    app.get('/lower', route('x-foo'), async () => ({ ok: true }));
    app.get('/upper', route('X-Foo'), async () => ({ ok: true }));
    const headers = { 'x-foo': 'bar' };
    expect((await app.inject({ method: 'GET', url: '/lower', headers })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/upper', headers })).statusCode).toBe(400);
  });
});
