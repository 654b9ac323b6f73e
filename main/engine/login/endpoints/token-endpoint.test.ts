import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedIntegration, FlowView, GrantView } from '../../api/oauth-types.js';
import type { Engine } from '../../index.js';
import { admin, startTestEngine } from '../../testing/http.js';
import { LOOPBACK_REDIRECT, codeFor, createTestIntegration, tokenRequest } from '../../testing/oauth.js';
import { basicHeader } from '../client-auth/basic-auth.js';
import { s256 } from '../secrets.js';

let engine: Engine;
let client: CreatedIntegration;
let other: CreatedIntegration;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
  client = await createTestIntegration(engine);
  other = await createTestIntegration(engine, { name: 'Other app' });
});
afterAll(() => engine.close());

const exchange = (code: string, extra: Record<string, string> = {}, who = client) =>
  tokenRequest(engine, who, { grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT, ...extra });
const refresh = (refreshToken: string, extra: Record<string, string> = {}, who = client) =>
  tokenRequest(engine, who, { grant_type: 'refresh_token', refresh_token: refreshToken, ...extra });
const households = (accessToken: string) =>
  fetch(`${engine.urls.control}/api/v1/households`, { headers: { authorization: `Bearer ${accessToken}` } });
const grants = async (who = client): Promise<GrantView[]> =>
  (await admin(engine, 'GET', `/integrations/${who.id}/grants`)).body as GrantView[];
const tokenCount = async () => (await grants()).reduce((n, g) => n + g.tokens.length, 0);

function expectOAuthError(
  response: { status: number; headers: Headers; body: Record<string, unknown> },
  status: number,
  error: string,
  description?: RegExp,
) {
  expect(response.status).toBe(status);
  expect(response.body).toEqual({ error, error_description: expect.any(String) });
  if (description) expect(response.body.error_description).toMatch(description);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('pragma')).toBe('no-cache');
  if (status === 401) expect(response.headers.get('www-authenticate')).toBe('Basic realm="login"');
}

