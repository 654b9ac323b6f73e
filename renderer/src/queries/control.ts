/**
 * The command bar's sources (docs/login-service.md, "Sending control calls as an integration"):
 * the grants the console can send as, and example requests filled from the household. Neither
 * has an event of its own: the senders change when a token is issued, so they are read again on
 * every login service change and every few seconds while shown.
 */
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api/context';

export const controlKeys = {
  senders: ['control', 'senders'] as const,
  examples: (groupId: string | null) => ['control', 'examples', groupId ?? ''] as const,
};

/** How often a shown sender list is read again (a token issued in another tab has no event here). */
const SENDERS_REFRESH_MS = 2_000;

export function useControlSenders({ poll = false }: { poll?: boolean } = {}) {
  const api = useApi();
  return useQuery({
    queryKey: controlKeys.senders,
    queryFn: () => api.call('control.senders', {}),
    refetchInterval: poll ? SENDERS_REFRESH_MS : false,
  });
}

export function useControlExamples(groupId: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: controlKeys.examples(groupId),
    queryFn: () => api.call('control.examples', groupId ? { groupId } : {}),
  });
}
