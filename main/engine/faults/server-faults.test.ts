/**
 * Faults at the console's own servers (targets login, control, cloudQueue): each action, as a
 * client sees it over real HTTP, and as the traffic log records it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FaultRuleInput, FaultTarget } from '../api/fault-types.js';
import { DEFAULT_RETRY_AFTER_SEC } from '../cloud-queue/errors.js';
import type { TrafficEntry } from '../api/traffic-types.js';
import type { Engine } from '../index.js';
import { connect } from 'node:net';
import { admin, startTestEngine } from '../testing/http.js';

let engine: Engine;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 1 });
});
afterAll(() => engine.close());
beforeEach(async () => {
  await admin(engine, 'DELETE', '/faults');
  await admin(engine, 'DELETE', '/traffic');
});

const PATHS: Record<Exclude<FaultTarget, 'player' | 'events'>, string> = {
  login: '/login/v3/oauth/access',
  control: '/api/v1/households',
  cloudQueue: '/queues/q1/v2.3/itemWindow?reason=refresh',
};

function url(target: Exclude<FaultTarget, 'player' | 'events'>): string {
  return `${engine.urls[target]}${PATHS[target]}`;
}

async function addFault(rule: FaultRuleInput) {
  const { status, body } = await admin(engine, 'POST', '/faults', rule);
  expect(status).toBe(200);
  return body as { id: string };
}

async function lastTraffic(target: string): Promise<TrafficEntry> {
  const { body } = await admin(engine, 'GET', `/traffic?target=${target}`);
  return (body as TrafficEntry[]).at(-1)!;
}

/** How a connection that sent one GET ended: `closed` (FIN, with or without an answer) or an errno code. */
function socketEnd(to: string): Promise<string> {
  const { hostname, port, pathname, search } = new URL(to);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(`GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`),
    );
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    socket.on('close', () => resolve('closed'));
    socket.resume();
  });
}

describe.each(['login', 'control', 'cloudQueue'] as const)('target %s', (target) => {
  it('status: answers the injected status with Retry-After and X-Rejected-Reason, marked in the log', async () => {
    await addFault({
      target,
      action: { type: 'status', status: 503, retryAfter: 7, rejectedReason: 'STREAM_RATE_LIMIT_REACHED' },
      times: 1,
    });
    const response = await fetch(url(target), { method: target === 'login' ? 'POST' : 'GET' });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(response.headers.get('x-rejected-reason')).toBe('STREAM_RATE_LIMIT_REACHED');
    expect(await lastTraffic(target)).toMatchObject({ status: 503, fault: { action: 'status', status: 503 } });
    // Spent after one hit: the next request is left alone.
    expect((await fetch(url(target), { method: target === 'login' ? 'POST' : 'GET' })).status).not.toBe(503);
  });

  it('status: a 503 whose rule names no Retry-After still carries one, as the server\u2019s own 503s do', async () => {
    await addFault({ target, action: { type: 'status', status: 503 }, times: 1 });
    const response = await fetch(url(target), { method: target === 'login' ? 'POST' : 'GET' });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe(String(DEFAULT_RETRY_AFTER_SEC));
  });

  it('drop: the connection resets before any answer', async () => {
    await addFault({ target, action: { type: 'drop' }, times: 1 });
    // A reset (RST), not an orderly close (FIN): the socket itself fails with ECONNRESET.
    expect(await socketEnd(url(target))).toBe('ECONNRESET');
    await expect.poll(async () => (await lastTraffic(target))?.outcome).toBe('dropped');
  });

  it('timeout: no answer at all, until the client gives up', async () => {
    await addFault({ target, action: { type: 'timeout' }, times: 1 });
    const abort = AbortSignal.timeout(300);
    await expect(fetch(url(target), { signal: abort })).rejects.toThrow();
    await expect.poll(async () => (await lastTraffic(target))?.outcome).toBe('timeout');
  });

  it('latency: the normal answer, late', async () => {
    await addFault({ target, action: { type: 'latency', ms: 250 }, times: 1 });
    const started = performance.now();
    const response = await fetch(url(target));
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
    expect(response.status).not.toBe(200 + 300); // whatever the route answers normally
    expect(await lastTraffic(target)).toMatchObject({ fault: { action: 'latency' } });
  });

  it('malformed: 200 with a body that is not JSON', async () => {
    await addFault({ target, action: { type: 'malformed' }, times: 1 });
    const response = await fetch(url(target));
    expect(response.status).toBe(200);
    await expect(response.clone().json()).rejects.toThrow();
  });
});

describe('target login', () => {
  it('status: never cached, as every answer of the login service (the token endpoint’s must not be, RFC 6749 §5.1)', async () => {
    await addFault({
      target: 'login',
      match: { path: PATHS.login },
      action: { type: 'status', status: 503 },
      times: 1,
    });
    const response = await fetch(url('login'), { method: 'POST' });
    expect(response.status).toBe(503);
    expect([response.headers.get('cache-control'), response.headers.get('pragma')]).toEqual(['no-store', 'no-cache']);
  });

  it('malformed: never cached either', async () => {
    await addFault({ target: 'login', match: { path: PATHS.login }, action: { type: 'malformed' }, times: 1 });
    const response = await fetch(url('login'), { method: 'POST' });
    expect(response.status).toBe(200);
    expect([response.headers.get('cache-control'), response.headers.get('pragma')]).toEqual(['no-store', 'no-cache']);
  });
});

