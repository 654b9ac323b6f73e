/**
 * The console's own access token, for the player panel's command bar and for scenarios: it sends
 * control commands "exactly as an integration would", so it holds a real token of the sample
 * integration. It is got the way an integration gets one — a code for the demo user (the
 * console's user consents for itself), exchanged at the token endpoint over HTTP with Basic auth
 * — shows up in the flow inspector like any other, and is kept until a minute before it expires
 * (on the engine clock) or stops working (expired, revoked).
 */
import { EngineError } from '../../api/errors.js';
import { OAUTH_SCOPE } from '../../api/oauth-types.js';
import type { ServiceUrls } from '../../api/types.js';
import { DEMO_USER } from '../../household/seed.js';
import type { Store } from '../../store/store.js';
import { basicHeader } from '../client-auth/basic-auth.js';
import type { Issuer } from '../grants/issuer.js';
import type { FlowRecorder } from '../inspector/flow-recorder.js';
import type { IntegrationManager } from '../integrations/integrations.js';
import { TOKEN_PATH } from '../paths.js';
import type { SampleIntegration } from './sample.js';

const RENEW_BEFORE_MS = 60_000;

export interface ConsoleTokenDeps {
  sample: SampleIntegration;
  manager: IntegrationManager;
  issuer: Issuer;
  recorder: FlowRecorder;
  users: Store['users'];
  urls: () => ServiceUrls;
}

export class ConsoleToken {
  private held: { token: string; expiresAt: number } | null = null;
  private pending: Promise<string> | null = null;

  constructor(private readonly deps: ConsoleTokenDeps) {}

  get(): Promise<string> {
    const { issuer } = this.deps;
    if (this.held && this.held.expiresAt - issuer.now() > RENEW_BEFORE_MS && issuer.lookupAccess(this.held.token)?.live)
      return Promise.resolve(this.held.token);
    this.pending ??= this.obtain().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  private async obtain(): Promise<string> {
    const { sample, manager, issuer, recorder, users } = this.deps;
    const client = sample.ensure();
    const registered = manager.findClient(client.clientId);
    const user = users.findByUsername(DEMO_USER.username);
    if (!registered || !user)
      throw new EngineError(
        'unavailable',
        'the console cannot get a token: the sample integration or the demo user is missing',
      );
    const flowId = recorder.start({
      origin: 'console',
      integrationId: client.integrationId,
      integrationName: registered.integration.name,
      clientId: client.clientId,
    });
    recorder.step(flowId, {
      ok: true,
      summary: `consent: the console's own token for the command bar, as ${user.username}`,
      detail: { kind: 'consent', decision: 'auto_approve', username: user.username },
    });
    const { code } = issuer.issueCode({
      client: registered,
      userId: user.id,
      householdId: user.householdId,
      redirectUri: client.redirectUri,
      scope: OAUTH_SCOPE,
      codeChallenge: null,
      flowId,
    });
    const response = await fetch(`${this.deps.urls().login}${TOKEN_PATH}`, {
      method: 'POST',
      headers: {
        authorization: basicHeader(client.clientId, client.clientSecret),
        'content-type': 'application/x-www-form-urlencoded;charset=utf-8',
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: client.redirectUri,
      }).toString(),
    });
    const body = (await response.json()) as {
      access_token?: string;
      expires_in?: number;
      error?: string;
      error_description?: string;
    };
    if (!response.ok || !body.access_token) {
      throw new EngineError(
        'unavailable',
        `the login service refused the console's token: ${response.status} ${body.error ?? ''} ${body.error_description ?? ''}`.trim(),
      );
    }
    this.held = { token: body.access_token, expiresAt: issuer.now() + (body.expires_in ?? 0) * 1_000 };
    return body.access_token;
  }
}
