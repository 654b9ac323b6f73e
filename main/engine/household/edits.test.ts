/** Household edits through the admin API: players added, renamed, removed; grouped, ungrouped. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GroupView, PlayerView } from '../api/types.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';

let engine: Engine;
beforeEach(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
});
afterEach(() => engine.close());

const groups = async () => (await admin(engine, 'GET', '/groups')).body as GroupView[];
const players = async () => (await admin(engine, 'GET', '/players')).body as PlayerView[];
const groupOf = async (playerId: string) => (await groups()).find((g) => g.playerIds.includes(playerId))!;

describe('players', () => {
  it('POST /players adds a player in a group of its own, in the household', async () => {
    const { status, body } = await admin(engine, 'POST', '/players', { name: 'Bedroom' });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: 'player-bedroom',
      name: 'Bedroom',
      householdId: 'household-demo',
      playbackState: 'PLAYBACK_STATE_IDLE',
    });
    const group = await groupOf('player-bedroom');
    expect(group).toMatchObject({ coordinatorId: 'player-bedroom', playerIds: ['player-bedroom'], name: 'Bedroom' });
    expect((await players()).map((p) => p.name)).toEqual(['Living Room', 'Kitchen', 'Office', 'Bedroom']);
    // The same name again gets its own id.
    expect((await admin(engine, 'POST', '/players', { name: 'Bedroom' })).body).toMatchObject({
      id: 'player-bedroom-2',
    });
  });

  it('PATCH /players/{id} renames; GET /players/{id} keeps its shape', async () => {
    expect((await admin(engine, 'PATCH', '/players/player-office', { name: 'Study' })).body).toMatchObject({
      id: 'player-office',
      name: 'Study',
    });
    // Its household fields and live state, then the detail of the player playing for its group.
    expect((await admin(engine, 'GET', '/players/player-office')).body).toMatchObject({
      id: 'player-office',
      name: 'Study',
      householdId: 'household-demo',
      groupId: 'group-office',
      playbackState: 'PLAYBACK_STATE_IDLE',
      suspended: false,
      itemId: null,
      positionMillis: 0,
      lastError: null,
      violations: [],
    });
  });

  it('rejects a blank name or an unknown player', async () => {
    expect((await admin(engine, 'POST', '/players', { name: '   ' })).status).toBe(400);
    expect((await admin(engine, 'POST', '/players', {})).status).toBe(400);
    expect((await admin(engine, 'PATCH', '/players/player-nope', { name: 'X' })).status).toBe(404);
    expect((await admin(engine, 'DELETE', '/players/player-nope')).status).toBe(404);
  });

  it('DELETE /players/{id} removes a player; its group goes with it when it stood alone', async () => {
    expect((await admin(engine, 'DELETE', '/players/player-office')).status).toBe(200);
    expect((await players()).map((p) => p.id)).toEqual(['player-living-room', 'player-kitchen']);
    expect((await groups()).map((g) => g.id)).not.toContain('group-office');
    expect((await admin(engine, 'GET', '/players/player-office')).status).toBe(404);
  });

  it('removing a coordinator hands its group to another member', async () => {
    await admin(engine, 'POST', '/groups', { playerIds: ['player-kitchen', 'player-office'] });
    await admin(engine, 'DELETE', '/players/player-kitchen');
    expect(await groupOf('player-office')).toMatchObject({
      coordinatorId: 'player-office',
      playerIds: ['player-office'],
    });
  });
});

describe('groups', () => {
  it('POST /groups groups players under the coordinator, leaving old groups tidy', async () => {
    const { status, body } = await admin(engine, 'POST', '/groups', {
      playerIds: ['player-office', 'player-kitchen'],
      coordinatorId: 'player-kitchen',
    });
    expect(status).toBe(200);
    // The coordinator's own group lives on; the office's empty group is gone.
    expect(body).toMatchObject({
      id: 'group-kitchen',
      coordinatorId: 'player-kitchen',
      playerIds: ['player-kitchen', 'player-office'],
      name: 'Kitchen + 1',
    });
    expect((await groups()).map((g) => g.id).sort()).toEqual(['group-kitchen', 'group-living-room']);
    expect((await admin(engine, 'GET', '/players/player-office')).body).toMatchObject({ groupId: 'group-kitchen' });
  });

  it('taking a member out of a larger group leaves the rest grouped', async () => {
    await admin(engine, 'POST', '/groups', { playerIds: ['player-living-room', 'player-kitchen', 'player-office'] });
    const { body } = await admin(engine, 'POST', '/groups', {
      playerIds: ['player-kitchen', 'player-office'],
      coordinatorId: 'player-office',
    });
    expect(body).toMatchObject({ coordinatorId: 'player-office', playerIds: ['player-office', 'player-kitchen'] });
    expect(await groupOf('player-living-room')).toMatchObject({
      coordinatorId: 'player-living-room',
      playerIds: ['player-living-room'],
    });
  });

  it('DELETE /groups/{id} ungroups: every member alone again', async () => {
    await admin(engine, 'POST', '/groups', { playerIds: ['player-living-room', 'player-kitchen', 'player-office'] });
    expect((await admin(engine, 'DELETE', '/groups/group-living-room')).status).toBe(200);
    const all = await groups();
    expect(all).toHaveLength(3);
    for (const group of all) expect(group.playerIds).toEqual([group.coordinatorId]);
  });

  it('rejects a coordinator outside the group, unknown players and unknown groups', async () => {
    expect(
      (await admin(engine, 'POST', '/groups', { playerIds: ['player-kitchen'], coordinatorId: 'player-office' }))
        .status,
    ).toBe(400);
    expect((await admin(engine, 'POST', '/groups', { playerIds: ['player-kitchen', 'player-nope'] })).status).toBe(404);
    expect((await admin(engine, 'POST', '/groups', { playerIds: [] })).status).toBe(400);
    expect((await admin(engine, 'DELETE', '/groups/group-nope')).status).toBe(404);
    expect(await groups()).toHaveLength(3);
  });

  it('pushes household.changed with the household as it now is', async () => {
    const seen: { groups: GroupView[] }[] = [];
    const off = engine.events.on('household.changed', (data) => seen.push(data));
    await admin(engine, 'POST', '/groups', { playerIds: ['player-kitchen', 'player-office'] });
    await admin(engine, 'POST', '/players', { name: 'Hall' });
    off();
    expect(seen).toHaveLength(2);
    expect(seen[0]!.groups.find((g) => g.id === 'group-kitchen')?.playerIds).toEqual([
      'player-kitchen',
      'player-office',
    ]);
  });

  it('keeps household edits and queues across a restart on the same data dir', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cqc-household-'));
    try {
      const first = await startTestEngine({ dataDir, clockSpeed: 0 });
      await admin(first, 'POST', '/players', { name: 'Garage' });
      await admin(first, 'POST', '/groups', { playerIds: ['player-garage', 'player-kitchen'] });
      const queue = (await admin(first, 'POST', '/queues', { name: 'Kept', items: [{ track: { name: 'a' } }] }))
        .body as { id: string; queueVersion: string };
      await first.close();
      const second = await startTestEngine({ dataDir, clockSpeed: 0 });
      try {
        expect((await admin(second, 'GET', '/players/player-kitchen')).body).toMatchObject({ groupId: 'group-garage' });
        expect((await admin(second, 'GET', `/queues/${queue.id}`)).body).toMatchObject({
          name: 'Kept',
          queueVersion: queue.queueVersion,
          items: [{ id: 'item-1' }],
        });
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