describe('matching at the servers', () => {
  it('matches method, path and reason', async () => {
    await addFault({
      target: 'cloudQueue',
      match: { method: 'GET', path: '/itemWindow', reason: 'load' },
      action: { type: 'status', status: 500 },
    });
    const base = `${engine.urls.cloudQueue}/queues/q1/v2.3`;
    expect((await fetch(`${base}/itemWindow?reason=load`)).status).toBe(500);
    expect((await fetch(`${base}/itemWindow?reason=refresh`)).status).not.toBe(500);
    expect((await fetch(`${base}/version`)).status).not.toBe(500);
    const [rule] = (await admin(engine, 'GET', '/faults')).body as { hits: number }[];
    expect(rule!.hits).toBe(1);
  });

  it('reads an unencoded `+` in reason as the seed writes joined reasons, in the rule and in the log', async () => {
    await addFault({
      target: 'cloudQueue',
      match: { path: '/itemWindow', reason: 'load+queueCompleted' },
      action: { type: 'status', status: 500 },
      times: 1,
    });
    // `+` in a query string decodes to a space; a player that does not encode it still means `+`.
    expect((await fetch(`${engine.urls.cloudQueue}/queues/q1/v2.3/itemWindow?reason=load+queueCompleted`)).status).toBe(
      500,
    );
    expect(await lastTraffic('cloudQueue')).toMatchObject({
      reason: 'load+queueCompleted',
      fault: { action: 'status' },
    });
    // The log's reason filter reads it the same way, unencoded or not.
    for (const reason of ['load+queueCompleted', 'load%2BqueueCompleted']) {
      expect((await admin(engine, 'GET', `/traffic?target=cloudQueue&reason=${reason}`)).body).toHaveLength(1);
    }
  });

  it('lists, removes one, and clears all', async () => {
    const a = await addFault({ target: 'control', action: { type: 'drop' } });
    await addFault({ target: 'login', action: { type: 'drop' } });
    expect(((await admin(engine, 'GET', '/faults')).body as unknown[]).length).toBe(2);
    expect((await admin(engine, 'DELETE', `/faults/${a.id}`)).status).toBe(200);
    expect((await admin(engine, 'DELETE', `/faults/${a.id}`)).status).toBe(404);
    expect((await admin(engine, 'DELETE', '/faults')).body).toEqual({ removed: 1 });
  });

  it('rejects a rule it cannot apply, with a clear error and nothing added', async () => {
    for (const bad of [
      { target: 'nowhere', action: { type: 'drop' } },
      { target: 'control', action: { type: 'status' } },
      { target: 'control', action: { type: 'drop' }, probability: 2 },
    ]) {
      const { status, body } = await admin(engine, 'POST', '/faults', bad);
      expect(status).toBe(400);
      expect(body).toMatchObject({ error: { code: 'invalid_input' } });
    }
    expect((await admin(engine, 'GET', '/faults')).body).toEqual([]);
  });

  it('offers the seed\u2019s cases as presets', async () => {
    const presets = (await admin(engine, 'GET', '/faults/presets')).body as { id: string }[];
    expect(presets.map((p) => p.id)).toEqual(
      expect.arrayContaining([
        '503-storm',
        '404-item-window-skip',
        '404-item-window-load',
        'refresh-timeout',
        '500-on-load',
        'version-drop',
      ]),
    );
    const rule = (await admin(engine, 'POST', '/faults/presets/500-on-load', { target: 'player' })).body;
    expect(rule).toMatchObject({
      target: 'player',
      match: { reason: 'load' },
      action: { type: 'status', status: 500 },
      times: 1,
    });
  });
});

describe('a rule with a field it does not have', () => {
  it('is refused (400), down to its match and action: a misspelt times left a one-shot fault on for good (outsider)', async () => {
    const rule = { target: 'cloudQueue', match: { path: '/version' }, action: { type: 'status', status: 503 } };
    for (const [wrong, path] of [
      [{ ...rule, tims: 1 }, '/tims'],
      [{ ...rule, match: { path: '/version', reasn: 'refresh' } }, '/match/reasn'],
      [{ ...rule, action: { type: 'status', status: 503, retryAftr: '5' } }, '/action/retryAftr'],
    ] as const) {
      const answer = await admin(engine, 'POST', '/faults', wrong);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(JSON.stringify(answer.body)).toContain(path);
    }
    expect((await admin(engine, 'GET', '/faults')).body).toEqual([]);
    // And in a scenario's fault step, which would run on without the count it meant.
    const saved = await admin(engine, 'POST', '/scenarios', {
      name: 'typo',
      steps: [
        { type: 'fault', rule: { ...rule, tims: 1 } },
        { type: 'expect', playerId: 'player-kitchen', state: 'IDLE' },
      ],
    });
    expect(saved.status).toBe(400);
    expect(JSON.stringify(saved.body)).toContain('/steps/0/rule/tims');
  });
});
