/**
 * A queue's players across a restart: players come back as they were (docs/persistence.md), so the
 * editor's Players panel must not say that none has called a queue whose reports it lists beside.
 * After a start, each player's newest stored report is where the queue's activity begins.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { QueueActivityView, QueueSummary } from '../api/queue-types.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';

const dirs: string[] = [];
const engines: Engine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(dataDir: string): Promise<Engine> {
  const engine = await startTestEngine({ dataDir, clockSpeed: 0 });
  engines.push(engine);
  return engine;
}

const items = Array.from({ length: 5 }, (_, i) => ({
  track: { name: `Track ${i + 1}`, mediaUrl: `https://media.example.com/${i + 1}.mp3`, durationMillis: 180_000 },
}));

function report(itemId: string, at: number) {
  return {
    id: itemId,
    mediaUrl: 'https://media.example.com/x.mp3',
    queueVersion: '1',
    durationPlayedMillis: at,
    timeSincePlaybackMillis: at,
    positionMillis: at,
    positionMillisAtSegmentStart: 0,
    type: 'final',
  };
}

async function post(queue: QueueSummary, playerId: string | null, itemId: string, at: number): Promise<void> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${queue.accessToken}`,
    'content-type': 'application/json',
  };
  if (playerId) headers['x-player-id'] = playerId;
  const response = await fetch(`${queue.queueBaseUrl}timePlayed`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ items: [report(itemId, at)] }),
  });
  expect(response.status, await response.text()).toBe(204);
}

const activityOf = async (engine: Engine, queueId: string) =>
  (await admin(engine, 'GET', `/queues/${queueId}/activity`)).body as QueueActivityView;

describe("a queue's players after a restart", () => {
  it('begins from each player’s newest stored report, newest player first', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cqc-activity-'));
    dirs.push(dataDir);
    const first = await start(dataDir);
    const queue = (await admin(first, 'POST', '/queues', { items })).body as QueueSummary;
    await post(queue, 'player-kitchen', 'item-1', 1_000);
    await post(queue, 'player-office', 'item-1', 2_000);
    await post(queue, 'player-kitchen', 'item-2', 3_000);
    await post(queue, null, 'item-4', 4_000);
    const before = await activityOf(first, queue.id);
    expect(before.players.map((p) => p.playerId)).toEqual([null, 'player-kitchen', 'player-office']);
    await first.close();
    engines.length = 0;

    const second = await start(dataDir);
    const after = await activityOf(second, queue.id);
    expect(after.players.map((p) => [p.playerId, p.currentItemId, p.lastReport?.itemId])).toEqual([
      [null, 'item-4', 'item-4'],
      ['player-kitchen', 'item-2', 'item-2'],
      ['player-office', 'item-1', 'item-1'],
    ]);
    expect(after.players.map((p) => p.lastRequest)).toEqual(
      before.players.map((p) => ({ kind: 'timePlayed', at: p.lastRequest.at, status: 204 })),
    );
    expect(after.players.find((p) => p.playerId === 'player-kitchen')).toMatchObject({
      playerName: 'Kitchen',
      itemWindow: null,
      lastReport: { type: 'final', report: { positionMillis: 3_000 } },
    });
  });

  it('keeps a player’s stored report when its first request after the start is not a report', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cqc-activity-'));
    dirs.push(dataDir);
    const first = await start(dataDir);
    const created = (await admin(first, 'POST', '/queues', { items })).body as QueueSummary;
    await post(created, 'player-kitchen', 'item-2', 5_000);
    await first.close();
    engines.length = 0;

    const second = await start(dataDir);
    const queue = (await admin(second, 'GET', `/queues/${created.id}`)).body as QueueSummary;
    const version = await fetch(`${queue.queueBaseUrl}version`, {
      headers: { authorization: `Bearer ${created.accessToken}`, 'x-player-id': 'player-kitchen' },
    });
    expect(version.status).toBe(200);
    const [kitchen] = (await activityOf(second, queue.id)).players;
    expect(kitchen).toMatchObject({
      playerId: 'player-kitchen',
      currentItemId: 'item-2',
      lastRequest: { kind: 'version', status: 200 },
    });
  });
});
