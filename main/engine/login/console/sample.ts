/**
 * The sample integration (issue: one click runs authorize → sign-in → consent → code → token →
 * list households). It is registered on the console's own callback URL, kept in step with the
 * console's port on every start, and its callback is the integration's server side: it checks
 * the state, exchanges the code over real HTTP with Basic auth and PKCE, and lists the
 * households with the token. Its secret lives only in memory; each start gives it a new one.
 */
import type { FastifyInstance } from 'fastify';
import { OAUTH_SCOPE, type FlowOrigin, type StartedFlow } from '../../api/oauth-types.js';
import type { ServiceUrls } from '../../api/types.js';
import { basicHeader } from '../client-auth/basic-auth.js';
import { escapeHtml as e, layout, pageHeaders } from '../endpoints/pages.js';
import type { FlowRecorder } from '../inspector/flow-recorder.js';
import type { IntegrationManager } from '../integrations/integrations.js';
import { Params, withQuery } from '../params.js';
import { AUTHORIZE_PATH, SAMPLE_CALLBACK_PATH, TOKEN_PATH } from '../paths.js';
import { hintOf, mask, maskSecretParams, randomSecret, s256 } from '../secrets.js';
import type { FlowStarts } from './flow-starts.js';

export const SAMPLE_NAME = 'Sample integration';
const SAMPLE_DESCRIPTION = "The console's own sample app: one click runs the whole flow and lists your households with the token.";

interface SampleClient {
  integrationId: string;
  keyId: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export interface SampleDeps {
  manager: IntegrationManager;
  recorder: FlowRecorder;
  starts: FlowStarts;
  urls: () => ServiceUrls;
}

export class SampleIntegration {
  private client: SampleClient | null = null;

  constructor(private readonly deps: SampleDeps) {}

  /** Registers the sample (or brings it in step with the console's URL) and gives it a secret. */
  ensure(): SampleClient {
    const { manager } = this.deps;
    const redirectUri = `${this.deps.urls().console}${SAMPLE_CALLBACK_PATH}`;
    const existing = manager.list().find((i) => i.sample);
    if (!existing) {
      const created = manager.create(
        { name: SAMPLE_NAME, description: SAMPLE_DESCRIPTION, category: 'Sample', redirectUris: [redirectUri], keyName: 'Sample key' },
        { sample: true, skipRedirectChecks: true },
      );
      const key = created.keys[0]!;
      this.client = { integrationId: created.id, keyId: key.id, clientId: key.clientId, clientSecret: created.clientSecret, redirectUri };
      return this.client;
    }
    const key = existing.keys[0] ?? manager.createKey(existing.id, { name: 'Sample key' }).key;
    if (key.redirectUris.length !== 1 || key.redirectUris[0]!.uri !== redirectUri) manager.replaceRedirectUris(key.id, [redirectUri]);
    // A new secret when this process has none for the key, or someone regenerated it meanwhile.
    if (this.client?.keyId !== key.id || this.client.redirectUri !== redirectUri || key.secretHint !== hintOf(this.client.clientSecret)) {
      const issued = manager.regenerateSecret(existing.id, key.id);
      this.client = { integrationId: existing.id, keyId: key.id, clientId: key.clientId, clientSecret: issued.clientSecret, redirectUri };
    }
    return this.client;
  }

  /** A new sample flow: its authorize URL with a fresh state and PKCE. */
  start(origin: FlowOrigin): Omit<StartedFlow, 'openedBy'> {
    const client = this.ensure();
    const state = randomSecret();
    const codeVerifier = randomSecret();
    const flowId = this.deps.recorder.start({ origin, integrationId: client.integrationId, integrationName: SAMPLE_NAME, clientId: client.clientId });
    this.deps.starts.add({ flowId, clientId: client.clientId, redirectUri: client.redirectUri, state, sample: true, codeVerifier });
    const authorizeUrl = withQuery(`${this.deps.urls().login}${AUTHORIZE_PATH}`, {
      client_id: client.clientId,
      response_type: 'code',
      state,
      scope: OAUTH_SCOPE,
      redirect_uri: client.redirectUri,
      code_challenge: s256(codeVerifier),
      code_challenge_method: 'S256',
    });
    return { flowId, authorizeUrl, redirectUri: client.redirectUri };
  }

