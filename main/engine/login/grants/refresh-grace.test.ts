/**
 * The refresh grace window (docs/contract/console.md §2), over real HTTP on a stopped engine
 * clock: a refresh token just rotated away answers for its integration's refreshGraceSec with a
 * new access token and the current refresh token, revoking nothing; after that, or with 0, a reuse
 * revokes the grant.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedIntegration, FlowView, GrantView, IntegrationView } from '../../api/oauth-types.js';
import type { Engine } from '../../index.js';
import { admin, startTestEngine } from '../../testing/http.js';
import { LOOPBACK_REDIRECT, codeFor, createTestIntegration, tokenRequest } from '../../testing/oauth.js';
import { RefreshSuccessors } from './refresh-grace.js';

let engine: Engine;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
});
afterAll(() => engine.close());

type Tokens = Record<string, unknown>;
const tokensFor = async (who: CreatedIntegration): Promise<Tokens> =>
  (
    await tokenRequest(engine, who, {
      grant_type: 'authorization_code',
      code: await codeFor(engine, who),
      redirect_uri: LOOPBACK_REDIRECT,
    })
  ).body;
const refresh = (who: CreatedIntegration, refreshToken: unknown) =>
  tokenRequest(engine, who, { grant_type: 'refresh_token', refresh_token: refreshToken as string });
const apiStatus = async (accessToken: unknown) =>
  (
    await fetch(`${engine.urls.control}/api/v1/households`, {
      headers: { authorization: `Bearer ${accessToken as string}` },
    })
  ).status;
const advance = (ms: number) => admin(engine, 'POST', '/clock', { advanceMs: ms });
const grantOf = async (who: CreatedIntegration): Promise<GrantView> =>
  ((await admin(engine, 'GET', `/integrations/${who.id}/grants`)).body as GrantView[])[0]!;

describe('the refresh grace window', () => {
  it('is 30 s unless set, settable per integration from 0 to 3600 whole seconds', async () => {
    const app = await createTestIntegration(engine, { name: 'Defaults' });
    expect(app.refreshGraceSec).toBe(30);
    expect((await createTestIntegration(engine, { name: 'Strict', refreshGraceSec: 0 })).refreshGraceSec).toBe(0);
    const patched = await admin(engine, 'PATCH', `/integrations/${app.id}`, { refreshGraceSec: 5 });
    expect(patched.body).toMatchObject({ refreshGraceSec: 5, rotateRefreshTokens: true });
    expect(((await admin(engine, 'GET', `/integrations/${app.id}`)).body as IntegrationView).refreshGraceSec).toBe(5);
    for (const refreshGraceSec of [-1, 3_601, 1.5, '10']) {
      expect((await admin(engine, 'PATCH', `/integrations/${app.id}`, { refreshGraceSec })).status).toBe(400);
    }
  });

  it('answers two parallel refreshes of one token: both get a working access token and the same current refresh token; the grant lives', async () => {
    const app = await createTestIntegration(engine, { name: 'Racing client' });
    const first = await tokensFor(app);
    const [a, b] = await Promise.all([refresh(app, first.refresh_token), refresh(app, first.refresh_token)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.refresh_token).not.toBe(first.refresh_token);
    expect(b.body.refresh_token).toBe(a.body.refresh_token);
    expect(b.body.access_token).not.toBe(a.body.access_token);
    expect([
      await apiStatus(a.body.access_token),
      await apiStatus(b.body.access_token),
      await apiStatus(first.access_token),
    ]).toEqual([200, 200, 200]);
    const grant = await grantOf(app);
    expect(grant.revokedAt).toBeNull();
    expect(grant.tokens.filter((t) => t.kind === 'refresh').map((t) => t.status)).toEqual(['rotated', 'active']);
    // The current refresh token goes on as usual.
    const next = await refresh(app, a.body.refresh_token);
    expect(next.status).toBe(200);
    expect(await apiStatus(next.body.access_token)).toBe(200);

    // The flow inspector marks the second as reused within grace.
    const flow = (await admin(engine, 'GET', `/oauth/flows/${grant.flowId}`)).body as FlowView;
    const refreshes = flow.steps.filter(
      (s) => s.kind === 'token' && s.detail.kind === 'token' && s.detail.grantType === 'refresh_token',
    );
    expect(refreshes.map((s) => s.detail.kind === 'token' && s.detail.issued?.reusedWithinGrace === true)).toEqual([
      false,
      true,
      false,
    ]);
    expect(refreshes[1]!.summary).toMatch(/reused within grace/);
    const line =
      refreshes[1]!.detail.kind === 'token'
        ? refreshes[1]!.detail.checks.find((c) => c.id === 'refresh_unused')
        : undefined;
    expect(line).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/^reused within grace: rotated 0 s ago \(grace 30 s\)/),
    });
    expect(flow.status).toBe('tokens_issued');
  });

  it('runs on the engine clock: just inside the window the old token answers, at its end a reuse revokes the grant', async () => {
    const app = await createTestIntegration(engine, { name: 'Late client' });
    const first = await tokensFor(app);
    const rotated = await refresh(app, first.refresh_token);
    await advance(29_999);
    const late = await refresh(app, first.refresh_token);
    expect(late.status).toBe(200);
    expect(late.body.refresh_token).toBe(rotated.body.refresh_token);
    await advance(1);
    const reuse = await refresh(app, first.refresh_token);
    expect(reuse).toMatchObject({
      status: 400,
      body: {
        error: 'invalid_grant',
        error_description: expect.stringMatching(/reuse \(rotated 30 s ago, grace 30 s\).*whole grant is revoked/),
      },
    });
    expect([await apiStatus(rotated.body.access_token), await apiStatus(late.body.access_token)]).toEqual([401, 401]);
    expect((await refresh(app, rotated.body.refresh_token)).status).toBe(400);
    expect((await grantOf(app)).revokedReason).toBe('rotated refresh token used again');
  });

  it('answers only while the token that replaced it is the current one: once that one rotated too, a reuse revokes', async () => {
    const app = await createTestIntegration(engine, { name: 'Chain' });
    const first = await tokensFor(app);
    const second = await refresh(app, first.refresh_token);
    const third = await refresh(app, second.body.refresh_token);
    expect(third.status).toBe(200);
    expect((await refresh(app, first.refresh_token)).body).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/no longer the current one/),
    });
    expect(await apiStatus(third.body.access_token)).toBe(401);
  });

  it('with refreshGraceSec 0, rotation is strict as before: an immediate reuse revokes the grant', async () => {
    const app = await createTestIntegration(engine, { name: 'Strict client', refreshGraceSec: 0 });
    const first = await tokensFor(app);
    const [a, b] = await Promise.all([refresh(app, first.refresh_token), refresh(app, first.refresh_token)]);
    expect([a.status, b.status]).toEqual([200, 400]);
    expect(b.body).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/grace window off/),
    });
    expect(await apiStatus(a.body.access_token)).toBe(401);
    expect((await grantOf(app)).revokedAt).not.toBeNull();
  });

  it('follows a window changed per integration: a shorter one ends sooner', async () => {
    const app = await createTestIntegration(engine, { name: 'Five seconds', refreshGraceSec: 5 });
    const first = await tokensFor(app);
    await refresh(app, first.refresh_token);
    await advance(4_900);
    expect((await refresh(app, first.refresh_token)).status).toBe(200);
    await admin(engine, 'PATCH', `/integrations/${app.id}`, { refreshGraceSec: 4 });
    expect((await refresh(app, first.refresh_token)).body).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/grace 4 s/),
    });
  });
});

describe('across a restart', () => {
  it('keeps each integration\u2019s window; a reuse within it after a restart is refused without revoking (the current token was only in memory)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cqc-grace-'));
    try {
      const first = await startTestEngine({ dataDir, clockSpeed: 0 });
      const app = (
        await admin(first, 'POST', '/integrations', {
          name: 'Restarted',
          redirectUris: [LOOPBACK_REDIRECT],
          refreshGraceSec: 600,
        })
      ).body as CreatedIntegration;
      const issued = (
        await tokenRequest(first, app, {
          grant_type: 'authorization_code',
          code: await codeFor(first, app),
          redirect_uri: LOOPBACK_REDIRECT,
        })
      ).body;
      const rotated = (
        await tokenRequest(first, app, { grant_type: 'refresh_token', refresh_token: issued.refresh_token as string })
      ).body;
      await first.close();

      const second = await startTestEngine({ dataDir, clockSpeed: 0 });
      try {
        expect(((await admin(second, 'GET', `/integrations/${app.id}`)).body as IntegrationView).refreshGraceSec).toBe(
          600,
        );
        const late = await tokenRequest(second, app, {
          grant_type: 'refresh_token',
          refresh_token: issued.refresh_token as string,
        });
        expect(late).toMatchObject({
          status: 400,
          body: {
            error: 'invalid_grant',
            error_description: expect.stringMatching(/within the grace window.*no longer holds the current one/),
          },
        });
        const current = await tokenRequest(second, app, {
          grant_type: 'refresh_token',
          refresh_token: rotated.refresh_token as string,
        });
        expect(current.status).toBe(200);
        expect(
          ((await admin(second, 'GET', `/integrations/${app.id}/grants`)).body as GrantView[])[0]!.revokedAt,
        ).toBeNull();
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the current refresh tokens held for the window (RefreshSuccessors)', () => {
  it('holds one until its window ends, then forgets it', () => {
    const held = new RefreshSuccessors();
    held.remember('rt_1', { id: 'rt_2', value: 'v2' }, 30_000, 0);
    expect(held.successorOf('rt_1', 29_999)).toEqual({ id: 'rt_2', value: 'v2' });
    expect(held.successorOf('rt_1', 30_000)).toBeUndefined();
    expect(held.size).toBe(0);
  });

  it('drops what expired as new ones come, and never holds more than its cap', () => {
    const held = new RefreshSuccessors();
    held.remember('rt_1', { id: 'rt_2', value: 'v2' }, 1_000, 0);
    held.remember('rt_3', { id: 'rt_4', value: 'v4' }, 31_000, 1_000);
    expect(held.size).toBe(1);
    for (let i = 0; i < 10_050; i++) held.remember(`rt_x${i}`, { id: `rt_y${i}`, value: 'v' }, 100_000, 2_000);
    expect(held.size).toBe(10_000);
    expect(held.successorOf('rt_x10049', 2_000)).toBeDefined();
    expect(held.successorOf('rt_3', 2_000)).toBeUndefined();
  });
});
