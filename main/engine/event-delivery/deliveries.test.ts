/**
 * Event deliveries of a whole console to a receiver of the test's own (docs/contract/console.md
 * §3 events; docs/events.md): the public headers with a signature the test checks with its own
 * copy of the recipe, events in order per subscription, the retry schedule on the engine clock,
 * every try in the traffic log as target `events`, fault rules at `events`, and what a restart on
 * the same data dir keeps.
 */
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventDeliveryView, EventSubscriptionView } from '../api/events/deliveries.js';
import type { IntegrationView, IssuedClientSecret } from '../api/oauth-types.js';
import type { QueueSummary } from '../api/queue-types.js';
import type { TrafficEntry } from '../api/traffic-types.js';
import { DEMO_HOUSEHOLD_ID } from '../household/seed.js';
import type { Engine } from '../index.js';
import { BUFFERING_MS } from '../player/audio.js';
import { admin, startTestEngine } from '../testing/http.js';
import { tempDirs } from '../testing/temp-dirs.js';
import {
  connectedIntegration,
  controlCall,
  EventReceiver,
  type ConnectedIntegration,
  type ReceivedEvent,
} from './testing.js';

const tempDir = tempDirs('cqc-events-');

/** The recipe of docs/events.md, written again here so that a mistake on both sides cannot agree. */
function expectedSignature(headers: Record<string, string>, clientId: string, clientSecret: string): string {
  const text =
    ['x-sonos-event-seq-id', 'x-sonos-namespace', 'x-sonos-type', 'x-sonos-target-type', 'x-sonos-target-value']
      .map((name) => headers[name] ?? '')
      .join('') +
    clientId +
    clientSecret;
  return createHash('sha256')
    .update(text, 'utf8')
    .digest('base64')
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

const signedBy = (app: ConnectedIntegration) => (event: ReceivedEvent) =>
  event.headers['x-sonos-event-signature'] ===
  expectedSignature(event.headers, app.client.clientId!, app.client.clientSecret);
const ofNamespace = (namespace: string) => (event: ReceivedEvent) => event.headers['x-sonos-namespace'] === namespace;
const advance = (engine: Engine, ms: number) => admin(engine, 'POST', '/clock', { advanceMs: ms });
const traffic = async (engine: Engine) =>
  (await admin(engine, 'GET', '/traffic?target=events&limit=100')).body as TrafficEntry[];
const deliveries = async (engine: Engine, app: ConnectedIntegration) =>
  (await admin(engine, 'GET', `/integrations/${app.client.id}/deliveries`)).body as EventDeliveryView[];

let engine: Engine;
let receiver: EventReceiver;
let app: ConnectedIntegration;

async function subscribe(namespace: string, target = 'group-kitchen', token = app.accessToken): Promise<void> {
  const path =
    namespace === 'groups'
      ? `/households/${target}/groups/subscription`
      : `/groups/${target}/${namespace}:1/subscription`;
  expect((await controlCall(engine, token, 'POST', path)).status).toBe(200);
}

const setVolume = async (volume: number, token = app.accessToken) =>
  expect((await controlCall(engine, token, 'POST', '/groups/group-kitchen/groupVolume:1', { volume })).status).toBe(
    200,
  );

/** The kitchen plays a three-track queue of the console's own server; the ids of its items. */
async function playing(): Promise<{ sessionId: string; items: string[] }> {
  const tracks = ['One', 'Two', 'Three'].map((name, i) => ({
    track: { name, mediaUrl: `https://media.example/${i}.mp3`, durationMillis: 180_000 },
  }));
  const queue = (await admin(engine, 'POST', '/queues', { name: 'Events', items: tracks })).body as QueueSummary;
  const items = ((await admin(engine, 'GET', `/queues/${queue.id}`)).body as { items: { id: string }[] }).items.map(
    (item) => item.id,
  );
  const session = await controlCall(engine, app.accessToken, 'POST', '/groups/group-kitchen/playbackSession:1', {
    appId: 'com.example.events',
    appContext: 'test',
  });
  const sessionId = (session.body as { sessionId: string }).sessionId;
  const load = await controlCall(
    engine,
    app.accessToken,
    'POST',
    `/playbackSessions/${sessionId}/playbackSession:1/loadCloudQueue`,
    {
      queueBaseUrl: queue.queueBaseUrl,
      httpAuthorization: queue.httpAuthorization,
      playOnCompletion: true,
    },
  );
  expect(load.status, JSON.stringify(load.body)).toBe(200);
  await advance(engine, BUFFERING_MS);
  return { sessionId, items };
}

describe('with a receiver', () => {
  beforeEach(async () => {
    engine = await startTestEngine({ clockSpeed: 0 });
    receiver = await new EventReceiver().start();
    app = await connectedIntegration(engine, receiver.url);
  });
  afterEach(async () => {
    await engine.close();
    await receiver.close();
  });

  it('sends the namespace\u2019s object with the public headers and a signature of the key\u2019s id and secret', async () => {
    await subscribe('groupVolume');
    await setVolume(42);
    const [event] = await receiver.until(1);
    expect(event!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-sonos-household-id': DEMO_HOUSEHOLD_ID,
      'x-sonos-event-seq-id': '1',
      'x-sonos-namespace': 'groupVolume',
      'x-sonos-type': 'groupVolume',
      'x-sonos-target-type': 'groupId',
      'x-sonos-target-value': 'group-kitchen',
    });
    expect(event!.headers['x-sonos-event-signature']).toBe(
      expectedSignature(event!.headers, app.client.clientId!, app.client.clientSecret),
    );
    // The same JSON the namespace's GET answers.
    const got = await controlCall(engine, app.accessToken, 'GET', '/groups/group-kitchen/groupVolume:1');
    expect(JSON.parse(event!.body)).toEqual(got.body);
    expect(got.body).toEqual({ volume: 42 });
    // A volume set to what it is is no change.
    await setVolume(42);
    await setVolume(43);
    await receiver.until(2);
    expect(receiver.events.map((e) => [e.headers['x-sonos-event-seq-id'], JSON.parse(e.body)])).toEqual([
      ['1', { volume: 42 }],
      ['2', { volume: 43 }],
    ]);
  });

  it('sends playback events in order for play, pause, skip and a jump of the position, and volume events beside them', async () => {
    await subscribe('playback');
    await subscribe('playbackMetadata');
    await subscribe('groupVolume');
    const { sessionId, items } = await playing();
    const [first, second] = items;
    const playbackEvent = (state: string, itemId: string | undefined) => (e: ReceivedEvent) => {
      const body = JSON.parse(e.body) as { playbackState: string; itemId: string };
      return ofNamespace('playback')(e) && body.playbackState === state && body.itemId === itemId;
    };
    await receiver.until(1, playbackEvent('PLAYBACK_STATE_PLAYING', first));

    expect((await controlCall(engine, app.accessToken, 'POST', '/groups/group-kitchen/playback:1/pause')).status).toBe(
      200,
    );
    await receiver.until(1, playbackEvent('PLAYBACK_STATE_PAUSED', first));
    expect((await controlCall(engine, app.accessToken, 'POST', '/groups/group-kitchen/playback:1/play')).status).toBe(
      200,
    );
    await advance(engine, BUFFERING_MS);
    await receiver.until(2, playbackEvent('PLAYBACK_STATE_PLAYING', first));
    expect(
      (await controlCall(engine, app.accessToken, 'POST', '/groups/group-kitchen/playback:1/skipToNextTrack')).status,
    ).toBe(200);
    await advance(engine, BUFFERING_MS);
    await receiver.until(1, playbackEvent('PLAYBACK_STATE_PLAYING', second));
    // skipToItem to the playing item with a position moves the playhead: a seek.
    expect(
      (
        await controlCall(
          engine,
          app.accessToken,
          'POST',
          `/playbackSessions/${sessionId}/playbackSession:1/skipToItem`,
          { itemId: second, positionMillis: 60_000 },
        )
      ).status,
    ).toBe(200);
    await receiver.until(
      1,
      (e) => ofNamespace('playback')(e) && (JSON.parse(e.body) as { positionMillis: number }).positionMillis === 60_000,
    );
    await setVolume(37);
    await receiver.until(1, ofNamespace('groupVolume'));

    expect(receiver.events.every(signedBy(app))).toBe(true);
    // Per subscription, sequence ids count up from 1 in the order the events arrived.
    for (const namespace of ['playback', 'playbackMetadata', 'groupVolume']) {
      const seqs = receiver.events.filter(ofNamespace(namespace)).map((e) => Number(e.headers['x-sonos-event-seq-id']));
      expect(seqs, namespace).toEqual(seqs.map((_, i) => i + 1));
    }
    // The playback events tell the story in the order it happened.
    const story = receiver.events.filter(ofNamespace('playback')).map((e) => {
      const body = JSON.parse(e.body) as { playbackState: string; itemId: string; positionMillis: number };
      return `${body.playbackState.replace('PLAYBACK_STATE_', '')} ${body.itemId === first ? 'first' : body.itemId === second ? 'second' : body.itemId} ${body.positionMillis}`;
    });
    const at = (pattern: RegExp) => story.findIndex((line) => pattern.test(line));
    const milestones = [
      /^PLAYING first/,
      /^PAUSED first/,
      /^BUFFERING first|^PLAYING first/,
      /^(BUFFERING|PLAYING) second 0$/,
      /^(BUFFERING|PLAYING) second 60000$/,
    ];
    let from = 0;
    for (const milestone of milestones) {
      const index = story.slice(from).findIndex((line) => milestone.test(line));
      expect(
        index,
        `${String(milestone)} after ${story[from - 1] ?? 'the start'} in ${JSON.stringify(story)}`,
      ).toBeGreaterThanOrEqual(0);
      from += index + 1;
    }
    expect(at(/^PAUSED first/)).toBeLessThan(at(/second/));
    // The last playback event is what the GET answers now (the engine clock stands still).
    expect(JSON.parse(receiver.events.filter(ofNamespace('playback')).at(-1)!.body)).toEqual(
      (await controlCall(engine, app.accessToken, 'GET', '/groups/group-kitchen/playback:1')).body,
    );
    // Metadata followed the skip.
    const metadata = receiver.events
      .filter(ofNamespace('playbackMetadata'))
      .map((e) => JSON.parse(e.body) as { currentItem: { id?: string } | null });
    expect(metadata.at(-1)!.currentItem?.id).toBe(second);
    expect(receiver.events.filter(ofNamespace('playbackMetadata'))[0]!.headers['x-sonos-type']).toBe('metadataStatus');
    expect(receiver.events.filter(ofNamespace('playback'))[0]!.headers['x-sonos-type']).toBe('playbackStatus');
  });

  it('retries a failed delivery 2 s, 4 s and 8 s later on the engine clock, every try in the traffic log', async () => {
    receiver.answers.push(500, 500);
    await subscribe('groupVolume');
    await setVolume(31);
    await receiver.until(1);
    // Not a moment before 2 s.
    await advance(engine, 1_999);
    expect(receiver.events).toHaveLength(1);
    await advance(engine, 1);
    await receiver.until(2);
    await advance(engine, 3_999);
    expect(receiver.events).toHaveLength(2);
    await advance(engine, 1);
    await receiver.until(3);
    expect(receiver.events.map((e) => [e.status, e.headers['x-sonos-event-seq-id'], e.body])).toEqual([
      [500, '1', '{"volume":31}'],
      [500, '1', '{"volume":31}'],
      [200, '1', '{"volume":31}'],
    ]);
    expect(receiver.events.every(signedBy(app))).toBe(true);

    const entries = await traffic(engine);
    expect(entries.map((e) => [e.target, e.method, e.status, e.retry, e.outcome])).toEqual([
      ['events', 'POST', 500, 0, 'answered'],
      ['events', 'POST', 500, 1, 'answered'],
      ['events', 'POST', 200, 2, 'answered'],
    ]);
    expect(new Set(entries.map((e) => e.requestId)).size).toBe(1);
    expect(entries[0]!.url).toBe(receiver.url);
    expect(entries[0]!.requestHeaders['x-sonos-namespace']).toBe('groupVolume');
    expect((await deliveries(engine, app)).map((d) => [d.outcome, d.retry, d.status])).toEqual([
      ['delivered', 2, 200],
      ['retrying', 1, 500],
      ['retrying', 0, 500],
    ]);
  });

  it('gives an event up after the third retry, and a later event waits for the earlier one', async () => {
    receiver.answers.push(500, 500, 500, 500);
    await subscribe('groupVolume');
    await setVolume(10);
    await receiver.until(1);
    await setVolume(11);
    // The second event waits behind the first one's retries.
    await advance(engine, 2_000);
    await advance(engine, 4_000);
    await receiver.until(3);
    expect(receiver.events.map((e) => e.body)).toEqual(['{"volume":10}', '{"volume":10}', '{"volume":10}']);
    await advance(engine, 8_000);
    await receiver.until(5);
    expect(receiver.events.map((e) => [e.status, e.headers['x-sonos-event-seq-id'], e.body])).toEqual([
      [500, '1', '{"volume":10}'],
      [500, '1', '{"volume":10}'],
      [500, '1', '{"volume":10}'],
      [500, '1', '{"volume":10}'],
      [200, '2', '{"volume":11}'],
    ]);
    const tries = await deliveries(engine, app);
    expect(tries.map((d) => [d.seqId, d.retry, d.outcome])).toEqual([
      [2, 0, 'delivered'],
      [1, 3, 'failed'],
      [1, 2, 'retrying'],
      [1, 1, 'retrying'],
      [1, 0, 'retrying'],
    ]);
    expect(tries[1]!.message).toContain('given up after 3 retries');
  });

  it('counts a callback that cannot be reached as a failure to retry', async () => {
    const dead = await connectedIntegration(engine, 'http://127.0.0.1:9/events');
    await subscribe('groupVolume', 'group-kitchen', dead.accessToken);
    await setVolume(12, dead.accessToken);
    const deadline = Date.now() + 5_000;
    let tries: EventDeliveryView[] = [];
    while (tries.length === 0 && Date.now() < deadline)
      tries = (await admin(engine, 'GET', `/integrations/${dead.client.id}/deliveries`)).body as EventDeliveryView[];
    expect(tries[0]).toMatchObject({
      outcome: 'retrying',
      retry: 0,
      status: null,
      message: expect.stringContaining('connection failed') as unknown,
    });
    expect((await traffic(engine))[0]).toMatchObject({ target: 'events', status: null, outcome: 'incomplete' });
  });

  it('obeys fault rules at target `events`: an injected status, a dropped connection and a timeout are retried', async () => {
    await subscribe('groupVolume');
    const rule = async (action: unknown) =>
      expect(
        (await admin(engine, 'POST', '/faults', { target: 'events', match: { path: '/events' }, action, times: 1 }))
          .status,
      ).toBe(200);

    await rule({ type: 'status', status: 503 });
    await setVolume(50);
    await expect.poll(async () => (await traffic(engine)).length).toBe(1);
    // The injected answer never reached the receiver.
    expect(receiver.events).toHaveLength(0);
    expect((await traffic(engine))[0]).toMatchObject({
      status: 503,
      retry: 0,
      fault: { action: 'status', status: 503 },
    });
    await advance(engine, 2_000);
    await receiver.until(1);

    await rule({ type: 'drop' });
    await setVolume(51);
    await expect.poll(async () => (await traffic(engine)).length).toBe(3);
    expect((await traffic(engine))[2]).toMatchObject({ status: null, outcome: 'dropped', fault: { action: 'drop' } });
    await advance(engine, 2_000);
    await receiver.until(2);

    await rule({ type: 'timeout' });
    await setVolume(52);
    await advance(engine, 9_999);
    expect(receiver.events).toHaveLength(2);
    await advance(engine, 1);
    await expect.poll(async () => (await traffic(engine)).length).toBe(5);
    expect((await traffic(engine))[4]).toMatchObject({
      status: null,
      outcome: 'timeout',
      fault: { action: 'timeout' },
    });
    await advance(engine, 2_000);
    await receiver.until(3);
    expect(receiver.events.map((e) => [e.headers['x-sonos-event-seq-id'], e.body])).toEqual([
      ['1', '{"volume":50}'],
      ['2', '{"volume":51}'],
      ['3', '{"volume":52}'],
    ]);
  });

  it('sends groups events when the household changes, and ends subscriptions of a group that is gone', async () => {
    await subscribe('groups', DEMO_HOUSEHOLD_ID);
    await subscribe('playback', 'group-office');
    expect((await admin(engine, 'PATCH', '/players/player-kitchen', { name: 'Cuisine' })).status).toBe(200);
    const [renamed] = await receiver.until(1, ofNamespace('groups'));
    expect(renamed!.headers).toMatchObject({
      'x-sonos-type': 'groups',
      'x-sonos-target-type': 'householdId',
      'x-sonos-target-value': DEMO_HOUSEHOLD_ID,
    });
    expect(JSON.parse(renamed!.body)).toEqual(
      (await controlCall(engine, app.accessToken, 'GET', `/households/${DEMO_HOUSEHOLD_ID}/groups`)).body,
    );

    // The office joins the kitchen's group: its own group is gone, and so is the subscription to it.
    expect(
      (
        await admin(engine, 'POST', '/groups', {
          playerIds: ['player-kitchen', 'player-office'],
          coordinatorId: 'player-kitchen',
        })
      ).status,
    ).toBe(200);
    await receiver.until(2, ofNamespace('groups'));
    const left = (await admin(engine, 'GET', `/integrations/${app.client.id}/subscriptions`))
      .body as EventSubscriptionView[];
    expect(left.map((s) => [s.namespace, s.targetValue])).toEqual([['groups', DEMO_HOUSEHOLD_ID]]);
  });
});

