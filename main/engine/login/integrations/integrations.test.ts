import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientKeyView, CreatedIntegration, IntegrationView, IssuedClientSecret } from '../../api/oauth-types.js';
import type { Engine } from '../../index.js';
import { admin, startTestEngine } from '../../testing/http.js';
import { createTestIntegration } from '../../testing/oauth.js';

let engine: Engine;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
});
afterAll(() => engine.close());

const list = async () => (await admin(engine, 'GET', '/integrations')).body as IntegrationView[];

describe('the integration manager (docs/contract/console.md §7)', () => {
  it('POST /integrations registers an integration with its first key and shows the secret once', async () => {
    const { status, body } = await admin(engine, 'POST', '/integrations', {
      name: 'Party Mix',
      description: 'Plays the party mix',
      category: 'Music',
      redirectUris: ['https://partymix.example.com/oauth/callback', 'http://localhost:3000/cb'],
    });
    expect(status).toBe(200);
    const created = body as CreatedIntegration;
    expect(created).toMatchObject({
      id: expect.any(String),
      name: 'Party Mix',
      description: 'Plays the party mix',
      category: 'Music',
      clientId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      clientSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      redirectUris: ['https://partymix.example.com/oauth/callback', 'http://localhost:3000/cb'],
      rotateRefreshTokens: true,
    });
    expect(created.warnings).toEqual(['http://localhost:3000/cb: production would reject this']);
    expect(created.keys[0]!.redirectUris).toEqual([
      { id: expect.any(String), uri: 'https://partymix.example.com/oauth/callback', loopback: false, warning: null },
      {
        id: expect.any(String),
        uri: 'http://localhost:3000/cb',
        loopback: true,
        warning: 'production would reject this',
      },
    ]);

    const listed = (await list()).find((i) => i.id === created.id)!;
    expect(listed).toMatchObject({ clientId: created.clientId, redirectUris: created.redirectUris });
    expect(JSON.stringify(await list())).not.toContain(created.clientSecret);
    expect((await admin(engine, 'GET', `/integrations/${created.id}`)).body).toEqual(listed);
  });

  it('stores the secret only as a SHA-256 hash', async () => {
    const created = await createTestIntegration(engine, { name: 'Hashed' });
    const dump = JSON.stringify((await admin(engine, 'GET', '/integrations')).body);
    expect(dump).not.toContain(created.clientSecret);
    expect(created.keys[0]!.secretHint).toBe(created.clientSecret.slice(0, 6));
  });

  it.each([
    [{ name: 'x', redirectUris: ['http://app.example.com/cb'] }, /must be HTTPS/],
    [{ name: 'x', redirectUris: ['https://192.168.0.2/cb'] }, /private address/],
    [{ name: 'x', redirectUris: ['https://ok.example.com/cb', 'https://[fe80::1]/cb'] }, /link-local/],
    [{ name: 'x', redirectUris: [] }, /at least one redirect URL/],
    [{ name: '   ', redirectUris: ['https://ok.example.com/cb'] }, /name must not be empty/],
    [{ name: 'x' }, /redirectUris/],
    [{ name: 'x', redirectUris: 'https://ok.example.com/cb' }, /redirectUris/],
  ])('refuses %j with 400, saying why, and stores nothing', async (body, why) => {
    const before = (await list()).length;
    const response = await admin(engine, 'POST', '/integrations', body);
    expect(response.status).toBe(400);
    expect((response.body as { error: { message: string } }).error.message).toMatch(why);
    expect(await list()).toHaveLength(before);
  });

  it('production parity refuses loopback redirect URLs', async () => {
    await admin(engine, 'PATCH', '/settings', { productionParity: true });
    const refused = await admin(engine, 'POST', '/integrations', {
      name: 'Local',
      redirectUris: ['http://127.0.0.1:8080/cb'],
    });
    expect(refused.status).toBe(400);
    expect((refused.body as { error: { message: string } }).error.message).toMatch(/production parity/);
    await admin(engine, 'PATCH', '/settings', { productionParity: false });
    expect(
      (await admin(engine, 'POST', '/integrations', { name: 'Local', redirectUris: ['http://127.0.0.1:8080/cb'] }))
        .status,
    ).toBe(200);
  });

  it('edits name, description and category with PATCH', async () => {
    const created = await createTestIntegration(engine, { name: 'Before' });
    const { status, body } = await admin(engine, 'PATCH', `/integrations/${created.id}`, {
      name: 'After',
      description: 'New words',
      category: 'Radio',
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: created.id,
      name: 'After',
      description: 'New words',
      category: 'Radio',
      clientId: created.clientId,
    });
    expect((await admin(engine, 'PATCH', '/integrations/nope', { name: 'x' })).status).toBe(404);
  });

  it('adds named keys, regenerates secrets, and deletes keys', async () => {
    const created = await createTestIntegration(engine, { name: 'Keys' });
    const added = await admin(engine, 'POST', `/integrations/${created.id}/keys`, {
      name: 'Staging',
      redirectUris: ['https://staging.example.com/cb'],
    });
    expect(added.status).toBe(200);
    const key = added.body as IssuedClientSecret;
    expect(key).toMatchObject({
      clientId: expect.any(String),
      clientSecret: expect.any(String),
      key: { name: 'Staging' },
    });
    expect(key.clientId).not.toBe(created.clientId);
    // The contract's table gives a key no name (audit-a 4): one without is "Key N".
    const unnamed = await admin(engine, 'POST', `/integrations/${created.id}/keys`, {
      eventCallbackUrl: 'http://127.0.0.1:9/events',
    });
    expect(unnamed.status).toBe(200);
    expect(unnamed.body).toMatchObject({ key: { name: 'Key 3' }, clientSecret: expect.any(String) });
    await admin(engine, 'DELETE', `/integrations/${created.id}/keys/${(unnamed.body as IssuedClientSecret).key.id}`);

    const regenerated = (await admin(engine, 'POST', `/integrations/${created.id}/keys/${key.key.id}/secret`))
      .body as IssuedClientSecret;
    expect(regenerated.clientSecret).not.toBe(key.clientSecret);
    expect(regenerated.clientId).toBe(key.clientId);

    const after = (await admin(engine, 'DELETE', `/integrations/${created.id}/keys/${key.key.id}`))
      .body as IntegrationView;
    expect(after.keys.map((k) => k.name)).toEqual(['Default']);
    expect((await admin(engine, 'POST', `/integrations/${created.id}/keys/${key.key.id}/secret`)).status).toBe(404);
  });

  it('adds and removes redirect URLs, with the same rules', async () => {
    const created = await createTestIntegration(engine, { name: 'Redirects' });
    const keyId = created.keys[0]!.id;
    const path = `/integrations/${created.id}/keys/${keyId}/redirect-uris`;
    const added = await admin(engine, 'POST', path, { uri: 'https://app.example.com/cb' });
    expect(added.status).toBe(200);
    const key = added.body as ClientKeyView;
    expect(key.redirectUris.map((r) => r.uri)).toEqual(['http://127.0.0.1:9/callback', 'https://app.example.com/cb']);
    expect((await admin(engine, 'POST', path, { uri: 'https://app.example.com/cb' })).status).toBe(409);
    const refused = await admin(engine, 'POST', path, { uri: 'http://10.0.0.5/cb' });
    expect(refused.status).toBe(400);
    expect((refused.body as { error: { message: string } }).error.message).toMatch(
      /plain http is accepted only for loopback/,
    );

    const removed = (await admin(engine, 'DELETE', `${path}/${key.redirectUris[1]!.id}`)).body as ClientKeyView;
    expect(removed.redirectUris.map((r) => r.uri)).toEqual(['http://127.0.0.1:9/callback']);
    expect((await admin(engine, 'DELETE', `${path}/nope`)).status).toBe(404);
  });

  it('DELETE removes the integration and its tokens stop working', async () => {
    const created = await createTestIntegration(engine, { name: 'Doomed' });
    const { status, body } = await admin(engine, 'DELETE', `/integrations/${created.id}`);
    expect(status).toBe(200);
    expect(body).toEqual({ id: created.id, deleted: true });
    expect((await list()).some((i) => i.id === created.id)).toBe(false);
    expect((await admin(engine, 'GET', `/integrations/${created.id}`)).status).toBe(404);
  });

  it('registers the sample integration on the console callback URL, listed only on request', async () => {
    const withSample = (await admin(engine, 'GET', '/integrations?includeSample=true')).body as IntegrationView[];
    const sample = withSample.find((i) => i.sample)!;
    expect(sample).toMatchObject({
      name: 'Sample integration',
      redirectUris: [`${engine.urls.console}/oauth/callback`],
    });
    expect((await list()).map((i) => i.id)).toEqual(withSample.filter((i) => !i.sample).map((i) => i.id));
  });

  it('lists no integration on a fresh data dir (docs/contract/console.md §1 seed data)', async () => {
    const fresh = await startTestEngine({ clockSpeed: 0 });
    try {
      expect((await admin(fresh, 'GET', '/integrations')).body).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});

describe('settings (docs/contract/console.md §7)', () => {
  it('PATCH /settings changes only what it names and answers the settings', async () => {
    expect((await admin(engine, 'PATCH', '/settings', { autoApprove: true })).body).toEqual({
      autoApprove: true,
      productionParity: false,
      captureRedirects: false,
    });
    expect((await admin(engine, 'PATCH', '/settings', { productionParity: true })).body).toEqual({
      autoApprove: true,
      productionParity: true,
      captureRedirects: false,
    });
    expect((await admin(engine, 'PATCH', '/settings', { captureRedirects: true })).body).toEqual({
      autoApprove: true,
      productionParity: true,
      captureRedirects: true,
    });
    expect((await admin(engine, 'GET', '/settings')).body).toEqual({
      autoApprove: true,
      productionParity: true,
      captureRedirects: true,
    });
    expect((await admin(engine, 'PATCH', '/settings', { autoApprove: 'yes' })).status).toBe(400);
    await admin(engine, 'PATCH', '/settings', { autoApprove: false, productionParity: false, captureRedirects: false });
  });
});

describe('persistence', () => {
  it('keeps integrations, settings, grants and flows across a restart; the sample follows the new port', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cqc-login-'));
    try {
      const first = await startTestEngine({ dataDir, clockSpeed: 0 });
      const created = await createTestIntegration(first, { name: 'Survivor' });
      await admin(first, 'PATCH', '/settings', { autoApprove: true });
      await fetch(
        `${first.urls.login}/login/v3/oauth?client_id=${created.clientId}&response_type=code&state=s&scope=playback-control-all&redirect_uri=${encodeURIComponent('http://127.0.0.1:9/callback')}`,
        { redirect: 'manual' },
      );
      const flowsBefore = (await admin(first, 'GET', '/oauth/flows')).body as unknown[];
      await first.close();

      const second = await startTestEngine({ dataDir, clockSpeed: 0 });
      try {
        expect(((await admin(second, 'GET', '/integrations')).body as IntegrationView[]).map((i) => i.name)).toEqual([
          'Survivor',
        ]);
        const integrations = (await admin(second, 'GET', '/integrations?includeSample=true')).body as IntegrationView[];
        expect(integrations.map((i) => i.name)).toEqual(['Sample integration', 'Survivor']);
        expect(integrations.filter((i) => i.sample)).toHaveLength(1);
        expect(integrations[0]!.redirectUris).toEqual([`${second.urls.console}/oauth/callback`]);
        expect((await admin(second, 'GET', '/settings')).body).toEqual({
          autoApprove: true,
          productionParity: false,
          captureRedirects: false,
        });
        expect((await admin(second, 'GET', `/integrations/${created.id}/grants`)).body).toHaveLength(1);
        expect((await admin(second, 'GET', '/oauth/flows')).body).toEqual(flowsBefore);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
