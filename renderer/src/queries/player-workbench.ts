/**
 * What the Player page's workbench asks of the engine besides the player itself: the timePlayed
 * reports a player posted to its console queue, and "Trigger now" (a rule's request, or one of the
 * player's own requests, sent at once).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { TriggerRequest } from '@engine-api/fault-types';
import { useApi } from '../api/context';
import { queueKeys, useQueueList } from './queues';
import { readAgain } from './read-again';

const REPORTS_READ = 200;

/** Under the queue's reports, so what invalidates those (a queue edit) reads these again too. */
const playerReportsKey = (queueId: string, playerId: string) =>
  [...queueKeys.reports(queueId, null), 'player', playerId] as const;

/**
 * The console queue a player plays, by the queueBaseUrl it was loaded with; null when it plays
 * another server's queue (the console then holds no reports of it) or none.
 */
export function usePlayedQueue(queueBaseUrl: string | null) {
  const queues = useQueueList().data ?? [];
  return queueBaseUrl ? (queues.find((q) => q.queueBaseUrl === queueBaseUrl) ?? null) : null;
}

/** The newest reports of a console queue that `playerId` posted, newest first; read again as its reports arrive. */
export function usePlayerReports(queueId: string | null, playerId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!queueId) return;
    return api.on('queues.activity', (activity) => {
      if (activity.queueId === queueId && activity.kind === 'timePlayed')
        void readAgain(queryClient, { queryKey: playerReportsKey(queueId, playerId) });
    });
  }, [api, queryClient, queueId, playerId]);
  return useQuery({
    queryKey: playerReportsKey(queueId ?? '', playerId),
    enabled: queueId !== null,
    queryFn: async () =>
      (await api.call('queues.reports', { id: queueId!, limit: REPORTS_READ })).filter((r) => r.playerId === playerId),
  });
}

/** "Trigger now" on a rule: the engine sends the request it waits for, from this player. */
export function useTriggerRule() {
  const api = useApi();
  return useMutation({ mutationFn: (input: { id: string; playerId: string }) => api.call('faults.trigger', input) });
}

/** One of the player's requests sent now; refused (409) with the reason when the player would not send it. */
export function useTriggerPlayer() {
  const api = useApi();
  return useMutation({
    mutationFn: (input: { id: string; request: TriggerRequest }) => api.call('players.trigger', input),
  });
}
