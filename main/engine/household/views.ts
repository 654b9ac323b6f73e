/**
 * The household as hosts see it: groups named the way users see them ("Kitchen + 1") and each
 * player with its live playback state, which the player runtime reports through `PlaybackStatus`.
 */
import type { PlayerFailing } from '../api/player-types.js';
import type { GroupView, HouseholdView, PlaybackState, PlayerView } from '../api/types.js';
import type { Group } from '../store/repositories/groups.js';
import type { Player } from '../store/repositories/players.js';
import type { Store } from '../store/store.js';

export interface PlaybackStatus {
  playbackState: PlaybackState;
  suspended: boolean;
  itemId: string | null;
  positionMillis: number;
  failing: PlayerFailing | null;
}

/** Where live playback state comes from; until a player runs, it is idle. */
export type PlaybackStatusSource = (player: Player) => PlaybackStatus;

export const idleStatus: PlaybackStatusSource = () => ({
  playbackState: 'PLAYBACK_STATE_IDLE',
  suspended: false,
  itemId: null,
  positionMillis: 0,
  failing: null,
});

export class HouseholdViews {
  constructor(
    private readonly store: Pick<Store, 'households' | 'groups' | 'players'>,
    private readonly status: PlaybackStatusSource = idleStatus,
  ) {}

  households(): HouseholdView[] {
    return this.store.households.list().map(({ id, name }) => ({ id, name }));
  }

  groups(): GroupView[] {
    const players = this.store.players.list();
    return this.store.groups.list().map((group) => groupView(group, players));
  }

  players(): PlayerView[] {
    return this.store.players.list().map((player) => this.playerView(player));
  }

  player(id: string): PlayerView | undefined {
    const player = this.store.players.get(id);
    return player && this.playerView(player);
  }

  private playerView(player: Player): PlayerView {
    return {
      id: player.id,
      name: player.name,
      householdId: player.householdId,
      groupId: player.groupId,
      ...this.status(player),
    };
  }
}

export function groupView(group: Group, players: readonly Player[]): GroupView {
  const members = players.filter((p) => p.groupId === group.id);
  const coordinator = members.find((p) => p.id === group.coordinatorId);
  const others = members.length - (coordinator ? 1 : 0);
  const name = (coordinator?.name ?? group.id) + (others > 0 ? ` + ${others}` : '');
  return {
    id: group.id,
    householdId: group.householdId,
    name,
    coordinatorId: group.coordinatorId,
    // The coordinator first, as the control API lists a group's players.
    playerIds: [...members]
      .sort((a, b) => Number(b.id === group.coordinatorId) - Number(a.id === group.coordinatorId))
      .map((p) => p.id),
  };
}
