/**
 * A whole session the way an integration runs one: a 50-track queue on the console's own cloud
 * queue server, a session and loadCloudQueue through the control API with a real access token,
 * then 2.5 hours of engine time in one jump. Everything the contract asks for along the way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayerDetail, PlayerTransition } from '../api/player-types.js';
import type { QueueSummary, TimePlayedRecordView } from '../api/queue-types.js';
import type { TrafficEntry } from '../api/traffic-types.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';

const TRACKS = 50;
const TRACK_MS = 180_000;
let engine: Engine;
let queue: QueueSummary;

async function control(method: 'GET' | 'POST', path: string, body?: unknown) {
  const { status, body: answer } = await admin(engine, 'POST', '/control/send', {
    method,
    path,
    ...(body === undefined ? {} : { body }),
  });
  expect(status).toBe(200);
  return answer as { status: number; body: Record<string, unknown> };
}

beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
  const items = Array.from({ length: TRACKS }, (_, i) => ({
    track: { name: `Track ${i + 1}`, mediaUrl: `https://media.example/${i + 1}.mp3`, durationMillis: TRACK_MS },
  }));
  const created = await admin(engine, 'POST', '/queues', {
    name: 'Fifty',
    items,
    reports: { sendUpdateAfterMillis: 30_000, periodicIntervalMillis: 60_000 },
  });
  queue = created.body as QueueSummary;
});
afterAll(() => engine.close());

describe('a 50-track session against the console\u2019s own cloud queue server', () => {
  it('plays every track once, reports each, asks for windows near the edge, and pauses after the last', async () => {
    const session = await control('POST', '/api/v1/groups/group-kitchen/playbackSession:1', {
      appId: 'com.example.app',
      appContext: 'session-test',
    });
    expect(session.body).toMatchObject({ sessionState: 'SESSION_STATE_CONNECTED', sessionCreated: true });
    const load = await control(
      'POST',
      `/api/v1/playbackSessions/${session.body.sessionId as string}/playbackSession:1/loadCloudQueue`,
      {
        queueBaseUrl: queue.queueBaseUrl,
        httpAuthorization: queue.httpAuthorization,
        playOnCompletion: true,
      },
    );
    expect(load).toEqual(expect.objectContaining({ status: 200, body: {} }));

    await admin(engine, 'POST', '/clock', { advanceMs: TRACKS * TRACK_MS + 120_000 });

    const player = (await admin(engine, 'GET', '/players/player-kitchen/detail')).body as PlayerDetail;
    expect(player).toMatchObject({ state: 'PAUSED', atEnd: true, lastError: null });
    const items = (await admin(engine, 'GET', `/queues/${queue.id}`)).body as { items: { id: string }[] };
    expect(player.itemId).toBe(items.items.at(-1)!.id);

    const reports = (
      (await admin(engine, 'GET', `/queues/${queue.id}/reports?limit=10000`)).body as TimePlayedRecordView[]
    ).reverse();
    const finals = reports.filter((r) => r.type === 'final');
    expect(finals.map((r) => r.itemId)).toEqual(items.items.map((i) => i.id));
    for (const final of finals)
      expect(final.report).toMatchObject({ durationPlayedMillis: TRACK_MS, positionMillis: TRACK_MS });
    // update after 30 s, then every 60 s: at 30, 90, 150 s of each track
    expect(reports.filter((r) => r.type === 'update')).toHaveLength(TRACKS * 3);

    const transitions = (await admin(engine, 'GET', '/players/player-kitchen/transitions?limit=5000'))
      .body as PlayerTransition[];
    const count = (row: string) => transitions.filter((t) => t.transition === row).length;
    expect(count('track-ends-next')).toBe(TRACKS - 1);
    expect(count('track-ends-last')).toBe(1);
    expect(
      transitions.filter((t) => t.cause === 'response' && t.transition === 'window-answered').length,
    ).toBeGreaterThan(3);

    const windows = (await admin(engine, 'GET', '/traffic?target=player&limit=5000')).body as TrafficEntry[];
    const reasons = windows.filter((e) => e.path.endsWith('/itemWindow')).map((e) => e.reason);
    expect(reasons[0]).toBe('load');
    expect(reasons).toContain('refresh');
    expect(reasons.at(-1)).toBe('queueCompleted');
    expect(windows.every((e) => e.status !== null && e.status < 400)).toBe(true);
    const polls = windows.filter((e) => e.path.endsWith('/version'));
    expect(polls.length).toBe(Math.floor((TRACKS * TRACK_MS) / 600_000));
  });

  it('refuses control commands without a token, as any integration would see', async () => {
    const response = await fetch(`${engine.urls.control}/api/v1/groups/group-kitchen/playback:1`);
    expect(response.status).toBe(401);
    expect(await response.text()).toBe('Incorrect token');
  });
});
