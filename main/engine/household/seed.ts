/**
 * The seed data of a fresh data dir (docs/contract/console.md §1): "Demo Household" with three players, each in
 * its own group, and the login user demo/demo. Runs once; a restart finds what was stored.
 */
import type { Store } from '../store/store.js';

export const DEMO_HOUSEHOLD_ID = 'household-demo';
export const DEMO_PLAYERS = [
  { id: 'player-living-room', name: 'Living Room' },
  { id: 'player-kitchen', name: 'Kitchen' },
  { id: 'player-office', name: 'Office' },
] as const;
export const DEMO_USER = { username: 'demo', password: 'demo' } as const;
/**
 * `demo`'s password as `hashPassword` stores it, worked out once: the password is public (the
 * README prints it), and every console that starts on a fresh data dir (each `run`, each `check`,
 * each test) paid a whole scrypt, about 250 ms of CPU on a busy machine, to hash it again.
 */
export const DEMO_PASSWORD_HASH = 'scrypt$5I9z5zD1fkybTBBB6qQiqw$qRI9ec3_hbzuiDp2gDYYRqzdQ1mJwtBR-wXshv_7bD0';

const SEEDED = 'seed.applied';

export function seedDemoData(store: Store, now: number): void {
  if (store.settings.get<boolean>(SEEDED)) return;
  store.transaction(() => {
    store.households.create({ id: DEMO_HOUSEHOLD_ID, name: 'Demo Household', createdAt: now });
    DEMO_PLAYERS.forEach((player, position) => {
      const groupId = groupIdFor(player.id);
      store.groups.create({ id: groupId, householdId: DEMO_HOUSEHOLD_ID, coordinatorId: player.id });
      store.players.create({ id: player.id, householdId: DEMO_HOUSEHOLD_ID, groupId, name: player.name, position });
    });
    store.users.create({
      id: 'user-demo',
      username: DEMO_USER.username,
      passwordHash: DEMO_PASSWORD_HASH,
      householdId: DEMO_HOUSEHOLD_ID,
    });
    store.settings.set(SEEDED, true);
  });
}

/** A player's own group when it stands alone. */
export function groupIdFor(playerId: string): string {
  return `group-${playerId.replace(/^player-/, '')}`;
}
