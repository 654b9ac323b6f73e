/**
 * An event says the engine's data changed: what the cache holds of it is read again, and what is
 * being read now is too. `invalidateQueries` alone shares a query's first read in flight rather
 * than restart it, and that read may have been answered from the data before the change: its
 * answer then counted as fresh, and with `staleTime: Infinity` nothing asked again until the next
 * event (a new search's traffic count read 0 just before the request it searched for was logged,
 * and stayed 0). Such a read is let finish, not cancelled (events that keep coming would cancel
 * every first read and nothing would ever show), and then read again. A read that had an answer
 * before is restarted by the invalidation itself (`cancelRefetch`). Pushed data written into the
 * cache has the same problem, solved for it by `applyPushed` (pushed.ts).
 */
import type { InvalidateQueryFilters, QueryClient } from '@tanstack/react-query';

export async function readAgain(queryClient: QueryClient, filters: InvalidateQueryFilters): Promise<void> {
  // A first read's own promise, not the invalidation's: an invalidation refetches only the reads
  // on screen, and one whose list went away meanwhile would land after the second and count as
  // fresh (review).
  const firstReads = queryClient
    .getQueryCache()
    .findAll(filters)
    .filter((query) => query.state.fetchStatus === 'fetching' && query.state.data === undefined)
    .map((query) => ({ queryKey: query.queryKey, answered: query.promise?.catch(() => undefined) }));
  await queryClient.invalidateQueries(filters);
  await Promise.all(
    firstReads.map(async ({ queryKey, answered }) => {
      await answered;
      await queryClient.invalidateQueries({ queryKey, exact: true });
    }),
  );
}
