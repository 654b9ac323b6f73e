/**
 * The traffic log: query keys and hooks. The list reads pages of the filtered log by offset as
 * they scroll into view, with the size of the set; `traffic.appended` and `traffic.reset` (see
 * `features/traffic/useTrafficLive`) invalidate what is on screen.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TrafficFilter } from '@engine-api/traffic-types';
import type { Api } from '../api';
import { useApi } from '../api/context';

/** Rows per page of the list. */
export const TRAFFIC_PAGE_SIZE = 100;

export const trafficKeys = {
  all: ['traffic'] as const,
  /** Everything the list shows: the count and its pages. */
  list: ['traffic', 'list'] as const,
  count: (filter: TrafficFilter) => ['traffic', 'list', 'count', filter] as const,
  page: (filter: TrafficFilter, page: number) => ['traffic', 'list', 'page', filter, page] as const,
  entry: (id: number, reveal: boolean) => ['traffic', 'entry', id, reveal] as const,
  settings: ['traffic', 'settings'] as const,
};

/** One page of the filtered log. Fresh until the live hook says otherwise. */
export function trafficPageQuery(api: Api, filter: TrafficFilter, page: number) {
  return queryOptions({
    queryKey: trafficKeys.page(filter, page),
    queryFn: () => api.call('traffic.page', { filter, offset: page * TRAFFIC_PAGE_SIZE, limit: TRAFFIC_PAGE_SIZE }),
    staleTime: Infinity,
  });
}

/** How many entries the filtered log holds. */
export function useTrafficCount(filter: TrafficFilter) {
  const api = useApi();
  return useQuery({
    queryKey: trafficKeys.count(filter),
    queryFn: async () => (await api.call('traffic.page', { filter, offset: 0, limit: 1 })).total,
    staleTime: Infinity,
  });
}

/** One entry with headers and bodies; `reveal` unmasks secrets. An entry never changes. */
export function useTrafficEntry(id: number | null, reveal: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: trafficKeys.entry(id ?? 0, reveal),
    queryFn: () => api.call('traffic.get', { id: id!, reveal }),
    enabled: id !== null,
    staleTime: Infinity,
    retry: false,
  });
}

/**
 * One request's exchanges (its `X-Request-Id`): the player's entry and the server's entry of the
 * same request. Read again with the list (the other side may be logged a moment later).
 */
export function useRequestExchanges(requestId: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: [...trafficKeys.list, 'request', requestId ?? ''] as const,
    queryFn: async () =>
      (await api.call('traffic.page', { filter: { requestId: requestId! }, offset: 0, limit: 10 })).rows,
    enabled: requestId !== null,
    staleTime: Infinity,
  });
}

export function useTrafficSettings() {
  const api = useApi();
  return useQuery({ queryKey: trafficKeys.settings, queryFn: () => api.call('traffic.settings', {}) });
}
