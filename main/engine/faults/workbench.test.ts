/**
 * The workbench over the admin API, on a real engine with a stopped clock: a rule added under a live
 * 503 storm is reported as shadowed and does not fire until it is moved first; "Trigger now"
 * sends the request a rule waits for (a version poll now instead of in up to ten engine minutes),
 * and refuses, with the reason, a request the player would not send.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ControlExchange } from '../api/commands/player.js';
import type { FaultRuleView, TriggerResult } from '../api/fault-types.js';
import type { PlayerDetail } from '../api/player-types.js';
import type { QueueSummary } from '../api/queue-types.js';
import type { TrafficEntry } from '../api/traffic-types.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';

let engine: Engine;
let queue: QueueSummary;

beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
  const items = Array.from({ length: 8 }, (_, i) => ({
    track: { name: `Track ${i + 1}`, mediaUrl: `https://media.example.com/${i + 1}.mp3`, durationMillis: 240_000 },
  }));
  queue = (await admin(engine, 'POST', '/queues', { name: 'Workbench queue', items })).body as QueueSummary;
});
afterAll(() => engine.close());
beforeEach(async () => {
  await admin(engine, 'DELETE', '/faults');
  await admin(engine, 'DELETE', '/traffic');
});

async function send(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ControlExchange> {
  const { status, body: answer } = await admin(engine, 'POST', '/control/send', {
    method,
    path,
    ...(body !== undefined ? { body } : {}),
  });
  expect(status, JSON.stringify(answer)).toBe(200);
  return answer as ControlExchange;
}

/** The Kitchen player, on a new session, playing the queue. */
async function kitchenPlaying(): Promise<void> {
  const session = (
    await send('POST', '/api/v1/groups/group-kitchen/playbackSession', {
      appId: 'com.example.workbench',
      appContext: 'test',
    })
  ).body as { sessionId: string };
  const load = await send('POST', `/api/v1/playbackSessions/${session.sessionId}/playbackSession/loadCloudQueue`, {
    queueBaseUrl: queue.queueBaseUrl,
    httpAuthorization: queue.httpAuthorization,
    playOnCompletion: true,
  });
  expect(load.status).toBe(200);
  await advance(1_000);
  expect(((await admin(engine, 'GET', '/players/player-kitchen/detail')).body as PlayerDetail).state).toBe('PLAYING');
}

const advance = (ms: number) => admin(engine, 'POST', '/clock', { advanceMs: ms });
const rules = async () => (await admin(engine, 'GET', '/faults')).body as FaultRuleView[];
const traffic = async (query: string) => (await admin(engine, 'GET', `/traffic?${query}`)).body as TrafficEntry[];

describe('a rule shadowed by an earlier one', () => {
  it('is reported as shadowed and does not fire under a live 503 storm; moved first, it fires', async () => {
    await kitchenPlaying();
    const storm = (await admin(engine, 'POST', '/faults/presets/503-storm', {})).body as FaultRuleView;
    const window404 = (
      await admin(engine, 'POST', '/faults', {
        target: 'cloudQueue',
        match: { method: 'GET', path: '/itemWindow' },
        action: { type: 'status', status: 404 },
        times: 1,
        label: '404 on itemWindow',
      })
    ).body as FaultRuleView;
    const [, listed] = await rules();
    expect(listed).toMatchObject({
      id: window404.id,
      shadowedBy: { id: storm.id, label: '503 storm' },
      shadow: 'full',
      warning: expect.stringContaining('never fires'),
    });

    // The rule waits for a GET /itemWindow: "Trigger now" sends one (a refresh, as refreshCloudQueue would).
    const triggered = (await admin(engine, 'POST', `/faults/${window404.id}/trigger`, {})).body as TriggerResult;
    expect(triggered).toMatchObject({
      playerId: 'player-kitchen',
      request: 'refresh',
      sent: 'GET /itemWindow?reason=refresh',
      ruleId: window404.id,
    });
    await advance(0);
    await expect
      .poll(async () => (await traffic('target=cloudQueue&reason=refresh')).map((e) => e.status))
      .toEqual([503]);
    expect((await rules()).find((r) => r.id === window404.id)!.hits).toBe(0);

    const moved = await admin(engine, 'POST', `/faults/${window404.id}/move`, { toIndex: 0 });
    expect(moved.status).toBe(200);
    expect((moved.body as FaultRuleView[]).map((r) => [r.id, r.shadow])).toEqual([
      [window404.id, null],
      [storm.id, 'delayed'],
    ]);
    // The refresh's background retry, 10 s after its first try, meets the 404 first now.
    await advance(10_000);
    await expect
      .poll(async () => (await traffic('target=cloudQueue&reason=refresh')).map((e) => e.status))
      .toEqual([503, 404]);
    expect((await rules()).find((r) => r.id === window404.id)).toMatchObject({ hits: 1, spent: true });
    await expect
      .poll(async () => ((await admin(engine, 'GET', '/players/player-kitchen/detail')).body as PlayerDetail).state)
      .toBe('IDLE');
  });

  it('refuses to move or trigger a rule that is not there', async () => {
    expect((await admin(engine, 'POST', '/faults/fault-nope/move', { toIndex: 0 })).status).toBe(404);
    expect((await admin(engine, 'POST', '/faults/fault-nope/trigger', {})).status).toBe(404);
  });
});

