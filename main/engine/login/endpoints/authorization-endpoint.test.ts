import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CreatedIntegration, FlowView, GrantView } from '../../api/oauth-types.js';
import type { Engine } from '../../index.js';
import { admin, startTestEngine } from '../../testing/http.js';
import {
  FormBrowser,
  LOOPBACK_REDIRECT,
  authorizeParams,
  authorizeUrl,
  createTestIntegration,
  hiddenFields,
  signInAndDecide,
} from '../../testing/oauth.js';
import { s256 } from '../secrets.js';

let engine: Engine;
let client: CreatedIntegration;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
  client = await createTestIntegration(engine, {
    name: 'Party Mix',
    description: 'Plays the party mix everywhere',
    category: 'Music',
  });
});
afterAll(() => engine.close());
beforeEach(async () => {
  await admin(engine, 'PATCH', '/settings', { autoApprove: false, productionParity: false });
});

const get = (params: Record<string, string | undefined>) => fetch(authorizeUrl(engine, params), { redirect: 'manual' });
const grants = async (): Promise<GrantView[]> =>
  (await admin(engine, 'GET', `/integrations/${client.id}/grants`)).body as GrantView[];
const lastFlow = async (): Promise<FlowView> => {
  const [newest] = (await admin(engine, 'GET', '/oauth/flows')).body as { id: string }[];
  return (await admin(engine, 'GET', `/oauth/flows/${newest!.id}`)).body as FlowView;
};

describe('authorization request errors that are a page, never a redirect (docs/contract/console.md §2)', () => {
  it.each([
    ['an unknown client_id', { client_id: 'nobody' }, /not a registered client key/],
    ['a missing client_id', { client_id: undefined }, /client_id is missing/],
    ['a missing redirect_uri', { redirect_uri: undefined }, /redirect_uri is missing/],
    ['an unregistered redirect_uri', { redirect_uri: 'https://evil.example/steal' }, /not registered for this key/],
    ['a redirect_uri that differs by a trailing slash', { redirect_uri: `${LOOPBACK_REDIRECT}/` }, /not registered/],
  ])('%s gets an HTML 400 page saying which check failed', async (_name, overrides, why) => {
    const before = (await grants()).length;
    const response = await get(authorizeParams(client, overrides));
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toMatch(why);
    expect(await grants()).toHaveLength(before);
  });

  it('shows the presented and the registered redirect URI character by character', async () => {
    const response = await get(authorizeParams(client, { redirect_uri: 'http://127.0.0.1:9/callbak' }));
    const html = await response.text();
    expect(html).toContain('character by character');
    expect(html).toContain('http://127.0.0.1:9/callba<mark>k</mark>');
    expect(html).toContain('http://127.0.0.1:9/callba<mark>ck</mark>');
    const flow = await lastFlow();
    const authorize = flow.steps[0]!.detail;
    expect(authorize).toMatchObject({
      kind: 'authorize',
      outcome: 'error_page',
      redirectComparison: { closest: LOOPBACK_REDIRECT, firstDifference: 25 },
    });
    expect(flow.status).toBe('failed');
  });

  it('never redirects for a repeated client_id or redirect_uri', async () => {
    const url = `${authorizeUrl(engine, authorizeParams(client))}&redirect_uri=${encodeURIComponent('https://evil.example/')}`;
    const response = await fetch(url, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/redirect_uri is repeated/);
  });

  it('refuses a registered loopback redirect URI when production parity is on', async () => {
    await admin(engine, 'PATCH', '/settings', { productionParity: true });
    const response = await get(authorizeParams(client));
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/production parity/);
  });
});

