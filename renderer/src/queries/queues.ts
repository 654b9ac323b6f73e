/**
 * The queues of the reference cloud queue server: query keys and hooks. Edits come back as
 * `queues.changed` and players' calls as `queues.activity` (see `features/queues/useQueueEvents`),
 * which invalidate exactly the keys below.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CommandInput, CommandName } from '@engine-api/commands';
import type { Api } from '../api';
import { useApi } from '../api/context';

/** Rows per page of the editor's list. */
export const PAGE_SIZE = 200;

export const queueKeys = {
  all: ['queues'] as const,
  list: () => ['queues', 'list'] as const,
  queue: (id: string) => ['queues', 'queue', id] as const,
  context: (id: string) => ['queues', 'queue', id, 'context'] as const,
  page: (id: string, page: number) => ['queues', 'queue', id, 'page', page] as const,
  activity: (id: string) => ['queues', 'queue', id, 'activity'] as const,
  reports: (id: string, itemId: string | null) => ['queues', 'queue', id, 'reports', itemId] as const,
};

export function useQueueList() {
  const api = useApi();
  return useQuery({ queryKey: queueKeys.list(), queryFn: () => api.call('queues.list', {}) });
}

export function useQueueContext(id: string) {
  const api = useApi();
  return useQuery({ queryKey: queueKeys.context(id), queryFn: () => api.call('queues.context', { id }) });
}

/**
 * One page of the editor's list. Pages stay fresh until `queues.changed` invalidates them; while
 * an edit's refetch runs, the old rows stay on screen.
 */
export function queuePageQuery(api: Api, id: string, page: number) {
  return queryOptions({
    queryKey: queueKeys.page(id, page),
    queryFn: () => api.call('queues.items.page', { id, offset: page * PAGE_SIZE, limit: PAGE_SIZE }),
    staleTime: Infinity,
  });
}

export function useQueueActivity(id: string) {
  const api = useApi();
  return useQuery({ queryKey: queueKeys.activity(id), queryFn: () => api.call('queues.activity', { id }) });
}

export function useItemReports(id: string, itemId: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: queueKeys.reports(id, itemId),
    queryFn: () => api.call('queues.reports', itemId ? { id, itemId, limit: 50 } : { id, limit: 50 }),
  });
}

/** A queue command as a mutation; the pushed `queues.changed` refreshes what it changed. */
export function useQueueCommand<N extends Extract<CommandName, `queues.${string}`>>(name: N) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CommandInput<N>) => api.call(name, input),
    // The event does it too; this covers a transport that dropped it.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queueKeys.all }),
  });
}
