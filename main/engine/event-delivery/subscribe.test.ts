/**
 * Subscribing at the control API (docs/contract/console.md §3 subscriptions) and a key's event
 * callback URL in the admin API (§7 event callbacks), over real HTTP against a whole console.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EventSubscriptionView } from '../api/events/deliveries.js';
import type { ClientKeyView, IntegrationView, IssuedClientSecret } from '../api/oauth-types.js';
import { DEMO_HOUSEHOLD_ID } from '../household/seed.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';
import { codeFor, LOOPBACK_REDIRECT, tokenRequest } from '../testing/oauth.js';
import { EventSubscriptions } from './subscriptions.js';
import { connectedIntegration, controlCall, type ConnectedIntegration } from './testing.js';

let engine: Engine;
let app: ConnectedIntegration;

beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
  app = await connectedIntegration(engine, 'http://127.0.0.1:9/events');
});
afterAll(() => engine.close());

const subscriptions = async (integrationId = app.client.id) =>
  (await admin(engine, 'GET', `/integrations/${integrationId}/subscriptions`)).body as EventSubscriptionView[];

describe('the subscription routes', () => {
  it('subscribe the key of the token to a group namespace, in both spellings, and unsubscribe it', async () => {
    expect(await controlCall(engine, app.accessToken, 'POST', '/groups/group-kitchen/playback:1/subscription')).toEqual(
      { status: 200, body: {} },
    );
    expect(
      await controlCall(engine, app.accessToken, 'POST', '/groups/group-kitchen/playbackMetadata/subscription'),
    ).toEqual({ status: 200, body: {} });
    expect(
      await controlCall(engine, app.accessToken, 'POST', '/groups/group-kitchen/groupVolume:1/subscription'),
    ).toEqual({ status: 200, body: {} });
    // A second subscribe is no new subscription.
    expect(
      (await controlCall(engine, app.accessToken, 'POST', '/groups/group-kitchen/playback/subscription')).status,
    ).toBe(200);
    const listed = await subscriptions();
    expect(listed.map((s) => [s.namespace, s.targetType, s.targetValue, s.householdId, s.keyId])).toEqual([
      ['playback', 'groupId', 'group-kitchen', DEMO_HOUSEHOLD_ID, app.client.keys[0]!.id],
      ['playbackMetadata', 'groupId', 'group-kitchen', DEMO_HOUSEHOLD_ID, app.client.keys[0]!.id],
      ['groupVolume', 'groupId', 'group-kitchen', DEMO_HOUSEHOLD_ID, app.client.keys[0]!.id],
    ]);

    expect(
      await controlCall(engine, app.accessToken, 'DELETE', '/groups/group-kitchen/playbackMetadata:1/subscription'),
    ).toEqual({ status: 200, body: {} });
    expect(
      await controlCall(engine, app.accessToken, 'DELETE', '/groups/group-kitchen/groupVolume/subscription'),
    ).toEqual({ status: 200, body: {} });
    // Ending one that is not there changes nothing and is no error.
    expect(
      await controlCall(engine, app.accessToken, 'DELETE', '/groups/group-kitchen/groupVolume/subscription'),
    ).toEqual({ status: 200, body: {} });
    expect((await subscriptions()).map((s) => s.namespace)).toEqual(['playback']);
    await controlCall(engine, app.accessToken, 'DELETE', '/groups/group-kitchen/playback/subscription');
  });

  it('subscribe to the groups of the caller\u2019s household', async () => {
    expect(
      await controlCall(engine, app.accessToken, 'POST', `/households/${DEMO_HOUSEHOLD_ID}/groups/subscription`),
    ).toEqual({ status: 200, body: {} });
    expect((await subscriptions()).map((s) => [s.namespace, s.targetType, s.targetValue])).toEqual([
      ['groups', 'householdId', DEMO_HOUSEHOLD_ID],
    ]);
    expect(
      await controlCall(engine, app.accessToken, 'DELETE', `/households/${DEMO_HOUSEHOLD_ID}/groups/subscription`),
    ).toEqual({ status: 200, body: {} });
    expect(await subscriptions()).toEqual([]);
  });

  it('answer ERROR_INVALID_OBJECT_ID for a group or household that is not the caller\u2019s', async () => {
    for (const [method, path] of [
      ['POST', '/groups/group-nowhere/playback:1/subscription'],
      ['DELETE', '/groups/group-nowhere/playback/subscription'],
      ['POST', '/households/household-other/groups/subscription'],
      ['DELETE', '/households/household-other/groups/subscription'],
    ] as const) {
      const answer = await controlCall(engine, app.accessToken, method, path);
      expect(answer, `${method} ${path}`).toEqual({
        status: 404,
        body: { errorCode: 'ERROR_INVALID_OBJECT_ID', reason: expect.any(String) as unknown },
      });
    }
    expect(await subscriptions()).toEqual([]);
  });

  it('need a live token', async () => {
    for (const token of ['nope', '']) {
      const answer = await controlCall(engine, token, 'POST', '/groups/group-kitchen/playback:1/subscription');
      expect(answer).toEqual({ status: 401, body: 'Incorrect token' });
    }
  });

  it('refuse a key without an event callback URL with 403, as the public service does', async () => {
    const bare = await connectedIntegration(engine);
    const answer = await controlCall(engine, bare.accessToken, 'POST', '/groups/group-kitchen/playback:1/subscription');
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ reason: expect.stringContaining('no event callback URL') as unknown });
    expect(await subscriptions(bare.client.id)).toEqual([]);
  });
});

describe('a key\u2019s event callback URL in the admin API', () => {
  const patch = (integrationId: string, keyId: string, body: unknown) =>
    admin(engine, 'PATCH', `/integrations/${integrationId}/keys/${keyId}`, body);

  it('is set at creation for the first key and for a new key, and shown on the key', async () => {
    const created = (
      await admin(engine, 'POST', '/integrations', {
        name: 'With events',
        redirectUris: ['http://127.0.0.1:9/cb'],
        eventCallbackUrl: 'http://localhost:8080/sonos/events',
      })
    ).body as IntegrationView;
    expect(created.keys[0]!.eventCallbackUrl).toBe('http://localhost:8080/sonos/events');
    const key = (
      await admin(engine, 'POST', `/integrations/${created.id}/keys`, {
        name: 'Second',
        eventCallbackUrl: 'https://app.example.com/events',
      })
    ).body as IssuedClientSecret;
    expect(key.key.eventCallbackUrl).toBe('https://app.example.com/events');
    const listed = (await admin(engine, 'GET', `/integrations/${created.id}`)).body as IntegrationView;
    expect(listed.keys.map((k) => k.eventCallbackUrl)).toEqual([
      'http://localhost:8080/sonos/events',
      'https://app.example.com/events',
    ]);
  });

  it('is changed and removed with PATCH, and refuses what is not an http(s) URL with the reason', async () => {
    const bare = await connectedIntegration(engine);
    const keyId = bare.client.keys[0]!.id;
    expect(bare.client.keys[0]!.eventCallbackUrl).toBeNull();

    const set = await patch(bare.client.id, keyId, { eventCallbackUrl: 'http://127.0.0.1:9/events' });
    expect(set.status).toBe(200);
    expect((set.body as ClientKeyView).eventCallbackUrl).toBe('http://127.0.0.1:9/events');
    // Subscribing works from then on.
    expect(
      (await controlCall(engine, bare.accessToken, 'POST', '/groups/group-kitchen/playback:1/subscription')).status,
    ).toBe(200);

    for (const [url, why] of [
      ['ftp://example.com/events', 'http or https'],
      ['not a url', 'absolute URL'],
      ['https://user:pw@example.com/events', 'user name or password'],
      ['', 'empty'],
      ['http://127.0.0.1:9/events\r\nX-Injected: 1', 'control character'],
      ['http://127.0.0.1:9/ev\tents', 'control character'],
    ] as const) {
      const refused = await patch(bare.client.id, keyId, { eventCallbackUrl: url });
      expect(refused.status, url).toBe(400);
      expect((refused.body as { error: { message: string } }).error.message, url).toContain(why);
    }
    expect(
      ((await admin(engine, 'GET', `/integrations/${bare.client.id}`)).body as IntegrationView).keys[0]!
        .eventCallbackUrl,
    ).toBe('http://127.0.0.1:9/events');
    expect((set.body as ClientKeyView).eventCallbackWarning).toBeNull();

    // Taken, but the platform could never call them: said beside the URL.
    for (const [url, why] of [
      ['http://169.254.169.254/latest/meta-data', 'link-local'],
      ['http://10.0.0.5/events', 'private'],
      ['https://[fd00::1]/events', 'unique local'],
    ] as const) {
      const taken = await patch(bare.client.id, keyId, { eventCallbackUrl: url });
      expect(taken.status, url).toBe(200);
      expect((taken.body as ClientKeyView).eventCallbackWarning, url).toMatch(new RegExp(`could never reach .*${why}`));
    }
    expect(
      (await patch(bare.client.id, keyId, { eventCallbackUrl: 'https://app.example.com/events' })).body,
    ).toMatchObject({ eventCallbackWarning: null });

    const removed = await patch(bare.client.id, keyId, { eventCallbackUrl: null });
    expect((removed.body as ClientKeyView).eventCallbackUrl).toBeNull();
    expect(
      (await controlCall(engine, bare.accessToken, 'POST', '/groups/group-kitchen/playbackMetadata:1/subscription'))
        .status,
    ).toBe(403);
    await controlCall(engine, bare.accessToken, 'DELETE', '/groups/group-kitchen/playback:1/subscription');
  });

  it('answers 404 for a key of another integration', async () => {
    const one = await connectedIntegration(engine);
    const other = await connectedIntegration(engine);
    const answer = await patch(one.client.id, other.client.keys[0]!.id, {
      eventCallbackUrl: 'http://127.0.0.1:9/events',
    });
    expect(answer.status).toBe(404);
  });
});

describe('subscriptions held in memory', () => {
  it('are read again when a key or an integration is deleted, not for every token issued', async () => {
    const first = await connectedIntegration(engine, 'http://127.0.0.1:9/events');
    expect(
      (await controlCall(engine, first.accessToken, 'POST', '/groups/group-kitchen/playback:1/subscription')).status,
    ).toBe(200);
    const reloads = vi.spyOn(EventSubscriptions.prototype, 'reload');
    try {
      // Every token issued says `oauth.changed` (grants): nothing of the subscriptions changed.
      const code = await codeFor(engine, first.client);
      const issued = await tokenRequest(engine, first.client, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: LOOPBACK_REDIRECT,
      });
      expect(issued.status).toBe(200);
      expect(reloads).not.toHaveBeenCalled();

      // A key deleted (a new one made first) takes its subscription with it in the store.
      const keyId = ((await admin(engine, 'GET', `/integrations/${first.client.id}`)).body as IntegrationView).keys[0]!
        .id;
      expect((await admin(engine, 'POST', `/integrations/${first.client.id}/keys`, { name: 'next' })).status).toBe(200);
      reloads.mockClear();
      expect((await admin(engine, 'DELETE', `/integrations/${first.client.id}/keys/${keyId}`)).status).toBe(200);
      expect(reloads).toHaveBeenCalled();
      expect(await subscriptions(first.client.id)).toEqual([]);

      // So does an integration deleted.
      reloads.mockClear();
      expect((await admin(engine, 'DELETE', `/integrations/${first.client.id}`)).status).toBe(200);
      expect(reloads).toHaveBeenCalled();
    } finally {
      reloads.mockRestore();
    }
  });
});
