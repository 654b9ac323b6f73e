/**
 * The newest stretch of the traffic log, for a player's request strip. The engine's traffic
 * filter has no player field, so the workbench reads the log's newest RECENT entries and keeps
 * the player's own (features/player/request-rows.ts): bounded, whatever the log holds. Kept live
 * by `traffic.appended`, at most every LIVE_INTERVAL_MS, and read again on `traffic.reset`.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useApi } from '../api/context';

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
        void queryClient.invalidateQueries({ queryKey: recentTrafficKey });
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
  return useQuery({
    queryKey: recentTrafficKey,
    enabled,
    queryFn: async () => {
      const { total } = await api.call('traffic.page', { offset: 0, limit: 1 });
      return (await api.call('traffic.page', { offset: Math.max(0, total - RECENT_TRAFFIC), limit: RECENT_TRAFFIC }))
        .rows;
    },
    staleTime: Infinity,
    placeholderData: (previous) => previous,
  });
}
