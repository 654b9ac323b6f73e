/**
 * Keeps the queue caches true to the engine: an edit (`queues.changed`) refetches that queue's
 * keys, a player's call (`queues.activity`) its activity and reports. Calls can come thousands a
 * second under load, so each queue's refetch waits a moment and takes whatever came meanwhile.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { Api } from '../../api';
import { queueKeys } from '../../queries/queues';

const ACTIVITY_COALESCE_MS = 250;

export function wireQueueEvents(api: Api, queryClient: QueryClient): () => void {
  /** Per queue: the waiting refetch, and whether a report came in meanwhile. */
  const pending = new Map<string, { timer: ReturnType<typeof setTimeout>; reports: boolean }>();
  const offChanged = api.on('queues.changed', ({ queueId, change }) => {
    void queryClient.invalidateQueries({ queryKey: queueKeys.list() });
    if (change === 'deleted') queryClient.removeQueries({ queryKey: queueKeys.queue(queueId) });
    else void queryClient.invalidateQueries({ queryKey: queueKeys.queue(queueId) });
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
      void queryClient.invalidateQueries({ queryKey: queueKeys.activity(queueId) });
      void queryClient.invalidateQueries({ queryKey: ['queues', 'queue', queueId, 'reports'] });
      // Report counts sit on the list's rows.
      if (reports) void queryClient.invalidateQueries({ queryKey: ['queues', 'queue', queueId, 'page'] });
    }, ACTIVITY_COALESCE_MS);
    pending.set(queueId, { timer, reports: kind === 'timePlayed' });
  });
  return () => {
    offChanged();
    offActivity();
    for (const { timer } of pending.values()) clearTimeout(timer);
  };
}
