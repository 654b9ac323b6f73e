/**
 * `login/console/`: the console's own flows, started from its UI rather than by an integration:
 * "Start OAuth flow" for an integration's key (here), the sample integration's one click
 * (`sample.ts`), the state that ties each to its authorization request (`flow-starts.ts`), and the
 * console's own access token for the command bar and scenarios (`console-token.ts`).
 *
 * A host that can (Electron) opens its own OAuth window and reports every navigation of it here;
 * the redirect to the integration's redirect URI is captured and shown even when nothing listens
 * there, the code held for a one-time reveal as the login service's own capture holds it
 * (`redirect-capture.ts`). Elsewhere the renderer opens the authorize URL in a new tab.
 */
import { EngineError } from '../../api/errors.js';
import {
  OAUTH_SCOPE,
  type NavigationVerdict,
  type StartedFlow,
  type WindowNavigationEvent,
} from '../../api/oauth-types.js';
import type { ServiceUrls } from '../../api/types.js';
import type { FlowRecorder } from '../inspector/flow-recorder.js';
import type { IntegrationManager } from '../integrations/integrations.js';
import { Params, clip, withQuery } from '../params.js';
import { AUTHORIZE_PATH } from '../paths.js';
import { mask, maskSecretParams, randomSecret, s256 } from '../secrets.js';
import type { FlowStarts, StartedFlowRecord } from './flow-starts.js';
import type { RedirectCapture } from './redirect-capture.js';
import type { SampleIntegration } from './sample.js';

/** What a host needs to open an OAuth window for a flow. */
export interface OAuthWindowRequest {
  flowId: string;
  authorizeUrl: string;
  redirectUri: string;
}

/** Opens the host's OAuth window (Electron); absent where the host has none. */
export type OpenOAuthWindow = (request: OAuthWindowRequest) => void;

export interface StartFlowInput {
  integrationId: string;
  keyId?: string;
  redirectUri?: string;
  pkce?: boolean;
  openInHostWindow?: boolean;
}

export interface ConsoleFlowsDeps {
  manager: IntegrationManager;
  recorder: FlowRecorder;
  starts: FlowStarts;
  sample: SampleIntegration;
  urls: () => ServiceUrls;
  /** Holds what the window captured for a one-time reveal, and draws its page (without the code). */
  capture: RedirectCapture;
  now: () => number;
  openOAuthWindow?: OpenOAuthWindow;
}

export class ConsoleFlows {
  constructor(private readonly deps: ConsoleFlowsDeps) {}

  start(input: StartFlowInput): StartedFlow & { codeVerifier: string | null } {
    const integration = this.deps.manager.get(input.integrationId);
    const key = input.keyId ? integration.keys.find((k) => k.id === input.keyId) : integration.keys[0];
    if (!key)
      throw new EngineError(
        'not_found',
        input.keyId ? `no key ${input.keyId} on ${integration.name}` : `${integration.name} has no key`,
      );
    const redirectUri = input.redirectUri ?? key.redirectUris[0]?.uri;
    if (!redirectUri)
      throw new EngineError('invalid_input', `key "${key.name}" has no redirect URL to send the code to`);
    if (integration.sample) return { ...this.startSample(input.openInHostWindow ?? false), codeVerifier: null };

    const state = randomSecret();
    const codeVerifier = input.pkce ? randomSecret() : null;
    const useHost = this.hostWindow(input.openInHostWindow);
    const flowId = this.deps.recorder.start({
      origin: useHost ? 'window' : 'browser',
      integrationId: integration.id,
      integrationName: integration.name,
      clientId: key.clientId,
    });
    this.deps.starts.add({ flowId, clientId: key.clientId, redirectUri, state, sample: false, codeVerifier });
    const authorizeUrl = withQuery(`${this.deps.urls().login}${AUTHORIZE_PATH}`, {
      client_id: key.clientId,
      response_type: 'code',
      state,
      scope: OAUTH_SCOPE,
      redirect_uri: redirectUri,
      ...(codeVerifier ? { code_challenge: s256(codeVerifier), code_challenge_method: 'S256' } : {}),
    });
    return { ...this.open({ flowId, authorizeUrl, redirectUri }, useHost), codeVerifier };
  }

