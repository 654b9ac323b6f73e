/**
 * A client that only lets you set the host (docs/contract/console.md §3): pointed at the console,
 * it calls `/control/api/v1/…` as on the real service, with an access token of the login service,
 * against the console's own cloud queue server; households, sessions, loadCloudQueue and seek
 * work unchanged, and so does the console's own command bar (`control.send`) on that path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayerTransition } from '../api/player-types.js';
import type { QueueSummary } from '../api/queue-types.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';
import { LOOPBACK_REDIRECT, codeFor, createTestIntegration, tokenRequest } from '../testing/oauth.js';

let engine: Engine;
let accessToken: string;
let queue: QueueSummary;

beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
  const app = await createTestIntegration(engine, { name: 'Host-only client' });
  const tokens = await tokenRequest(engine, app, {
    grant_type: 'authorization_code',
    code: await codeFor(engine, app),
    redirect_uri: LOOPBACK_REDIRECT,
  });
  accessToken = tokens.body.access_token as string;
  const items = Array.from({ length: 3 }, (_, i) => ({
    track: { name: `Track ${i + 1}`, mediaUrl: `https://media.example/${i + 1}.mp3`, durationMillis: 120_000 },
  }));
  queue = (await admin(engine, 'POST', '/queues', { name: 'Three', items })).body as QueueSummary;
});
afterAll(() => engine.close());

/** As the client would call it: its base URL is the host it was given plus the real service's path. */
async function client(method: 'GET' | 'POST', path: string, body?: unknown) {
  const response = await fetch(`${engine.urls.control}/control/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${accessToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('a client that only changes the host', () => {
  it('lists households, creates a session, loads a cloud queue, seeks, and skips under /control/api/v1', async () => {
    const households = await client('GET', '/households');
    expect(households).toEqual({
      status: 200,
      body: { households: [{ id: 'household-demo', name: 'Demo Household' }] },
    });
    const groups = await client('GET', '/households/household-demo/groups');
    expect((groups.body.groups as { id: string }[]).map((g) => g.id)).toContain('group-kitchen');
    const session = await client('POST', '/groups/group-kitchen/playbackSession', {
      appId: 'com.example.host',
      appContext: 'c',
    });
    expect(session.body).toMatchObject({ sessionState: 'SESSION_STATE_CONNECTED', sessionCreated: true });
    const sessionId = session.body.sessionId as string;
    const load = await client('POST', `/playbackSessions/${sessionId}/playbackSession/loadCloudQueue`, {
      queueBaseUrl: queue.queueBaseUrl,
      httpAuthorization: queue.httpAuthorization,
      playOnCompletion: true,
    });
    expect(load).toEqual({ status: 200, body: {} });
    await admin(engine, 'POST', '/clock', { advanceMs: 5_000 });
    const playing = await client('GET', '/groups/group-kitchen/playback');
    expect(playing.body.playbackState).toBe('PLAYBACK_STATE_PLAYING');
    const itemId = playing.body.itemId as string;

    expect(await client('POST', '/groups/group-kitchen/playback/seek', { positionMillis: 60_000, itemId })).toEqual({
      status: 200,
      body: {},
    });
    expect((await client('GET', '/groups/group-kitchen/playback')).body.positionMillis).toBe(60_000);
    expect(
      await client('POST', `/playbackSessions/${sessionId}/playbackSession/seekRelative`, { deltaMillis: -15_000 }),
    ).toEqual({ status: 200, body: {} });
    expect((await client('GET', '/groups/group-kitchen/playback')).body.positionMillis).toBe(45_000);
    expect(await client('POST', '/groups/group-kitchen/playback/skipToNextTrack')).toEqual({ status: 200, body: {} });
    expect((await client('GET', '/groups/group-kitchen/playback')).body.itemId).not.toBe(itemId);
    // A call the API does not have says so; it does not claim the group is gone.
    expect(await client('POST', '/groups/group-kitchen/playback/shuffle')).toMatchObject({
      status: 404,
      body: { errorCode: 'ERROR_UNSUPPORTED_COMMAND' },
    });

    const transitions = (await admin(engine, 'GET', '/players/player-kitchen/transitions')).body as PlayerTransition[];
    expect(transitions.filter((t) => t.transition === 'seek-playhead').map((t) => t.cause)).toEqual([
      'command',
      'command',
    ]);
  });

  it('is what the console\u2019s own command bar may send too', async () => {
    const sent = await admin(engine, 'POST', '/control/send', { method: 'GET', path: '/control/api/v1/households' });
    expect(sent).toMatchObject({
      status: 200,
      body: {
        status: 200,
        url: `${engine.urls.control}/control/api/v1/households`,
        body: { households: [{ id: 'household-demo' }] },
      },
    });
    expect(
      (await admin(engine, 'POST', '/control/send', { method: 'GET', path: '/elsewhere/households' })).status,
    ).toBe(400);
  });
});
