/** Household edits (players, groups); the engine pushes `household.changed` after each. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CommandInput, CommandName } from '@engine-api/commands';
import { useApi } from '../api/context';
import { engineStateKey } from './engine-state';

type HouseholdCommand = 'players.create' | 'players.update' | 'players.delete' | 'groups.create' | 'groups.delete';

export function useHouseholdCommand<N extends Extract<CommandName, HouseholdCommand>>(name: N) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CommandInput<N>) => api.call(name, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: engineStateKey }),
  });
}
