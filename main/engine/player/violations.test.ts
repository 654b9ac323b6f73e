/**
 * Contract violations stored and readable (docs/contract/console.md §5): each one with the traffic
 * entry of the exchange it came in, kept across restarts (the newest 1,000 a player), in the
 * player detail (the newest 20), at `GET /admin/api/players/{id}/violations?limit`; and a failed
 * load is the player's last error.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PlayerDetail, PlayerViolation } from '../api/player-types.js';
import type { TrafficEntry } from '../api/traffic-types.js';
import { EngineClock } from '../clock/clock.js';
import { EventBus } from '../events/bus.js';
import { seedDemoData } from '../household/seed.js';
import type { Engine } from '../index.js';
import { openStore } from '../store/store.js';
import { admin, startTestEngine } from '../testing/http.js';
import { ManualWall } from '../testing/manual-wall.js';
import { playerHarness, type PlayerHarness } from '../testing/player-harness.js';
import { StubCloudQueue, tracks } from '../testing/stub-cloud-queue.js';
import { tempDirs } from '../testing/temp-dirs.js';
import { trafficCommandHandlers } from '../traffic/commands.js';
import { openStoreWithTrafficLog } from '../traffic/log/index.js';
import { entryOfExchange } from '../traffic/player-exchange.js';
import { TrafficRecorder } from '../traffic/recorder.js';
import { PlayerRegistry } from './registry.js';

const tempDir = tempDirs('cqc-violations-');
const closers: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A server that answers an unknown itemId with a window from its first item (instead of 404). */
async function lenientServer(): Promise<StubCloudQueue> {
  const stub = await new StubCloudQueue({ items: tracks(5), policies: {} }).start();
  closers.push(() => stub.close());
  stub.script('itemWindow', {
    status: 200,
    body: { includesBeginningOfQueue: true, includesEndOfQueue: true, queueVersion: '1', items: tracks(5) },
  });
  return stub;
}

describe('a violation as the registry stores it', () => {
  async function registry() {
    const { store, traffic: log } = openStoreWithTrafficLog({ dataDir: null });
    seedDemoData(store, 0);
    const clock = new EngineClock({ wall: new ManualWall(), speed: 0, settleTimeoutMs: 500 });
    const bus = new EventBus();
    const recorder = new TrafficRecorder({ repo: log, settings: store.settings, bus });
    const players = new PlayerRegistry({ store, clock, bus, onExchange: (e) => recorder.add(entryOfExchange(e)) });
    closers.push(
      () => store.close(),
      () => clock.close(),
      () => players.close(),
    );
    const pushed: PlayerViolation[] = [];
    bus.on('player.violation', (v) => pushed.push(v));
    return {
      store,
      players,
      pushed,
      traffic: trafficCommandHandlers(recorder, log, store),
      player: players.forGroup('group-kitchen')!,
    };
  }

  it('points at the traffic entry of the exchange, which lists it; a failed load is the last error', async () => {
    const { players, pushed, traffic, player } = await registry();
    const stub = await lenientServer();
    player.createSession('app', 'ctx');
    await expect(
      player.load({ queueBaseUrl: stub.baseUrl, itemId: 'nope', playOnCompletion: true }),
    ).rejects.toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });

    const [violation, ...more] = players.violations(player.id, 10);
    expect(more).toEqual([]);
    expect(violation).toEqual({
      id: expect.any(Number),
      at: expect.any(Number),
      playerId: 'player-kitchen',
      level: 'error',
      rule: 'itemWindow.requested-item',
      message: expect.stringContaining('must be answered 404'),
      trafficId: expect.any(Number),
    });
    expect(pushed).toEqual([violation]);
    const entry = (await traffic['traffic.get']({ id: violation!.trafficId! })) as TrafficEntry;
    expect(entry).toMatchObject({
      target: 'player',
      path: '/q/v2.0/itemWindow',
      reason: 'load',
      violations: [violation],
    });
    expect(entry.url).toContain('itemId=nope');
    // The other exchanges of the load broke nothing.
    const listed = await traffic['traffic.list']({ target: 'player' });
    expect(listed.map((e) => [e.path, e.violations.length])).toEqual([
      ['/q/v2.0/context', 0],
      ['/q/v2.0/itemWindow', 1],
    ]);

    expect(players.detail(player)).toMatchObject({
      violations: [violation],
      lastError: { message: expect.stringContaining('does not hold the requested itemId nope'), status: 200 },
    });
  });

  it('gives the detail the newest 20, the ones stored before and those found since', async () => {
    const { store, players, player } = await registry();
    store.playerViolations.addAll(
      Array.from({ length: 30 }, (_, i) => ({
        at: i,
        playerId: 'player-kitchen',
        level: 'warning' as const,
        rule: 'version.body',
        message: `old ${i}`,
        trafficId: null,
      })),
    );
    expect(players.detail(player).violations.map((v) => v.message)).toEqual(
      Array.from({ length: 20 }, (_, i) => `old ${i + 10}`),
    );
    const stub = await lenientServer();
    player.createSession('app', 'ctx');
    await player.load({ queueBaseUrl: stub.baseUrl, itemId: 'nope' }).catch(() => undefined);
    const newest = players.detail(player).violations;
    expect(newest).toHaveLength(20);
    expect(newest.at(-2)!.message).toBe('old 29');
    expect(newest.at(-1)!.rule).toBe('itemWindow.requested-item');
  });
});

