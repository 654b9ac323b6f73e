/**
 * Redirect capture: with a real https redirect URI the code goes to that host, as the platform's
 * login service sends it (a 302 with `code` and `state`). With `captureRedirects` turned on (it
 * is off by default) the login service keeps the redirect instead: the browser
 * lands on a page of the login service that never holds the code, the engine sends nothing to
 * the host, and the console reveals the code once, with a curl that carries it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FlowView, LoginSettings, RevealedCode, StartedFlow } from '../../api/oauth-types.js';
import type { Engine } from '../../index.js';
import { admin, startTestEngine } from '../../testing/http.js';
import {
  FormBrowser,
  LOOPBACK_REDIRECT,
  createTestIntegration,
  tokenRequest,
  type PageResponse,
} from '../../testing/oauth.js';

const APP = 'https://myapp.example.com/cb';

let engine: Engine;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
  expect(((await admin(engine, 'GET', '/settings')).body as LoginSettings).captureRedirects).toBe(false);
  // The tests below are about capture: on, unless one turns it off.
  await admin(engine, 'PATCH', '/settings', { captureRedirects: true });
});
afterAll(() => engine.close());
afterEach(async () => {
  vi.restoreAllMocks();
  await admin(engine, 'PATCH', '/settings', { captureRedirects: true, autoApprove: false });
});

const flow = async (id: string): Promise<FlowView> =>
  (await admin(engine, 'GET', `/oauth/flows/${id}`)).body as FlowView;

/** The browser's whole way through sign-in and consent, every answer it got, redirects not followed. */
async function signIn(
  authorizeUrl: string,
  decision: 'allow' | 'deny' = 'allow',
): Promise<{ answers: PageResponse[]; last: PageResponse }> {
  const browser = new FormBrowser();
  const answers: PageResponse[] = [];
  const signInPage = await browser.get(authorizeUrl);
  answers.push(signInPage);
  const afterSignIn = await browser.submit(signInPage, engine.urls.login, { username: 'demo', password: 'demo' });
  answers.push(afterSignIn);
  const consent = await browser.get(new URL(afterSignIn.location!, engine.urls.login).toString());
  answers.push(consent);
  const last = await browser.submit(consent, engine.urls.login, { decision });
  answers.push(last);
  return { answers, last };
}

