/**
 * Each namespace's object, built once: the body its control API GET answers and its events carry
 * (docs/contract/console.md §3), so the two never differ. It sits below control/, which reads it.
 */
import type { HouseholdViews } from '../household/views.js';
import type { Player } from '../player/player.js';
import type { PlayerRegistry } from '../player/registry.js';

/** What every simulated player can do. */
const CAPABILITIES = ['CLOUD', 'PLAYBACK', 'AUDIO_CLIP'];

export const playbackStatusOf = (player: Player) => {
  const { playbackState, itemId, positionMillis, queueVersion } = player.status();
  return { playbackState, itemId, positionMillis, queueVersion };
};
export const metadataStatusOf = (player: Player) => player.metadata();
export const groupVolumeOf = (player: Player) => ({ volume: player.getVolume() });

/** A household's groups and players as `GET …/groups` answers them, and its `groups` events carry them. */
export function householdGroupsOf(
  deps: { views: HouseholdViews; players: Pick<PlayerRegistry, 'forGroup'> },
  householdId: string,
) {
  const players = deps.views.players().filter((p) => p.householdId === householdId);
  return {
    groups: deps.views
      .groups()
      .filter((g) => g.householdId === householdId)
      .map((g) => ({
        id: g.id,
        name: g.name,
        coordinatorId: g.coordinatorId,
        playbackState: deps.players.forGroup(g.id)?.status().playbackState ?? 'PLAYBACK_STATE_IDLE',
        playerIds: g.playerIds,
      })),
    players: players.map((p) => ({ id: p.id, name: p.name, capabilities: CAPABILITIES })),
  };
}
