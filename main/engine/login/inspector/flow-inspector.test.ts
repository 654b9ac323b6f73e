import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EngineEvent } from '../../api/events.js';
import type { FlowView, GrantView, NavigationVerdict, StartedFlow } from '../../api/oauth-types.js';
import type { Engine } from '../../index.js';
import { admin, startTestEngine } from '../../testing/http.js';
import {
  FormBrowser,
  LOOPBACK_REDIRECT,
  createTestIntegration,
  signInAndDecide,
  tokenRequest,
} from '../../testing/oauth.js';
import { basicHeader } from '../client-auth/basic-auth.js';
import type { OAuthWindowRequest } from '../console/console-flows.js';

let engine: Engine;
const openOAuthWindow = vi.fn<(request: OAuthWindowRequest) => void>();
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0, openOAuthWindow });
});
afterAll(() => engine.close());

const flow = async (id: string): Promise<FlowView> =>
  (await admin(engine, 'GET', `/oauth/flows/${id}`)).body as FlowView;

describe('the sample integration: one click, the whole flow', () => {
  it('authorize → sign-in → consent → code → token → households, every step on one timeline', async () => {
    const events: EngineEvent[] = [];
    const unsubscribe = engine.events.subscribe((event) => events.push(event));
    const started = (await admin(engine, 'POST', '/oauth/sample', {})).body as StartedFlow;
    expect(started).toMatchObject({ openedBy: 'renderer', redirectUri: `${engine.urls.console}/oauth/callback` });
    const authorize = new URL(started.authorizeUrl);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');

    const redirect = await signInAndDecide(engine, started.authorizeUrl, 'allow');
    expect(redirect.location).toMatch(new RegExp(`^${engine.urls.console}/oauth/callback\\?code=`));
    const callback = await fetch(redirect.location!);
    expect(callback.status).toBe(200);
    const page = await callback.text();
    expect(page).toContain('The sample integration is signed in');
    expect(page).toContain('Demo Household');

    await vi.waitFor(async () =>
      expect((await flow(started.flowId)).steps.some((s) => s.kind === 'api_call')).toBe(true),
    );
    const timeline = await flow(started.flowId);
    expect(timeline).toMatchObject({
      origin: 'sample',
      integrationName: 'Sample integration',
      status: 'tokens_issued',
    });
    const kinds = timeline.steps.map((s) => s.kind);
    expect(kinds.slice(0, 7)).toEqual(['authorize', 'login', 'consent', 'redirect', 'callback', 'token', 'sample']);
    // Then the sample subscribes to events with the token (docs/events.md): those calls are on the timeline too.
    expect(kinds.slice(7).filter((kind) => kind !== 'api_call')).toEqual(['sample']);
    const calls = timeline.steps
      .filter((s) => s.kind === 'api_call')
      .map((s) => s.detail as { method: string; path: string });
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(
      expect.arrayContaining(['GET /api/v1/households', 'POST /api/v1/households/household-demo/groups/subscription']),
    );
    expect(timeline.steps.every((s) => s.ok)).toBe(true);
    // The code is masked where the record shows it, and readable: not its percent-encoding.
    const code = new URL(redirect.location!).searchParams.get('code')!;
    const recorded = timeline.steps.find((s) => s.kind === 'redirect')!.detail as { location: string };
    expect(recorded.location).toContain(`?code=${code.slice(0, 6)}… (43 chars)&state=`);
    expect(JSON.stringify(timeline)).not.toContain(code);
    const token = timeline.steps.find((s) => s.kind === 'token')!.detail;
    expect(token).toMatchObject({
      kind: 'token',
      grantType: 'authorization_code',
      status: 200,
      basic: { verdict: 'ok', scheme: 'Basic' },
    });
    expect(timeline.steps.find((s) => s.kind === 'api_call')!.detail).toMatchObject({
      method: 'GET',
      path: '/api/v1/households',
      status: 200,
      accepted: true,
    });

    expect(
      events.filter((e) => e.name === 'oauth.flowStep').map((e) => (e.data as { step: { kind: string } }).step.kind),
    ).toEqual(expect.arrayContaining(kinds));
    unsubscribe();
  });

  it('a callback with a state it never issued is refused (CSRF) and exchanges nothing', async () => {
    const response = await fetch(`${engine.urls.console}/oauth/callback?code=abc&state=forged`);
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/does not know this state/);
  });

  it('shows a denied sample flow plainly', async () => {
    const started = (await admin(engine, 'POST', '/oauth/sample', {})).body as StartedFlow;
    const redirect = await signInAndDecide(engine, started.authorizeUrl, 'deny');
    const callback = await fetch(redirect.location!);
    expect(await callback.text()).toMatch(/not authorized.*access_denied/s);
    expect((await flow(started.flowId)).status).toBe('denied');
  });
});

