import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedIntegration, FlowView } from '@engine-api/oauth-types.js';
import type { Engine } from '../../../../main/engine/index.js';
import { startTestEngine } from '../../../../main/engine/testing/http.js';
import { codeFor, createTestIntegration } from '../../../../main/engine/testing/oauth.js';
import { pendingTokenRequest, tokenRequestCurl } from './token-request';

const run = promisify(execFile);

let engine: Engine;
let client: CreatedIntegration;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
  client = await createTestIntegration(engine, { name: "Bob's app" });
});
afterAll(() => engine.close());

/** The flow the newest code of `client` was issued on. */
async function newestFlow(): Promise<FlowView> {
  const flows = await engine.commands.run('oauth.flows.list', {});
  const flow = flows.find((f) => f.clientId === client.clientId && f.status === 'code_issued')!;
  return engine.commands.run('oauth.flows.get', { id: flow.id });
}

/** A shell with nothing of this machine's curl setup (proxies, ~/.curlrc) and `env` set. */
function shell(script: string, env: Record<string, string> = {}) {
  const { PATH, HOME } = process.env;
  return run('sh', ['-c', script], { env: { PATH, HOME, CURL_HOME: '/nonexistent', ...env } });
}

/** Runs the curl line in a shell, as a user pastes it, with `env` set. */
async function paste(curl: string, env: Record<string, string>): Promise<Record<string, unknown>> {
  const { stdout } = await shell(curl, env);
  return JSON.parse(stdout) as Record<string, unknown>;
}

const hasCurl = await run('sh', ['-c', 'command -v curl']).then(
  () => true,
  () => false,
);

