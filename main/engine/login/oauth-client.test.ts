/**
 * The login service against a well-known OAuth 2.0 client library as the peer (panva's
 * oauth4webapi), not our own client code: authorization code with PKCE, the token endpoint with
 * client_secret_basic, the control API with the access token, refresh with rotation.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedIntegration } from '../api/oauth-types.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';
import { LOOPBACK_REDIRECT, createTestIntegration, signInAndDecide } from '../testing/oauth.js';

let engine: Engine;
let registered: CreatedIntegration;
let as: oauth.AuthorizationServer;
let client: oauth.Client;
let clientAuth: oauth.ClientAuth;
// The login service runs on loopback http here; production is HTTPS.
const insecure = { [oauth.allowInsecureRequests]: true } as const;

beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
  registered = await createTestIntegration(engine, { name: 'oauth4webapi peer' });
  as = {
    issuer: engine.urls.login,
    authorization_endpoint: `${engine.urls.login}/login/v3/oauth`,
    token_endpoint: `${engine.urls.login}/login/v3/oauth/access`,
  };
  client = { client_id: registered.clientId! };
  clientAuth = oauth.ClientSecretBasic(registered.clientSecret);
});
afterAll(() => engine.close());

async function authorize(): Promise<{ callback: URL; state: string; verifier: string }> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.searchParams.set('client_id', client.client_id);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('redirect_uri', LOOPBACK_REDIRECT);
  url.searchParams.set('scope', 'playback-control-all');
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  const redirect = await signInAndDecide(engine, url.toString(), 'allow');
  return { callback: new URL(redirect.location!), state, verifier };
}

describe('a standard OAuth 2.0 client (oauth4webapi) against the login service', () => {
  it('runs authorization code + PKCE, calls the control API, and refreshes with rotation', async () => {
    const { callback, state, verifier } = await authorize();
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      clientAuth,
      params,
      LOOPBACK_REDIRECT,
      verifier,
      insecure,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 86400, scope: 'playback-control-all' });
    expect(tokens.refresh_token).toBeTruthy();

    const households = await oauth.protectedResourceRequest(
      tokens.access_token,
      'GET',
      new URL(`${engine.urls.control}/api/v1/households`),
      undefined,
      undefined,
      insecure,
    );
    expect(households.status).toBe(200);
    expect(await households.json()).toEqual({ households: [{ id: 'household-demo', name: 'Demo Household' }] });

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, insecure),
    );
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);

    // Refreshing twice at once: within the grace window the rotated token answers with the current one.
    const racing = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, insecure),
    );
    expect(racing.refresh_token).toBe(refreshed.refresh_token);
    expect(racing.access_token).not.toBe(refreshed.access_token);

    // Past it, the library sees reuse of the rotated refresh token as the RFC error it is.
    await admin(engine, 'POST', '/clock', { advanceMs: 30_000 });
    const reuse = oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, insecure),
    );
    await expect(reuse).rejects.toMatchObject({ error: 'invalid_grant' });
    // …and the whole grant is revoked: the control API challenges the newest access token.
    const afterReuse = oauth.protectedResourceRequest(
      refreshed.access_token,
      'GET',
      new URL(`${engine.urls.control}/api/v1/households`),
      undefined,
      undefined,
      insecure,
    );
    await expect(afterReuse).rejects.toMatchObject({
      status: 401,
      cause: [{ scheme: 'bearer', parameters: { error: 'invalid_token' } }],
    });
  });

  it('gets invalid_grant from the library when a code is replayed', async () => {
    const { callback, state, verifier } = await authorize();
    const params = oauth.validateAuthResponse(as, client, callback, state);
    await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, LOOPBACK_REDIRECT, verifier, insecure),
    );
    const replay = oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, LOOPBACK_REDIRECT, verifier, insecure),
    );
    await expect(replay).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('gets invalid_client with the WWW-Authenticate challenge for a wrong secret', async () => {
    const { callback, state, verifier } = await authorize();
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic('not-the-secret'),
      params,
      LOOPBACK_REDIRECT,
      verifier,
      insecure,
    );
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Basic realm="login"');
    await expect(oauth.processAuthorizationCodeResponse(as, client, response)).rejects.toMatchObject({
      status: 401,
      cause: [{ scheme: 'basic', parameters: { realm: 'login' } }],
    });
  });

  it('reads a denied authorization as access_denied', async () => {
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    for (const [k, v] of Object.entries({
      client_id: client.client_id,
      response_type: 'code',
      redirect_uri: LOOPBACK_REDIRECT,
      scope: 'playback-control-all',
      state,
    }))
      url.searchParams.set(k, v);
    const redirect = await signInAndDecide(engine, url.toString(), 'deny');
    expect(() => oauth.validateAuthResponse(as, client, new URL(redirect.location!), state)).toThrow(
      expect.objectContaining({ error: 'access_denied' }),
    );
  });
});
