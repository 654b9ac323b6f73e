/**
 * The seed data of a fresh data dir (docs/contract/console.md §1): "Demo Household" with three players, each in
 * its own group, and the login user demo/demo. Runs once; a restart finds what was stored.
 */
import { hashPassword } from '../security/passwords.js';
import type { Store } from '../store/store.js';

export const DEMO_HOUSEHOLD_ID = 'household-demo';
export const DEMO_PLAYERS = [
  { id: 'player-living-room', name: 'Living Room' },
  { id: 'player-kitchen', name: 'Kitchen' },
  { id: 'player-office', name: 'Office' },
] as const;
export const DEMO_USER = { username: 'demo', password: 'demo' } as const;

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
      passwordHash: hashPassword(DEMO_USER.password),
      householdId: DEMO_HOUSEHOLD_ID,
    });
    store.settings.set(SEEDED, true);
  });
}

/** A player's own group when it stands alone. */
export function groupIdFor(playerId: string): string {
  return `group-${playerId.replace(/^player-/, '')}`;
}
