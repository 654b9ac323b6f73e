/**
 * Starts an OAuth flow the way the host can: Electron opens its own OAuth window (the engine
 * records every navigation there); a browser opens the authorize URL in a new tab. The tab is
 * opened at the click, before the engine answers, so that popup blockers let it through.
 */
import { useMutation } from '@tanstack/react-query';
import type { StartedFlow } from '../../../../main/engine/api/oauth-types';
import { useApi } from '../../api/context';
import { useInspectorStore } from './inspector-store';

export type StartRequest = { kind: 'sample' } | { kind: 'integration'; integrationId: string; keyId: string; redirectUri: string; pkce: boolean };

export interface StartOutcome extends StartedFlow {
  codeVerifier: string | null;
  /** The browser refused to open a tab: the page shows the URL to open by hand. */
  blocked: boolean;
}

export function useStartFlow() {
  const api = useApi();
  const select = useInspectorStore((s) => s.select);
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
        select(started.flowId);
        return { ...started, blocked };
      } catch (error) {
        tab?.close();
        throw error;
      }
    },
  });
}
