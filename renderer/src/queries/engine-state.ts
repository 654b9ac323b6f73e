/** The engine overview (`state.get`): URLs, household, players. */
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/context';

export const engineStateKey = ['engine', 'state'] as const;

export function useEngineState() {
  const api = useApi();
  return useQuery({ queryKey: engineStateKey, queryFn: () => api.call('state.get', {}) });
}