describe('authorization request errors answered at the redirect URI (RFC 6749 §4.1.2.1)', () => {
  it.each([
    ['a missing state', { state: undefined }, 'invalid_request', /state is missing/],
    ['a missing response_type', { response_type: undefined }, 'invalid_request', /response_type is missing/],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type', /not supported/],
    ['a missing scope', { scope: undefined }, 'invalid_request', /scope is missing/],
    ['an unknown scope', { scope: 'everything' }, 'invalid_scope', /playback-control-all/],
    ['PKCE plain', { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, 'invalid_request', /S256/],
    ['a challenge without method', { code_challenge: 'a'.repeat(43) }, 'invalid_request', /S256/],
    [
      'a malformed challenge',
      { code_challenge: 'short', code_challenge_method: 'S256' },
      'invalid_request',
      /43 base64url/,
    ],
  ])('%s redirects with %s, error_description and state', async (_name, overrides, error, description) => {
    const before = (await grants()).length;
    const response = await get(authorizeParams(client, overrides));
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(LOOPBACK_REDIRECT);
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('error_description')).toMatch(description);
    expect(location.searchParams.get('state')).toBe('state' in overrides ? null : 'state-123');
    expect(await grants()).toHaveLength(before);
  });

  it('a repeated parameter is invalid_request', async () => {
    const response = await fetch(`${authorizeUrl(engine, authorizeParams(client))}&scope=playback-control-all`, {
      redirect: 'manual',
    });
    const location = new URL(response.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/scope repeated/);
  });

  it("keeps the redirect URI's own query", async () => {
    const withQuery = await createTestIntegration(engine, { redirectUris: ['http://localhost:9/cb?tenant=a%20b'] });
    const response = await get(
      authorizeParams(withQuery, { redirect_uri: 'http://localhost:9/cb?tenant=a%20b', scope: 'nope' }),
    );
    expect(response.headers.get('location')).toMatch(
      /^http:\/\/localhost:9\/cb\?tenant=a%20b&error=invalid_scope&error_description=.*&state=state-123$/,
    );
  });
});