describe.skipIf(!hasCurl)('the pending token request of a flow, pasted into a shell', () => {
  it('runs as pasted, with the verifier of a flow started here, and trades the code for tokens', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const code = await codeFor(engine, client, { code_challenge: challenge, code_challenge_method: 'S256' });
    const flow = await newestFlow();
    const request = pendingTokenRequest(flow, engine.urls.login, verifier)!;
    expect(request).toMatchObject({
      clientId: client.clientId,
      redirectUri: 'http://127.0.0.1:9/callback',
      codeVerifier: verifier,
    });
    const curl = tokenRequestCurl(request);
    expect(curl).not.toContain(code);
    expect(curl).not.toContain(client.clientSecret);
    const answer = await paste(curl, { CODE: code, CLIENT_SECRET: client.clientSecret });
    expect(answer).toMatchObject({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'Bearer',
    });
    const after = await engine.commands.run('oauth.flows.get', { id: flow.id });
    expect(after.status).toBe('tokens_issued');
    expect(pendingTokenRequest(after, engine.urls.login, verifier)).toBeNull();
  });

  it("asks for the app's own verifier when the flow was not started here, and sends none without PKCE", async () => {
    const verifier = randomBytes(32).toString('base64url');
    const code = await codeFor(engine, client, {
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    const flow = await newestFlow();
    const challenged = pendingTokenRequest(flow, engine.urls.login, null)!;
    expect(challenged).toMatchObject({ codeVerifier: '$CODE_VERIFIER', verifierLost: false });
    expect(tokenRequestCurl(challenged)).toContain('"code_verifier=$CODE_VERIFIER"');
    // A try without the verifier fails and leaves the code unused: the flow still waits for its
    // exchange, and the request stays on show.
    await expect(
      paste(tokenRequestCurl(challenged), { CODE: code, CLIENT_SECRET: client.clientSecret }),
    ).resolves.toMatchObject({ error: 'invalid_grant' });
    const failedOnce = await engine.commands.run('oauth.flows.get', { id: flow.id });
    expect(failedOnce.status).toBe('code_issued');
    expect(failedOnce.steps.at(-1)).toMatchObject({ kind: 'token', ok: false });
    expect(pendingTokenRequest(failedOnce, engine.urls.login, null)).toEqual(challenged);
    await expect(
      paste(tokenRequestCurl(challenged), { CODE: code, CLIENT_SECRET: client.clientSecret, CODE_VERIFIER: verifier }),
    ).resolves.toHaveProperty('access_token');
    expect(
      pendingTokenRequest(await engine.commands.run('oauth.flows.get', { id: flow.id }), engine.urls.login, null),
    ).toBeNull();

    const plainCode = await codeFor(engine, client, { state: 'no-pkce' });
    const plain = pendingTokenRequest(await newestFlow(), engine.urls.login, null)!;
    expect(plain.codeVerifier).toBeNull();
    expect(tokenRequestCurl(plain)).not.toContain('code_verifier');
    await expect(
      paste(tokenRequestCurl(plain), { CODE: plainCode, CLIENT_SECRET: client.clientSecret }),
    ).resolves.toHaveProperty('access_token');
  });

  it('quotes what it writes for the shell: a redirect URI with quotes, $, backticks and a query arrives as registered', async () => {
    const redirectUri = 'https://app.example/cb?x=it\'s&y=$HOME&z=`id`&w=\\"';
    const curl = tokenRequestCurl({
      login: 'http://127.0.0.1:1',
      clientId: 'cid',
      redirectUri,
      codeVerifier: null,
      verifierLost: false,
      issuedAt: 0,
    });
    // A curl that prints the words it was given, one per line.
    const { stdout } = await shell(`curl() { printf '%s\\n' "$@"; }\n${curl}`, {
      CODE: 'the-code',
      CLIENT_SECRET: 'the-secret',
    });
    expect(stdout.split('\n')).toEqual(
      expect.arrayContaining([
        'cid:the-secret',
        'code=the-code',
        `redirect_uri=${redirectUri}`,
        'http://127.0.0.1:1/login/v3/oauth/access',
      ]),
    );
  });
});

describe('when a flow has a token request to show', () => {
  const step = (seq: number, detail: FlowView['steps'][number]['detail'], ok = true) => ({
    seq,
    flowId: 'f',
    at: seq * 1000,
    kind: detail.kind,
    ok,
    summary: '',
    detail,
  });
  const authorize = (challenge: boolean) =>
    step(1, { kind: 'authorize', params: challenge ? { code_challenge: ['c'] } : {}, checks: [], outcome: 'login' });
  const redirect = step(2, {
    kind: 'redirect',
    location: 'x',
    redirectUri: 'https://app.example/cb',
    code: 'W5B957… (43 chars)',
  });
  const flow = (origin: FlowView['origin'], steps: FlowView['steps'], status: FlowView['status'] = 'code_issued') =>
    ({
      id: 'f',
      origin,
      status,
      clientId: 'cid',
      integrationId: 'i',
      integrationName: 'App',
      startedAt: 0,
      updatedAt: 0,
      stepCount: steps.length,
      steps,
    }) as FlowView;

  it('has none for a flow the console trades itself, one whose integration was deleted, one with no code out, or one whose code was traded or revoked', () => {
    expect(pendingTokenRequest(flow('sample', [authorize(false), redirect]), 'http://x', null)).toBeNull();
    expect(
      pendingTokenRequest(flow('window', [authorize(false), redirect]), 'http://x', null, { sample: true }),
    ).toBeNull();
    expect(
      pendingTokenRequest(flow('external', [authorize(false), redirect]), 'http://x', null, { deleted: true }),
    ).toBeNull();
    expect(pendingTokenRequest(flow('external', [authorize(false), redirect]), 'http://x', null)).not.toBeNull();
    expect(pendingTokenRequest(flow('browser', [authorize(false)], 'signing_in'), 'http://x', null)).toBeNull();
    const traded = step(3, {
      kind: 'token',
      grantType: 'authorization_code',
      basic: {} as never,
      params: {},
      checks: [],
      status: 200,
    });
    expect(
      pendingTokenRequest(flow('external', [authorize(false), redirect, traded], 'tokens_issued'), 'http://x', null),
    ).toBeNull();
    const revoked = step(3, { kind: 'revocation', reason: 'x', tokensRevoked: 0, grantId: 'g' });
    expect(
      pendingTokenRequest(flow('external', [authorize(false), redirect, revoked], 'revoked'), 'http://x', null),
    ).toBeNull();
  });

  it('says when the verifier of a flow started here is gone (a reload), and asks an app for its own', () => {
    expect(pendingTokenRequest(flow('browser', [authorize(true), redirect]), 'http://x', null)).toMatchObject({
      verifierLost: true,
    });
    expect(pendingTokenRequest(flow('browser', [authorize(true), redirect]), 'http://x', 'v')).toMatchObject({
      verifierLost: false,
      codeVerifier: 'v',
    });
    expect(pendingTokenRequest(flow('external', [authorize(true), redirect]), 'http://x', null)).toMatchObject({
      verifierLost: false,
      codeVerifier: '$CODE_VERIFIER',
    });
    expect(pendingTokenRequest(flow('browser', [authorize(false), redirect]), 'http://x', null)).toMatchObject({
      verifierLost: false,
      codeVerifier: null,
    });
  });
});
