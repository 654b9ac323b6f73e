/**
 * Fault rules and presets. `faults.changed` carries every rule with its live hit count (and its
 * shadow: what the rules before it take of its requests), so the cache is written in place on
 * each push (a 503 storm pushes one per hit) and never refetched.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { FaultRuleInput, FaultRuleView, FaultTarget } from '@engine-api/fault-types';
import type { Api } from '../api';
import { useApi } from '../api/context';
import { applyPushed } from './pushed';

export const faultKeys = {
  rules: ['faults', 'rules'] as const,
  presets: ['faults', 'presets'] as const,
};

export function useFaultRules() {
  const api = useApi();
  return useQuery({ queryKey: faultKeys.rules, queryFn: () => api.call('faults.list', {}), staleTime: Infinity });
}

export function useFaultPresets() {
  const api = useApi();
  return useQuery({ queryKey: faultKeys.presets, queryFn: () => api.call('faults.presets', {}), staleTime: Infinity });
}

/** A rule change; the pushed `faults.changed` updates the list, the refetch covers a dropped push. */
function useRuleMutation<I, O>(run: (api: Api, input: I) => Promise<O>) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => run(api, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: faultKeys.rules }),
  });
}

export const useAddFault = () => useRuleMutation((api, rule: FaultRuleInput) => api.call('faults.add', rule));
export const useApplyPreset = () =>
  useRuleMutation((api, input: { id: string; target: FaultTarget }) => api.call('faults.applyPreset', input));
export const useRemoveFault = () => useRuleMutation((api, id: string) => api.call('faults.remove', { id }));
export const useClearFaults = () => useRuleMutation((api, _: void) => api.call('faults.clear', {}));

/** Moves a rule in the matching order; its answer is the new order, written at once. */
export function useMoveFault() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; toIndex: number }) => api.call('faults.move', input),
    onSuccess: (rules) => queryClient.setQueryData(faultKeys.rules, rules),
  });
}

/** Sends now the request a rule waits for; a 409 says why the player would not send it now. */
export function useTriggerFault() {
  const api = useApi();
  return useMutation({ mutationFn: (id: string) => api.call('faults.trigger', { id }) });
}

/** Wires `faults.changed` to the cache; returns the unsubscribe function. */
export function wireFaultEvents(api: Api, queryClient: QueryClient): () => void {
  return api.on('faults.changed', (rules: FaultRuleView[]) => applyPushed(queryClient, faultKeys.rules, () => rules));
}
