/**
 * docs/contract/console.md §1: "A restart on the same data dir finds everything it had", players included: the
 * session an integration created, the queue it loaded and the playhead, saved as they change (so a
 * crash keeps the last change) and once more on close.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PlayerDetail } from '../api/player-types.js';
import type { EngineStateView, EngineWarning } from '../api/types.js';
import type { QueueSummary } from '../api/queue-types.js';
import type { Engine } from '../index.js';
import { DATABASE_FILE } from '../store/database.js';
import { EngineClock } from '../clock/clock.js';
import { EventBus } from '../events/bus.js';
import { seedDemoData } from '../household/seed.js';
import { openStore } from '../store/store.js';
import { admin, startTestEngine } from '../testing/http.js';
import { ManualWall } from '../testing/manual-wall.js';
import { PlayerRegistry } from './registry.js';
import { tempDirs } from '../testing/temp-dirs.js';

const tempDir = tempDirs('cqc-player-restart-');

async function control(engine: Engine, method: 'GET' | 'POST', path: string, body?: unknown) {
  const { status, body: answer } = await admin(engine, 'POST', '/control/send', {
    method,
    path,
    ...(body === undefined ? {} : { body }),
  });
  expect(status).toBe(200);
  return answer as { status: number; body: Record<string, unknown> };
}

const detail = async (engine: Engine) =>
  (await admin(engine, 'GET', '/players/player-kitchen/detail')).body as PlayerDetail;

/** A session on the kitchen's group with a three-track queue loaded and playing. */
async function playingKitchen(engine: Engine) {
  const items = ['One', 'Two', 'Three'].map((name, i) => ({
    track: { name, mediaUrl: `https://media.example/${i}.mp3`, durationMillis: 180_000 },
  }));
  const queue = (await admin(engine, 'POST', '/queues', { name: 'Kept', items })).body as QueueSummary;
  const session = await control(engine, 'POST', '/api/v1/groups/group-kitchen/playbackSession:1', {
    appId: 'com.example.app',
    appContext: 'restart',
  });
  const sessionId = session.body.sessionId as string;
  const load = await control(engine, 'POST', `/api/v1/playbackSessions/${sessionId}/playbackSession:1/loadCloudQueue`, {
    queueBaseUrl: queue.queueBaseUrl,
    httpAuthorization: queue.httpAuthorization,
    playOnCompletion: true,
  });
  expect(load.status).toBe(200);
  await admin(engine, 'POST', '/clock', { advanceMs: 60_000 });
  return { sessionId };
}

/** An engine on `dataDir` whose kitchen plays, then `meanwhile`, then a clean stop. */
async function playedAndStopped(dataDir: string, meanwhile?: (engine: Engine) => Promise<unknown>) {
  const engine = await startTestEngine({ dataDir, clockSpeed: 0 });
  const played = await playingKitchen(engine);
  await meanwhile?.(engine);
  await engine.close();
  return played;
}

/** `work` on the console's database file in `dataDir`, closed after. */
function withDatabase<T>(dataDir: string, work: (db: Database.Database) => T, readonly = true): T {
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly });
  try {
    return work(db);
  } finally {
    db.close();
  }
}