describe('authorization_code grant (docs/contract/platform.md §4.1, docs/contract/console.md §2)', () => {
  it('answers the token response with no-store and opaque 256-bit tokens that work at the control API', async () => {
    const response = await exchange(await codeFor(engine, client));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    expect(response.body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      token_type: 'Bearer',
      expires_in: 86400,
      refresh_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      scope: 'playback-control-all',
    });
    const api = await households(response.body.access_token as string);
    expect(api.status).toBe(200);
    expect(await api.json()).toEqual({ households: [{ id: 'household-demo', name: 'Demo Household' }] });
  });

  it('stores tokens only as hashes', async () => {
    const response = await exchange(await codeFor(engine, client));
    const [grant] = await grants();
    expect(JSON.stringify(grant)).not.toContain(response.body.access_token);
    expect(grant!.tokens.map((t) => t.hint)).toContain((response.body.access_token as string).slice(0, 6));
  });

  it('a second use of a code fails with invalid_grant and revokes every token issued from it', async () => {
    const code = await codeFor(engine, client);
    const first = await exchange(code);
    expect(first.status).toBe(200);
    const replay = await exchange(code);
    expectOAuthError(replay, 400, 'invalid_grant', /already used.*revoked/);
    expect((await households(first.body.access_token as string)).status).toBe(401);
    expectOAuthError(await refresh(first.body.refresh_token as string), 400, 'invalid_grant', /revoked/);
    const [grant] = await grants();
    expect(grant!.revokedReason).toBe('authorization code used twice');
    expect(grant!.tokens.every((t) => t.status === 'revoked')).toBe(true);
  });

  it('of concurrent exchanges of one code (one group commit), exactly one wins and the rest revoke it', async () => {
    const code = await codeFor(engine, client);
    const answers = await Promise.all(Array.from({ length: 5 }, () => exchange(code)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400, 400]);
    const winner = answers.find((a) => a.status === 200)!;
    expect((await households(winner.body.access_token as string)).status).toBe(401);
  });

  it('concurrent exchanges of different codes all succeed', async () => {
    const codes = await Promise.all(Array.from({ length: 8 }, () => codeFor(engine, client)));
    const answers = await Promise.all(codes.map((code) => exchange(code)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(new Set(answers.map((a) => a.body.access_token)).size).toBe(8);
  });

  it('ignores parameters it does not know, whatever their names (constructor, __proto__, toString)', async () => {
    const response = await exchange(await codeFor(engine, client), {
      constructor: '1',
      ['__proto__']: '2',
      toString: '3',
    });
    expect(response.status).toBe(200);
  });

  it('a code lives 600 s on the engine clock', async () => {
    const code = await codeFor(engine, client);
    await admin(engine, 'POST', '/clock', { advanceMs: 600_000 });
    expectOAuthError(await exchange(code), 400, 'invalid_grant', /expired/);
    const fresh = await codeFor(engine, client);
    await admin(engine, 'POST', '/clock', { advanceMs: 599_000 });
    expect((await exchange(fresh)).status).toBe(200);
  });

  it('a code is bound to its redirect_uri and its client', async () => {
    const code = await codeFor(engine, client);
    expectOAuthError(
      await exchange(code, { redirect_uri: `${LOOPBACK_REDIRECT}/` }),
      400,
      'invalid_grant',
      /redirect_uri/,
    );
    expectOAuthError(await exchange(code, {}, other), 400, 'invalid_grant', /another client/);
    // Neither attempt spent it.
    expect((await exchange(code)).status).toBe(200);
  });

  it('a code is bound to its PKCE challenge', async () => {
    const verifier = 'a-verifier-that-is-long-enough-to-be-valid-0123456789';
    const code = await codeFor(engine, client, { code_challenge: s256(verifier), code_challenge_method: 'S256' });
    expectOAuthError(await exchange(code), 400, 'invalid_grant', /code_verifier is missing/);
    expectOAuthError(await exchange(code, { code_verifier: `${verifier}x` }), 400, 'invalid_grant', /does not match/);
    expectOAuthError(await exchange(code, { code_verifier: 'short' }), 400, 'invalid_grant', /43 to 128/);
    expect((await exchange(code, { code_verifier: verifier })).status).toBe(200);
  });

  it('refuses a code_verifier for a code that had no challenge (a PKCE downgrade)', async () => {
    const code = await codeFor(engine, client);
    expectOAuthError(
      await exchange(code, { code_verifier: 'a'.repeat(43) }),
      400,
      'invalid_grant',
      /no code_challenge/,
    );
  });

  it.each([
    ['an unknown code', { code: 'made-up' }, 'invalid_grant', /unknown/],
    ['a missing code', { code: '' }, 'invalid_request', /code is missing/],
  ])('%s is %s', async (_name, form, error, description) => {
    expectOAuthError(
      await tokenRequest(engine, client, {
        grant_type: 'authorization_code',
        redirect_uri: LOOPBACK_REDIRECT,
        ...form,
      }),
      400,
      error,
      description,
    );
  });

  it('a missing redirect_uri is invalid_request', async () => {
    const code = await codeFor(engine, client);
    expectOAuthError(
      await tokenRequest(engine, client, { grant_type: 'authorization_code', code }),
      400,
      'invalid_request',
      /redirect_uri is missing/,
    );
  });
});

describe('refresh_token grant', () => {
  it('rotates: a new access and refresh token, the old refresh token stops working, and presenting it again revokes the grant', async () => {
    const first = await exchange(await codeFor(engine, client));
    const second = await refresh(first.body.refresh_token as string);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ token_type: 'Bearer', expires_in: 86400, scope: 'playback-control-all' });
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    expect(second.body.access_token).not.toBe(first.body.access_token);
    expect(second.headers.get('cache-control')).toBe('no-store');

    // Past the grace window (refresh-grace.test.ts): a reuse now.
    await admin(engine, 'POST', '/clock', { advanceMs: 30_000 });
    const reuse = await refresh(first.body.refresh_token as string);
    expectOAuthError(reuse, 400, 'invalid_grant', /reuse.*whole grant is revoked/);
    expect((await households(second.body.access_token as string)).status).toBe(401);
    expectOAuthError(await refresh(second.body.refresh_token as string), 400, 'invalid_grant', /revoked/);
    const flow = (await admin(engine, 'GET', `/oauth/flows/${(await grants())[0]!.flowId}`)).body as FlowView;
    expect(flow.status).toBe('revoked');
    expect(
      flow.steps.some((s) => s.kind === 'revocation' && s.summary.includes('rotated refresh token used again')),
    ).toBe(true);
  });

  it('with rotation switched off, the refresh token stays the same and keeps working', async () => {
    const noRotation = await createTestIntegration(engine, { name: 'No rotation', rotateRefreshTokens: false });
    const first = await exchange(await codeFor(engine, noRotation), {}, noRotation);
    const second = await refresh(first.body.refresh_token as string, {}, noRotation);
    const third = await refresh(first.body.refresh_token as string, {}, noRotation);
    expect(second.body.refresh_token).toBe(first.body.refresh_token);
    expect(third.status).toBe(200);
    expect((await households(third.body.access_token as string)).status).toBe(200);
  });

  it('rotation can be switched per integration with PATCH', async () => {
    const app = await createTestIntegration(engine, { name: 'Switch' });
    expect(
      (await admin(engine, 'PATCH', `/integrations/${app.id}`, { rotateRefreshTokens: false })).body,
    ).toMatchObject({ rotateRefreshTokens: false });
    const first = await exchange(await codeFor(engine, app), {}, app);
    expect((await refresh(first.body.refresh_token as string, {}, app)).body.refresh_token).toBe(
      first.body.refresh_token,
    );
  });

  it('an access token expires after 86400 s on the engine clock; a refresh gets a new one', async () => {
    const first = await exchange(await codeFor(engine, client));
    await admin(engine, 'POST', '/clock', { advanceMs: 86_399_000 });
    expect((await households(first.body.access_token as string)).status).toBe(200);
    await admin(engine, 'POST', '/clock', { advanceMs: 1_000 });
    const expired = await households(first.body.access_token as string);
    expect(expired.status).toBe(401);
    expect(await expired.text()).toBe('Incorrect token');
    const renewed = await refresh(first.body.refresh_token as string);
    expect((await households(renewed.body.access_token as string)).status).toBe(200);
  });

  it.each([
    ['an unknown refresh token', () => 'made-up', {}, 400, 'invalid_grant', /unknown/],
    [
      'an access token as refresh token',
      (t: Record<string, unknown>) => t.access_token as string,
      {},
      400,
      'invalid_grant',
      /access token, not a refresh token/,
    ],
    [
      'another scope',
      (t: Record<string, unknown>) => t.refresh_token as string,
      { scope: 'everything' },
      400,
      'invalid_scope',
      /playback-control-all/,
    ],
  ])('%s fails', async (_name, pick, extra, status, error, description) => {
    const tokens = await exchange(await codeFor(engine, client));
    expectOAuthError(await refresh(pick(tokens.body), extra), status, error, description);
  });

  it("refuses another client's refresh token", async () => {
    const tokens = await exchange(await codeFor(engine, client));
    expectOAuthError(
      await refresh(tokens.body.refresh_token as string, {}, other),
      400,
      'invalid_grant',
      /another client/,
    );
  });
});

