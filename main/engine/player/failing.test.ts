/**
 * The failing mark (failing.ts): a run of failures counted from its first, let go by a success;
 * and, on a real engine, a PLAYING player whose reports are answered 401 once its queue's token
 * expired shows it in `GET /state` while its state stays PLAYING (docs/contract/platform.md §7.1:
 * reports never stop playback), until a request succeeds again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlExchange } from '../api/commands/player.js';
import type { PlayerDetail, PlayerFailing } from '../api/player-types.js';
import type { QueueSummary } from '../api/queue-types.js';
import type { TrafficEntry } from '../api/traffic-types.js';
import type { EngineStateView } from '../api/types.js';
import type { Engine } from '../index.js';
import { adminOk, startTestEngine } from '../testing/http.js';
import type { PlayerExchange } from './client.js';
import { SHOWN_CHARS } from './shown.js';
import { FailingMark, failingAfter, sentTo } from './failing.js';

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

describe('FailingMark', () => {
  const played = { queueBaseUrl: 'http://127.0.0.1:9/queues/a/v2.3/', httpAuthorization: 'Bearer a' };
  const loading = { queueBaseUrl: 'http://127.0.0.1:9/queues/b/v2.3/', httpAuthorization: 'Bearer b' };
  const sent = (target: typeof played, at: number, status?: number): PlayerExchange => ({
    ...exchange(at, status === undefined ? undefined : { kind: 'other', status, message: `${status}` }),
    url: `${target.queueBaseUrl}timePlayed`,
    requestHeaders: { authorization: target.httpAuthorization },
  });

  it('keeps the played queue\u2019s run through a refused load of another queue', () => {
    const mark = new FailingMark();
    expect(mark.note(sent(played, 1_000, 401), [played])).toBe(true);
    expect(mark.note(sent(played, 2_000, 401), [played])).toBe(true);
    // A load of B, refused: B's failure is its own run; the played queue's is the one shown.
    expect(mark.note(sent(loading, 3_000, 401), [played, loading])).toBe(false);
    expect(mark.shown([played, loading])).toMatchObject({ since: 1_000, count: 2 });
    // B's success ends B's run only.
    expect(mark.note(sent(loading, 3_500), [played, loading])).toBe(false);
    // The load over (B was never taken), A's run goes on.
    mark.prune([played]);
    expect(mark.note(sent(played, 4_000, 401), [played])).toBe(true);
    expect(mark.shown([played])).toMatchObject({ since: 1_000, count: 3 });
  });

  it('shows the loading queue\u2019s run while nothing is played, and lets go of a queue left', () => {
    const mark = new FailingMark();
    expect(mark.note(sent(loading, 1_000, 503), [null, loading])).toBe(true);
    expect(mark.shown([null, loading])).toMatchObject({ count: 1, status: 503 });
    // The player left the queue (idle): the run goes, and a new load of it starts clean.
    mark.prune([null, null]);
    expect(mark.shown([null, loading])).toBeNull();
    expect(mark.note(sent(loading, 5_000, 503), [null, loading])).toBe(true);
    expect(mark.shown([null, loading])).toMatchObject({ since: 5_000, count: 1 });
  });

  it('ignores a request to a queue neither played nor loaded', () => {
    const mark = new FailingMark();
    expect(mark.note(sent(loading, 1_000, 401), [played])).toBe(false);
    expect(mark.shown([played, loading])).toBeNull();
  });
});

describe('a player whose requests are refused', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await startTestEngine({ clockSpeed: 0 });
  });
  afterAll(() => engine.close());

  const send = async (path: string, body: unknown) =>
    adminOk<ControlExchange>(engine, 'POST', '/control/send', { method: 'POST', path, body });
  const queueOf = (name: string, accessTokenLifetimeSec: number) => {
    const items = Array.from({ length: 6 }, (_, i) => ({
      track: { name: `${name} ${i + 1}`, mediaUrl: `https://media.example.com/${i + 1}.mp3`, durationMillis: 180_000 },
    }));
    return adminOk<QueueSummary>(engine, 'POST', '/queues', { name, items, accessTokenLifetimeSec });
  };
  /** A new session on a player of its own, playing `queue` (or loaded with `httpAuthorization` instead of its own). */
  const newSession = async (room: string) => {
    const player = await adminOk<{ id: string; groupId: string }>(engine, 'POST', '/players', { name: room });
    const started = await send(`/api/v1/groups/${player.groupId}/playbackSession`, {
      appId: 'com.example.failing',
      appContext: 'test',
    });
    expect(started.status).toBe(200);
    return { ...player, sessionId: (started.body as { sessionId: string }).sessionId };
  };
  const load = (sessionId: string, queue: QueueSummary, httpAuthorization = queue.httpAuthorization) =>
    send(`/api/v1/playbackSessions/${sessionId}/playbackSession/loadCloudQueue`, {
      queueBaseUrl: queue.queueBaseUrl,
      httpAuthorization,
      playOnCompletion: true,
    });
  const viewOf = async (playerId: string) =>
    (await adminOk<EngineStateView>(engine, 'GET', '/state')).players.find((p) => p.id === playerId)!;
  const advance = (ms: number) => adminOk(engine, 'POST', '/clock', { advanceMs: ms });

  it('stays PLAYING and is marked failing with the 401 while its token is expired; a new queue ends it', async () => {
    const short = await queueOf('Short-lived token', 60);
    const room = await newSession('Lapsed Room');
    expect((await load(room.sessionId, short)).status).toBe(200);
    await advance(1_000);
    expect(await viewOf(room.id)).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', failing: null });

    // The token lapses after a minute; the first track's end posts a report that is refused.
    await advance(200_000);
    const refused = await viewOf(room.id);
    expect(refused.playbackState).toBe('PLAYBACK_STATE_PLAYING');
    expect(refused.failing).toMatchObject<Partial<PlayerFailing>>({ endpoint: 'timePlayed', status: 401 });
    const detail = await adminOk<PlayerDetail>(engine, 'GET', `/players/${room.id}/detail`);
    expect(detail.failing).toEqual(refused.failing);

    // Another track's end: one more refused, counted in the same run.
    await advance(180_000);
    const again = (await viewOf(room.id)).failing!;
    expect(again.since).toBe(refused.failing!.since);
    expect(again.count).toBeGreaterThan(refused.failing!.count);

    // A queue with a fresh token: its load is answered; the track it cut off is reported to the
    // queue before, refused 401 again, and that queue's run is not shown any more.
    const before = Date.now();
    expect((await load(room.sessionId, await queueOf('Fresh token', 86_400))).status).toBe(200);
    await advance(1_000);
    expect(await viewOf(room.id)).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', failing: null });
    const cutOff = (await adminOk<TrafficEntry[]>(engine, 'GET', '/traffic?target=player&status=401')).filter(
      (entry) => entry.playerId === room.id && entry.wallAt >= before,
    );
    expect(cutOff.map((entry) => entry.path)).toEqual([`${new URL(short.queueBaseUrl).pathname}timePlayed`]);
  });

  it('is let go by the next request to the same queue that succeeds, and never told without its error', async () => {
    const queue = await queueOf('Two refused reports', 86_400);
    const room = await newSession('Refused Room');
    await adminOk(engine, 'POST', '/faults', {
      target: 'cloudQueue',
      match: { method: 'POST', path: `${new URL(queue.queueBaseUrl).pathname}timePlayed` },
      action: { type: 'status', status: 500 },
      times: 2,
    });
    // Every detail pushed while the mark is set already carries the error the failure noted.
    const pushed: PlayerDetail[] = [];
    const off = engine.events.subscribe((event) => {
      if (event.name === 'player.changed' && event.data.id === room.id) pushed.push(event.data);
    });
    try {
      expect((await load(room.sessionId, queue)).status).toBe(200);
      await advance(1_000);
      // The first two reports are refused (the rule's two times); the next one is stored. Engine
      // time moves 10 s at a time, no more than a report's interval, until each is seen.
      const until = async (what: (failing: PlayerFailing | null) => boolean) => {
        for (let step = 0; step < 60 && !what((await viewOf(room.id)).failing); step++) await advance(10_000);
        return (await viewOf(room.id)).failing;
      };
      expect(await until((failing) => failing?.count === 2)).toMatchObject({
        endpoint: 'timePlayed',
        status: 500,
        count: 2,
      });
      expect(await until((failing) => failing === null)).toBeNull();
      expect((await viewOf(room.id)).playbackState).toBe('PLAYBACK_STATE_PLAYING');
    } finally {
      off();
    }
    const withMark = pushed.filter((detail) => detail.failing !== null);
    expect(withMark.length).toBeGreaterThan(0);
    for (const detail of withMark) expect(detail.lastError?.message).toBe(detail.failing!.message);
  });

  it('is not marked by a load its server refuses: it plays on what it played, the error its last', async () => {
    const good = await queueOf('Good queue', 86_400);
    const room = await newSession('Good Room');
    expect((await load(room.sessionId, good)).status).toBe(200);
    await advance(1_000);
    const refused = await load(room.sessionId, await queueOf('Wrong token', 86_400), 'Bearer not-the-token');
    expect(refused.status).not.toBe(200);
    expect(await viewOf(room.id)).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', failing: null });
    const detail = await adminOk<PlayerDetail>(engine, 'GET', `/players/${room.id}/detail`);
    expect(detail.lastError?.status).toBe(401);
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
    // An empty Authorization is sent as none.
    expect(sentTo(to('http://127.0.0.1:9/queues/q1/v2.3/itemWindow'), { ...target, httpAuthorization: '' })).toBe(true);
  });
});