describe('a restart on the same data dir', () => {
  it('finds each player with its session, its queue and its playhead, and takes commands for that session', async () => {
    const dataDir = tempDir();
    let before!: PlayerDetail;
    let firstCloudQueue = '';
    const { sessionId } = await playedAndStopped(dataDir, async (first) => {
      before = await detail(first);
      firstCloudQueue = first.urls.cloudQueue;
    });
    expect(before).toMatchObject({ state: 'PLAYING', sessionId, positionMillis: expect.any(Number) as number });

    const second = await startTestEngine({ dataDir });
    try {
      const after = await detail(second);
      // Its queue is the console's own, found where the cloud queue server listens now (port 0: a new port).
      const queueBaseUrl = before.queueBaseUrl!.replace(firstCloudQueue, second.urls.cloudQueue);
      expect(second.urls.cloudQueue).not.toBe(firstCloudQueue);
      expect(after).toEqual({ ...before, queueBaseUrl, at: after.at });
      const group = await control(second, 'GET', '/api/v1/groups/group-kitchen/playback:1');
      expect(group.body).toMatchObject({
        playbackState: 'PLAYBACK_STATE_PLAYING',
        itemId: before.itemId,
        positionMillis: before.positionMillis,
      });

      // The integration's session still commands the player.
      const third = before.window!.items[2]!.id;
      const skip = await control(second, 'POST', `/api/v1/playbackSessions/${sessionId}/playbackSession:1/skipToItem`, {
        itemId: third,
      });
      expect(skip).toMatchObject({ status: 200, body: {} });
      await expect.poll(async () => (await detail(second)).itemId).toBe(third);
    } finally {
      await second.close();
    }
  });

  it('keeps each change as it happens, before any clean stop', async () => {
    const dataDir = tempDir();
    const engine = await startTestEngine({ dataDir, clockSpeed: 0 });
    try {
      const { sessionId } = await playingKitchen(engine);
      await new Promise((resolve) => setImmediate(resolve));
      const row = withDatabase(
        dataDir,
        (db) =>
          db.prepare('SELECT group_id, record FROM player_saved WHERE player_id = ?').get('player-kitchen') as {
            group_id: string;
            record: string;
          },
      );
      expect(row.group_id).toBe('group-kitchen');
      expect(JSON.parse(row.record)).toMatchObject({
        session: { id: sessionId },
        playback: { state: 'PLAYING', track: { item: { track: { name: 'One' } } } },
      });
    } finally {
      await engine.close();
    }
  });

  it('does not bring a player back into a group it no longer leads', async () => {
    const dataDir = tempDir();
    // The kitchen joins the office's group: its own group, and its session, are gone.
    await playedAndStopped(dataDir, (first) =>
      admin(first, 'POST', '/groups', { playerIds: ['player-office', 'player-kitchen'] }),
    );
    expect(withDatabase(dataDir, (db) => db.prepare('SELECT player_id FROM player_saved').pluck().all())).not.toContain(
      'player-kitchen',
    );
    const second = await startTestEngine({ dataDir, clockSpeed: 0 });
    try {
      for (const id of ['player-kitchen', 'player-office', 'player-living-room']) {
        expect((await admin(second, 'GET', `/players/${id}/detail`)).body).toMatchObject({
          state: 'IDLE',
          sessionId: null,
        });
      }
    } finally {
      await second.close();
    }
  });

  it('starts with an idle player, and says so, when a record cannot be taken up', async () => {
    const dataDir = tempDir();
    await playedAndStopped(dataDir);
    const damage =
      "UPDATE player_saved SET record = json_set(record, '$.playback.track', json('{}')) WHERE player_id = ?";
    withDatabase(dataDir, (db) => db.prepare(damage).run('player-kitchen'), false);
    const errors: string[] = [];
    const second = await startTestEngine({
      dataDir,
      log: { info: () => undefined, warn: () => undefined, error: (message: string) => errors.push(message) },
    });
    try {
      expect((await detail(second)).state).toBe('IDLE');
      const message = expect.stringMatching(
        /^player player-kitchen could not take up what it had before the restart \(.+\): it starts idle$/,
      );
      expect(errors).toEqual([message]);
      // Kept for the status bar: whoever opens the console later sees why the player is idle.
      expect(((await admin(second, 'GET', '/state')).body as EngineStateView).warnings).toEqual([
        { source: 'player-saved', message, firstAt: expect.any(Number), lastAt: expect.any(Number), count: 1 },
      ]);
    } finally {
      await second.close();
    }
  });

  it('says so, once per player and counting, when a player cannot be saved; playback goes on', async () => {
    const dataDir = tempDir();
    await playedAndStopped(dataDir);
    const second = await startTestEngine({ dataDir, clockSpeed: 0 });
    const events: EngineWarning[] = [];
    second.events.subscribe(
      (event) => void (event.name === 'engine.warning' && events.push(event.data as EngineWarning)),
    );
    try {
      // What a full disk or a read-only file would do to every save from now on.
      withDatabase(
        dataDir,
        (db) =>
          db.exec("CREATE TRIGGER no_save BEFORE UPDATE ON player_saved BEGIN SELECT RAISE(ABORT, 'disk full'); END"),
        false,
      );
      await admin(second, 'POST', '/players/player-kitchen/actions', { action: 'pause' });
      await admin(second, 'POST', '/players/player-kitchen/actions', { action: 'play' });
      expect((await detail(second)).state).toMatch(/BUFFERING|PLAYING/);
      const { warnings } = (await admin(second, 'GET', '/state')).body as EngineStateView;
      // Every player whose state changed since has a warning of its own.
      const kitchen = warnings.find((w) => w.message.includes('player-kitchen'));
      expect(kitchen).toEqual({
        source: 'player-saved',
        message:
          'could not save player player-kitchen (disk full): a restart would find it as it was before this change',
        firstAt: expect.any(Number),
        lastAt: expect.any(Number),
        count: expect.any(Number),
      });
      expect(kitchen!.count).toBeGreaterThanOrEqual(2);
      // Told at once, then at most once a second: not once per failed save.
      expect(events.filter((w) => w.message === kitchen!.message)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('keeps nothing a player does once the registry closed', async () => {
    const store = openStore({ dataDir: null });
    seedDemoData(store, 0);
    const clock = new EngineClock({ wall: new ManualWall(), speed: 0 });
    const registry = new PlayerRegistry({ store, clock, bus: new EventBus() });
    registry.resume('http://127.0.0.1:1');
    const kitchen = registry.forGroup('group-kitchen')!;
    kitchen.setVolume(40);
    registry.close();
    // A late answer, say, that changes the closed player.
    kitchen.setVolume(5);
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.playerSaved.get('player-kitchen')?.record).toMatchObject({ volume: 40 });
    clock.close();
    store.close();
  });
});
