/**
 * The command bar sends as the console or as an integration's grant: a grant whose
 * access token the console saw issued in this run is listed by `control.senders` and can be sent
 * as; the call carries that token (the flow inspector files it on that grant's flow); a grant it
 * holds no live token of is refused with the reason. And the example requests it offers are
 * filled from the household, the session and the first queue.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ControlExample, ControlExchange, ControlSender } from '../../api/commands/player.js';
import type { FlowView, GrantView } from '../../api/oauth-types.js';
import type { QueueSummary } from '../../api/queue-types.js';
import type { Engine } from '../../index.js';
import { admin, startTestEngine } from '../../testing/http.js';
import { LOOPBACK_REDIRECT, codeFor, createTestIntegration, tokenRequest } from '../../testing/oauth.js';

let engine: Engine;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
});
afterAll(() => engine.close());

const senders = async () => (await admin(engine, 'GET', '/control/senders')).body as ControlSender[];

describe('control.send as an integration', () => {
  it('sends with the grant\u2019s current access token, and lists only the grants it can send as', async () => {
    // The console's own token is "the console", never listed as an integration.
    const own = (await admin(engine, 'POST', '/control/send', { method: 'GET', path: '/api/v1/households' }))
      .body as ControlExchange;
    expect(own).toMatchObject({ status: 200, sentAs: { kind: 'console' } });
    expect(await senders()).toEqual([]);

    const app = await createTestIntegration(engine, { name: 'Party Mix' });
    const code = await codeFor(engine, app);
    await admin(engine, 'PATCH', '/settings', { autoApprove: false });
    const issued = await tokenRequest(engine, app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: LOOPBACK_REDIRECT,
    });
    const [grant] = (await admin(engine, 'GET', `/integrations/${app.id}/grants`)).body as GrantView[];
    const listed = await senders();
    expect(listed).toEqual([
      expect.objectContaining({
        grantId: grant!.id,
        integrationId: app.id,
        integrationName: 'Party Mix',
        username: 'demo',
        tokenHint: String(issued.body.access_token).slice(0, 6),
      }),
    ]);

    const sent = await admin(engine, 'POST', '/control/send', {
      method: 'GET',
      path: '/api/v1/households',
      as: { grantId: grant!.id },
    });
    expect(sent.body).toMatchObject({
      status: 200,
      sentAs: { kind: 'grant', grantId: grant!.id, integrationName: 'Party Mix' },
    });
    // The call is the integration's: it lands on its grant's flow in the inspector.
    await vi.waitFor(async () => {
      const flow = (await admin(engine, 'GET', `/oauth/flows/${grant!.flowId}`)).body as FlowView;
      expect(flow.steps.filter((s) => s.kind === 'api_call').map((s) => s.detail)).toEqual([
        expect.objectContaining({ path: '/api/v1/households', status: 200, accepted: true }),
      ]);
    });

    // A refresh replaces the token it sends.
    const refreshed = await tokenRequest(engine, app, {
      grant_type: 'refresh_token',
      refresh_token: String(issued.body.refresh_token),
    });
    expect((await senders())[0]!.tokenHint).toBe(String(refreshed.body.access_token).slice(0, 6));

    // Revoked: not listed any more, and refused with the reason rather than sent with another token.
    await admin(engine, 'POST', `/grants/${grant!.id}/revoke`);
    expect(await senders()).toEqual([]);
    const refused = await admin(engine, 'POST', '/control/send', {
      method: 'GET',
      path: '/api/v1/households',
      as: { grantId: grant!.id },
    });
    expect(refused).toMatchObject({
      status: 409,
      body: { error: { message: expect.stringContaining('its grant was revoked') } },
    });
  });

  it('refuses a grant it holds no token of, and one that does not exist', async () => {
    expect(
      (
        await admin(engine, 'POST', '/control/send', {
          method: 'GET',
          path: '/api/v1/households',
          as: { grantId: 'grant_nope' },
        })
      ).status,
    ).toBe(404);
    // A code issued, never traded: a grant with no access token yet.
    const app = await createTestIntegration(engine, { name: 'Untraded' });
    await codeFor(engine, app);
    await admin(engine, 'PATCH', '/settings', { autoApprove: false });
    const [grant] = (await admin(engine, 'GET', `/integrations/${app.id}/grants`)).body as GrantView[];
    const refused = await admin(engine, 'POST', '/control/send', {
      method: 'GET',
      path: '/api/v1/households',
      as: { grantId: grant!.id },
    });
    expect(refused).toMatchObject({
      status: 409,
      body: { error: { message: expect.stringContaining('holds no access token of grant') } },
    });
  });
});

describe('control.examples', () => {
  it('fills the command bar\u2019s examples from the household, the session and the first queue', async () => {
    const before = (await admin(engine, 'GET', '/control/examples?groupId=group-kitchen')).body as ControlExample[];
    const load = (examples: ControlExample[]) => examples.find((e) => e.id === 'loadCloudQueue')!;
    expect(before.find((e) => e.id === 'groups')!.path).toBe('/api/v1/households/household-demo/groups');
    expect(before.find((e) => e.id === 'createSession')).toMatchObject({
      method: 'POST',
      path: '/api/v1/groups/group-kitchen/playbackSession',
    });
    expect(load(before)).toMatchObject({
      body: { queueBaseUrl: '{queueBaseUrl}' },
      note: expect.stringContaining('create a queue first'),
    });

    const queue = (
      await admin(engine, 'POST', '/queues', {
        name: 'Examples',
        items: [{ track: { name: 'One', mediaUrl: 'https://media.example.com/1.mp3' } }],
      })
    ).body as QueueSummary;
    const noSession = (await admin(engine, 'GET', '/control/examples?groupId=group-kitchen')).body as ControlExample[];
    expect(load(noSession)).toMatchObject({
      path: '/api/v1/playbackSessions/{sessionId}/playbackSession/loadCloudQueue',
      body: { queueBaseUrl: queue.queueBaseUrl, httpAuthorization: queue.httpAuthorization },
      note: expect.stringContaining('create a session first'),
    });

    const session = (
      await admin(engine, 'POST', '/control/send', {
        method: 'POST',
        path: '/api/v1/groups/group-kitchen/playbackSession',
        body: { appId: 'com.example', appContext: 'x' },
      })
    ).body as ControlExchange;
    const sessionId = (session.body as { sessionId: string }).sessionId;
    const filled = (await admin(engine, 'GET', '/control/examples?groupId=group-kitchen')).body as ControlExample[];
    expect(load(filled).path).toBe(`/api/v1/playbackSessions/${sessionId}/playbackSession/loadCloudQueue`);
    expect(load(filled).note).toBeUndefined();
    expect(filled.find((e) => e.id === 'skipToItem')!.body).toMatchObject({ itemId: expect.any(String) });
    // The example is sent as it is, and works.
    const sent = (
      await admin(engine, 'POST', '/control/send', {
        method: load(filled).method,
        path: load(filled).path,
        body: load(filled).body,
      })
    ).body as ControlExchange;
    expect(sent.status).toBe(200);
  });
});