describe("flows started from the console in the host's OAuth window", () => {
  it('opens the host window, records each navigation and captures the redirect even when nothing listens there', async () => {
    const app = await createTestIntegration(engine, { name: 'Window app' });
    openOAuthWindow.mockClear();
    const started = (
      await admin(engine, 'POST', '/oauth/flows', { integrationId: app.id, pkce: true, openInHostWindow: true })
    ).body as StartedFlow & { codeVerifier: string };
    expect(started.openedBy).toBe('host');
    expect(started.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(openOAuthWindow).toHaveBeenCalledWith({
      flowId: started.flowId,
      authorizeUrl: started.authorizeUrl,
      redirectUri: LOOPBACK_REDIRECT,
    });

    const navigated = async (url: string, event: 'navigate' | 'redirect' | 'load' = 'navigate') =>
      (await admin(engine, 'POST', '/commands/oauth.window.navigated', { flowId: started.flowId, url, event }))
        .body as NavigationVerdict;
    expect(await navigated(started.authorizeUrl)).toEqual({ action: 'continue' });
    const browser = new FormBrowser();
    const redirect = await signInAndDecide(engine, started.authorizeUrl, 'allow', browser);
    const verdict = await navigated(redirect.location!, 'redirect');
    const code = new URL(redirect.location!).searchParams.get('code')!;
    expect(verdict.action).toBe('capture');
    expect(verdict.page).toContain('Redirect captured');
    // The page never shows the code (a screenshot must not leak it): the console reveals it once.
    expect(verdict.page).not.toContain(code);

    const timeline = await flow(started.flowId);
    expect(timeline.origin).toBe('window');
    expect(timeline.steps.map((s) => s.kind)).toEqual([
      'navigation',
      'authorize',
      'login',
      'consent',
      'redirect',
      'navigation',
      'callback',
    ]);
    expect(timeline.steps.at(-1)!.detail).toMatchObject({
      kind: 'callback',
      captured: true,
      stateMatches: true,
      capturedBy: 'window',
      revealable: true,
    });
    expect(timeline.capturedCode).toMatchObject({ by: 'window', state: 'revealable', redirectUri: LOOPBACK_REDIRECT });
    expect(JSON.stringify(timeline)).not.toContain(code);
    const revealed = await admin(engine, 'POST', `/oauth/flows/${started.flowId}/reveal-code`);
    expect(revealed.body).toMatchObject({ code, curl: expect.stringContaining(`code=${code}`) });
    expect((revealed.body as { curl: string }).curl).toContain(`code_verifier=${started.codeVerifier}`);

    // The developer takes the captured code and the verifier to their own server.
    const tokens = await tokenRequest(engine, app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: LOOPBACK_REDIRECT,
      code_verifier: started.codeVerifier,
    });
    expect(tokens.status).toBe(200);
  });

  it('files a code exchange refused for a wrong secret on the flow of the code, not on a flow of its own', async () => {
    const app = await createTestIntegration(engine, { name: 'Wrong secret app' });
    const started = (await admin(engine, 'POST', '/oauth/flows', { integrationId: app.id, pkce: true }))
      .body as StartedFlow & { codeVerifier: string };
    const redirect = await signInAndDecide(engine, started.authorizeUrl, 'allow');
    const code = new URL(redirect.location!).searchParams.get('code')!;
    const flowsBefore = ((await admin(engine, 'GET', '/oauth/flows')).body as FlowView[]).length;

    const refused = await tokenRequest(
      engine,
      app,
      { grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT },
      { authorization: basicHeader(app.clientId!, 'wrong-secret') },
    );
    expect(refused.status).toBe(401);
    expect(((await admin(engine, 'GET', '/oauth/flows')).body as FlowView[]).length).toBe(flowsBefore);
    const attempt = (await flow(started.flowId)).steps.at(-1)!;
    expect(attempt).toMatchObject({ kind: 'token', ok: false, detail: { basic: { verdict: 'wrong_secret' } } });
    // A failed step of a flow still waiting for its exchange, not a failed flow: the code is good.
    expect((await flow(started.flowId)).status).toBe('code_issued');
    const badVerifier = await tokenRequest(engine, app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: LOOPBACK_REDIRECT,
      code_verifier: 'x'.repeat(43),
    });
    expect(badVerifier).toMatchObject({
      status: 400,
      body: { error_description: expect.stringContaining('does not match the code_challenge') },
    });
    expect((await flow(started.flowId)).status).toBe('code_issued');

    // The code was not spent: the right secret then gets the tokens, on the same flow.
    const traded = await tokenRequest(engine, app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: LOOPBACK_REDIRECT,
      code_verifier: started.codeVerifier,
    });
    expect(traded.status).toBe(200);
    expect((await flow(started.flowId)).status).toBe('tokens_issued');
    // Whoever presents the spent code with a wrong secret after that does not undo the flow's end.
    await tokenRequest(
      engine,
      app,
      { grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT },
      { authorization: basicHeader(app.clientId!, 'wrong-secret') },
    );
    expect((await flow(started.flowId)).status).toBe('tokens_issued');
  });

  it('a code exchange fails the flow once the code can no longer be traded (here: expired)', async () => {
    const app = await createTestIntegration(engine, { name: 'Late app' });
    const started = (await admin(engine, 'POST', '/oauth/flows', { integrationId: app.id })).body as StartedFlow;
    const redirect = await signInAndDecide(engine, started.authorizeUrl, 'allow');
    const code = new URL(redirect.location!).searchParams.get('code')!;
    await admin(engine, 'POST', '/clock', { advanceMs: 600_000 });
    const late = await tokenRequest(engine, app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: LOOPBACK_REDIRECT,
    });
    expect(late.status).toBe(400);
    expect((await flow(started.flowId)).status).toBe('failed');
  });

  it('without a host window, the renderer opens the authorize URL itself', async () => {
    const app = await createTestIntegration(engine, { name: 'Tab app' });
    const started = (await admin(engine, 'POST', '/oauth/flows', { integrationId: app.id })).body as StartedFlow;
    expect(started.openedBy).toBe('renderer');
    expect(new URL(started.authorizeUrl).searchParams.get('code_challenge')).toBeNull();
    await signInAndDecide(engine, started.authorizeUrl);
    expect((await flow(started.flowId)).origin).toBe('browser');
  });
});