describe('client authentication (RFC 6749 §2.3.1)', () => {
  it.each([
    ['no Authorization header', null, /no Authorization header/],
    ['a wrong secret', 'wrong', /does not match/],
    ['an unknown client', 'unknown', /not a registered client key/],
    ['a Bearer header', 'Bearer abc', /not Basic/],
    ['broken Base64', 'Basic %%%', /not valid Base64/],
    ['no colon', `Basic ${Buffer.from('nocolon').toString('base64')}`, /no colon/],
  ])('%s is 401 invalid_client with WWW-Authenticate', async (_name, header, description) => {
    const before = await tokenCount();
    const code = await codeFor(engine, client);
    const authorization =
      header === 'wrong'
        ? basicHeader(client.clientId!, 'wrong-secret')
        : header === 'unknown'
          ? basicHeader('nobody', client.clientSecret)
          : header;
    const refused = await tokenRequest(
      engine,
      client,
      { grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT },
      { authorization },
    );
    expectOAuthError(refused, 401, 'invalid_client', description);
    // A caller who knows a client_id learns nothing of its secret, not even how it starts.
    expect(JSON.stringify(refused.body)).not.toContain(client.clientSecret.slice(0, 6));
    expect(await tokenCount()).toBe(before);
    // The code was not spent by the failed attempt.
    expect((await exchange(code)).status).toBe(200);
  });

  it('refuses client credentials in the form', async () => {
    const code = await codeFor(engine, client);
    const inForm = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: LOOPBACK_REDIRECT,
      client_id: client.clientId!,
      client_secret: client.clientSecret,
    };
    expectOAuthError(
      await tokenRequest(engine, client, inForm, { authorization: null }),
      401,
      'invalid_client',
      /HTTP Basic/,
    );
    expectOAuthError(await tokenRequest(engine, client, inForm), 400, 'invalid_request', /both/);
  });

  it('a regenerated secret replaces the old one at once', async () => {
    const app = await createTestIntegration(engine, { name: 'Regenerate' });
    const { body } = await admin(engine, 'POST', `/integrations/${app.id}/keys/${app.keys[0]!.id}/secret`);
    const fresh = body as { clientSecret: string };
    expect(fresh.clientSecret).not.toBe(app.clientSecret);
    expectOAuthError(await exchange(await codeFor(engine, app), {}, app), 401, 'invalid_client');
    expect((await exchange(await codeFor(engine, app), {}, { ...app, clientSecret: fresh.clientSecret })).status).toBe(
      200,
    );
  });
});

