import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FlowView } from '../../api/oauth-types.js';
import { EngineClock } from '../../clock/clock.js';
import { EventBus } from '../../events/bus.js';
import { openStore } from '../../store/store.js';
import { admin, startTestEngine } from '../../testing/http.js';
import { ManualWall } from '../../testing/manual-wall.js';
import { authorizeParams, authorizeUrl, createTestIntegration } from '../../testing/oauth.js';
import { tempDirs } from '../../testing/temp-dirs.js';
import { isSecretParam, maskSecretParams } from '../secrets.js';
import { FlowRecorder } from './flow-recorder.js';

const tempDir = tempDirs('cqc-inspector-');

/** A value to look for in whatever the console stores and shows. */
const secret = () => randomBytes(32).toString('base64url');

describe('authorize parameters named like secrets, in the flow inspector (docs/contract/console.md §9)', () => {
  it('are stored and shown masked: an authorize URL carrying client_secret, tokens, a code, a verifier and a password', async () => {
    const dataDir = tempDir();
    const engine = await startTestEngine({ dataDir, clockSpeed: 0 });
    const client = await createTestIntegration(engine, { name: 'Leaky app' });
    const secrets = {
      client_secret: secret(),
      access_token: secret(),
      refresh_token: secret(),
      code: secret(),
      code_verifier: secret(),
      token: secret(),
      api_key: secret(),
      password: 'hunter2-pw',
    };
    const url = authorizeUrl(engine, authorizeParams(client, secrets));
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(200);

    const [newest] = (await admin(engine, 'GET', '/oauth/flows')).body as { id: string }[];
    // The same URL seen by a host's OAuth window lands on the timeline as a navigation.
    expect(
      (await admin(engine, 'POST', '/commands/oauth.window.navigated', { flowId: newest!.id, url, event: 'navigate' }))
        .status,
    ).toBe(200);
    const flow = (await admin(engine, 'GET', `/oauth/flows/${newest!.id}`)).body as FlowView;
    const authorize = flow.steps.find((s) => s.kind === 'authorize')!.detail as { params: Record<string, string[]> };
    expect(authorize.params.client_secret).toEqual([`${secrets.client_secret.slice(0, 6)}… (43 chars)`]);
    expect(authorize.params.password).toEqual(['•••••••• (10 chars)']);
    // What is not a secret stays readable.
    expect(authorize.params).toMatchObject({
      state: ['state-123'],
      client_id: [client.clientId],
      scope: ['playback-control-all'],
    });
    const navigation = flow.steps.find((s) => s.kind === 'navigation')!;
    expect((navigation.detail as { url: string }).url).toContain(
      `client_secret=${secrets.client_secret.slice(0, 6)}… (43 chars)`,
    );
    const shown = JSON.stringify(flow);
    for (const [name, value] of Object.entries(secrets)) expect(shown, name).not.toContain(value);

    await engine.close();
    // And nothing of them in the console's database files (the traffic log is §9's other item).
    const stored = readdirSync(dataDir)
      .filter((file) => file.startsWith('console.sqlite'))
      .map((file) => readFileSync(join(dataDir, file)).toString('latin1'))
      .join('\n');
    expect(stored).toContain(client.clientId!);
    for (const [name, value] of Object.entries(secrets)) expect(stored.includes(value), name).toBe(false);
  });

  it('shows masked a step that an older console stored in clear', () => {
    const store = openStore({ dataDir: null });
    const recorder = new FlowRecorder(store, new EngineClock({ wall: new ManualWall(), speed: 0 }), new EventBus());
    const flowId = recorder.start({ origin: 'external' });
    const clientSecret = secret();
    store.oauthFlows.addStep({
      flowId,
      at: 0,
      kind: 'authorize',
      ok: true,
      summary: `window navigate: /login/v3/oauth?client_secret=${clientSecret}`,
      detail: {
        kind: 'authorize',
        params: { client_secret: [clientSecret], state: ['s'] },
        checks: [],
        outcome: 'login',
      },
    });
    const shown = recorder.get(flowId)!;
    expect(JSON.stringify(shown)).not.toContain(clientSecret);
    expect(shown.steps[0]!.detail).toMatchObject({
      params: { client_secret: [`${clientSecret.slice(0, 6)}… (43 chars)`], state: ['s'] },
    });
    store.close();
  });
});

describe('which parameters are secrets', () => {
  it.each([
    'client_secret',
    'code',
    'auth_code',
    'code_verifier',
    'access_token',
    'refresh_token',
    'id_token',
    'token',
    'password',
    'api_key',
    'apiKey',
    'client_assertion',
  ])('%s is', (name) => {
    expect(isSecretParam(name)).toBe(true);
  });
  it.each([
    'client_id',
    'redirect_uri',
    'response_type',
    'state',
    'scope',
    'code_challenge',
    'code_challenge_method',
    'token_type',
    'token_type_hint',
    'error',
    'error_description',
  ])('%s is not', (name) => {
    expect(isSecretParam(name)).toBe(false);
  });

  it('masks each of them in a URL once, readable, and leaves the rest byte for byte', () => {
    const code = 'W5B957abcdefghijklmnopqrstuvwxyz0123456789A';
    const masked = maskSecretParams(
      `http://127.0.0.1:9/cb?tenant=a%20b&code=${code}&state=x&client%5Fsecret=abcdefghijklmnopqrstuvwxyz#frag`,
    );
    expect(masked).toBe(
      'http://127.0.0.1:9/cb?tenant=a%20b&code=W5B957… (43 chars)&state=x&client%5Fsecret=abcdef… (26 chars)#frag',
    );
    expect(maskSecretParams(masked)).toBe(masked);
    expect(maskSecretParams('http://127.0.0.1:9/cb#access_token=abcdefghijklmnopqrstuvwxyz&token_type=Bearer')).toBe(
      'http://127.0.0.1:9/cb#access_token=abcdef… (26 chars)&token_type=Bearer',
    );
  });
});
