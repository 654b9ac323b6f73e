/**
 * How the registry tells a player's change: `player.changed` with the player's detail, built only
 * when someone listens to it, and the group to its group listeners (event delivery) either way.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PlayerDetail } from '../api/player-types.js';
import { EngineClock } from '../clock/clock.js';
import { EventBus } from '../events/bus.js';
import { seedDemoData } from '../household/seed.js';
import { openStore } from '../store/store.js';
import { ManualWall } from '../testing/manual-wall.js';
import { PlayerRegistry } from './registry.js';

const closers: (() => unknown)[] = [];
afterEach(() => {
  for (const close of closers.splice(0).reverse()) close();
});

function registry() {
  const store = openStore({ dataDir: null });
  seedDemoData(store, 0);
  const clock = new EngineClock({ wall: new ManualWall(), speed: 0 });
  const bus = new EventBus();
  const players = new PlayerRegistry({ store, clock, bus });
  closers.push(
    () => store.close(),
    () => clock.close(),
    () => players.close(),
  );
  return { bus, players, player: players.forGroup('group-kitchen')! };
}

describe('a player change as the registry tells it', () => {
  it('builds no detail when nobody listens to player.changed, and tells the group listeners', () => {
    const { players, player } = registry();
    const detail = vi.spyOn(players, 'detail');
    const groups: string[] = [];
    players.onGroupChanged((groupId) => groups.push(groupId));

    player.setVolume(30);
    player.createSession('app', 'ctx');

    expect(groups).toEqual(['group-kitchen', 'group-kitchen']);
    expect(detail).not.toHaveBeenCalled();
  });

  it('sends the detail as it is after the change to a listener, and stops when it goes', () => {
    const { bus, players, player } = registry();
    const seen: PlayerDetail[] = [];
    const off = bus.on('player.changed', (detail) => seen.push(detail));

    player.setVolume(30);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ id: 'player-kitchen', groupId: 'group-kitchen', volume: 30 });
    expect(seen[0]).toEqual(players.detail(player));

    off();
    const detail = vi.spyOn(players, 'detail');
    player.setVolume(40);
    expect(seen).toHaveLength(1);
    expect(detail).not.toHaveBeenCalled();
  });

  it('keeps a group listener that throws apart from the change and from the other listeners', () => {
    const { players, player } = registry();
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const groups: string[] = [];
    players.onGroupChanged(() => {
      throw new Error('a broken listener');
    });
    players.onGroupChanged((groupId) => groups.push(groupId));
    player.setVolume(30);
    expect(player.getVolume()).toBe(30);
    expect(groups).toEqual(['group-kitchen']);
    expect(error).toHaveBeenCalledTimes(1);
    error.mockRestore();
  });

  it('stops telling a group listener once it is taken away', () => {
    const { players, player } = registry();
    const groups: string[] = [];
    const off = players.onGroupChanged((groupId) => groups.push(groupId));
    player.setVolume(30);
    off();
    player.setVolume(40);
    expect(groups).toEqual(['group-kitchen']);
  });
});
