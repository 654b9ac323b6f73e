import { afterEach, describe, expect, it } from 'vitest';
import { EngineClock } from '../clock/clock.js';
import { ManualWall } from '../testing/manual-wall.js';
import { StubCloudQueue, tracks } from '../testing/stub-cloud-queue.js';
import { entryOfExchange } from '../traffic/player-exchange.js';
import { CloudQueueClient, endpointUrl, type PlayerExchange } from './client.js';

let stub: StubCloudQueue;
afterEach(() => stub.close());

async function client() {
  stub = await new StubCloudQueue({ items: tracks(30) }).start();
  const clock = new EngineClock({ wall: new ManualWall(), speed: 0 });
  const exchanges: PlayerExchange[] = [];
  const c = new CloudQueueClient({ playerId: 'player-kitchen', clock, onExchange: (e) => exchanges.push(e) });
  return { c, exchanges, target: { queueBaseUrl: stub.baseUrl, httpAuthorization: 'Bearer abc.def' } };
}

describe('cloud queue client (docs/contract/console.md §5)', () => {
  it('sends httpAuthorization verbatim, X-Player-Id and a fresh X-Request-Id per request', async () => {
    const { c, target } = await client();
    await c.context(target);
    await c.version(target);
    const [first, second] = stub.requests;
    expect(first!.headers).toMatchObject({ authorization: 'Bearer abc.def', 'x-player-id': 'player-kitchen' });
    expect(first!.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second!.headers['x-request-id']).not.toBe(first!.headers['x-request-id']);
  });

  it('reports a window bigger than asked for as a violation the server must fix, and still uses it', async () => {
    const { c, target, exchanges } = await client();
    const result = await c.itemWindow(target, {
      reason: 'load',
      itemId: 't10',
      previousWindowSize: 2,
      upcomingWindowSize: 2,
    });
    expect(result.ok).toBe(true);
    expect(exchanges[0]!.violations).toEqual([]);
    stub.script('itemWindow', {
      status: 200,
      body: { includesBeginningOfQueue: true, includesEndOfQueue: false, queueVersion: '1', items: tracks(10) },
    });
    const big = await c.itemWindow(target, {
      reason: 'refresh',
      itemId: 't5',
      previousWindowSize: 2,
      upcomingWindowSize: 2,
    });
    expect(big.ok).toBe(true);
    expect(exchanges[1]!.violations.map((v) => v.message)).toEqual([
      '4 items before t5, more than previousWindowSize=2',
      '5 items after t5, more than upcomingWindowSize=2',
    ]);
  });

  it('types failures: 503 with Retry-After, 404, 403 with X-Rejected-Reason, dropped connections', async () => {
    const { c, target } = await client();
    stub.script('version', { status: 503, headers: { 'retry-after': '7' } });
    stub.script('version', { status: 404 });
    stub.script('version', { status: 403, headers: { 'x-rejected-reason': 'STREAM_RATE_LIMIT_REACHED' } });
    stub.script('version', { drop: true });
    const results = [
      await c.version(target),
      await c.version(target),
      await c.version(target),
      await c.version(target),
    ];
    expect(results.map((r) => (r.ok ? 'ok' : r.failure))).toEqual([
      expect.objectContaining({ kind: 'unavailable', status: 503, retryAfterSec: 7 }),
      expect.objectContaining({ kind: 'notFound', status: 404 }),
      expect.objectContaining({ kind: 'other', status: 403, rejectedReason: 'STREAM_RATE_LIMIT_REACHED' }),
      expect.objectContaining({ kind: 'incomplete' }),
    ]);
  });

  it('fails a request to a base URL that is not a URL, as a failure and not a throw', async () => {
    const { c, exchanges } = await client();
    for (const queueBaseUrl of ['http://', 'http://[']) {
      const result = await c.context({ queueBaseUrl });
      expect(result).toMatchObject({
        ok: false,
        failure: { kind: 'other', message: expect.stringContaining('is not a URL') },
      });
    }
    expect(exchanges.map((e) => e.url)).toEqual(['http://', 'http://[']);
    expect(stub.requests).toHaveLength(0);
    // And the traffic log takes it as it is (parsing it there threw instead).
    expect(exchanges.map((e) => entryOfExchange(e))).toEqual([
      expect.objectContaining({ url: 'http://', path: '/context', outcome: 'incomplete' }),
      expect.objectContaining({ url: 'http://[', path: '/context', outcome: 'incomplete' }),
    ]);
  });

  it('measures a Retry-After date from the server’s Date, not from the engine clock', async () => {
    const { c, target } = await client();
    const sent = Date.UTC(2031, 0, 1, 12, 0, 0);
    stub.script('version', {
      status: 503,
      headers: { date: new Date(sent).toUTCString(), 'retry-after': new Date(sent + 7_000).toUTCString() },
    });
    const result = await c.version(target);
    expect(result.ok ? null : result.failure).toMatchObject({ kind: 'unavailable', retryAfterSec: 7 });
  });

  it('reaches a server that is not there as an incomplete request', async () => {
    const { c } = await client();
    const result = await c.context({ queueBaseUrl: 'http://127.0.0.1:9/q/' });
    expect(result.ok ? null : result.failure.kind).toBe('incomplete');
  });

  it('joins endpoints to base URLs with or without the trailing slash', () => {
    expect(endpointUrl('http://h/queues/q1/v2.3/', 'itemWindow', { reason: 'load' })).toBe(
      'http://h/queues/q1/v2.3/itemWindow?reason=load',
    );
    expect(endpointUrl('http://h/queues/q1/v2.3', 'version')).toBe('http://h/queues/q1/v2.3/version');
  });
});
