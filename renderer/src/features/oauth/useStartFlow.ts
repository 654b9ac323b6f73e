/**
 * Starts an OAuth flow from the OAuth page (queries/start-flow.ts opens it), keeps what starting
 * it gave (its PKCE verifier) and shows it in the inspector, so its timeline fills in live.
 */
import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../api/context';
import { startFlow, type StartOutcome, type StartRequest } from '../../queries/start-flow';
import { useInspectorStore, useSelectFlow } from './inspector-store';

export type { StartRequest };

export function useStartFlow() {
  const api = useApi();
  const startedHere = useInspectorStore((s) => s.startedHere);
  const select = useSelectFlow();
  return useMutation({
    mutationFn: async (request: StartRequest): Promise<StartOutcome> => {
      const outcome = await startFlow(api, request);
      startedHere(outcome);
      select(outcome.flowId);
      return outcome;
    },
  });
}
