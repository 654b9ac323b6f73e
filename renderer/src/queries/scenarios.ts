/**
 * Saved scenarios with the report of each one's last run. No event announces them: every save,
 * run and delete refreshes the list itself.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CommandInput } from '@engine-api/commands';
import { useApi } from '../api/context';

export const scenarioKeys = {
  list: ['scenarios', 'list'] as const,
};

export function useScenarios() {
  const api = useApi();
  return useQuery({ queryKey: scenarioKeys.list, queryFn: () => api.call('scenarios.list', {}) });
}

function useScenarioMutation<I, O>(run: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => queryClient.invalidateQueries({ queryKey: scenarioKeys.list }),
  });
}

export function useSaveScenario() {
  const api = useApi();
  return useScenarioMutation((input: CommandInput<'scenarios.save'>) => api.call('scenarios.save', input));
}

export function useRunScenario() {
  const api = useApi();
  return useScenarioMutation((id: string) => api.call('scenarios.run', { id }));
}

export function useDeleteScenario() {
  const api = useApi();
  return useScenarioMutation((id: string) => api.call('scenarios.delete', { id }));
}