describe('trigger now', () => {
  it('sends a version poll at once instead of in up to ten engine minutes', async () => {
    await kitchenPlaying();
    const answer = await admin(engine, 'POST', '/players/player-kitchen/trigger', { request: 'versionPoll' });
    expect(answer).toMatchObject({
      status: 200,
      body: { playerId: 'player-kitchen', request: 'versionPoll', sent: 'GET /version' },
    });
    await expect
      .poll(async () =>
        (await traffic('target=player')).filter((e) => e.path.endsWith('/version')).map((e) => e.status),
      )
      .toEqual([200]);
  });

  it('a rule on /version is triggered with a version poll, and fails it', async () => {
    await kitchenPlaying();
    const rule = (await admin(engine, 'POST', '/faults/presets/version-drop', { target: 'player' }))
      .body as FaultRuleView;
    const answer = await admin(engine, 'POST', `/faults/${rule.id}/trigger`, { playerId: 'player-kitchen' });
    expect(answer).toMatchObject({ status: 200, body: { request: 'versionPoll', sent: 'GET /version' } });
    await expect.poll(async () => (await rules())[0]!.hits).toBe(1);
  });

  it('(outside audit) a drop at the console’s server on a connection just used reaches the player, not sent again', async () => {
    await kitchenPlaying();
    // The player's connection was used a moment ago (its load and first window): kept alive, reused.
    await admin(engine, 'POST', '/faults/presets/version-drop', { target: 'cloudQueue' });
    await admin(engine, 'POST', '/players/player-kitchen/trigger', { request: 'versionPoll' });
    const versions = async () =>
      (await traffic('target=player'))
        .filter((e) => e.path.endsWith('/version'))
        .map((e) => [e.status, e.outcome, e.retry]);
    // The players send nothing again unseen: the drop is a failure, retried as the platform says.
    await expect.poll(versions).toEqual([[null, 'incomplete', 0]]);
    await advance(11_000);
    await expect.poll(versions).toEqual([
      [null, 'incomplete', 0],
      [200, 'answered', 1],
    ]);
  });

  it('refuses what the player would not send, saying why', async () => {
    await kitchenPlaying();
    // The queue's policies have neither limitedSkips nor notifyUserIntent: a skip never asks the server.
    const skip = await admin(engine, 'POST', '/players/player-kitchen/trigger', { request: 'skipNext' });
    expect(skip).toMatchObject({
      status: 409,
      body: { error: { message: expect.stringContaining('sends no request') } },
    });
    const idle = await admin(engine, 'POST', '/players/player-office/trigger', { request: 'versionPoll' });
    expect(idle.status).toBe(409);
    const login = (await admin(engine, 'POST', '/faults', { target: 'login', action: { type: 'drop' } }))
      .body as FaultRuleView;
    const refused = await admin(engine, 'POST', `/faults/${login.id}/trigger`, {});
    expect(refused).toMatchObject({
      status: 409,
      body: { error: { message: expect.stringContaining('players do not send') } },
    });
    const load = (await admin(engine, 'POST', '/faults/presets/500-on-load', {})).body as FaultRuleView;
    const loadRefused = await admin(engine, 'POST', `/faults/${load.id}/trigger`, {});
    expect(loadRefused).toMatchObject({
      status: 409,
      body: { error: { message: expect.stringContaining('loadCloudQueue') } },
    });
    expect((await admin(engine, 'POST', '/players/player-kitchen/trigger', { request: 'reboot' })).status).toBe(400);
  });
});
