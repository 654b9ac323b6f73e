import { describe, expect, it } from 'vitest';
import { PasswordChecker } from '../security/passwords.js';
import { openStore } from '../store/store.js';
import { DEMO_HOUSEHOLD_ID, seedDemoData } from './seed.js';
import { groupView, HouseholdViews } from './views.js';

describe('seed data (docs/contract/console.md §1)', () => {
  it('holds Demo Household with three players, each in its own group, and the user demo/demo', async () => {
    const store = openStore({ dataDir: null });
    seedDemoData(store, 0);
    const views = new HouseholdViews(store);
    expect(views.households()).toEqual([{ id: DEMO_HOUSEHOLD_ID, name: 'Demo Household' }]);
    expect(views.players().map((p) => p.name)).toEqual(['Living Room', 'Kitchen', 'Office']);
    const groups = views.groups();
    expect(groups).toHaveLength(3);
    for (const player of views.players()) {
      expect(groups.find((g) => g.id === player.groupId)).toMatchObject({
        coordinatorId: player.id,
        playerIds: [player.id],
        name: player.name,
      });
      expect(player.playbackState).toBe('PLAYBACK_STATE_IDLE');
    }
    const user = store.users.findByUsername('demo');
    expect(user?.householdId).toBe(DEMO_HOUSEHOLD_ID);
    expect(await new PasswordChecker().verify('demo', user!.passwordHash)).toBe(true);
    expect(await new PasswordChecker().verify('wrong', user!.passwordHash)).toBe(false);
  });

  it('runs once: a second start does not duplicate anything', () => {
    const store = openStore({ dataDir: null });
    seedDemoData(store, 0);
    seedDemoData(store, 0);
    expect(store.players.list()).toHaveLength(3);
  });
});

describe('groupView', () => {
  it('names a group after its coordinator, with + N for the other members, coordinator first', () => {
    const players = [
      { id: 'p1', householdId: 'h', groupId: 'g', name: 'Kitchen', position: 0 },
      { id: 'p2', householdId: 'h', groupId: 'g', name: 'Office', position: 1 },
      { id: 'p3', householdId: 'h', groupId: 'g', name: 'Hall', position: 2 },
    ];
    expect(groupView({ id: 'g', householdId: 'h', coordinatorId: 'p2' }, players)).toEqual({
      id: 'g',
      householdId: 'h',
      name: 'Office + 2',
      coordinatorId: 'p2',
      playerIds: ['p2', 'p1', 'p3'],
    });
  });
});
