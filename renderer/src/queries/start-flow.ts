/**
 * Starts an OAuth flow the way the host can: Electron opens its own OAuth window (the engine
 * records every navigation there); a browser opens the authorize URL in a new tab. The tab is
 * opened at the call, before the engine answers, so that popup blockers let it through: call it
 * straight from a click. Shared by the OAuth page's buttons and the guided demo's sign-in step.
 */
import type { StartedFlow } from '@engine-api/oauth-types';
import type { Api } from '../api';

export type StartRequest =
  | { kind: 'sample' }
  | { kind: 'integration'; integrationId: string; keyId: string; redirectUri: string; pkce: boolean };

export interface StartOutcome extends StartedFlow {
  codeVerifier: string | null;
  /** The browser refused to open a tab: the page shows the URL to open by hand. */
  blocked: boolean;
}

/**
 * `popup`: window features (`popup,width=…`) to sign in in a small window of its own rather than
 * a tab; `onWindow` is handed that window, for whoever closes it once the redirect came back.
 */
export interface StartWindow {
  popup?: string;
  onWindow?(window: Window): void;
}

export async function startFlow(api: Api, request: StartRequest, opening: StartWindow = {}): Promise<StartOutcome> {
  const inHost = api.kind === 'ipc';
  const tab = inHost ? null : window.open('about:blank', '_blank', opening.popup);
  if (tab) tab.opener = null;
  if (tab) opening.onWindow?.(tab);
  try {
    const started =
      request.kind === 'sample'
        ? { ...(await api.call('oauth.sample.start', { openInHostWindow: inHost })), codeVerifier: null }
        : await api.call('oauth.flows.start', {
            integrationId: request.integrationId,
            keyId: request.keyId,
            redirectUri: request.redirectUri,
            pkce: request.pkce,
            openInHostWindow: inHost,
          });
    let blocked = false;
    if (started.openedBy === 'renderer') {
      if (tab) tab.location.href = started.authorizeUrl;
      else if (inHost) window.open(started.authorizeUrl, '_blank');
      else blocked = true;
    }
    return { ...started, blocked };
  } catch (error) {
    tab?.close();
    throw error;
  }
}