describe('tokens on the timeline and in the grant list', () => {
  it('records API calls with a revoked or expired token as refused, and expires and revokes tokens on request', async () => {
    const app = await createTestIntegration(engine, { name: 'Lifecycle' });
    await admin(engine, 'PATCH', '/settings', { autoApprove: true });
    const started = (await admin(engine, 'POST', '/oauth/flows', { integrationId: app.id })).body as StartedFlow;
    const redirect = await fetch(started.authorizeUrl, { redirect: 'manual' });
    await admin(engine, 'PATCH', '/settings', { autoApprove: false });
    const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!;
    const tokens = (
      await tokenRequest(engine, app, { grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT })
    ).body as { access_token: string };
    const call = () =>
      fetch(`${engine.urls.control}/api/v1/households`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });

    expect((await call()).status).toBe(200);
    const [grant] = (await admin(engine, 'GET', `/integrations/${app.id}/grants`)).body as GrantView[];
    const access = grant!.tokens.find((t) => t.kind === 'access')!;
    expect(access).toMatchObject({ status: 'active', expiresAt: access.issuedAt + 86_400_000 });
    expect(grant!.code).toMatchObject({ usedAt: expect.any(Number) });

    const expired = (await admin(engine, 'POST', `/tokens/${access.id}/expire`)).body;
    expect(expired).toMatchObject({ id: access.id, status: 'expired' });
    expect((await call()).status).toBe(401);
    const revoked = (await admin(engine, 'POST', `/grants/${grant!.id}/revoke`)).body as GrantView;
    expect(revoked.tokens.every((t) => t.status === 'revoked')).toBe(true);

    await vi.waitFor(async () =>
      expect((await flow(started.flowId)).steps.filter((s) => s.kind === 'api_call')).toHaveLength(2),
    );
    const calls = (await flow(started.flowId)).steps.filter((s) => s.kind === 'api_call').map((s) => s.detail);
    expect(calls).toEqual([
      expect.objectContaining({ status: 200, accepted: true }),
      expect.objectContaining({ status: 401, accepted: false, reason: 'expired' }),
    ]);
    expect((await flow(started.flowId)).status).toBe('revoked');
    expect((await admin(engine, 'POST', '/tokens/nope/revoke')).status).toBe(404);
  });
});
