/**
 * The sample integration as an event receiver (docs/events.md): after its flow it is subscribed to
 * its household's groups and each group's playback, receives signed events at its own route on
 * the console listener, and lists them on its page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventSubscriptionView } from '../api/events/deliveries.js';
import type { IntegrationView, StartedFlow } from '../api/oauth-types.js';
import type { TrafficEntry } from '../api/traffic-types.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';
import { signInAndDecide } from '../testing/oauth.js';

let engine: Engine;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
});
afterAll(() => engine.close());

describe('the sample integration', () => {
  it('subscribes after its flow, and lists the signed events it receives', async () => {
    const started = (await admin(engine, 'POST', '/oauth/sample', {})).body as StartedFlow;
    const redirect = await signInAndDecide(engine, started.authorizeUrl, 'allow');
    const page = await (await fetch(redirect.location!)).text();
    expect(page).toContain('/sample/events');

    const sample = ((await admin(engine, 'GET', '/integrations?includeSample=true')).body as IntegrationView[]).find(
      (i) => i.sample,
    )!;
    expect(sample.keys[0]!.eventCallbackUrl).toBe(`${engine.urls.console}/sample/events`);
    const subscriptions = (await admin(engine, 'GET', `/integrations/${sample.id}/subscriptions`))
      .body as EventSubscriptionView[];
    expect(subscriptions.map((s) => `${s.namespace} ${s.targetValue}`).sort()).toEqual([
      'groups household-demo',
      'playback group-kitchen',
      'playback group-living-room',
      'playback group-office',
    ]);

    expect((await admin(engine, 'PATCH', '/players/player-office', { name: 'Study' })).status).toBe(200);
    await expect
      .poll(async () => await (await fetch(`${engine.urls.console}/sample/events`)).text(), { timeout: 5_000 })
      .toContain('Study');
    const events = await (await fetch(`${engine.urls.console}/sample/events`)).text();
    expect(events).toContain('groups');
    expect(events).toContain('valid');
    expect(events).not.toContain('invalid');
    // Delivered: the try is in the traffic log, answered 200 by the sample's route.
    const tries = (await admin(engine, 'GET', '/traffic?target=events')).body as TrafficEntry[];
    expect(tries.map((t) => [t.path, t.status])).toEqual([['/sample/events', 200]]);
  });

  it('answers 401 to an event whose signature does not hold', async () => {
    const forged = await fetch(`${engine.urls.console}/sample/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-sonos-event-seq-id': '1',
        'x-sonos-namespace': 'groups',
        'x-sonos-type': 'groups',
        'x-sonos-target-type': 'householdId',
        'x-sonos-target-value': 'household-demo',
        'x-sonos-event-signature': 'forged',
      },
      body: '{}',
    });
    expect(forged.status).toBe(401);
    expect(await (await fetch(`${engine.urls.console}/sample/events`)).text()).toContain('invalid (answered 401)');
  });

  it('refuses a signed event sent again (a replay) with 409, and takes the next one', async () => {
    const tries = (await admin(engine, 'GET', '/traffic?target=events')).body as TrafficEntry[];
    const delivered = tries.find((t) => t.status === 200)!;
    const detail = (await admin(engine, 'GET', `/traffic/${delivered.id}`)).body as TrafficEntry;
    const headers = Object.fromEntries(
      Object.entries(detail.requestHeaders).filter(([name]) => name.startsWith('x-sonos-') || name === 'content-type'),
    );
    expect(headers['x-sonos-event-signature']).toBeTruthy();
    const replay = await fetch(`${engine.urls.console}/sample/events`, {
      method: 'POST',
      headers,
      body: detail.requestBody ?? '{}',
    });
    expect(replay.status).toBe(409);
    expect(await (await fetch(`${engine.urls.console}/sample/events`)).text()).toContain('a replay (answered 409)');
  });
});
