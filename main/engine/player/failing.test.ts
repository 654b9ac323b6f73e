/**
 * The failing mark (failing.ts): a run of failures counted from its first, let go by a success;
 * and, on a real engine, a PLAYING player whose reports are answered 401 once its queue's token
 * expired shows it in `GET /state` while its state stays PLAYING (platform §7.1: reports never
 * stop playback), until a request succeeds again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlExchange } from '../api/commands/player.js';
import type { PlayerDetail, PlayerFailing } from '../api/player-types.js';
import type { QueueSummary } from '../api/queue-types.js';
import type { EngineStateView } from '../api/types.js';
import type { Engine } from '../index.js';
import { adminOk, startTestEngine } from '../testing/http.js';
import type { PlayerExchange } from './client.js';
import { SHOWN_CHARS } from './shown.js';
import { failingAfter, sentTo } from './failing.js';

const exchange = (at: number, failure?: PlayerExchange['failure']): PlayerExchange => ({
  requestId: `r-${at}`,
  playerId: 'p',
  endpoint: 'timePlayed',
  method: 'POST',
  url: 'http://127.0.0.1/q/timePlayed',
  retry: 0,
  requestHeaders: {},
  startedAt: at,
  wallAt: at,
  durationMs: 5,
  latencyMs: 5,
  violations: [],
  trafficId: null,
  ...(failure ? { failure } : {}),
});

describe('failingAfter', () => {
  it('counts failures in a row from the first, keeps the last, and lets go on a success', () => {
    const first = failingAfter(null, exchange(1_000, { kind: 'other', status: 401, message: 'Incorrect token' }));
    expect(first).toEqual({
      since: 1_000,
      count: 1,
      endpoint: 'timePlayed',
      status: 401,
      message: 'Incorrect token',
      at: 1_005,
    });
    const second = failingAfter(first, {
      ...exchange(2_000, { kind: 'incomplete', message: 'no answer in 10 s' }),
      endpoint: 'version',
    });
    expect(second).toEqual({ since: 1_000, count: 2, endpoint: 'version', message: 'no answer in 10 s', at: 2_005 });
    expect(failingAfter(second, exchange(3_000))).toBeNull();
    expect(failingAfter(null, exchange(3_000))).toBeNull();
  });

  it('cuts a long message as a detail does', () => {
    const failing = failingAfter(null, exchange(0, { kind: 'other', status: 500, message: 'x'.repeat(50_000) }));
    expect(failing!.message.length).toBeLessThan(SHOWN_CHARS + 40);
  });
});

describe('a player whose reports are refused', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await startTestEngine({ clockSpeed: 0 });
  });
  afterAll(() => engine.close());

  const send = async (path: string, body: unknown) => {
    const answer = await adminOk<ControlExchange>(engine, 'POST', '/control/send', { method: 'POST', path, body });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as Record<string, unknown>;
  };
  const queueOf = (name: string, accessTokenLifetimeSec: number) => {
    const items = Array.from({ length: 6 }, (_, i) => ({
      track: { name: `${name} ${i + 1}`, mediaUrl: `https://media.example.com/${i + 1}.mp3`, durationMillis: 180_000 },
    }));
    return adminOk<QueueSummary>(engine, 'POST', '/queues', { name, items, accessTokenLifetimeSec });
  };
  const load = (sessionId: string, queue: QueueSummary) =>
    send(`/api/v1/playbackSessions/${sessionId}/playbackSession/loadCloudQueue`, {
      queueBaseUrl: queue.queueBaseUrl,
      httpAuthorization: queue.httpAuthorization,
      playOnCompletion: true,
    });
  const kitchen = async () =>
    (await adminOk<EngineStateView>(engine, 'GET', '/state')).players.find((p) => p.id === 'player-kitchen')!;
  const advance = (ms: number) => adminOk(engine, 'POST', '/clock', { advanceMs: ms });

  it('stays PLAYING and is marked failing, with the 401, until a request succeeds', async () => {
    const short = await queueOf('Short-lived token', 60);
    const { sessionId } = await send('/api/v1/groups/group-kitchen/playbackSession', {
      appId: 'com.example.failing',
      appContext: 'test',
    });
    await load(sessionId as string, short);
    await advance(1_000);
    expect(await kitchen()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', failing: null });

    // The token lapses after a minute; the first track's end posts a report that is refused.
    await advance(200_000);
    const refused = await kitchen();
    expect(refused.playbackState).toBe('PLAYBACK_STATE_PLAYING');
    expect(refused.failing).toMatchObject<Partial<PlayerFailing>>({ endpoint: 'timePlayed', status: 401 });
    expect(refused.failing!.count).toBeGreaterThanOrEqual(1);
    const detail = await adminOk<PlayerDetail>(engine, 'GET', '/players/player-kitchen/detail');
    expect(detail.failing).toEqual(refused.failing);

    // Another track's end: one more refused, counted in the same run.
    await advance(180_000);
    const again = (await kitchen()).failing!;
    expect(again.since).toBe(refused.failing!.since);
    expect(again.count).toBeGreaterThan(refused.failing!.count);

    // A queue with a fresh token: the load's window is answered, and the mark goes.
    await load(sessionId as string, await queueOf('Fresh token', 86_400));
    await advance(1_000);
    expect(await kitchen()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', failing: null });
  });

  it('is marked by a load its server refuses, which leaves it playing what it played', async () => {
    const queue = await queueOf('Wrong token', 86_400);
    const { sessionId } = await send('/api/v1/groups/group-kitchen/playbackSession', {
      appId: 'com.example.failing',
      appContext: 'test',
    });
    const refused = await adminOk<ControlExchange>(engine, 'POST', '/control/send', {
      method: 'POST',
      path: `/api/v1/playbackSessions/${sessionId as string}/playbackSession/loadCloudQueue`,
      body: { queueBaseUrl: queue.queueBaseUrl, httpAuthorization: 'Bearer not-the-token', playOnCompletion: true },
    });
    expect(refused.status).not.toBe(200);
    expect((await kitchen()).failing).toMatchObject({ status: 401, count: 1 });
  });
});

describe('sentTo', () => {
  const target = { queueBaseUrl: 'http://127.0.0.1:9/queues/q1/v2.3', httpAuthorization: 'Bearer a' };
  const to = (url: string, authorization?: string) => ({
    ...exchange(0),
    endpoint: 'itemWindow' as const,
    url,
    requestHeaders: (authorization ? { authorization } : {}) as Record<string, string>,
  });

  it('knows a request to the target by its base URL and its Authorization', () => {
    expect(sentTo(to('http://127.0.0.1:9/queues/q1/v2.3/itemWindow?reason=load', 'Bearer a'), target)).toBe(true);
    expect(sentTo(to('http://127.0.0.1:9/queues/q1/v2.3/itemWindow', 'Bearer b'), target)).toBe(false);
    expect(sentTo(to('http://127.0.0.1:9/queues/q2/v2.3/itemWindow', 'Bearer a'), target)).toBe(false);
    expect(sentTo(to('http://127.0.0.1:9/queues/q1/v2.3/itemWindow'), { queueBaseUrl: target.queueBaseUrl })).toBe(
      true,
    );
    expect(sentTo(to('not a url'), { queueBaseUrl: 'not a url' })).toBe(true);
  });
});