describe('across a restart on the same data dir', () => {
  it('keeps the subscriptions, the callback URL, the sequence ids and the signing secret', async () => {
    const dataDir = tempDir();
    receiver = await new EventReceiver().start();
    let bare: IntegrationView;
    try {
      engine = await startTestEngine({ dataDir, clockSpeed: 0 });
      app = await connectedIntegration(engine, receiver.url);
      bare = (
        await admin(engine, 'POST', '/integrations', {
          name: 'No callback yet',
          redirectUris: ['http://127.0.0.1:9/cb'],
        })
      ).body as IntegrationView;
      await subscribe('groupVolume');
      await setVolume(20);
      await receiver.until(1);
      await engine.close();

      engine = await startTestEngine({ dataDir, clockSpeed: 0 });
      const listed = (await admin(engine, 'GET', `/integrations/${app.client.id}/subscriptions`))
        .body as EventSubscriptionView[];
      expect(listed.map((s) => [s.namespace, s.targetValue, s.lastSeqId])).toEqual([
        ['groupVolume', 'group-kitchen', 1],
      ]);
      expect(
        ((await admin(engine, 'GET', `/integrations/${app.client.id}`)).body as IntegrationView).keys[0]!
          .eventCallbackUrl,
      ).toBe(receiver.url);
      // The token of the last run still works, and events go on being signed with the same secret.
      await setVolume(21);
      await receiver.until(2);
      expect(receiver.events.map((e) => [e.headers['x-sonos-event-seq-id'], e.body])).toEqual([
        ['1', '{"volume":20}'],
        ['2', '{"volume":21}'],
      ]);
      expect(receiver.events.every(signedBy(app))).toBe(true);

      // A key whose secret was issued before the restart cannot get a URL until it has a new secret.
      const keyId = bare.keys[0]!.id;
      const refused = await admin(engine, 'PATCH', `/integrations/${bare.id}/keys/${keyId}`, {
        eventCallbackUrl: receiver.url,
      });
      expect(refused.status).toBe(409);
      expect((refused.body as { error: { message: string } }).error.message).toContain('regenerate the secret');
      const issued = (await admin(engine, 'POST', `/integrations/${bare.id}/keys/${keyId}/secret`))
        .body as IssuedClientSecret;
      expect(
        (await admin(engine, 'PATCH', `/integrations/${bare.id}/keys/${keyId}`, { eventCallbackUrl: receiver.url }))
          .status,
      ).toBe(200);
      expect(issued.clientSecret).toBeTruthy();
    } finally {
      await engine.close();
      await receiver.close();
    }
  });
});