  startSample(openInHostWindow: boolean): StartedFlow {
    const useHost = this.hostWindow(openInHostWindow);
    const started = this.deps.sample.start(useHost ? 'window' : 'sample');
    return this.open(started, useHost);
  }

  /** A navigation of the host's OAuth window: recorded, and stopped at a user integration's redirect URI. */
  navigated(input: { flowId: string; url: string; event: WindowNavigationEvent }): NavigationVerdict {
    const { recorder } = this.deps;
    const started = this.deps.starts.byFlow(input.flowId);
    if (!recorder.exists(input.flowId)) throw new EngineError('not_found', `no flow ${input.flowId}`);
    recorder.step(input.flowId, {
      ok: input.event !== 'fail',
      summary: `window ${input.event}: ${clip(maskSecretParams(input.url), 160)}`,
      detail: { kind: 'navigation', url: clip(maskSecretParams(input.url), 2048), event: input.event },
    });
    if (
      !started ||
      started.sample ||
      (input.event !== 'navigate' && input.event !== 'redirect') ||
      !isAt(input.url, started)
    ) {
      return { action: 'continue' };
    }
    return this.capture(started, input.url);
  }

  private capture(started: StartedFlowRecord, url: string): NavigationVerdict {
    const params = Params.fromUrl(url);
    const code = params.single('code');
    const state = params.single('state');
    const error = params.single('error');
    const stateMatches = state === started.state;
    this.deps.recorder.step(started.flowId, {
      ok: code !== undefined && stateMatches,
      summary:
        code !== undefined
          ? `redirect captured in the OAuth window: code ${stateMatches ? 'and matching state' : 'but the state does not match'}`
          : `redirect captured: error=${error ?? '(none)'}`,
      detail: {
        kind: 'callback',
        url: clip(maskSecretParams(url), 2048),
        ...(code !== undefined ? { code: mask(code) } : {}),
        ...(state !== undefined ? { state } : {}),
        stateMatches,
        captured: true,
        capturedBy: 'window',
        revealable: code !== undefined,
        ...(error !== undefined ? { error: { error, description: params.single('error_description') ?? '' } } : {}),
      },
    });
    this.deps.starts.forget(started.state);
    // The page never shows the code (a screenshot must not leak it): it is revealed once, in the console.
    this.deps.capture.hold({
      flowId: started.flowId,
      redirectUri: started.redirectUri,
      clientId: started.clientId,
      at: this.deps.now(),
      ...(code !== undefined ? { code } : {}),
      ...(state !== undefined ? { state } : {}),
      ...(error !== undefined ? { error: { error, description: params.single('error_description') ?? '' } } : {}),
      pkce: started.codeVerifier !== null,
      codeVerifier: started.codeVerifier,
      by: 'window',
    });
    return { action: 'capture', page: this.deps.capture.page(started.flowId).body };
  }

  private hostWindow(wanted: boolean | undefined): boolean {
    return wanted === true && this.deps.openOAuthWindow !== undefined;
  }

  private open(flow: { flowId: string; authorizeUrl: string; redirectUri: string }, useHost: boolean): StartedFlow {
    if (useHost) this.deps.openOAuthWindow!(flow);
    return { ...flow, openedBy: useHost ? 'host' : 'renderer' };
  }
}

/** Whether `url` is the redirect URI with the answer appended (its own query kept). */
function isAt(url: string, started: StartedFlowRecord): boolean {
  const base = started.redirectUri;
  if (!url.startsWith(base)) return false;
  const rest = url.slice(base.length);
  return rest === '' || /^[?&]/.test(rest) || base.endsWith('?') || base.endsWith('&');
}