describe('sign-in and consent pages', () => {
  it('signs in as demo, shows the consent page, and Allow redirects with code and state', async () => {
    const browser = new FormBrowser();
    const signIn = await browser.get(authorizeUrl(engine, authorizeParams(client)));
    expect(signIn.status).toBe(200);
    expect(signIn.html).toMatch(/<label for="username">Username<\/label>/);
    expect(signIn.html).toMatch(/<label for="password">Password<\/label>/);
    expect(signIn.html).toMatch(/>Sign in<\/button>/);
    expect(signIn.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(signIn.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Lax/);

    const afterSignIn = await browser.submit(signIn, engine.urls.login, { username: 'demo', password: 'demo' });
    expect(afterSignIn.status).toBe(303);
    const consent = await browser.get(new URL(afterSignIn.location!, engine.urls.login).toString());
    expect(consent.html).toContain('Party Mix');
    expect(consent.html).toContain('Plays the party mix everywhere');
    expect(consent.html).toContain('playback-control-all');
    expect(consent.html).toMatch(/>Allow<\/button>/);
    expect(consent.html).toMatch(/>Deny<\/button>/);

    const final = await browser.submit(consent, engine.urls.login, { decision: 'allow' });
    expect(final.status).toBe(302);
    const location = new URL(final.location!);
    expect(location.searchParams.get('state')).toBe('state-123');
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const flow = await lastFlow();
    expect(flow.steps.map((s) => s.kind)).toEqual(['authorize', 'login', 'consent', 'redirect']);
    expect(flow.status).toBe('code_issued');
    // The inspector never stores the code itself.
    expect(JSON.stringify(flow)).not.toContain(location.searchParams.get('code'));
  });

  it('Deny redirects with access_denied and the state, and issues nothing', async () => {
    const before = (await grants()).length;
    const final = await signInAndDecide(engine, authorizeUrl(engine, authorizeParams(client)), 'deny');
    expect(final.status).toBe(302);
    const location = new URL(final.location!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('state-123');
    expect(location.searchParams.get('code')).toBeNull();
    expect(await grants()).toHaveLength(before);
    expect((await lastFlow()).status).toBe('denied');
  });

  it('a wrong password shows the sign-in page again with an error, and the right one goes on', async () => {
    const browser = new FormBrowser();
    const signIn = await browser.get(authorizeUrl(engine, authorizeParams(client)));
    const wrong = await browser.submit(signIn, engine.urls.login, { username: 'demo', password: 'nope' });
    expect(wrong.status).toBe(200);
    expect(wrong.html).toContain('Wrong username or password.');
    expect(wrong.html).toContain('value="demo"');
    const right = await browser.submit(wrong, engine.urls.login, { username: 'demo', password: 'demo' });
    expect(right.status).toBe(303);
    const flow = await lastFlow();
    expect(flow.steps.filter((s) => s.kind === 'login').map((s) => s.ok)).toEqual([false, true]);
  });

  it('ends the sign-in with access_denied after five wrong passwords', async () => {
    const browser = new FormBrowser();
    let page = await browser.get(authorizeUrl(engine, authorizeParams(client)));
    for (let i = 0; i < 4; i++)
      page = await browser.submit(page, engine.urls.login, { username: 'demo', password: 'x' });
    const last = await browser.submit(page, engine.urls.login, { username: 'demo', password: 'x' });
    expect(last.status).toBe(302);
    expect(new URL(last.location!).searchParams.get('error')).toBe('access_denied');
  });

  it('refuses a sign-in form from another browser (no cookie) or with a wrong CSRF token', async () => {
    const browser = new FormBrowser();
    const signIn = await browser.get(authorizeUrl(engine, authorizeParams(client)));
    const stranger = new FormBrowser();
    const other = await stranger.post(`${engine.urls.login}/login/v3/oauth/login`, {
      ...hiddenFields(signIn.html),
      username: 'demo',
      password: 'demo',
    });
    expect(other.status).toBe(400);
    expect(other.html).toMatch(/another browser/);
    const forged = await browser.submit(signIn, engine.urls.login, {
      csrf: 'forged',
      username: 'demo',
      password: 'demo',
    });
    expect(forged.status).toBe(400);
    expect(forged.html).toMatch(/CSRF/);
    expect(forged.location).toBeNull();
  });

  it('refuses the consent decision before sign-in', async () => {
    const browser = new FormBrowser();
    const signIn = await browser.get(authorizeUrl(engine, authorizeParams(client)));
    const early = await browser.post(`${engine.urls.login}/login/v3/oauth/consent`, {
      ...hiddenFields(signIn.html),
      decision: 'allow',
    });
    expect(early.status).toBe(400);
    expect(early.location).toBeNull();
  });

  it('expires a sign-in after 10 minutes on the engine clock', async () => {
    const browser = new FormBrowser();
    const signIn = await browser.get(authorizeUrl(engine, authorizeParams(client)));
    await admin(engine, 'POST', '/clock', { advanceMs: 600_000 });
    const late = await browser.submit(signIn, engine.urls.login, { username: 'demo', password: 'demo' });
    expect(late.status).toBe(400);
    expect(late.html).toMatch(/expired/);
  });

  it('answers a broken sign-in form with a 400 page, never a 500', async () => {
    for (const [contentType, body] of [
      ['application/json', '{"username":"demo"}'],
      ['application/x-www-form-urlencoded', `interaction=a&interaction=b`],
      ['application/x-www-form-urlencoded', `x=${'y'.repeat(20_000)}`],
    ] as const) {
      const response = await fetch(`${engine.urls.login}/login/v3/oauth/login`, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body,
        redirect: 'manual',
      });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
    }
  });
});

describe('auto-approve and PKCE', () => {
  it('auto-approve skips sign-in and consent, and the inspector says so', async () => {
    await admin(engine, 'PATCH', '/settings', { autoApprove: true });
    const response = await get(authorizeParams(client));
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get('location')!).searchParams.get('code')).toBeTruthy();
    const flow = await lastFlow();
    expect(flow.steps.map((s) => [s.kind, s.ok])).toEqual([
      ['authorize', true],
      ['consent', true],
      ['redirect', true],
    ]);
    expect(flow.steps[1]!.detail).toMatchObject({ kind: 'consent', decision: 'auto_approve', username: 'demo' });
  });

  it('binds the code to an S256 challenge', async () => {
    await admin(engine, 'PATCH', '/settings', { autoApprove: true });
    const verifier = 'v'.repeat(50);
    await get(authorizeParams(client, { code_challenge: s256(verifier), code_challenge_method: 'S256' }));
    const [grant] = await grants();
    expect(grant!.code).toMatchObject({ pkce: true, redirectUri: LOOPBACK_REDIRECT });
  });
});
