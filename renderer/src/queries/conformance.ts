/**
 * Conformance runs ("check a server", docs/contract/console.md §8): the suite's cases, the kept
 * runs and one run with its cases. A run settles its cases in the background; each
 * `conformance.progress` is written into the cached run and the list in place, and the end of a
 * run refetches both (for `finishedAt`, which the event does not carry).
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { CommandInput } from '@engine-api/commands';
import type {
  ConformanceProgress,
  ConformanceReportFormat,
  ConformanceRun,
  ConformanceRunSummary,
} from '@engine-api/conformance-types';
import type { Api } from '../api';
import { useApi } from '../api/context';
import { applyPushed } from './pushed';
import { readAgain } from './read-again';

export const conformanceKeys = {
  all: ['conformance'] as const,
  cases: ['conformance', 'cases'] as const,
  runs: ['conformance', 'runs'] as const,
  run: (id: string) => ['conformance', 'run', id] as const,
};

export function useConformanceCases() {
  const api = useApi();
  // The suite is fixed for the life of the engine.
  return useQuery({
    queryKey: conformanceKeys.cases,
    queryFn: () => api.call('conformance.cases', {}),
    staleTime: Infinity,
  });
}

export function useConformanceRuns() {
  const api = useApi();
  // Read afresh whenever the area opens: runs may have started (admin API) or ended while it was closed.
  return useQuery({
    queryKey: conformanceKeys.runs,
    queryFn: () => api.call('conformance.runs.list', {}),
    staleTime: 0,
  });
}

export function useConformanceRun(id: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: conformanceKeys.run(id ?? ''),
    queryFn: () => api.call('conformance.runs.get', { id: id! }),
    enabled: id !== null,
    // A finished run never changes. A running one is kept live by the events while the area is
    // open, and read afresh when it opens again (it may have ended meanwhile).
    staleTime: (query) => (query.state.data?.status === 'running' ? 0 : Infinity),
  });
}

/** Start, rerun, stop and delete: each changes the list, which is fetched again. */
function useRunMutation<I, O>(run: (api: Api, input: I) => Promise<O>) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => run(api, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: conformanceKeys.runs }),
  });
}

export const useStartRun = () =>
  useRunMutation((api, input: CommandInput<'conformance.runs.start'>) => api.call('conformance.runs.start', input));
export const useRerun = () =>
  useRunMutation((api, input: CommandInput<'conformance.runs.rerun'>) => api.call('conformance.runs.rerun', input));
export const useDeleteRun = () => useRunMutation((api, id: string) => api.call('conformance.runs.delete', { id }));
/** Answers the run once it has ended; the end's progress event brings it to the views as well. */
export const useStopRun = () => useRunMutation((api, id: string) => api.call('conformance.runs.stop', { id }));

export function useExportRun() {
  const api = useApi();
  return useMutation({
    mutationFn: ({ id, format }: { id: string; format: ConformanceReportFormat }) =>
      api.call('conformance.runs.export', { id, format }),
  });
}

/** A listed run with one more progress event applied: its tallies, status and error taken over. */
export function summaryWithProgress<T extends ConformanceRunSummary>(run: T, progress: ConformanceProgress): T {
  return { ...run, status: progress.status, summary: progress.summary, error: progress.error };
}

/** A run with one more progress event applied: the settled case appended (once: a refetch may already hold it). */
export function runWithProgress(run: ConformanceRun, progress: ConformanceProgress): ConformanceRun {
  const next = summaryWithProgress(run, progress);
  const settled = progress.settled;
  return settled && !run.cases.some((c) => c.id === settled.id) ? { ...next, cases: [...run.cases, settled] } : next;
}

/** Writes `conformance.progress` into the cache; returns the unsubscribe function. */
export function wireConformanceEvents(api: Api, queryClient: QueryClient): () => void {
  return api.on('conformance.progress', (progress) => {
    const runKey = conformanceKeys.run(progress.runId);
    applyPushed<ConformanceRun>(queryClient, runKey, (run) => (run ? runWithProgress(run, progress) : run));
    const listed = queryClient.getQueryData<ConformanceRunSummary[]>(conformanceKeys.runs);
    if (listed?.some((run) => run.id === progress.runId)) {
      applyPushed<ConformanceRunSummary[]>(queryClient, conformanceKeys.runs, (runs) =>
        runs?.map((run) => (run.id === progress.runId ? summaryWithProgress(run, progress) : run)),
      );
    } else {
      // A run started elsewhere (the admin API, another window).
      void readAgain(queryClient, { queryKey: conformanceKeys.runs });
    }
    if (progress.settled === null) {
      // For `finishedAt`, which the event does not carry.
      void readAgain(queryClient, { queryKey: runKey });
      void readAgain(queryClient, { queryKey: conformanceKeys.runs });
    }
  });
}

/**
 * Follows the runs while the area is open. Mounted by the area itself: when it is closed nothing
 * shows a run, and on opening again the list and a run that was going on are read afresh.
 */
export function useConformanceEventWiring(): void {
  const api = useApi();
  const queryClient = useQueryClient();
  useEffect(() => wireConformanceEvents(api, queryClient), [api, queryClient]);
}
