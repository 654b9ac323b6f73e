/**
 * An integration's whole journey against the console: a small integration written
 * here from the public contract alone, with its own OAuth client (PKCE, Basic auth, refresh), its
 * own event receiver that checks every signature, and its own cloud queue server. It only knows
 * the console's hosts: the control API is called under `/control/api/v1`, as a real client that
 * lets you change the host only would. Nothing here imports the engine's own client helpers, so
 * a shape the console gets wrong on both sides still fails.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from './index.js';
import { admin, startTestEngine } from './testing/http.js';
import { FormBrowser } from './testing/oauth.js';

const TRACK_MILLIS = 120_000;

/** The integration's own cloud queue server: three tracks, reports kept. */
class TinyCloudQueue {
  readonly requests: {
    path: string;
    query: URLSearchParams;
    authorization: string | undefined;
    playerId: string | undefined;
  }[] = [];
  readonly reports: { type: string; id: string; positionMillis: number; positionMillisAtSegmentStart: number }[] = [];
  private readonly items = ['a', 'b', 'c'].map((id) => ({
    id,
    track: {
      name: `Track ${id}`,
      mediaUrl: `https://media.example/${id}.mp3`,
      contentType: 'audio/mpeg',
      durationMillis: TRACK_MILLIS,
      artist: { name: 'Tiny' },
      album: { name: 'Journey' },
    },
  }));

  constructor(readonly token: string) {}

  handle(request: IncomingMessage, body: string, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://x');
    const path = url.pathname.replace(/^\/v2\.3/, '');
    this.requests.push({
      path,
      query: url.searchParams,
      authorization: request.headers.authorization,
      playerId: request.headers['x-player-id'] as string | undefined,
    });
    if (request.headers.authorization !== `Bearer ${this.token}`) return send(response, 401, { error: 'who are you' });
    if (path === '/context') {
      return send(response, 200, {
        contextVersion: 'c1',
        queueVersion: 'q1',
        container: { name: 'Journey', type: 'playlist', id: 'journey' },
        reports: { sendUpdateAfterMillis: 5_000, periodicIntervalMillis: 10_000, sendPlaybackActions: true },
        playbackPolicies: { canSkip: true, canSkipBack: true, canSeek: true, canSkipToItem: true },
      });
    }
    if (path === '/version') return send(response, 200, { queueVersion: 'q1', contextVersion: 'c1' });
    if (path === '/itemWindow') {
      const at = Math.max(
        0,
        this.items.findIndex((item) => item.id === (url.searchParams.get('itemId') ?? 'a')),
      );
      const before = Number(url.searchParams.get('previousWindowSize') ?? 5);
      const after = Number(url.searchParams.get('upcomingWindowSize') ?? 10);
      const from = Math.max(0, at - before);
      const to = Math.min(this.items.length, at + after + 1);
      return send(response, 200, {
        includesBeginningOfQueue: from === 0,
        includesEndOfQueue: to === this.items.length,
        contextVersion: 'c1',
        queueVersion: 'q1',
        items: this.items.slice(from, to),
      });
    }
    if (path === '/timePlayed' && request.method === 'POST') {
      for (const item of (JSON.parse(body) as { items: TinyCloudQueue['reports'] }).items) this.reports.push(item);
      response.writeHead(204).end();
      return;
    }
    send(response, 404, { error: 'no such path' });
  }
}

interface ReceivedEvent {
  headers: Record<string, string>;
  body: Record<string, unknown>;
  signatureValid: boolean;
}

/** The integration's event receiver: checks the signature as docs/events.md says. */
class EventReceiver {
  readonly events: ReceivedEvent[] = [];
  /** Answers 500 to this many deliveries first (to watch the retries). */
  failNext = 0;
  credentials = { clientId: '', clientSecret: '' };

  handle(request: IncomingMessage, body: string, response: ServerResponse): void {
    if (this.failNext > 0) {
      this.failNext -= 1;
      response.writeHead(500).end();
      return;
    }
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
    this.events.push({
      headers,
      body: JSON.parse(body) as Record<string, unknown>,
      signatureValid: headers['x-sonos-event-signature'] === this.signatureOf(headers),
    });
    response.writeHead(200).end();
  }

  /** SHA-256 over the event headers, the client id and the secret, base64url without padding. */
  private signatureOf(h: Record<string, string>): string {
    const hash = createHash('sha256');
    for (const part of [
      h['x-sonos-event-seq-id'],
      h['x-sonos-namespace'],
      h['x-sonos-type'],
      h['x-sonos-target-type'],
      h['x-sonos-target-value'],
      this.credentials.clientId,
      this.credentials.clientSecret,
    ])
      hash.update(part ?? '');
    return hash.digest('base64url');
  }