  /** The sample's server side at its redirect URI; answers the page the browser lands on. */
  async callback(url: string): Promise<{ status: number; html: string }> {
    const { recorder, starts } = this.deps;
    const params = Params.fromUrl(url);
    const state = params.single('state');
    const started = state === undefined ? undefined : starts.byState(state);
    const client = this.client;
    if (!started?.sample || !client || started.clientId !== client.clientId) {
      return { status: 400, html: resultPage('The sample integration does not know this state', ['A callback must come from a flow the sample started (the state protects against CSRF). Start it again from the console.'], []) };
    }
    starts.forget(started.state);
    const { flowId } = started;
    const code = params.single('code');
    const error = params.single('error');
    recorder.step(flowId, {
      ok: code !== undefined,
      summary: code !== undefined ? 'sample integration received code and state' : `sample integration received error=${error ?? '(none)'}`,
      detail: {
        kind: 'callback',
        url: maskSecretParams(url),
        ...(code !== undefined ? { code: mask(code) } : {}),
        state: started.state,
        stateMatches: true,
        captured: false,
        ...(error !== undefined ? { error: { error, description: params.single('error_description') ?? '' } } : {}),
      },
    });
    if (code === undefined) {
      return { status: 200, html: resultPage('The sample integration was not authorized', [`The login service answered error=${error ?? '(none)'}: ${params.single('error_description') ?? ''}`], []) };
    }

    const urls = this.deps.urls();
    const lines: string[] = [];
    let accessToken: string;
    try {
      const response = await fetch(`${urls.login}${TOKEN_PATH}`, {
        method: 'POST',
        headers: { authorization: basicHeader(client.clientId, client.clientSecret), 'content-type': 'application/x-www-form-urlencoded;charset=utf-8' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, code_verifier: started.codeVerifier ?? '' }).toString(),
      });
      const body = (await response.json()) as { access_token?: string; error?: string; error_description?: string };
      if (!response.ok || !body.access_token) {
        const message = `the token endpoint answered ${response.status} ${body.error ?? ''} ${body.error_description ?? ''}`.trim();
        recorder.step(flowId, { ok: false, summary: `sample: code exchange failed (${response.status})`, detail: { kind: 'sample', action: 'exchange', ok: false, status: response.status, message } });
        return { status: 502, html: resultPage('The code exchange failed', [message], []) };
      }
      accessToken = body.access_token;
      lines.push(`Exchanged the code at ${TOKEN_PATH}: ${response.status}, access token ${mask(accessToken)}.`);
      recorder.step(flowId, { ok: true, summary: `sample: exchanged the code (${response.status})`, detail: { kind: 'sample', action: 'exchange', ok: true, status: response.status, message: lines[0]! } });
    } catch (failure) {
      const message = `the token endpoint could not be reached: ${(failure as Error).message}`;
      recorder.step(flowId, { ok: false, summary: 'sample: code exchange failed', detail: { kind: 'sample', action: 'exchange', ok: false, status: null, message } });
      return { status: 502, html: resultPage('The code exchange failed', [message], []) };
    }

    try {
      const response = await fetch(`${urls.control}/api/v1/households`, { headers: { authorization: `Bearer ${accessToken}` } });
      const text = await response.text();
      if (!response.ok) {
        const message = `GET /api/v1/households answered ${response.status}: ${text.slice(0, 200)}`;
        recorder.step(flowId, { ok: false, summary: `sample: listing households failed (${response.status})`, detail: { kind: 'sample', action: 'households', ok: false, status: response.status, message } });
        return { status: 502, html: resultPage('Listing the households failed', [...lines, message], []) };
      }
      const households = ((JSON.parse(text) as { households?: { name: string }[] }).households ?? []).map((h) => h.name);
      const message = `GET /api/v1/households with the token: ${households.join(', ') || 'no households'}`;
      recorder.step(flowId, { ok: true, summary: `sample: listed households (${households.join(', ')})`, detail: { kind: 'sample', action: 'households', ok: true, status: response.status, message, households } });
      return { status: 200, html: resultPage('The sample integration is signed in', [...lines, 'Listed the households at the control API with the access token:'], households) };
    } catch (failure) {
      const message = `the control API could not be reached: ${(failure as Error).message}`;
      recorder.step(flowId, { ok: false, summary: 'sample: listing households failed', detail: { kind: 'sample', action: 'households', ok: false, status: null, message } });
      return { status: 502, html: resultPage('Listing the households failed', [...lines, message], []) };
    }
  }
}

/** The callback route on the console listener. */
export async function sampleCallbackRoutes(app: FastifyInstance, options: { sample: SampleIntegration }): Promise<void> {
  app.get(SAMPLE_CALLBACK_PATH, { exposeHeadRoute: false }, async (request, reply) => {
    const { status, html } = await options.sample.callback(request.url);
    return reply.code(status).headers(pageHeaders()).send(html);
  });
}

function resultPage(title: string, lines: string[], households: string[]): string {
  return layout(
    `${title} · ${SAMPLE_NAME}`,
    `<p class="eyebrow">${SAMPLE_NAME}</p><h1>${e(title)}</h1>
${lines.map((line) => `<p>${e(line)}</p>`).join('')}
${households.length ? `<ul aria-label="Households">${households.map((h) => `<li><strong>${e(h)}</strong></li>`).join('')}</ul>` : ''}
<p class="muted">Every step of this flow is on the console's OAuth page. You can close this tab.</p>`,
  );
}