describe('bad input: an RFC error, a 4xx, nothing stored, never a 500', () => {
  it.each([
    [
      'an unknown grant type',
      { grant_type: 'password', username: 'demo', password: 'demo' },
      {},
      400,
      'unsupported_grant_type',
    ],
    ['client_credentials', { grant_type: 'client_credentials' }, {}, 400, 'unsupported_grant_type'],
    ['a missing grant_type', {}, {}, 400, 'invalid_request'],
    [
      'a repeated parameter',
      {},
      { body: 'grant_type=authorization_code&grant_type=refresh_token&code=x' },
      400,
      'invalid_request',
    ],
    [
      'a JSON body',
      {},
      { contentType: 'application/json', body: '{"grant_type":"authorization_code"}' },
      400,
      'invalid_request',
    ],
    ['a text body', {}, { contentType: 'text/plain', body: 'grant_type=authorization_code' }, 400, 'invalid_request'],
    [
      'an oversized form',
      {},
      { body: `grant_type=authorization_code&code=${'x'.repeat(40_000)}` },
      400,
      'invalid_request',
    ],
    ['binary garbage', {}, { body: '\u0000\uffff%%%&&==' }, 400, 'invalid_request'],
  ])('%s', async (_name, form, init, status, error) => {
    const before = await tokenCount();
    const response = await tokenRequest(engine, client, form as Record<string, string>, init);
    expectOAuthError(response, status, error);
    expect(await tokenCount()).toBe(before);
  });

  it('answers a path it cannot read (a bad percent-escape) in its own shapes: an error page, not fastify JSON', async () => {
    const page = await fetch(`${engine.urls.login}/login/v3/oauth%ZZ?client_id=x`);
    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('%ZZ');
  });

  it('the token endpoint takes POST only', async () => {
    const response = await fetch(`${engine.urls.login}/login/v3/oauth/access`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('records every token request on the inspector with its decoded Basic header', async () => {
    await tokenRequest(
      engine,
      client,
      { grant_type: 'authorization_code', code: 'x', redirect_uri: LOOPBACK_REDIRECT },
      { authorization: basicHeader(client.clientId!, 'wrong-secret') },
    );
    const [newest] = (await admin(engine, 'GET', '/oauth/flows')).body as { id: string }[];
    const flow = (await admin(engine, 'GET', `/oauth/flows/${newest!.id}`)).body as FlowView;
    expect(flow).toMatchObject({ clientId: client.clientId, integrationName: 'Test app', status: 'failed' });
    expect(flow.steps[0]!.detail).toMatchObject({
      kind: 'token',
      status: 401,
      basic: {
        present: true,
        scheme: 'Basic',
        clientId: client.clientId,
        verdict: 'wrong_secret',
        secret: expect.stringMatching(/^wrong-… \(12 chars\)$/),
      },
      error: { error: 'invalid_client' },
    });
  });
});