  async until(what: string, found: (event: ReceivedEvent) => boolean, timeoutMs = 8_000): Promise<ReceivedEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const event = this.events.find(found);
      if (event) return event;
      if (Date.now() > deadline)
        throw new Error(
          `no event ${what}; received: ${JSON.stringify(this.events.map((e) => [e.headers['x-sonos-namespace'], e.body]))}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** One loopback server for the integration's three parts: OAuth callback, events, cloud queue. */
async function integrationServer(
  queue: TinyCloudQueue,
  receiver: EventReceiver,
): Promise<{ server: Server; base: string }> {
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      if (path.startsWith('/events')) receiver.handle(request, body, response);
      else if (path.startsWith('/queue/')) {
        request.url = path.slice('/queue'.length);
        queue.handle(request, body, response);
      } else send(response, 404, {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

describe('an integration written from the contract, end to end', () => {
  let engine: Engine;
  let server: Server;
  let base: string;
  const queue = new TinyCloudQueue(randomBytes(16).toString('hex'));
  const receiver = new EventReceiver();
  let control: string;
  let tokens: { access_token: string; refresh_token: string };
  const client = { clientId: '', clientSecret: '' };

  const call = async (
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }> => {
    const response = await fetch(`${control}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
  const token = async (form: Record<string, string>): Promise<{ status: number; body: Record<string, string> }> => {
    const response = await fetch(`${engine.urls.login}/login/v3/oauth/access`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded;charset=utf-8',
        authorization: basic(client.clientId, client.clientSecret),
      },
      body: new URLSearchParams(form).toString(),
    });
    return { status: response.status, body: (await response.json()) as Record<string, string> };
  };

  beforeAll(async () => {
    engine = await startTestEngine();
    ({ server, base } = await integrationServer(queue, receiver));
    // Only the host changes: the public service's control API base path is kept.
    control = `${engine.urls.control}/control/api/v1`;
  });
  afterAll(async () => {
    await engine?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  let householdId: string;
  let groupId: string;
  let sessionId: string;

  it('connects: registers, signs the user in with PKCE, and exchanges the code', async () => {
    const redirectUri = `${base}/oauth/callback`;
    const created = await admin(engine, 'POST', '/integrations', {
      name: 'Journey app',
      redirectUris: [redirectUri],
      eventCallbackUrl: `${base}/events`,
    });
    expect(created.status).toBe(200);
    Object.assign(client, created.body as typeof client);
    receiver.credentials = client;

    const verifier = randomBytes(32).toString('base64url');
    const state = randomBytes(8).toString('hex');
    const authorize = new URL(`${engine.urls.login}/login/v3/oauth`);
    for (const [k, v] of Object.entries({
      client_id: client.clientId,
      response_type: 'code',
      state,
      scope: 'playback-control-all',
      redirect_uri: redirectUri,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }))
      authorize.searchParams.set(k, v);

    // The user's browser walks the login and consent pages.
    const browser = new FormBrowser();
    const signIn = await browser.get(authorize.toString());
    const signedIn = await browser.submit(signIn, engine.urls.login, { username: 'demo', password: 'demo' });
    const consent = await browser.get(new URL(signedIn.location!, engine.urls.login).toString());
    const redirect = new URL((await browser.submit(consent, engine.urls.login, { decision: 'allow' })).location!);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(redirectUri);
    expect(redirect.searchParams.get('state')).toBe(state);

    const exchanged = await token({
      grant_type: 'authorization_code',
      code: redirect.searchParams.get('code')!,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.scope).toBe('playback-control-all');
    tokens = { access_token: exchanged.body.access_token!, refresh_token: exchanged.body.refresh_token! };
  });

  it('finds its household and group under /control/api/v1 and subscribes', async () => {
    const households = await call('GET', '/households');
    expect(households.status).toBe(200);
    householdId = (households.body.households as { id: string }[])[0]!.id;
    const groups = await call('GET', `/households/${householdId}/groups`);
    groupId = (groups.body.groups as { id: string; name: string }[]).find((g) => g.name === 'Living Room')!.id;

    for (const namespace of ['playback', 'playbackMetadata', 'groupVolume']) {
      expect((await call('POST', `/groups/${groupId}/${namespace}/subscription`)).status).toBe(200);
    }
    expect((await call('POST', `/households/${householdId}/groups/subscription`)).status).toBe(200);
  });

  it('creates a session and loads its own cloud queue; the player calls it with the integration\u2019s authorization', async () => {
    const session = await call('POST', `/groups/${groupId}/playbackSession`, {
      appId: 'com.example.journey',
      appContext: 'journey',
    });
    expect(session.status).toBe(200);
    sessionId = String(session.body.sessionId);

    const loaded = await call('POST', `/playbackSessions/${sessionId}/playbackSession/loadCloudQueue`, {
      queueBaseUrl: `${base}/queue/v2.3/`,
      httpAuthorization: `Bearer ${queue.token}`,
      itemId: 'a',
      playOnCompletion: true,
    });
    expect(loaded.status, JSON.stringify(loaded.body)).toBe(200);
    expect(queue.requests.map((r) => r.path).slice(0, 2)).toEqual(['/context', '/itemWindow']);
    expect(queue.requests.every((r) => r.authorization === `Bearer ${queue.token}` && r.playerId)).toBe(true);
    expect(queue.requests[1]!.query.get('reason')).toBe('load');

    const playing = await receiver.until(
      'PLAYING of a',
      (e) => e.headers['x-sonos-namespace'] === 'playback' && e.body.playbackState === 'PLAYBACK_STATE_PLAYING',
    );
    expect(playing.headers['x-sonos-household-id']).toBe(householdId);
    expect(playing.headers['x-sonos-target-value']).toBe(groupId);
  });

  it('seeks, skips, pauses and changes the volume; each change arrives as a signed event, in order', async () => {
    expect(
      (await call('POST', `/groups/${groupId}/playback/seek`, { positionMillis: 60_000, itemId: 'a' })).status,
    ).toBe(200);
    await receiver.until(
      'a seek to 60 s',
      (e) => e.headers['x-sonos-namespace'] === 'playback' && Number(e.body.positionMillis) >= 60_000,
    );

    expect((await call('POST', `/groups/${groupId}/playback/skipToNextTrack`)).status).toBe(200);
    await receiver.until('item b', (e) => e.headers['x-sonos-namespace'] === 'playback' && e.body.itemId === 'b');
    await receiver.until(
      'metadata of b',
      (e) =>
        e.headers['x-sonos-namespace'] === 'playbackMetadata' &&
        JSON.stringify(e.body.currentItem ?? {}).includes('"b"'),
    );

    expect((await call('POST', `/groups/${groupId}/playback/pause`)).status).toBe(200);
    await receiver.until(
      'PAUSED',
      (e) => e.headers['x-sonos-namespace'] === 'playback' && e.body.playbackState === 'PLAYBACK_STATE_PAUSED',
    );

    expect((await call('POST', `/groups/${groupId}/groupVolume`, { volume: 35 })).status).toBe(200);
    await receiver.until('volume 35', (e) => e.headers['x-sonos-namespace'] === 'groupVolume' && e.body.volume === 35);

    expect(receiver.events.every((e) => e.signatureValid)).toBe(true);
    // Sequence ids grow per subscription, in the order the events were received.
    const seqs = new Map<string, number[]>();
    for (const e of receiver.events) {
      const key = `${e.headers['x-sonos-namespace']}/${e.headers['x-sonos-target-value']}`;
      seqs.set(key, [...(seqs.get(key) ?? []), Number(e.headers['x-sonos-event-seq-id'])]);
    }
    for (const [key, list] of seqs) expect(list, key).toEqual([...list].sort((a, b) => a - b));
    // The playback events came in the order the commands were sent.
    const states = receiver.events
      .filter((e) => e.headers['x-sonos-namespace'] === 'playback')
      .map((e) => `${String(e.body.itemId)}:${String(e.body.playbackState)}`);
    expect(states.indexOf('b:PLAYBACK_STATE_PAUSED')).toBeGreaterThan(states.findIndex((s) => s.startsWith('b:')) - 1);
    expect(states.findIndex((s) => s.startsWith('b:'))).toBeGreaterThan(states.indexOf('a:PLAYBACK_STATE_PLAYING'));
  });

  it('sees its reports: a final one for the skipped track, with the seek as its segment start', async () => {
    const deadline = Date.now() + 8_000;
    while (!queue.reports.some((r) => r.id === 'a' && r.type === 'final') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const final = queue.reports.find((r) => r.id === 'a' && r.type === 'final');
    expect(final, JSON.stringify(queue.reports)).toBeDefined();
    expect(final!.positionMillisAtSegmentStart).toBe(60_000);
  });

  it('refreshes its token and goes on with the new one', async () => {
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.access_token).not.toBe(tokens.access_token);
    tokens = { access_token: refreshed.body.access_token!, refresh_token: refreshed.body.refresh_token! };
    const status = await call('GET', `/groups/${groupId}/playback`);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ playbackState: 'PLAYBACK_STATE_PAUSED', itemId: 'b' });
  });

  it('gets an event on the third try when its receiver answers 500 twice, every try in the traffic log', async () => {
    receiver.failNext = 2;
    const before = receiver.events.length;
    expect((await call('POST', `/groups/${groupId}/groupVolume`, { volume: 31 })).status).toBe(200);
    // Retries wait 2 s and 4 s on the engine clock; move it on rather than wait.
    await admin(engine, 'POST', '/clock', { advanceMs: 2_000 });
    await admin(engine, 'POST', '/clock', { advanceMs: 4_000 });
    const event = await receiver.until('volume 31', (e) => e.body.volume === 31);
    expect(receiver.events.indexOf(event)).toBeGreaterThanOrEqual(before);
    const traffic = (await admin(engine, 'GET', '/traffic?target=events&limit=500')).body as
      { entries?: { status: number | null }[] } | { status: number | null }[];
    const entries = Array.isArray(traffic) ? traffic : (traffic.entries ?? []);
    expect(entries.filter((e) => e.status === 500).length).toBeGreaterThanOrEqual(2);
    expect(entries.length).toBeGreaterThanOrEqual(receiver.events.length + 2);
  });
});