describe('the violation store', () => {
  it('keeps the newest 1,000 of each player, with ids that are never given again', () => {
    const store = openStore({ dataDir: null });
    closers.push(() => store.close());
    const add = (playerId: string, from: number, count: number) =>
      store.playerViolations.addAll(
        Array.from({ length: count }, (_, i) => ({
          at: from + i,
          playerId,
          level: 'error' as const,
          rule: 'context.body',
          message: `#${from + i}`,
          trafficId: from + i,
        })),
      );
    for (let from = 0; from < 1_000; from += 200) add('player-a', from, 200);
    add('player-b', 0, 3);
    const last = add('player-a', 1_000, 5);
    const kept = store.playerViolations.recent('player-a', 5_000);
    expect(kept).toHaveLength(1_000);
    expect(kept[0]!.message).toBe('#5');
    expect(kept.at(-1)).toEqual(last.at(-1));
    expect(store.playerViolations.recent('player-b', 5_000)).toHaveLength(3);
    // player-a's #2 went with its oldest; player-b's stays.
    expect(store.playerViolations.forTraffic(2).map((v) => v.playerId)).toEqual(['player-b']);
    expect(store.playerViolations.forTraffic(7).map((v) => v.playerId)).toEqual(['player-a']);
    // A server's text is stored cut to a bounded size.
    const [long] = store.playerViolations.addAll([
      {
        at: 0,
        playerId: 'player-b',
        level: 'warning',
        rule: 'itemWindow.unique-ids',
        message: 'x'.repeat(50_000),
        trafficId: null,
      },
    ]);
    expect(long!.message.length).toBeLessThanOrEqual(1_000);
  });
});

describe('a failed load', () => {
  let h: PlayerHarness;
  afterEach(() => h.close());

  it.each([
    ['its context answered 500', 'context', { status: 500 }, 500],
    ['its first window answered 503', 'itemWindow', { status: 503, headers: { 'retry-after': '2' } }, 503],
  ] as const)('sets lastError when %s', async (_name, endpoint, answer, status) => {
    h = await playerHarness({ items: tracks(3) });
    h.stub.script(endpoint, answer);
    await expect(h.load()).rejects.toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
    expect(h.player.snapshot().lastError).toEqual({
      at: h.clock.now(),
      message: expect.stringContaining(String(status)),
      status,
    });
  });
});

describe('over the admin API and across a restart', () => {
  const violationsOf = async (engine: Engine, query = '') => {
    const { status, body } = await admin(engine, 'GET', `/players/player-kitchen/violations${query}`);
    expect(status).toBe(200);
    return (body as { violations: PlayerViolation[] }).violations;
  };

  /** A load of a server that answers an unknown item with the first window, then a load of one without policies. */
  async function violated(engine: Engine) {
    const stub = await lenientServer();
    const send = async (path: string, body: unknown) =>
      (await admin(engine, 'POST', '/control/send', { method: 'POST', path, body })).body as {
        status: number;
        body: Record<string, unknown>;
      };
    const session = await send('/api/v1/groups/group-kitchen/playbackSession:1', {
      appId: 'com.example.app',
      appContext: 'violations',
    });
    const load = (itemId?: string) =>
      send(`/api/v1/playbackSessions/${session.body.sessionId as string}/playbackSession:1/loadCloudQueue`, {
        queueBaseUrl: stub.baseUrl,
        itemId,
        playOnCompletion: true,
      });
    expect((await load('nope')).body).toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
    // The failed load is the player's last error, on the player itself.
    expect((await admin(engine, 'GET', '/players/player-kitchen')).body).toMatchObject({
      lastError: { message: expect.any(String) },
    });
    // A context without playbackPolicies: a warning, and the load goes on.
    stub.script('context', { status: 200, body: { contextVersion: '1', queueVersion: '1', reports: {} } });
    expect((await load()).status).toBe(200);
  }

  it('lists them newest last, as many as asked for, each with its entry; after a restart too', async () => {
    const dataDir = tempDir();
    const first = await startTestEngine({ dataDir, clockSpeed: 0 });
    let before: PlayerViolation[];
    try {
      await violated(first);
      before = await violationsOf(first);
      expect(before.map((v) => [v.level, v.rule])).toEqual([
        ['error', 'itemWindow.requested-item'],
        ['warning', 'context.no-policies'],
      ]);
      expect(await violationsOf(first, '?limit=1')).toEqual([before[1]]);
      expect((await admin(first, 'GET', '/players/player-kitchen/violations?limit=0')).status).toBe(400);
      const detail = (await admin(first, 'GET', '/players/player-kitchen/detail')).body as PlayerDetail;
      expect(detail.violations).toEqual(before);
      // The player itself (`GET /admin/api/players/{id}`) says them too, and its last error (none
      // since the second load went through).
      const player = await admin(first, 'GET', '/players/player-kitchen');
      expect(player.status).toBe(200);
      expect(player.body).toMatchObject({
        id: 'player-kitchen',
        groupId: 'group-kitchen',
        name: expect.any(String),
        violations: before,
        lastError: null,
        playbackState: detail.playbackState,
      });
    } finally {
      await first.close();
    }

    const second = await startTestEngine({ dataDir, clockSpeed: 0 });
    try {
      expect(await violationsOf(second)).toEqual(before);
      const entry = (await admin(second, 'GET', `/traffic/${before[0]!.trafficId!}`)).body as TrafficEntry;
      expect(entry).toMatchObject({ target: 'player', reason: 'load', violations: [before[0]] });
      expect(((await admin(second, 'GET', '/players/player-kitchen/detail')).body as PlayerDetail).violations).toEqual(
        before,
      );
    } finally {
      await second.close();
    }
  });
});
