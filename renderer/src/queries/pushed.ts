/**
 * Pushed events written into the query cache. While a query is being fetched, the answer on its
 * way may have been read before the event happened; left alone it would overwrite the event and
 * lose it for good (the first step of a flow, the first transition of a player). So a fetch in
 * flight is cancelled: when the event could be applied to cached data, the cancel reverts to
 * that data (react-query keeps a manual write as the state to revert to); when nothing was cached
 * yet, the query is fetched anew. (`invalidateQueries` would not do: it shares a first fetch in
 * flight rather than restart it.)
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';

export function applyPushed<T>(
  queryClient: QueryClient,
  queryKey: QueryKey,
  update: (cached: T | undefined) => T | undefined,
): void {
  const fetching = queryClient.getQueryState(queryKey)?.fetchStatus === 'fetching';
  const next = update(queryClient.getQueryData<T>(queryKey));
  if (next !== undefined) queryClient.setQueryData<T>(queryKey, next);
  if (!fetching) return;
  const cancelled = queryClient.cancelQueries({ queryKey, exact: true });
  if (next === undefined) void cancelled.then(() => queryClient.refetchQueries({ queryKey, exact: true }));
}