describe('redirect capture (captureRedirects, off by default)', () => {
  it('is off by default: an https redirect URI gets its 302 with code and state, as the platform sends it', async () => {
    await admin(engine, 'PATCH', '/settings', { captureRedirects: false });
    const app = await createTestIntegration(engine, { redirectUris: [APP] });
    const flow = (await admin(engine, 'POST', '/oauth/flows', { integrationId: app.id, redirectUri: APP }))
      .body as StartedFlow;
    expect((await signIn(flow.authorizeUrl)).last).toMatchObject({
      status: 302,
      location: expect.stringMatching(/^https:\/\/myapp\.example\.com\/cb\?code=[^&]+&state=/),
    });
  });

  it('keeps the code of a flow with redirect URI https://myapp.example.com/cb on this machine, and reveals it once', async () => {
    const app = await createTestIntegration(engine, { name: 'My app', redirectUris: [APP] });
    const started = (await admin(engine, 'POST', '/oauth/flows', { integrationId: app.id, pkce: true }))
      .body as StartedFlow & { codeVerifier: string };
    const outbound = vi.spyOn(globalThis, 'fetch');

    const { answers, last } = await signIn(started.authorizeUrl);
    // No answer sends the browser towards the app's host: the last is a 303 to the login service's own page.
    expect(
      answers.filter(
        (a) => a.location !== null && new URL(a.location, engine.urls.login).hostname === 'myapp.example.com',
      ),
    ).toEqual([]);
    expect(last.status).toBe(303);
    const pageUrl = new URL(last.location!, engine.urls.login);
    expect(pageUrl.origin).toBe(new URL(engine.urls.login).origin);
    const page = await fetch(pageUrl);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('Redirect captured');
    expect(html).toContain(APP);
    // A reload shows the same page and issues nothing.
    expect(await (await fetch(pageUrl)).text()).toBe(html);
    // The engine itself sent nothing to the host either.
    const hosts = outbound.mock.calls.map(
      ([input]) => new URL(input instanceof Request ? input.url : String(input)).hostname,
    );
    expect(hosts.length).toBeGreaterThan(0);
    expect(hosts.filter((host) => host === 'myapp.example.com')).toEqual([]);

    const timeline = await flow(started.flowId);
    expect(timeline.status).toBe('code_issued');
    expect(timeline.steps.map((s) => s.kind)).toEqual(['authorize', 'login', 'consent', 'redirect', 'callback']);
    expect(timeline.steps.at(-1)!.detail).toMatchObject({
      kind: 'callback',
      captured: true,
      capturedBy: 'login service',
      revealable: true,
      stateMatches: true,
    });
    expect(timeline.capturedCode).toMatchObject({
      by: 'login service',
      state: 'revealable',
      redirectUri: APP,
      revealedAt: null,
    });

    const revealed = await admin(engine, 'POST', `/oauth/flows/${started.flowId}/reveal-code`);
    expect(revealed.status).toBe(200);
    const { code, curl } = revealed.body as RevealedCode;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(html).not.toContain(code);
    expect(JSON.stringify(await flow(started.flowId))).not.toContain(code);
    expect(curl).toContain(`--data-urlencode 'code=${code}'`);
    expect(curl).toContain(`--data-urlencode 'redirect_uri=${APP}'`);
    expect(curl).toContain(`code_verifier=${started.codeVerifier}`);
    expect(curl).toContain('"$CLIENT_SECRET"');

    // Once: a second reveal is refused with the reason, and the page still holds no code.
    const again = await admin(engine, 'POST', `/oauth/flows/${started.flowId}/reveal-code`);
    expect(again).toMatchObject({
      status: 409,
      body: { error: { message: expect.stringContaining('revealed already') } },
    });
    expect((await flow(started.flowId)).capturedCode).toMatchObject({
      state: 'revealed',
      revealedAt: expect.any(Number),
    });
    expect(await (await fetch(pageUrl)).text()).not.toContain(code);

    // The code is good: the app's server trades it as the curl says.
    const traded = await tokenRequest(engine, app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: APP,
      code_verifier: started.codeVerifier,
    });
    expect(traded.status).toBe(200);
  });

  it('keeps an error redirect too (the user denied): the page says so, nothing leaves', async () => {
    const app = await createTestIntegration(engine, { name: 'Denied app', redirectUris: [APP] });
    const started = (await admin(engine, 'POST', '/oauth/flows', { integrationId: app.id })).body as StartedFlow;
    const { last } = await signIn(started.authorizeUrl, 'deny');
    expect(last.status).toBe(303);
    const html = await (await fetch(new URL(last.location!, engine.urls.login))).text();
    expect(html).toContain('access_denied');
    expect((await flow(started.flowId)).status).toBe('denied');
    expect((await admin(engine, 'POST', `/oauth/flows/${started.flowId}/reveal-code`)).status).toBe(404);
  });

  it('captures an auto-approved authorization request as well', async () => {
    const app = await createTestIntegration(engine, { name: 'Scripted app', redirectUris: [APP] });
    await admin(engine, 'PATCH', '/settings', { autoApprove: true });
    const response = await fetch(
      `${engine.urls.login}/login/v3/oauth?${new URLSearchParams({ client_id: app.clientId!, response_type: 'code', state: 's', scope: 'playback-control-all', redirect_uri: APP })}`,
      { redirect: 'manual' },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toMatch(/\/login\/v3\/oauth\/captured\?flow=/);
  });

  it('lets a loopback redirect URI get its code (it never leaves the machine), and every redirect go when turned off', async () => {
    const app = await createTestIntegration(engine, {
      name: 'Local and remote',
      redirectUris: [LOOPBACK_REDIRECT, APP],
    });
    const local = (
      await admin(engine, 'POST', '/oauth/flows', { integrationId: app.id, redirectUri: LOOPBACK_REDIRECT })
    ).body as StartedFlow;
    expect((await signIn(local.authorizeUrl)).last).toMatchObject({
      status: 302,
      location: expect.stringMatching(/^http:\/\/127\.0\.0\.1:9\/callback\?code=/),
    });

    await admin(engine, 'PATCH', '/settings', { captureRedirects: false });
    const remote = (await admin(engine, 'POST', '/oauth/flows', { integrationId: app.id, redirectUri: APP }))
      .body as StartedFlow;
    expect((await signIn(remote.authorizeUrl)).last).toMatchObject({
      status: 302,
      location: expect.stringMatching(/^https:\/\/myapp\.example\.com\/cb\?code=/),
    });
  });

  it('answers a page for nothing captured, and refuses to reveal a code no flow has', async () => {
    expect((await fetch(`${engine.urls.login}/login/v3/oauth/captured?flow=flow_nope`)).status).toBe(404);
    expect((await admin(engine, 'POST', '/oauth/flows/flow_nope/reveal-code')).status).toBe(404);
  });
});

describe('request bodies on flow steps', () => {
  it('carries the sign-in, consent and token request bodies, secrets masked', async () => {
    const app = await createTestIntegration(engine, { name: 'Bodies app' });
    const started = (await admin(engine, 'POST', '/oauth/flows', { integrationId: app.id, pkce: true }))
      .body as StartedFlow & { codeVerifier: string };
    const { last } = await signIn(started.authorizeUrl);
    const code = new URL(last.location!).searchParams.get('code')!;
    await tokenRequest(engine, app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: LOOPBACK_REDIRECT,
      code_verifier: started.codeVerifier,
    });
    const steps = (await flow(started.flowId)).steps;
    const body = (kind: string) =>
      (steps.find((s) => s.kind === kind)!.detail as { requestBody?: { contentType: string; text: string } })
        .requestBody;
    expect(body('login')).toMatchObject({
      contentType: 'application/x-www-form-urlencoded',
      text: expect.stringMatching(/username=demo&password=•+ \(4 chars\)/),
    });
    expect(body('login')!.text).toMatch(/csrf=[^&]*… \(\d+ chars\)/);
    expect(body('consent')!.text).toContain('decision=allow');
    const token = body('token')!.text;
    expect(token).toContain('grant_type=authorization_code');
    expect(token).toContain(`redirect_uri=${encodeURIComponent(LOOPBACK_REDIRECT)}`);
    expect(token).toContain(`code=${code.slice(0, 6)}… (43 chars)`);
    expect(token).not.toContain(code);
    expect(token).not.toContain(started.codeVerifier);
  });
});
