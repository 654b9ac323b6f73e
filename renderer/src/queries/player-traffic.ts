/**
 * The newest stretch of the traffic log, for a player's request strip. The engine's traffic
 * filter has no player field, so the workbench reads the log's newest RECENT entries and keeps
 * the player's own (features/player/request-rows.ts): bounded, whatever the log holds. Kept live
 * by `traffic.appended`, at most every LIVE_INTERVAL_MS, and read again on `traffic.reset`; read
 * again whenever the page mounts, too: its events are heard only while it is shown, and what came
 * while another area was open would otherwise never appear (audit: a stale strip until a reload).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useApi } from '../api/context';
import { readAgain } from './read-again';

/** Entries read: a few minutes of a household's traffic (the engine's page maximum). */
export const RECENT_TRAFFIC = 1_000;
const LIVE_INTERVAL_MS = 400;

export const recentTrafficKey = ['traffic', 'recent'] as const;

export function useRecentTraffic(enabled: boolean) {
  const api = useApi();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const refresh = () => {
      timer ??= setTimeout(() => {
        timer = null;
        void readAgain(queryClient, { queryKey: recentTrafficKey });
      }, LIVE_INTERVAL_MS);
    };
    const offAppended = api.on('traffic.appended', refresh);
    const offReset = api.on('traffic.reset', refresh);
    return () => {
      offAppended();
      offReset();
      if (timer) clearTimeout(timer);
    };
  }, [api, queryClient, enabled]);
  return useQuery({ ...recentTrafficQuery(api), enabled });
}

/** The query's options: fresh until an event says otherwise, and read again on every mount. */
export function recentTrafficQuery(api: Pick<ReturnType<typeof useApi>, 'call'>) {
  return {
    queryKey: recentTrafficKey,
    queryFn: async () => {
      const { total } = await api.call('traffic.page', { offset: 0, limit: 1 });
      return (await api.call('traffic.page', { offset: Math.max(0, total - RECENT_TRAFFIC), limit: RECENT_TRAFFIC }))
        .rows;
    },
    staleTime: Infinity,
    refetchOnMount: 'always' as const,
    placeholderData: <T>(previous: T | undefined) => previous,
  };
}
