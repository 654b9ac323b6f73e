/**
 * The reference cloud queue server over real HTTP (docs/contract/console.md §4): every endpoint's success and
 * error paths, the three version spellings, tokens on the engine clock, the error shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueActivityView, QueueSummary, TimePlayedRecordView } from '../api/queue-types.js';
import type { Engine } from '../index.js';
import { admin, rawRequest, startTestEngine } from '../testing/http.js';
import { DEFAULT_PLAYBACK_POLICIES } from './defaults.js';

let engine: Engine;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
});
afterAll(() => engine.close());

const tracks = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    track: {
      name: `Track ${i + 1}`,
      mediaUrl: `https://media.example.com/${i + 1}.mp3`,
      contentType: 'audio/mpeg',
      durationMillis: 180_000,
      artist: { name: 'A' },
      album: { name: 'B' },
    },
  }));

async function createQueue(body: Record<string, unknown> = { items: tracks(20) }): Promise<QueueSummary> {
  const { status, body: created } = await admin(engine, 'POST', '/queues', body);
  expect(status).toBe(200);
  return created as QueueSummary;
}

interface Answer {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- wire JSON under test
}

async function call(
  queue: QueueSummary,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string>; token?: string | null } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  const token = init.token === undefined ? queue.accessToken : init.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(queue.queueBaseUrl + path, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

const window = (queue: QueueSummary, query: string) => call(queue, `itemWindow?${query}`);
const ids = (answer: Answer) => (answer.body.items as { id: string }[]).map((i) => i.id);

function expectError(answer: Answer, status: number, mentions?: string | RegExp) {
  expect(answer.status).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  expect(answer.body).toEqual({
    error: {
      code: status,
      message: expect.any(String),
      errors: [{ domain: expect.any(String), reason: expect.any(String), message: expect.any(String) }],
    },
  });
  if (mentions) expect(answer.body.error.message).toMatch(mentions);
}

const report = (overrides: Record<string, unknown> = {}) => ({
  id: 'item-3',
  mediaUrl: 'https://media.example.com/3.mp3',
  queueVersion: '1',
  durationPlayedMillis: 30_000,
  timeSincePlaybackMillis: 31_000,
  positionMillis: 30_000,
  positionMillisAtSegmentStart: 0,
  type: 'update',
  ...overrides,
});

describe('base URLs and versions', () => {
  it('serves each queue at {cloudQueue}/queues/{id}/v2.3/ and the v2.0 and v2.2 spellings', async () => {
    const queue = await createQueue();
    expect(queue.queueBaseUrl).toBe(`${engine.urls.cloudQueue}/queues/${queue.id}/v2.3/`);
    for (const version of ['v2.0', 'v2.2', 'v2.3']) {
      const base = { ...queue, queueBaseUrl: queue.queueBaseUrl.replace('v2.3', version) };
      expect((await call(base, 'version')).body).toEqual({
        queueVersion: queue.queueVersion,
        contextVersion: queue.contextVersion,
      });
    }
  });

  it('answers 404 in the error shape for another version, an unknown queue or an unknown path', async () => {
    const queue = await createQueue();
    expectError(
      await call({ ...queue, queueBaseUrl: queue.queueBaseUrl.replace('v2.3', 'v3.0') }, 'context'),
      404,
      /v3\.0/,
    );
    expectError(
      await call({ ...queue, queueBaseUrl: queue.queueBaseUrl.replace(queue.id, 'queue-none') }, 'context'),
      404,
      /queue-none/,
    );
    expectError(await call(queue, 'nothing'), 404);
    // With a body, refused unread: still the 404 of a path it does not have, not a bad body's 400.
    expectError(await call(queue, 'nothing', { method: 'POST', body: { items: [] } }), 404, /no cloud queue at/);
  });

  it('takes a path joined with a doubled slash (base URL ending in / plus /context)', async () => {
    const queue = await createQueue();
    const response = await fetch(`${queue.queueBaseUrl}/context`, {
      headers: { authorization: `Bearer ${queue.accessToken}` },
    });
    expect(response.status).toBe(200);
  });
});

describe('access tokens (docs/contract/platform.md §5.7)', () => {
  it('answers 401 when the token is missing, wrong, of another queue or not Bearer', async () => {
    const queue = await createQueue();
    const other = await createQueue();
    for (const path of ['context', 'itemWindow?reason=load', 'version']) {
      expectError(await call(queue, path, { token: null }), 401);
      expectError(await call(queue, path, { token: 'made-up' }), 401);
      expectError(await call(queue, path, { token: other.accessToken }), 401);
      expectError(
        await call(queue, path, { token: null, headers: { authorization: `Basic ${queue.accessToken}` } }),
        401,
      );
    }
    const unauthorized = await call(queue, 'timePlayed', {
      method: 'POST',
      body: { items: [report()] },
      token: 'made-up',
    });
    expectError(unauthorized, 401);
    expect(unauthorized.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('expires a token after its lifetime on the engine clock (default 24 h)', async () => {
    const queue = await createQueue();
    const clock = (await admin(engine, 'GET', '/clock')).body as { now: number };
    expect(queue.accessTokenExpiresAt).toBe(clock.now + 86_400_000);
    await admin(engine, 'POST', '/clock', { advanceMs: 86_400_000 - 1 });
    expect((await call(queue, 'version')).status).toBe(200);
    await admin(engine, 'POST', '/clock', { advanceMs: 1 });
    expectError(await call(queue, 'version'), 401, /expired/);
  });

  it('issues a new token with a chosen lifetime; the old one stops working', async () => {
    const queue = await createQueue({ items: tracks(2), accessTokenLifetimeSec: 60 });
    await admin(engine, 'POST', '/clock', { advanceMs: 61_000 });
    expect((await call(queue, 'version')).status).toBe(401);
    const renewed = (await admin(engine, 'POST', `/queues/${queue.id}/token`, { lifetimeSec: 3600 }))
      .body as QueueSummary;
    expect(renewed.accessToken).not.toBe(queue.accessToken);
    expect(renewed.httpAuthorization).toBe(`Bearer ${renewed.accessToken}`);
    expect((await call(renewed, 'version')).status).toBe(200);
    expect((await call(queue, 'version')).status).toBe(401);
  });
});

describe('GET /context', () => {
  it('answers versions, container, report settings and playback policies', async () => {
    const queue = await createQueue({
      name: 'Road trip',
      items: tracks(3),
      playbackPolicies: { limitedSkips: true, pauseTtlSec: 900, customPolicy: 'x' },
      reports: { periodicIntervalMillis: 10_000 },
    });
    const { status, body } = await call(queue, 'context');
    expect(status).toBe(200);
    expect(body).toEqual({
      contextVersion: queue.contextVersion,
      queueVersion: queue.queueVersion,
      // imageUrl: docs/contract/console.md §4 lists it; a queue created without one gets a placeholder.
      container: {
        name: 'Road trip',
        type: 'playlist',
        id: { serviceId: expect.any(String), objectId: queue.id, accountId: expect.any(String) },
        imageUrl: expect.stringMatching(/^https:\/\//),
      },
      reports: { sendUpdateAfterMillis: 30_000, periodicIntervalMillis: 10_000, sendPlaybackActions: true },
      playbackPolicies: { ...DEFAULT_PLAYBACK_POLICIES, limitedSkips: true, pauseTtlSec: 900, customPolicy: 'x' },
    });
  });

  it('names every policy the seed and docs/contract/console.md §4 name', async () => {
    const { body } = await call(await createQueue(), 'context');
    for (const policy of [
      'canSkip',
      'limitedSkips',
      'canSkipBack',
      'canSeek',
      'canSkipToItem',
      'notifyUserIntent',
      'pauseTtlSec',
    ]) {
      expect(body.playbackPolicies).toHaveProperty(policy);
    }
    expect(Object.keys(body.reports).sort()).toEqual([
      'periodicIntervalMillis',
      'sendPlaybackActions',
      'sendUpdateAfterMillis',
    ]);
  });

  it('moves contextVersion and queueVersion when a policy or report setting changes', async () => {
    const queue = await createQueue();
    await admin(engine, 'PATCH', `/queues/${queue.id}`, {
      playbackPolicies: { canSkip: false },
      reports: { sendPlaybackActions: false },
    });
    const { body } = await call(queue, 'context');
    expect(body.playbackPolicies.canSkip).toBe(false);
    expect(body.playbackPolicies.canSeek).toBe(true);
    expect(body.reports.sendPlaybackActions).toBe(false);
    expect(body.contextVersion).not.toBe(queue.contextVersion);
    expect(body.queueVersion).not.toBe(queue.queueVersion);
  });
});

describe('GET /itemWindow', () => {
  it('without itemId starts at the first item, with at most upcomingWindowSize after it', async () => {
    const queue = await createQueue();
    const answer = await window(queue, 'reason=load&previousWindowSize=5&upcomingWindowSize=3');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      includesBeginningOfQueue: true,
      includesEndOfQueue: false,
      queueVersion: queue.queueVersion,
      contextVersion: queue.contextVersion,
    });
    expect(ids(answer)).toEqual(['item-1', 'item-2', 'item-3', 'item-4']);
    expect(answer.body.items[0]).toEqual({ id: 'item-1', track: tracks(1)[0]!.track });
  });

  it('centres on itemId with at most the asked sizes on either side', async () => {
    const queue = await createQueue();
    expect(
      ids(await window(queue, 'reason=skipToItem&itemId=item-10&previousWindowSize=2&upcomingWindowSize=3')),
    ).toEqual(['item-8', 'item-9', 'item-10', 'item-11', 'item-12', 'item-13']);
    const start = await window(queue, 'reason=refresh&itemId=item-2&previousWindowSize=5&upcomingWindowSize=0');
    expect(ids(start)).toEqual(['item-1', 'item-2']);
    expect(start.body).toMatchObject({ includesBeginningOfQueue: true, includesEndOfQueue: false });
    const end = await window(queue, 'reason=queueCompleted&itemId=item-19&previousWindowSize=0&upcomingWindowSize=10');
    expect(ids(end)).toEqual(['item-19', 'item-20']);
    expect(end.body).toMatchObject({ includesBeginningOfQueue: false, includesEndOfQueue: true });
  });

  it('takes load+queueCompleted spelled with %2B or with a raw +', async () => {
    const queue = await createQueue();
    expect((await window(queue, 'reason=load%2BqueueCompleted')).status).toBe(200);
    expect((await window(queue, 'reason=load+queueCompleted')).status).toBe(200);
  });

  it('answers an empty window for an empty queue', async () => {
    const queue = await createQueue({ items: [] });
    expect((await window(queue, 'reason=load')).body).toMatchObject({
      items: [],
      includesBeginningOfQueue: true,
      includesEndOfQueue: true,
    });
  });

  it('answers 404 for an itemId that is not in the queue, also one removed a moment ago', async () => {
    const queue = await createQueue();
    expectError(await window(queue, 'reason=skipToItem&itemId=item-999'), 404, /item-999/);
    await admin(engine, 'DELETE', `/queues/${queue.id}/items/item-5`);
    expectError(await window(queue, 'reason=refresh&itemId=item-5'), 404);
  });

  it('answers a path it cannot read (a bad percent-escape) with the contract’s error body', async () => {
    expectError(await call(await createQueue(), 'itemWindow%ZZ?reason=load'), 400, /%ZZ/);
    // A queue id longer than the router reads keeps fastify's status, in the contract's shape.
    const long = await call(
      { queueBaseUrl: `${engine.urls.cloudQueue}/queues/${'q'.repeat(150)}/v2.3/`, accessToken: 't' } as QueueSummary,
      'context',
    );
    expectError(long, 414);
  });

  it('answers 400 for a bad size or reason', async () => {
    const queue = await createQueue();
    for (const query of [
      'reason=load&previousWindowSize=-1',
      'reason=load&upcomingWindowSize=-3',
      'reason=load&upcomingWindowSize=2.5',
      'reason=load&previousWindowSize=many',
      'reason=load&upcomingWindowSize=1&upcomingWindowSize=2',
      'reason=shuffle',
      'reason=load%2Brefresh',
      // Exactly one of the seed's values: no padding.
      'reason=%20load',
      'reason=load%20',
      'itemId=item-1',
    ]) {
      expectError(await window(queue, query), 400);
    }
    expect((await window(queue, 'reason=load&previousWindowSize=-1')).body.error.message).toMatch(/previousWindowSize/);
  });

  it('reflects each edit: the new version and the new order', async () => {
    const queue = await createQueue({ items: tracks(5) });
    const first = await window(queue, 'reason=load&upcomingWindowSize=10');
    await admin(engine, 'POST', `/queues/${queue.id}/items/move`, { itemIds: ['item-5'], afterItemId: null });
    const second = await window(queue, 'reason=refresh&upcomingWindowSize=10');
    expect(second.body.queueVersion).not.toBe(first.body.queueVersion);
    expect(ids(second)).toEqual(['item-5', 'item-1', 'item-2', 'item-3', 'item-4']);
    expect((await call(queue, 'version')).body.queueVersion).toBe(second.body.queueVersion);
  });
});

describe('POST /timePlayed', () => {
  it('stores valid reports and answers 204', async () => {
    const queue = await createQueue();
    const answer = await call(queue, 'timePlayed', {
      method: 'POST',
      body: {
        items: [
          report(),
          report({ type: 'final', skip: {} }),
          report({ id: 'item-4', type: 'final', skip: { reportId: 'r-1' } }),
        ],
      },
      headers: { 'x-player-id': 'player-office' },
    });
    expect(answer.status).toBe(204);
    const stored = (await admin(engine, 'GET', `/queues/${queue.id}/reports`)).body as TimePlayedRecordView[];
    expect(stored.map((r) => [r.itemId, r.type, r.playerId])).toEqual([
      ['item-4', 'final', 'player-office'],
      ['item-3', 'final', 'player-office'],
      ['item-3', 'update', 'player-office'],
    ]);
    expect(stored[0]!.report).toEqual(report({ id: 'item-4', type: 'final', skip: { reportId: 'r-1' } }));
    const forItem = (await admin(engine, 'GET', `/queues/${queue.id}/reports?itemId=item-3`))
      .body as TimePlayedRecordView[];
    expect(forItem).toHaveLength(2);
  });

  it.each([
    ['id', { id: 42 }],
    ['mediaUrl', { mediaUrl: undefined }],
    ['queueVersion', { queueVersion: 3 }],
    ['durationPlayedMillis', { durationPlayedMillis: -1 }],
    ['timeSincePlaybackMillis', { timeSincePlaybackMillis: '10' }],
    ['positionMillis', { positionMillis: null }],
    ['positionMillisAtSegmentStart', { positionMillisAtSegmentStart: undefined }],
    ['type', { type: 'start' }],
    ['skip', { skip: {} }],
    ['skip.reportId', { type: 'final', skip: { reportId: 7 } }],
  ])('answers 400 naming %s and stores nothing', async (field, change) => {
    const queue = await createQueue();
    const answer = await call(queue, 'timePlayed', { method: 'POST', body: { items: [report(), report(change)] } });
    expectError(answer, 400, `items[1].${field}`);
    expect((await admin(engine, 'GET', `/queues/${queue.id}/reports`)).body).toEqual([]);
  });

  it('answers 400 for a body that is not a report list', async () => {
    const queue = await createQueue();
    expectError(await call(queue, 'timePlayed', { method: 'POST', body: {} }), 400, /items/);
    expectError(await call(queue, 'timePlayed', { method: 'POST', body: { items: [] } }), 400, /items/);
    expectError(await call(queue, 'timePlayed', { method: 'POST', body: '{"items": [' }), 400);
    expectError(await call(queue, 'timePlayed', { method: 'POST', body: { items: ['x'] } }), 400, /items\[0\]/);
    // Nested past what anything reads (a 500 from the stack running out, before the limit).
    const deep = `{"items":[{"extra":${'['.repeat(5_000)}${']'.repeat(5_000)}}]}`;
    expectError(await call(queue, 'timePlayed', { method: 'POST', body: deep }), 400, /more than 100 deep/);
  });
});

describe('what each player did (for the editor and the player runtime)', () => {
  it('records per X-Player-Id the last itemWindow request, the window it got and its last report', async () => {
    const queue = await createQueue();
    const kitchen = { 'x-player-id': 'player-kitchen', 'x-request-id': 'req-1' };
    await call(queue, 'itemWindow?reason=skipToItem&itemId=item-7&previousWindowSize=1&upcomingWindowSize=2', {
      headers: kitchen,
    });
    await call(queue, 'itemWindow?reason=load', { headers: { 'x-player-id': 'player-office' } });
    await call(queue, 'timePlayed', {
      method: 'POST',
      body: { items: [report({ id: 'item-1' })] },
      headers: { 'x-player-id': 'player-office' },
    });
    const activity = (await admin(engine, 'GET', `/queues/${queue.id}/activity`)).body as QueueActivityView;
    const byId = Object.fromEntries(activity.players.map((p) => [p.playerId, p]));
    expect(byId['player-kitchen']).toMatchObject({
      playerName: 'Kitchen',
      currentItemId: 'item-7',
      itemWindow: {
        requestId: 'req-1',
        reason: 'skipToItem',
        itemId: 'item-7',
        previousWindowSize: 1,
        upcomingWindowSize: 2,
        status: 200,
        window: {
          anchorItemId: 'item-7',
          itemIds: ['item-6', 'item-7', 'item-8', 'item-9'],
          includesBeginningOfQueue: false,
          includesEndOfQueue: false,
        },
      },
    });
    expect(byId['player-office']).toMatchObject({
      currentItemId: 'item-1',
      lastRequest: { kind: 'timePlayed', status: 204 },
      lastReport: { itemId: 'item-1' },
    });
  });

  it('records failed windows too, with their status', async () => {
    const queue = await createQueue();
    await call(queue, 'itemWindow?reason=refresh&itemId=item-404', { headers: { 'x-player-id': 'player-kitchen' } });
    const activity = (await admin(engine, 'GET', `/queues/${queue.id}/activity`)).body as QueueActivityView;
    expect(activity.players[0]).toMatchObject({
      playerId: 'player-kitchen',
      itemWindow: { itemId: 'item-404', status: 404 },
    });
  });

  it('pushes queues.activity events as players call', async () => {
    const queue = await createQueue();
    const seen: unknown[] = [];
    const off = engine.events.on('queues.activity', (data) => seen.push(data));
    await call(queue, 'version', { headers: { 'x-player-id': 'player-kitchen' } });
    off();
    expect(seen).toEqual([
      { queueId: queue.id, playerId: 'player-kitchen', kind: 'version', at: expect.any(Number), status: 200 },
    ]);
  });
});

describe('a deleted queue', () => {
  it('answers 404 to players', async () => {
    const queue = await createQueue();
    expect((await admin(engine, 'DELETE', `/queues/${queue.id}`)).status).toBe(200);
    expectError(await call(queue, 'context'), 404);
    expect((await rawRequest(`${queue.queueBaseUrl}version`)).status).toBe(404);
  });
});
