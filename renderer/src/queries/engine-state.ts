/** The engine overview (`state.get`): URLs, household, players. */
import { useQuery } from '@tanstack/react-query';
import type { EngineStateView, GroupView, PlayerView } from '@engine-api/types';
import { useApi } from '../api/context';

export const engineStateKey = ['engine', 'state'] as const;

export function useEngineState() {
  const api = useApi();
  return useQuery({ queryKey: engineStateKey, queryFn: () => api.call('state.get', {}) });
}

/** Each group with the player that runs it (its coordinator; none while the household changes). */
export function groupCoordinators(
  state: EngineStateView | undefined,
): { group: GroupView; player: PlayerView | undefined }[] {
  return state
    ? state.groups.map((group) => ({ group, player: state.players.find((p) => p.id === group.coordinatorId) }))
    : [];
}
