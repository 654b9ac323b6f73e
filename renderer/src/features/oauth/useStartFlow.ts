/**
 * Starts an OAuth flow the way the host can: Electron opens its own OAuth window (the engine
 * records every navigation there); a browser opens the authorize URL in a new tab. The tab is
 * opened at the click, before the engine answers, so that popup blockers let it through.
 */
import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../api/context';
import { useInspectorStore, useSelectFlow, type StartOutcome } from './inspector-store';

export type StartRequest = { kind: 'sample' } | { kind: 'integration'; integrationId: string; keyId: string; redirectUri: string; pkce: boolean };

export function useStartFlow() {
  const api = useApi();
  const startedHere = useInspectorStore((s) => s.startedHere);
  const select = useSelectFlow();
  return useMutation({
    mutationFn: async (request: StartRequest): Promise<StartOutcome> => {
      const inHost = api.kind === 'ipc';
      const tab = inHost ? null : window.open('about:blank', '_blank');
      if (tab) tab.opener = null;
      try {
        const started =
          request.kind === 'sample'
            ? { ...(await api.call('oauth.sample.start', { openInHostWindow: inHost })), codeVerifier: null }
            : await api.call('oauth.flows.start', { integrationId: request.integrationId, keyId: request.keyId, redirectUri: request.redirectUri, pkce: request.pkce, openInHostWindow: inHost });
        let blocked = false;
        if (started.openedBy === 'renderer') {
          if (tab) tab.location.href = started.authorizeUrl;
          else if (inHost) window.open(started.authorizeUrl, '_blank');
          else blocked = true;
        }
        const outcome = { ...started, blocked };
        startedHere(outcome);
        select(outcome.flowId);
        return outcome;
      } catch (error) {
        tab?.close();
        throw error;
      }
    },
  });
}
