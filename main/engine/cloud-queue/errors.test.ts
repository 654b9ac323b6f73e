import { afterAll, describe, expect, it } from 'vitest';
import { createServiceApp } from '../http/service-app.js';
import { sendCloudQueueError } from './errors.js';

const app = createServiceApp();
app.get('/:status', async (request, reply) => {
  const status = Number((request.params as { status: string }).status);
  const query = request.query as { retryAfter?: string; rejectedReason?: string };
  return sendCloudQueueError(reply, status, {
    retryAfter: query.retryAfter === undefined ? undefined : Number(query.retryAfter),
    rejectedReason: query.rejectedReason,
  });
});
afterAll(() => app.close());

describe('cloud queue error answers (docs/contract/platform.md §7.1, docs/contract/console.md §4)', () => {
  it.each([
    [400, 'badRequest'],
    [401, 'unauthorized'],
    [403, 'forbidden'],
    [404, 'notFound'],
    [500, 'internalError'],
    [503, 'serviceUnavailable'],
  ])('%i has the error body with reason %s', async (status, reason) => {
    const response = await app.inject(`/${status}`);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({
      error: {
        code: status,
        message: expect.any(String),
        errors: [{ domain: 'cloudQueue', reason, message: expect.any(String) }],
      },
    });
  });

  it('puts Retry-After on every 503 (the given seconds, else a default inside 2–10 s)', async () => {
    expect((await app.inject('/503?retryAfter=7')).headers['retry-after']).toBe('7');
    const fallback = Number((await app.inject('/503')).headers['retry-after']);
    expect(fallback).toBeGreaterThanOrEqual(2);
    expect(fallback).toBeLessThanOrEqual(10);
  });

  it('puts X-Rejected-Reason on a 403 when given', async () => {
    const response = await app.inject('/403?rejectedReason=STREAM_RATE_LIMIT_REACHED');
    expect(response.headers['x-rejected-reason']).toBe('STREAM_RATE_LIMIT_REACHED');
    expect((await app.inject('/403')).headers['x-rejected-reason']).toBeUndefined();
  });

  it('challenges with WWW-Authenticate on a 401', async () => {
    expect((await app.inject('/401')).headers['www-authenticate']).toMatch(/^Bearer /);
  });
});
