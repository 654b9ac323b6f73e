/**
 * Keeps the queue caches true to the engine: an edit (`queues.changed`) refetches that queue's
 * keys, one refetch at a time (see `serialRefresh`); a player's call (`queues.activity`) its
 * activity and reports; a generation's progress (`queues.generation`) goes to its store. Calls can
 * come thousands a second under load, so each queue's activity refetch waits a moment and takes
 * whatever came meanwhile.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { Api } from '../../api';
import { queueKeys } from '../../queries/queues';
import { readAgain } from '../../queries/read-again';
import { serialRefresh } from '../../queries/serial-refresh';
import { useGenerationStore } from './generation-store';

const ACTIVITY_COALESCE_MS = 250;

export function wireQueueEvents(api: Api, queryClient: QueryClient): () => void {
  /** Per queue: the waiting refetch, and whether a report came in meanwhile. */
  const pending = new Map<string, { timer: ReturnType<typeof setTimeout>; reports: boolean }>();
  const refresh = serialRefresh((queueId) =>
    Promise.all([
      readAgain(queryClient, { queryKey: queueKeys.list() }),
      readAgain(queryClient, { queryKey: queueKeys.queue(queueId) }),
    ]),
  );
  const offChanged = api.on('queues.changed', ({ queueId, change }) => {
    if (change !== 'deleted') return refresh.changed(queueId);
    refresh.forget(queueId);
    useGenerationStore.getState().forget(queueId);
    void readAgain(queryClient, { queryKey: queueKeys.list() });
    queryClient.removeQueries({ queryKey: queueKeys.queue(queueId) });
  });
  const offActivity = api.on('queues.activity', ({ queueId, kind }) => {
    const waiting = pending.get(queueId);
    if (waiting) {
      waiting.reports ||= kind === 'timePlayed';
      return;
    }
    const timer = setTimeout(() => {
      const { reports } = pending.get(queueId)!;
      pending.delete(queueId);
      void readAgain(queryClient, { queryKey: queueKeys.activity(queueId) });
      void readAgain(queryClient, { queryKey: ['queues', 'queue', queueId, 'reports'] });
      // Report counts sit on the list's rows.
      if (reports) void readAgain(queryClient, { queryKey: ['queues', 'queue', queueId, 'page'] });
    }, ACTIVITY_COALESCE_MS);
    pending.set(queueId, { timer, reports: kind === 'timePlayed' });
  });
  const offGeneration = api.on('queues.generation', (generation) => useGenerationStore.getState().report(generation));
  return () => {
    offGeneration();
    offChanged();
    offActivity();
    for (const { timer } of pending.values()) clearTimeout(timer);
  };
}
