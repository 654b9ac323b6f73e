/**
 * The login service's resources: integrations, settings, grants and tokens, and the OAuth flow
 * inspector's flows. Pushed events keep them current: `oauth.changed` refetches what changed,
 * `oauth.flowStep` writes each new step straight into the cached flows.
 */
import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { FlowStepView, FlowSummary, FlowView } from '@engine-api/oauth-types';
import type { Api } from '../api';
import { useApi } from '../api/context';
import { controlKeys } from './control';
import { applyPushed } from './pushed';
import { readAgain } from './read-again';

export const oauthKeys = {
  all: ['oauth'] as const,
  integrations: ['oauth', 'integrations'] as const,
  settings: ['oauth', 'settings'] as const,
  grantsAll: ['oauth', 'grants'] as const,
  grants: (integrationId: string) => ['oauth', 'grants', integrationId] as const,
  flows: ['oauth', 'flows'] as const,
  flow: (flowId: string) => ['oauth', 'flow', flowId] as const,
};

export function useIntegrations() {
  const api = useApi();
  return useQuery({
    queryKey: oauthKeys.integrations,
    queryFn: () => api.call('integrations.list', { includeSample: true }),
  });
}

export function useLoginSettings() {
  const api = useApi();
  return useQuery({ queryKey: oauthKeys.settings, queryFn: () => api.call('settings.get', {}) });
}

export function useGrants(integrationId: string) {
  const api = useApi();
  return useQuery({
    queryKey: oauthKeys.grants(integrationId),
    queryFn: () => api.call('integrations.grants', { id: integrationId }),
  });
}

export function useFlows() {
  const api = useApi();
  return useQuery({ queryKey: oauthKeys.flows, queryFn: () => api.call('oauth.flows.list', { limit: 100 }) });
}

export function useFlow(flowId: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: oauthKeys.flow(flowId ?? ''),
    queryFn: () => api.call('oauth.flows.get', { id: flowId! }),
    enabled: flowId !== null,
  });
}

/** Puts a pushed step into the cached flow list and the cached flow. */
export function applyFlowStep(queryClient: QueryClient, flow: FlowSummary, step: FlowStepView): void {
  applyPushed<FlowSummary[]>(queryClient, oauthKeys.flows, (flows) =>
    flows ? [flow, ...flows.filter((f) => f.id !== flow.id)] : flows,
  );
  applyPushed<FlowView>(queryClient, oauthKeys.flow(flow.id), (cached) =>
    cached
      ? {
          ...cached,
          ...flow,
          steps: cached.steps.some((s) => s.seq === step.seq) ? cached.steps : [...cached.steps, step],
        }
      : cached,
  );
  // A captured redirect gives the flow its `capturedCode`, which the pushed summary does not carry.
  if (step.detail.kind === 'callback' && step.detail.captured)
    void queryClient.invalidateQueries({ queryKey: oauthKeys.flow(flow.id) });
}

/** Wires the login service's events to the query cache; returns the unsubscribe function. */
export function wireOAuthEvents(api: Api, queryClient: QueryClient): () => void {
  const offChanged = api.on('oauth.changed', ({ what }) => {
    // The settings switches change the settings themselves and take the engine's answer.
    if (what === 'settings' && queryClient.isMutating({ mutationKey: oauthKeys.settings }) > 0) return;
    const key =
      what === 'integrations' ? oauthKeys.integrations : what === 'settings' ? oauthKeys.settings : oauthKeys.grantsAll;
    void readAgain(queryClient, { queryKey: key });
    // Deleting an integration or key also ends its grants.
    if (what === 'integrations') void readAgain(queryClient, { queryKey: oauthKeys.grantsAll });
    // A token issued or revoked changes whom the command bar can send as.
    if (what !== 'settings') void readAgain(queryClient, { queryKey: controlKeys.senders });
  });
  const offStep = api.on('oauth.flowStep', ({ flow, step }) => applyFlowStep(queryClient, flow, step));
  return () => {
    offChanged();
    offStep();
  };
}
