/**
 * The control API (docs/contract/console.md §3) over real HTTP, driving real simulated players against a stub
 * cloud queue server, on a stopped engine clock.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineClock } from '../clock/clock.js';
import { EventBus } from '../events/bus.js';
import { DEMO_HOUSEHOLD_ID, seedDemoData } from '../household/seed.js';
import { HouseholdViews } from '../household/views.js';
import { BUFFERING_MS } from '../player/audio.js';
import { PlayerRegistry } from '../player/registry.js';
import { openStore, type Store } from '../store/store.js';
import { ManualWall } from '../testing/manual-wall.js';
import { StubCloudQueue, tracks } from '../testing/stub-cloud-queue.js';
import { buildControlApp } from './app.js';

const TOKEN = 'valid-token';
let store: Store;
let clock: EngineClock;
let players: PlayerRegistry;
let app: FastifyInstance;
let stub: StubCloudQueue;
let base: string;
/** The listener's origin, for paths outside `/api/v1`. */
let root: string;

beforeEach(async () => {
  store = openStore({ dataDir: null });
  seedDemoData(store, 0);
  clock = new EngineClock({ wall: new ManualWall(), speed: 0, settleTimeoutMs: 500 });
  players = new PlayerRegistry({ store, clock, bus: new EventBus() });
  app = await buildControlApp({
    verifyAccessToken: (token) =>
      token === TOKEN ? { householdId: DEMO_HOUSEHOLD_ID, scope: 'playback-control-all', clientId: 'c' } : null,
    views: new HouseholdViews(store, players.statusOf),
    store,
    players,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  root = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  base = `${root}/api/v1`;
  stub = await new StubCloudQueue({ items: tracks(12, 60_000) }).start();
});

afterEach(async () => {
  players.close();
  clock.close();
  await app.close();
  await stub.close();
  store.close();
});

async function call(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, token = TOKEN, prefix = base) {
  const response = await fetch(`${prefix}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {
    // plain text
  }
  return { status: response.status, body: json as Record<string, unknown> };
}

async function session(groupId = 'group-kitchen'): Promise<string> {
  const { body } = await call('POST', `/groups/${groupId}/playbackSession:1`, {
    appId: 'com.example.app',
    appContext: 'ctx',
  });
  return body.sessionId as string;
}

describe('bearer check', () => {
  it('answers 401 Incorrect token for a wrong token on every route', async () => {
    for (const path of ['/households', '/groups/group-kitchen/playback:1']) {
      const response = await call('GET', path, undefined, 'nope');
      expect(response).toEqual({ status: 401, body: 'Incorrect token' });
    }
  });
});

describe('what reaches the API before any route', () => {
  const raw = (method: string, path: string, headers: Record<string, string>, body?: string) =>
    fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, ...headers }, body }).then(
      async (r) => ({ status: r.status, body: (await r.json()) as unknown }),
    );

  it('takes a command sent with a JSON content type and no body, as many clients send every call', async () => {
    await call('POST', '/groups/group-kitchen/playbackSession:1', { appId: 'a', appContext: 'c' });
    expect(await raw('POST', '/groups/group-kitchen/playback:1/pause', { 'content-type': 'application/json' })).toEqual(
      { status: 409, body: expect.objectContaining({ errorCode: 'ERROR_PLAYBACK_NO_CONTENT' }) as unknown },
    );
    expect(
      await raw('POST', '/groups/group-kitchen/playbackSession:1', { 'content-type': 'application/json' }),
    ).toEqual({
      status: 400,
      body: expect.objectContaining({ errorCode: 'ERROR_MISSING_PARAMETERS' }) as unknown,
    });
  });

  it('answers a malformed or oversized body with the contract’s error body', async () => {
    const malformed = await raw(
      'POST',
      '/groups/group-kitchen/playbackSession:1',
      { 'content-type': 'application/json' },
      '{"appId":',
    );
    expect(malformed).toEqual({
      status: 400,
      body: { errorCode: 'ERROR_INVALID_PARAMETER', reason: expect.any(String) as unknown },
    });
    const poisoned = await raw(
      'POST',
      '/groups/group-kitchen/playbackSession:1',
      { 'content-type': 'application/json' },
      '{"__proto__":{"x":1}}',
    );
    expect(poisoned).toMatchObject({ status: 400, body: { errorCode: 'ERROR_INVALID_PARAMETER' } });
    const large = await raw(
      'POST',
      '/groups/group-kitchen/playbackSession:1',
      { 'content-type': 'application/json' },
      JSON.stringify({ appId: 'x'.repeat(2 * 1024 * 1024) }),
    );
    expect(large).toMatchObject({ status: 413, body: { errorCode: 'ERROR_INVALID_PARAMETER' } });
  });

  it('answers a path it cannot read (a bad percent-escape) with the contract’s error body', async () => {
    expect(await call('GET', '/households%ZZ')).toEqual({
      status: 400,
      body: { errorCode: 'ERROR_INVALID_PARAMETER', reason: expect.stringContaining('%ZZ') as unknown },
    });
  });

  it('answers a call it does not have with 404 ERROR_UNSUPPORTED_COMMAND, after the token check', async () => {
    expect(await call('POST', '/groups/group-kitchen/playback:1/bogus')).toEqual({
      status: 404,
      body: {
        errorCode: 'ERROR_UNSUPPORTED_COMMAND',
        reason: 'the control API has no POST /api/v1/groups/group-kitchen/playback:1/bogus',
      },
    });
    // A path it has, with a method it has not; one outside the API's prefixes; one under the real service's.
    expect(await call('GET', '/groups/group-kitchen/playback:1/seek')).toMatchObject({
      status: 404,
      body: { errorCode: 'ERROR_UNSUPPORTED_COMMAND' },
    });
    expect(await call('GET', '/households', undefined, TOKEN, `${root}/api/v2`)).toMatchObject({
      status: 404,
      body: { errorCode: 'ERROR_UNSUPPORTED_COMMAND' },
    });
    expect(
      await call('POST', '/groups/group-kitchen/playback:1/bogus', undefined, TOKEN, `${root}/control/api/v1`),
    ).toEqual({
      status: 404,
      body: {
        errorCode: 'ERROR_UNSUPPORTED_COMMAND',
        reason: 'the control API has no POST /control/api/v1/groups/group-kitchen/playback:1/bogus',
      },
    });
    // With a body too (refused unread, docs/contract/console.md §9): the same errorCode, as clients POST `{}`.
    for (const [method, path] of [
      ['POST', '/groups/group-kitchen/playback:1/dance'],
      ['POST', '/households'],
      ['PUT', '/groups/group-kitchen/groupVolume:1'],
    ] as const)
      expect(await call(method, path, { volume: 3 }), `${method} ${path} with a body`).toMatchObject({
        status: 404,
        body: { errorCode: 'ERROR_UNSUPPORTED_COMMAND' },
      });
    // An id that does not exist, on a call it has, is still ERROR_INVALID_OBJECT_ID.
    expect(await call('POST', '/groups/nope/playback:1/seek', { positionMillis: 0 })).toMatchObject({
      status: 404,
      body: { errorCode: 'ERROR_INVALID_OBJECT_ID' },
    });
    expect(
      await call('POST', '/playbackSessions/nope/playbackSession:1/seekRelative', { deltaMillis: 0 }),
    ).toMatchObject({ status: 404, body: { errorCode: 'ERROR_INVALID_OBJECT_ID' } });
    expect(await call('GET', '/nowhere', undefined, 'nope')).toEqual({ status: 401, body: 'Incorrect token' });
    // The token is checked before a body is read, on a call the API does not have too.
    const noToken = await fetch(`${base}/bogus`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"x":',
    });
    expect([noToken.status, await noToken.text()]).toEqual([401, 'Incorrect token']);
    const outside = await fetch(base.replace('/api/v1', '/nothing'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"x":',
    });
    expect(outside.status).toBe(401);
  });
});

describe('households and groups', () => {
  it('lists the household, its groups with playback state, and its players with capabilities', async () => {
    expect((await call('GET', '/households')).body).toEqual({
      households: [{ id: DEMO_HOUSEHOLD_ID, name: 'Demo Household' }],
    });
    const { body } = await call('GET', `/households/${DEMO_HOUSEHOLD_ID}/groups`);
    expect(body.groups).toContainEqual({
      id: 'group-kitchen',
      name: 'Kitchen',
      coordinatorId: 'player-kitchen',
      playbackState: 'PLAYBACK_STATE_IDLE',
      playerIds: ['player-kitchen'],
    });
    expect(body.players).toContainEqual({
      id: 'player-office',
      name: 'Office',
      capabilities: expect.arrayContaining(['CLOUD', 'PLAYBACK']),
    });
  });

  it('answers ERROR_INVALID_OBJECT_ID for a household or group that is not the caller\u2019s', async () => {
    expect(await call('GET', '/households/other/groups')).toMatchObject({
      status: 404,
      body: { errorCode: 'ERROR_INVALID_OBJECT_ID' },
    });
    expect(await call('GET', '/groups/nope/playback:1')).toMatchObject({
      status: 404,
      body: { errorCode: 'ERROR_INVALID_OBJECT_ID' },
    });
  });
});

describe('sessions', () => {
  it('creates a session, and joinOrCreate joins it for the same app', async () => {
    const created = await call('POST', '/groups/group-kitchen/playbackSession:1', {
      appId: 'com.example.app',
      appContext: 'ctx',
    });
    expect(created).toEqual({
      status: 200,
      body: { sessionId: expect.any(String), sessionState: 'SESSION_STATE_CONNECTED', sessionCreated: true },
    });
    const joined = await call('POST', '/groups/group-kitchen/playbackSession:1/joinOrCreate', {
      appId: 'com.example.app',
      appContext: 'ctx',
    });
    expect(joined.body).toEqual({
      sessionId: created.body.sessionId,
      sessionState: 'SESSION_STATE_CONNECTED',
      sessionCreated: false,
    });
    const other = await call('POST', '/groups/group-kitchen/playbackSession/joinOrCreate', {
      appId: 'com.other',
      appContext: 'x',
    });
    expect(other.body.sessionCreated).toBe(true);
  });

  it('answers ERROR_SESSION_EVICTED for a session another one replaced', async () => {
    const first = await session();
    await session();
    const response = await call('POST', `/playbackSessions/${first}/playbackSession:1/refreshCloudQueue`);
    expect(response).toMatchObject({ status: 410, body: { errorCode: 'ERROR_SESSION_EVICTED' } });
  });

  it('checks parameters: missing ones and wrong ones', async () => {
    expect(await call('POST', '/groups/group-kitchen/playbackSession:1', {})).toMatchObject({
      status: 400,
      body: { errorCode: 'ERROR_MISSING_PARAMETERS' },
    });
    const id = await session();
    expect(await call('POST', `/playbackSessions/${id}/playbackSession:1/loadCloudQueue`, {})).toMatchObject({
      status: 400,
      body: { errorCode: 'ERROR_MISSING_PARAMETERS', reason: expect.stringContaining('queueBaseUrl') },
    });
    expect(
      await call('POST', `/playbackSessions/${id}/playbackSession:1/loadCloudQueue`, { queueBaseUrl: 'ftp://x' }),
    ).toMatchObject({
      status: 400,
      body: { errorCode: 'ERROR_INVALID_PARAMETER' },
    });
    // Only its start looks like a URL: refused here, not thrown inside the player (which ended the engine).
    for (const queueBaseUrl of ['http://', 'http://[']) {
      expect(
        await call('POST', `/playbackSessions/${id}/playbackSession:1/loadCloudQueue`, { queueBaseUrl }),
      ).toMatchObject({
        status: 400,
        body: { errorCode: 'ERROR_INVALID_PARAMETER', reason: expect.stringContaining('queueBaseUrl') },
      });
    }
    // An Authorization value no request can carry is refused without being repeated back.
    const refused = await call('POST', `/playbackSessions/${id}/playbackSession:1/loadCloudQueue`, {
      queueBaseUrl: 'http://127.0.0.1:9/q/',
      httpAuthorization: 'Bearer secret-token\r\nX: 1',
    });
    expect(refused).toMatchObject({
      status: 400,
      body: { errorCode: 'ERROR_INVALID_PARAMETER', reason: expect.stringContaining('httpAuthorization') },
    });
    expect(JSON.stringify(refused.body)).not.toContain('secret-token');
    // A tab or a Latin-1 letter is a header value like any other: the load goes out (and fails there).
    const sent = await call('POST', `/playbackSessions/${id}/playbackSession:1/loadCloudQueue`, {
      queueBaseUrl: 'http://127.0.0.1:9/q/',
      httpAuthorization: 'Bearer\tt\u00e9',
    });
    expect(sent).toMatchObject({ status: 502, body: { errorCode: 'ERROR_CLOUD_QUEUE_SERVER' } });
    expect((await call('GET', '/households')).status).toBe(200);
    // customData nested past what anything reads: refused, not silently left unsaved.
    const deep = await fetch(`${base}/groups/group-kitchen/playbackSession:1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: `{"appId":"a","appContext":"b","customData":${'['.repeat(6_000)}${']'.repeat(6_000)}}`,
    });
    expect({ status: deep.status, body: await deep.json() }).toMatchObject({
      status: 400,
      body: { errorCode: 'ERROR_INVALID_PARAMETER', reason: expect.stringContaining('more than 100 deep') },
    });
  });
});

