import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedIntegration, FlowView } from '../../../../main/engine/api/oauth-types.js';
import type { Engine } from '../../../../main/engine/index.js';
import { startTestEngine } from '../../../../main/engine/testing/http.js';
import { codeFor, createIntegration } from '../../../../main/engine/testing/oauth.js';
import { pendingTokenRequest, tokenRequestCurl } from './token-request';

const run = promisify(execFile);

let engine: Engine;
let client: CreatedIntegration;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
  client = await createIntegration(engine, { name: "Bob's app" });
});
afterAll(() => engine.close());

/** The flow the newest code of `client` was issued on. */
async function newestFlow(): Promise<FlowView> {
  const flows = await engine.commands.run('oauth.flows.list', {});
  const flow = flows.find((f) => f.clientId === client.clientId && f.status === 'code_issued')!;
  return engine.commands.run('oauth.flows.get', { id: flow.id });
}

/** Runs the curl line in a shell, as a user pastes it, with `env` set. */
async function paste(curl: string, env: Record<string, string>): Promise<Record<string, unknown>> {
  const { stdout } = await run('sh', ['-c', curl], { env: { ...process.env, ...env } });
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('the pending token request of a flow', () => {
  it('runs as pasted, with the verifier of a flow started here, and trades the code for tokens', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const code = await codeFor(engine, client, { code_challenge: challenge, code_challenge_method: 'S256' });
    const flow = await newestFlow();
    const request = pendingTokenRequest(flow, engine.urls.login, verifier)!;
    expect(request).toMatchObject({ clientId: client.clientId, redirectUri: 'http://127.0.0.1:9/callback', codeVerifier: verifier });
    const curl = tokenRequestCurl(request);
    expect(curl).not.toContain(code);
    expect(curl).not.toContain(client.clientSecret);
    const answer = await paste(curl, { CODE: code, CLIENT_SECRET: client.clientSecret });
    expect(answer).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String), token_type: 'Bearer' });
    const after = await engine.commands.run('oauth.flows.get', { id: flow.id });
    expect(after.status).toBe('tokens_issued');
    expect(pendingTokenRequest(after, engine.urls.login, verifier)).toBeNull();
  });

  it("asks for the app's own verifier when the flow was not started here, and sends none without PKCE", async () => {
    const verifier = randomBytes(32).toString('base64url');
    const code = await codeFor(engine, client, { code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' });
    const challenged = pendingTokenRequest(await newestFlow(), engine.urls.login, null)!;
    expect(challenged.codeVerifier).toBe('$CODE_VERIFIER');
    expect(tokenRequestCurl(challenged)).toContain('"code_verifier=$CODE_VERIFIER"');
    await expect(paste(tokenRequestCurl(challenged), { CODE: code, CLIENT_SECRET: client.clientSecret, CODE_VERIFIER: verifier })).resolves.toHaveProperty('access_token');

    const plainCode = await codeFor(engine, client, { state: 'no-pkce' });
    const plain = pendingTokenRequest(await newestFlow(), engine.urls.login, null)!;
    expect(plain.codeVerifier).toBeNull();
    expect(tokenRequestCurl(plain)).not.toContain('code_verifier');
    await expect(paste(tokenRequestCurl(plain), { CODE: plainCode, CLIENT_SECRET: client.clientSecret })).resolves.toHaveProperty('access_token');
  });

  it('quotes what it writes for the shell: a redirect URI with a quote and a query arrives as registered', () => {
    const curl = tokenRequestCurl({ login: 'http://127.0.0.1:1', clientId: 'cid', redirectUri: "https://app.example/cb?x=it's&y=$HOME", codeVerifier: null, issuedAt: 0 });
    expect(curl).toContain(`--data-urlencode 'redirect_uri=https://app.example/cb?x=it'\\''s&y=$HOME'`);
  });

  it('has none for a flow the console trades itself, or one with no code out', () => {
    const flow = { status: 'code_issued', origin: 'sample', clientId: 'cid', steps: [] } as unknown as FlowView;
    expect(pendingTokenRequest(flow, 'http://x', null)).toBeNull();
    expect(pendingTokenRequest({ ...flow, origin: 'browser', status: 'denied' }, 'http://x', null)).toBeNull();
    expect(pendingTokenRequest({ ...flow, origin: 'browser' }, 'http://x', null)).toBeNull();
  });
});
