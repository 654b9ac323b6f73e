/**
 * The fleet over the engine's commands: one fleet read while it plays (each `fleet.progress`
 * tick reads it again, and a poll a second covers a missed event), start, stop and export.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { FleetReportFormat, FleetStartInput } from '@engine-api/fleet-types';
import { useApi } from '../../api/context';
import { readAgain } from '../../queries/read-again';

export const fleetKeys = { fleet: (id: string) => ['fleet', id] as const, list: ['fleets'] as const };

/**
 * The kept fleets, newest first. Read again when a fleet the list does not hold ticks (one just
 * started, here or elsewhere) and when one ends, so its state changes in the list at once.
 */
export function useFleets() {
  const api = useApi();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: fleetKeys.list, queryFn: () => api.call('fleets.list', {}) });
  const { data } = query;
  useEffect(
    () =>
      api.on('fleet.progress', (progress) => {
        const listed = data?.find((fleet) => fleet.id === progress.id);
        if (!listed || progress.ended !== (listed.status !== 'running'))
          void readAgain(queryClient, { queryKey: fleetKeys.list });
      }),
    [api, data, queryClient],
  );
  return query;
}

export function useFleet(id: string | null) {
  const api = useApi();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (id === null) return;
    return api.on('fleet.progress', (progress) => {
      if (progress.id === id) void readAgain(queryClient, { queryKey: fleetKeys.fleet(id) });
    });
  }, [api, id, queryClient]);
  return useQuery({
    queryKey: fleetKeys.fleet(id ?? ''),
    queryFn: () => api.call('fleets.get', { id: id! }),
    enabled: id !== null,
    // An ended fleet never changes; a playing one is read again every second.
    staleTime: (query) => (query.state.data?.status === 'running' ? 0 : Infinity),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 1_000 : false),
    retry: false,
  });
}

export function useStartFleet() {
  const api = useApi();
  return useMutation({ mutationFn: (input: FleetStartInput) => api.call('fleets.start', input) });
}

export function useStopFleet() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call('fleets.stop', { id }),
    onSuccess: (report) => queryClient.setQueryData(fleetKeys.fleet(report.id), report),
  });
}

export function useExportFleet() {
  const api = useApi();
  return useMutation({
    mutationFn: ({ id, format }: { id: string; format: FleetReportFormat }) =>
      api.call('fleets.export', { id, format }),
  });
}