describe('loadCloudQueue and playback', () => {
  it('loads, answers after the first window, plays, and reports status and metadata', async () => {
    const id = await session();
    const load = await call('POST', `/playbackSessions/${id}/playbackSession:1/loadCloudQueue`, {
      queueBaseUrl: stub.baseUrl,
      httpAuthorization: 'Bearer q',
      itemId: 't2',
      playOnCompletion: true,
    });
    expect(load).toEqual({ status: 200, body: {} });
    expect(stub.reasons()).toEqual(['load']);
    await clock.advance(BUFFERING_MS + 5_000);
    expect((await call('GET', '/groups/group-kitchen/playback:1')).body).toEqual({
      playbackState: 'PLAYBACK_STATE_PLAYING',
      itemId: 't2',
      positionMillis: 5_000,
      queueVersion: '1',
    });
    const metadata = (await call('GET', '/groups/group-kitchen/playbackMetadata:1')).body;
    expect(metadata).toMatchObject({
      container: { name: 'Stub' },
      currentItem: { id: 't2', track: { name: 'Track 2' } },
      nextItem: { id: 't3' },
    });
    expect(await call('POST', '/groups/group-kitchen/playback:1/pause')).toEqual({ status: 200, body: {} });
    expect((await call('GET', '/groups/group-kitchen/playback')).body.playbackState).toBe('PLAYBACK_STATE_PAUSED');
    await call('POST', '/groups/group-kitchen/playback/togglePlayPause');
    expect((await call('GET', '/groups/group-kitchen/playback:1')).body.playbackState).toBe('PLAYBACK_STATE_PLAYING');
    await call('POST', '/groups/group-kitchen/playback:1/skipToNextTrack');
    expect((await call('GET', '/groups/group-kitchen/playback:1')).body.itemId).toBe('t3');
    await call('POST', '/groups/group-kitchen/playback:1/skipToPreviousTrack');
    expect((await call('GET', '/groups/group-kitchen/playback:1')).body.itemId).toBe('t2');
  });

  it('fails loadCloudQueue with the cloud queue\u2019s status and keeps the player as it was', async () => {
    const id = await session();
    stub.script('itemWindow', { status: 503, headers: { 'retry-after': '2' } }, { reason: 'load' });
    const response = await call('POST', `/sessions/${id}/playbackSession/loadCloudQueue`, {
      queueBaseUrl: stub.baseUrl,
      itemId: 't4',
    });
    expect(response).toEqual({
      status: 502,
      body: { errorCode: 'ERROR_CLOUD_QUEUE_SERVER', reason: expect.any(String), httpStatus: 503, itemId: 't4' },
    });
    expect((await call('GET', '/groups/group-kitchen/playback:1')).body.playbackState).toBe('PLAYBACK_STATE_IDLE');
  });

  it('names httpStatus and itemId on every ERROR_CLOUD_QUEUE_SERVER, null when there was no answer or no item', async () => {
    const id = await session();
    stub.script('itemWindow', { drop: true }, { reason: 'load' });
    const response = await call('POST', `/sessions/${id}/playbackSession/loadCloudQueue`, {
      queueBaseUrl: stub.baseUrl,
    });
    expect(response).toEqual({
      status: 502,
      body: { errorCode: 'ERROR_CLOUD_QUEUE_SERVER', reason: expect.any(String), httpStatus: null, itemId: null },
    });
  });

  it('answers skipToItem and refreshCloudQueue at once', async () => {
    const id = await session();
    await call('POST', `/playbackSessions/${id}/playbackSession:1/loadCloudQueue`, {
      queueBaseUrl: stub.baseUrl,
      playOnCompletion: true,
    });
    stub.script('itemWindow', { hang: true }, { reason: 'skipToItem' });
    const started = Date.now();
    expect(await call('POST', `/playbackSessions/${id}/playbackSession:1/skipToItem`, { itemId: 't7' })).toEqual({
      status: 200,
      body: {},
    });
    expect(await call('POST', `/playbackSessions/${id}/playbackSession:1/refreshCloudQueue`)).toEqual({
      status: 200,
      body: {},
    });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('refuses playback without content and skips a policy forbids', async () => {
    expect(await call('POST', '/groups/group-office/playback:1/play')).toMatchObject({
      status: 409,
      body: { errorCode: 'ERROR_PLAYBACK_NO_CONTENT' },
    });
    stub.policies = { canSkip: false };
    const id = await session('group-office');
    await call('POST', `/playbackSessions/${id}/playbackSession:1/loadCloudQueue`, { queueBaseUrl: stub.baseUrl });
    expect(await call('POST', '/groups/group-office/playback:1/skipToNextTrack')).toMatchObject({
      status: 403,
      body: { errorCode: 'ERROR_DISALLOWED_BY_POLICY' },
    });
  });

  it('reads and sets group volume', async () => {
    expect((await call('GET', '/groups/group-kitchen/groupVolume:1')).body).toEqual({ volume: 30 });
    expect((await call('POST', '/groups/group-kitchen/groupVolume:1', { volume: 55 })).status).toBe(200);
    expect((await call('GET', '/groups/group-kitchen/groupVolume')).body).toEqual({ volume: 55 });
    expect(await call('POST', '/groups/group-kitchen/groupVolume:1', { volume: 101 })).toMatchObject({
      status: 400,
      body: { errorCode: 'ERROR_INVALID_PARAMETER' },
    });
  });
});

describe('the real service\u2019s base path, /control/api/v1 (docs/contract/console.md §3)', () => {
  const real = () => `${root}/control/api/v1`;

  it('serves every call there too: a client that only lets you set the host works unchanged', async () => {
    expect(await call('GET', '/households', undefined, TOKEN, real())).toEqual(await call('GET', '/households'));
    expect(await call('GET', '/households', undefined, 'nope', real())).toEqual({
      status: 401,
      body: 'Incorrect token',
    });
    const created = await call(
      'POST',
      '/groups/group-kitchen/playbackSession:1',
      { appId: 'com.example.app', appContext: 'ctx' },
      TOKEN,
      real(),
    );
    expect(created.body).toMatchObject({ sessionCreated: true });
    const load = await call(
      'POST',
      `/playbackSessions/${created.body.sessionId as string}/playbackSession/loadCloudQueue`,
      { queueBaseUrl: stub.baseUrl, playOnCompletion: true },
      TOKEN,
      real(),
    );
    expect(load).toEqual({ status: 200, body: {} });
    await clock.advance(BUFFERING_MS);
    expect((await call('GET', '/groups/group-kitchen/playback:1', undefined, TOKEN, real())).body).toMatchObject({
      playbackState: 'PLAYBACK_STATE_PLAYING',
      itemId: 't1',
    });
    // The same session under either prefix.
    expect(
      (
        await call('POST', '/groups/group-kitchen/playbackSession:1/joinOrCreate', {
          appId: 'com.example.app',
          appContext: 'ctx',
        })
      ).body,
    ).toMatchObject({ sessionId: created.body.sessionId, sessionCreated: false });
  });
});

describe('seek and seekRelative (docs/contract/console.md §3)', () => {
  /** A session on the kitchen group playing t1 of the stub's 60 s tracks, `ms` into it. */
  async function playingFor(ms: number): Promise<string> {
    const id = await session();
    expect(
      (
        await call('POST', `/playbackSessions/${id}/playbackSession:1/loadCloudQueue`, {
          queueBaseUrl: stub.baseUrl,
          playOnCompletion: true,
        })
      ).status,
    ).toBe(200);
    await clock.advance(BUFFERING_MS + ms);
    return id;
  }
  const position = async () => (await call('GET', '/groups/group-kitchen/playback:1')).body.positionMillis;

  it('moves the playhead at group level, on every spelling and under both prefixes', async () => {
    await playingFor(1_000);
    let target = 2_000;
    for (const prefix of [base, `${root}/control/api/v1`]) {
      for (const namespace of ['playback:1', 'playback']) {
        expect(
          await call(
            'POST',
            `/groups/group-kitchen/${namespace}/seek`,
            { positionMillis: target, itemId: 't1' },
            TOKEN,
            prefix,
          ),
        ).toEqual({ status: 200, body: {} });
        expect(await position()).toBe(target);
        expect(
          await call('POST', `/groups/group-kitchen/${namespace}/seekRelative`, { deltaMillis: 1_500 }, TOKEN, prefix),
        ).toEqual({ status: 200, body: {} });
        expect(await position()).toBe(target + 1_500);
        target += 5_000;
      }
    }
    expect(players.forGroup('group-kitchen')!.machineState).toBe('PLAYING');
  });

  it('moves the playhead at session level, on every spelling and under both prefixes', async () => {
    const id = await playingFor(1_000);
    let target = 2_000;
    for (const prefix of [base, `${root}/control/api/v1`]) {
      for (const path of [
        `/playbackSessions/${id}/playbackSession:1`,
        `/playbackSessions/${id}/playbackSession`,
        `/sessions/${id}/playbackSession:1`,
        `/sessions/${id}/playbackSession`,
      ]) {
        expect(await call('POST', `${path}/seek`, { positionMillis: target }, TOKEN, prefix)).toEqual({
          status: 200,
          body: {},
        });
        expect(await position()).toBe(target);
        expect(
          await call('POST', `${path}/seekRelative`, { deltaMillis: -1_000, itemId: 't1' }, TOKEN, prefix),
        ).toEqual({ status: 200, body: {} });
        expect(await position()).toBe(target - 1_000);
        target += 3_000;
      }
    }
  });

  it('clamps seekRelative to the track: back past its start is 0, past its end ends it and the next track plays', async () => {
    const id = await playingFor(5_000);
    await call('POST', '/groups/group-kitchen/playback:1/seekRelative', { deltaMillis: -60_000 });
    expect(await position()).toBe(0);
    await call('POST', `/playbackSessions/${id}/playbackSession:1/seekRelative`, { deltaMillis: 90_000 });
    await clock.advance(0);
    expect((await call('GET', '/groups/group-kitchen/playback:1')).body).toMatchObject({
      itemId: 't2',
      positionMillis: 0,
    });
  });

  it('starts a new report segment: positionMillisAtSegmentStart is where it landed, durationPlayedMillis goes on', async () => {
    await playingFor(10_000);
    await call('POST', '/groups/group-kitchen/playback:1/seek', { positionMillis: 40_000 });
    await clock.advance(5_000);
    await call('POST', '/groups/group-kitchen/playback:1/skipToNextTrack');
    await clock.advance(0);
    const final = stub.postedReports().find((r) => r.type === 'final' && r.id === 't1');
    expect(final).toMatchObject({
      durationPlayedMillis: 15_000,
      positionMillis: 45_000,
      positionMillisAtSegmentStart: 40_000,
      skip: { reportId: expect.any(String) },
    });
  });

  it('checks its parameters: a missing position or delta, a wrong type, an item that is not playing', async () => {
    const id = await playingFor(1_000);
    for (const prefix of ['/groups/group-kitchen/playback:1', `/playbackSessions/${id}/playbackSession:1`]) {
      expect(await call('POST', `${prefix}/seek`, { itemId: 't1' })).toEqual({
        status: 400,
        body: { errorCode: 'ERROR_MISSING_PARAMETERS', reason: 'missing positionMillis' },
      });
      expect(await call('POST', `${prefix}/seek`)).toMatchObject({
        status: 400,
        body: { errorCode: 'ERROR_MISSING_PARAMETERS' },
      });
      expect(await call('POST', `${prefix}/seekRelative`, {})).toEqual({
        status: 400,
        body: { errorCode: 'ERROR_MISSING_PARAMETERS', reason: 'missing deltaMillis' },
      });
      expect(await call('POST', `${prefix}/seek`, { positionMillis: -1 })).toMatchObject({
        status: 400,
        body: { errorCode: 'ERROR_INVALID_PARAMETER', reason: expect.stringContaining('positionMillis') },
      });
      expect(await call('POST', `${prefix}/seekRelative`, { deltaMillis: '5' })).toMatchObject({
        status: 400,
        body: { errorCode: 'ERROR_INVALID_PARAMETER', reason: expect.stringContaining('deltaMillis') },
      });
      expect(await call('POST', `${prefix}/seek`, { positionMillis: 5_000, itemId: 't2' })).toMatchObject({
        status: 400,
        body: { errorCode: 'ERROR_INVALID_PARAMETER', reason: expect.stringContaining('t2') },
      });
      expect(await call('POST', `${prefix}/seekRelative`, { deltaMillis: 5_000, itemId: 't2' })).toMatchObject({
        status: 400,
        body: { errorCode: 'ERROR_INVALID_PARAMETER' },
      });
    }
    expect(await position()).toBe(1_000);
  });

  it('is refused by policy when the item\u2019s canSeek is false, and with nothing loaded', async () => {
    expect(await call('POST', '/groups/group-office/playback:1/seek', { positionMillis: 0 })).toMatchObject({
      status: 409,
      body: { errorCode: 'ERROR_PLAYBACK_NO_CONTENT' },
    });
    const idle = await session('group-office');
    expect(
      await call('POST', `/playbackSessions/${idle}/playbackSession:1/seekRelative`, { deltaMillis: 1 }),
    ).toMatchObject({ status: 409, body: { errorCode: 'ERROR_PLAYBACK_NO_CONTENT' } });
    stub.items = stub.items.map((item) => (item.id === 't1' ? { ...item, policies: { canSeek: false } } : item));
    const id = await playingFor(1_000);
    for (const [path, body] of [
      ['/groups/group-kitchen/playback:1/seek', { positionMillis: 0 }],
      ['/groups/group-kitchen/playback/seekRelative', { deltaMillis: 1_000 }],
      [`/playbackSessions/${id}/playbackSession:1/seek`, { positionMillis: 0, itemId: 't1' }],
      [`/sessions/${id}/playbackSession/seekRelative`, { deltaMillis: -1_000 }],
    ] as const) {
      expect(await call('POST', path, body)).toMatchObject({
        status: 403,
        body: { errorCode: 'ERROR_DISALLOWED_BY_POLICY', reason: expect.stringContaining('canSeek') },
      });
    }
    expect(await position()).toBe(1_000);
    // The next item allows it.
    await call('POST', '/groups/group-kitchen/playback:1/skipToNextTrack');
    await clock.advance(BUFFERING_MS);
    expect(
      await call('POST', '/groups/group-kitchen/playback:1/seek', { positionMillis: 7_000, itemId: 't2' }),
    ).toEqual({ status: 200, body: {} });
  });
});
